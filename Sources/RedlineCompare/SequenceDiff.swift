/// Longest-common-subsequence matching of two integer sequences with bounded work.
///
/// `matches` strips the common prefix and suffix, runs Myers' O((N+M)·D) algorithm while the edit distance
/// stays under a cap, and past the cap splits the problem at patience anchors (elements unique in both
/// sides, kept in increasing order by a longest increasing subsequence) and recurses; a range with no anchor
/// is left unmatched (a replacement). Every result is a valid common subsequence, so a diff built from it is
/// exact; only its minimality is given up on hostile inputs. Work is O((N+M)·cap) per level.
enum SequenceDiff {
    /// The largest edit distance Myers explores before falling back to anchors.
    static let defaultCap = 1024

    /// Pairs (i, j) with a[i] == b[j], increasing in both, forming a common subsequence.
    static func matches(_ a: [Int], _ b: [Int], cap: Int = defaultCap) -> [(Int, Int)] {
        var out: [(Int, Int)] = []
        out.reserveCapacity(min(a.count, b.count))
        a.withUnsafeBufferPointer { pa in
            b.withUnsafeBufferPointer { pb in
                solve(pa, 0, a.count, pb, 0, b.count, cap: cap, into: &out)
            }
        }
        return out
    }

    private static func solve(_ a: UnsafeBufferPointer<Int>, _ a0: Int, _ a1: Int,
                              _ b: UnsafeBufferPointer<Int>, _ b0: Int, _ b1: Int,
                              cap: Int, into out: inout [(Int, Int)]) {
        var a0 = a0, b0 = b0, a1 = a1, b1 = b1
        while a0 < a1 && b0 < b1 && a[a0] == b[b0] { out.append((a0, b0)); a0 += 1; b0 += 1 }
        var suffix = 0
        while a1 > a0 && b1 > b0 && a[a1 - 1] == b[b1 - 1] { a1 -= 1; b1 -= 1; suffix += 1 }
        defer { for k in 0..<suffix { out.append((a1 + k, b1 + k)) } }
        if a0 == a1 || b0 == b1 { return }
        // Myers costs about D² here: past an eighth of the range's length, anchors do better.
        let localCap = min(cap, 32 + ((a1 - a0) + (b1 - b0)) / 8)
        if let script = myers(a, a0, a1, b, b0, b1, cap: localCap) {
            out += script
            return
        }
        // Too different for Myers within the cap: split at unique common elements, else at unique common
        // runs of `k` elements (a long paragraph over a small vocabulary has no unique word, but has unique
        // word sequences), else, for a large range, halfway through both sides.
        var anchors = patienceAnchors(a, a0, a1, b, b0, b1)
        var width = 1
        if anchors.isEmpty {
            // The width that anchors most of the range: short runs survive dense edits, long ones a small
            // vocabulary.
            for k in [8, 32] where k * 4 <= min(a1 - a0, b1 - b0) {
                let found = runAnchors(a, a0, a1, b, b0, b1, width: k)
                if found.count * k > anchors.count * width { anchors = found; width = k }
            }
        }
        if anchors.isEmpty {
            // No anchor at all (one word repeated; a text repeating itself): a replacement, unless the range
            // is large and its two sides are made of the same elements, where halving keeps each half's
            // changes local (still exact: every pair is a match). Unrelated sides stay one replacement.
            let n = a1 - a0, m = b1 - b0
            guard n + m > 16 * cap, n > 1, m > 1, sharesMostValues(a, a0, a1, b, b0, b1) else { return }
            solve(a, a0, a0 + n / 2, b, b0, b0 + m / 2, cap: cap, into: &out)
            solve(a, a0 + n / 2, a1, b, b0 + m / 2, b1, cap: cap, into: &out)
            return
        }
        var pa = a0, pb = b0
        for (i, j) in anchors {
            solve(a, pa, i, b, pb, j, cap: cap, into: &out)
            for t in 0..<width { out.append((i + t, j + t)) }
            pa = i + width; pb = j + width
        }
        solve(a, pa, a1, b, pb, b1, cap: cap, into: &out)
    }

    /// Whether at least half of the distinct values of `b`'s range occur in `a`'s.
    static func sharesMostValues(_ a: UnsafeBufferPointer<Int>, _ a0: Int, _ a1: Int,
                                 _ b: UnsafeBufferPointer<Int>, _ b0: Int, _ b1: Int) -> Bool {
        let inA = Set(a[a0..<a1])
        let inB = Set(b[b0..<b1])
        return inB.filter(inA.contains).count * 2 >= inB.count
    }

    /// Runs of `width` elements that occur exactly once in each range and are equal, as (i, j) starts on a
    /// longest increasing run of j, none overlapping the one before.
    static func runAnchors(_ a: UnsafeBufferPointer<Int>, _ a0: Int, _ a1: Int,
                           _ b: UnsafeBufferPointer<Int>, _ b0: Int, _ b1: Int, width: Int) -> [(Int, Int)] {
        // A polynomial hash of each window, rolled along (wrapping arithmetic; equal windows are checked).
        func hashes(_ s: UnsafeBufferPointer<Int>, _ s0: Int, _ s1: Int) -> [Int] {
            let base = 1_000_003
            var top = 1
            for _ in 1..<width { top = top &* base }
            var h = 0
            var out: [Int] = []
            out.reserveCapacity(s1 - s0 - width + 1)
            for i in s0..<s1 {
                if i - s0 >= width { h = h &- s[i - width] &* top }
                h = h &* base &+ s[i]
                if i - s0 >= width - 1 { out.append(h) }
            }
            return out
        }
        let ha = hashes(a, a0, a1), hb = hashes(b, b0, b1)
        var countA: [Int: (Int, Int)] = [:]
        countA.reserveCapacity(ha.count)
        for (i, h) in ha.enumerated() {
            if let e = countA[h] { countA[h] = (e.0 + 1, e.1) } else { countA[h] = (1, a0 + i) }
        }
        var countB: [Int: (Int, Int)] = [:]
        for (j, h) in hb.enumerated() where countA[h]?.0 == 1 {
            if let e = countB[h] { countB[h] = (e.0 + 1, e.1) } else { countB[h] = (1, b0 + j) }
        }
        var candidates: [(Int, Int)] = []
        for (i, h) in ha.enumerated() {
            guard countA[h]?.0 == 1, let e = countB[h], e.0 == 1 else { continue }
            let ai = a0 + i, bj = e.1
            if (0..<width).allSatisfy({ a[ai + $0] == b[bj + $0] }) { candidates.append((ai, bj)) }
        }
        var out: [(Int, Int)] = []
        for (i, j) in longestIncreasing(candidates) {
            if let last = out.last, i < last.0 + width || j < last.1 + width { continue }
            out.append((i, j))
        }
        return out
    }

    /// Myers' greedy forward algorithm; nil when the edit distance exceeds `cap`.
    private static func myers(_ a: UnsafeBufferPointer<Int>, _ a0: Int, _ a1: Int,
                              _ b: UnsafeBufferPointer<Int>, _ b0: Int, _ b1: Int, cap: Int) -> [(Int, Int)]? {
        let n = a1 - a0, m = b1 - b0
        let maxD = min(n + m, cap)
        let offset = maxD + 1
        var v = [Int](repeating: 0, count: 2 * maxD + 3)
        var trace: [[Int]] = []
        var found = -1
        outer: for d in 0...maxD {
            for k in stride(from: -d, through: d, by: 2) {
                var x: Int
                if k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]) {
                    x = v[offset + k + 1]
                } else {
                    x = v[offset + k - 1] + 1
                }
                var y = x - k
                while x < n && y < m && a[a0 + x] == b[b0 + y] { x += 1; y += 1 }
                v[offset + k] = x
                if x >= n && y >= m {
                    trace.append(Array(v[(offset - d)...(offset + d)]))
                    found = d
                    break outer
                }
            }
            trace.append(Array(v[(offset - d)...(offset + d)]))
        }
        guard found >= 0 else { return nil }
        // Backtrack through the saved frontiers (trace[d] holds V for k in -d...d at index k + d).
        var pairs: [(Int, Int)] = []
        var x = n, y = m
        var d = found
        while d > 0 {
            let k = x - y
            let prev = trace[d - 1]
            let prevK = (k == -d || (k != d && prev[k - 1 + d - 1] < prev[k + 1 + d - 1])) ? k + 1 : k - 1
            let prevX = prev[prevK + d - 1]
            let prevY = prevX - prevK
            let midX = prevK == k + 1 ? prevX : prevX + 1
            let midY = midX - k
            while x > midX && y > midY { x -= 1; y -= 1; pairs.append((a0 + x, b0 + y)) }
            x = prevX; y = prevY
            d -= 1
        }
        while x > 0 && y > 0 { x -= 1; y -= 1; pairs.append((a0 + x, b0 + y)) }
        pairs.reverse()
        return pairs
    }

    /// Elements that occur exactly once in each range, as (i, j) pairs on a longest increasing run of j.
    static func patienceAnchors(_ a: UnsafeBufferPointer<Int>, _ a0: Int, _ a1: Int,
                                _ b: UnsafeBufferPointer<Int>, _ b0: Int, _ b1: Int) -> [(Int, Int)] {
        var countA: [Int: (Int, Int)] = [:]   // value → (count, index)
        countA.reserveCapacity(a1 - a0)
        for i in a0..<a1 {
            if let e = countA[a[i]] { countA[a[i]] = (e.0 + 1, e.1) } else { countA[a[i]] = (1, i) }
        }
        var countB: [Int: (Int, Int)] = [:]
        countB.reserveCapacity(b1 - b0)
        for j in b0..<b1 where countA[b[j]]?.0 == 1 {
            if let e = countB[b[j]] { countB[b[j]] = (e.0 + 1, e.1) } else { countB[b[j]] = (1, j) }
        }
        var candidates: [(Int, Int)] = []
        for i in a0..<a1 {
            if countA[a[i]]?.0 == 1, let e = countB[a[i]], e.0 == 1 { candidates.append((i, e.1)) }
        }
        return longestIncreasing(candidates)
    }

    /// The longest subsequence of `pairs` (increasing in .0) that is also increasing in .1.
    static func longestIncreasing(_ pairs: [(Int, Int)]) -> [(Int, Int)] {
        if pairs.isEmpty { return [] }
        var tails: [Int] = []          // index into pairs of the smallest tail of each length
        var back = [Int](repeating: -1, count: pairs.count)
        for (idx, p) in pairs.enumerated() {
            var lo = 0, hi = tails.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if pairs[tails[mid]].1 < p.1 { lo = mid + 1 } else { hi = mid }
            }
            if lo > 0 { back[idx] = tails[lo - 1] }
            if lo == tails.count { tails.append(idx) } else { tails[lo] = idx }
        }
        var out: [(Int, Int)] = []
        var k = tails.last!
        while k >= 0 { out.append(pairs[k]); k = back[k] }
        return out.reversed()
    }
}
