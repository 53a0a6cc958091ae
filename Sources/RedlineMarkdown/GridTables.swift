import RedlineCore

/// pandoc's grid tables: the Markdown form of a table whose cells hold several blocks or span rows and
/// columns (pandoc 3's row and column spans), which GFM's pipe tables cannot hold.
///
/// ```
/// +-------+-------+
/// | Head  | Right |
/// +=======+======:+
/// | two   | one   |
/// |       +-------+
/// | rows  | two   |
/// +-------+-------+
/// ```
///
/// The layout is read as docutils reads its grid tables: each cell is the rectangle of `+` corners, `-` and
/// `|` edges found from its top-left corner; the `=` line ends the header rows; colons in it (or in the first
/// line of a table without one) give the columns' alignments. Widths are display columns (`width(of:)`): a
/// wide character takes two, a combining mark none; the reader counts a CriticMarkup placeholder as the
/// width of the source text it stands for, so a cell's marks do not move its borders.
enum GridTables {
    /// One cell of a read table: where it sits on the grid, and its content's byte ranges, a range per line.
    struct Cell {
        var row, column, rowSpan, columnSpan: Int
        var lines: [Range<Int>]
    }

    /// A read table's layout.
    struct Layout {
        var rowCount = 0, columnCount = 0, headerRows = 0
        var alignments: [ColumnAlignment] = []
        /// Row by row, left to right.
        var cells: [Cell] = []
    }

    /// The display width of a scalar: 0 for combining marks and zero-width characters, 2 for East Asian wide
    /// and full-width characters (the common ranges), 1 otherwise.
    static func width(of s: Unicode.Scalar) -> Int {
        let v = s.value
        if v < 0x300 { return 1 }
        switch s.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        switch v {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
             0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
             0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }

    /// The display width of `s`.
    static func width<S: StringProtocol>(_ s: S) -> Int {
        var w = 0
        for u in s.unicodeScalars { w += width(of: u) }
        return w
    }

    // MARK: Reading

    /// A line as display columns: the structural character at each (`+ - = | :`, a space, or `x` for any other),
    /// and the byte offset of the character starting there (-1 inside a wide one).
    private struct Columns {
        var chars: [UInt8] = []
        var byteAt: [Int] = []
    }

    private static func columns(_ text: [UInt8], _ line: Range<Int>, placeholderWidth: (Placeholder.Kind, Int) -> Int) -> Columns {
        var out = Columns()
        out.chars.reserveCapacity(line.count)
        out.byteAt.reserveCapacity(line.count)
        var k = line.lowerBound
        while k < line.upperBound {
            let b = text[k]
            if b < 0x80 {
                switch b {
                case UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "="), UInt8(ascii: "|"), UInt8(ascii: ":"), UInt8(ascii: " "):
                    out.chars.append(b)
                default:
                    out.chars.append(UInt8(ascii: "x"))
                }
                out.byteAt.append(k)
                k += 1
                continue
            }
            if let (kind, index) = Placeholder.decode(text, at: k, end: line.upperBound) {
                let w = placeholderWidth(kind, index)
                for n in 0..<w {
                    out.chars.append(UInt8(ascii: "x"))
                    out.byteAt.append(n == 0 ? k : -1)
                }
                k += Placeholder.byteCount
                continue
            }
            var length = 1
            if b >= 0xF0 { length = 4 } else if b >= 0xE0 { length = 3 } else if b >= 0xC0 { length = 2 }
            length = min(length, line.upperBound - k)
            let scalar = String(decoding: text[k..<(k + length)], as: UTF8.self).unicodeScalars.first ?? "x"
            let w = width(of: scalar)
            for n in 0..<w {
                out.chars.append(UInt8(ascii: "x"))
                out.byteAt.append(n == 0 ? k : -1)
            }
            k += length
        }
        while out.chars.last == UInt8(ascii: " ") {
            out.chars.removeLast()
            out.byteAt.removeLast()
        }
        return out
    }

    /// Whether `line` (its first bytes) can start a grid table: `+-`, `+=` or `+:`.
    static func startsTable(_ line: ArraySlice<UInt8>) -> Bool {
        guard line.count >= 3, line.first == UInt8(ascii: "+") else { return false }
        let next = line[line.startIndex + 1]
        return next == UInt8(ascii: "-") || next == UInt8(ascii: ":") || next == UInt8(ascii: "=")
    }

    /// The layout of the grid table made of `lines` (ranges of `text`), or nil when they are not one: every line
    /// the same width, the first and last lines borders, the cells tiling the rectangle. Linear in the text:
    /// a layout whose corner scans would take longer is no table.
    static func read(_ text: [UInt8], lines: [Range<Int>], placeholderWidth: (Placeholder.Kind, Int) -> Int) -> Layout? {
        guard lines.count >= 3 else { return nil }
        var grid = lines.map { columns(text, $0, placeholderWidth: placeholderWidth) }
        let width = grid[0].chars.count
        // (At least one line of cells: a paragraph of `+---+` lines alone is text, and the writer escapes a text
        // line's leading `|`, so no paragraph reads as a table.)
        guard width >= 3, grid.allSatisfy({ $0.chars.count == width }),
              grid.contains(where: { $0.chars.first == UInt8(ascii: "|") }) else { return nil }
        let bottom = grid.count - 1, right = width - 1
        func isBorder(_ chars: [UInt8], allowing extra: UInt8) -> Bool {
            chars.first == UInt8(ascii: "+") && chars.last == UInt8(ascii: "+")
                && chars.allSatisfy { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ":") || $0 == extra }
        }
        // (The last line is the `=` line of a table of header rows only.)
        guard isBorder(grid[0].chars, allowing: UInt8(ascii: "-")),
              isBorder(grid[bottom].chars, allowing: UInt8(ascii: "-")) || isBorder(grid[bottom].chars, allowing: UInt8(ascii: "="))
        else { return nil }
        // The header line: the first full-width line of `=`.
        var headerLine: Int?
        for k in 1...bottom where grid[k].chars.first == UInt8(ascii: "+") && grid[k].chars.contains(UInt8(ascii: "=")) {
            guard isBorder(grid[k].chars, allowing: UInt8(ascii: "=")) else { return nil }
            headerLine = k
            break
        }
        // Alignments by the column a segment starts at; then the colons (and `=`) are edges like `-`.
        let alignmentLine = headerLine ?? 0
        var alignmentAt: [Int: ColumnAlignment] = [:]
        do {
            let chars = grid[alignmentLine].chars
            var start = 0
            for x in 1..<width where chars[x] == UInt8(ascii: "+") {
                let l = chars[start + 1] == UInt8(ascii: ":"), r = chars[x - 1] == UInt8(ascii: ":")
                alignmentAt[start] = l && r ? .center : l ? .left : r ? .right : ColumnAlignment.none
                start = x
            }
        }
        for k in [0, alignmentLine, bottom] {
            for x in 0..<width where grid[k].chars[x] == UInt8(ascii: ":") || grid[k].chars[x] == UInt8(ascii: "=") {
                grid[k].chars[x] = UInt8(ascii: "-")
            }
        }
        // docutils' scan: from each top-left corner, right along the top edge to a corner, down the right edge,
        // left along the bottom edge, up the left edge.
        var budget = 64 * grid.count * width + 1024
        func at(_ y: Int, _ x: Int) -> UInt8 { grid[y].chars[x] }
        func scanCell(_ top: Int, _ left: Int) -> (bottom: Int, right: Int)? {
            var x = left + 1
            while x <= right {
                budget -= 1
                if budget < 0 { return nil }
                let c = at(top, x)
                if c == UInt8(ascii: "+") {
                    if let b = scanDown(top, left, x) { return (b, x) }
                } else if c != UInt8(ascii: "-") {
                    return nil
                }
                x += 1
            }
            return nil
        }
        func scanDown(_ top: Int, _ left: Int, _ r: Int) -> Int? {
            var y = top + 1
            while y <= bottom {
                budget -= 1
                if budget < 0 { return nil }
                let c = at(y, r)
                if c == UInt8(ascii: "+") {
                    if scanLeft(top, left, y, r) { return y }
                } else if c != UInt8(ascii: "|") {
                    return nil
                }
                y += 1
            }
            return nil
        }
        func scanLeft(_ top: Int, _ left: Int, _ b: Int, _ r: Int) -> Bool {
            var x = r - 1
            while x > left {
                budget -= 1
                let c = at(b, x)
                if c != UInt8(ascii: "+") && c != UInt8(ascii: "-") { return false }
                x -= 1
            }
            guard at(b, left) == UInt8(ascii: "+") else { return false }
            var y = b - 1
            while y > top {
                budget -= 1
                let c = at(y, left)
                if c != UInt8(ascii: "+") && c != UInt8(ascii: "|") { return false }
                y -= 1
            }
            return budget >= 0
        }
        var done = [Int](repeating: -1, count: width)   // per column: the bottom line of the last cell found there, less one
        var found: [(top: Int, left: Int, bottom: Int, right: Int)] = []
        var corners = CornerHeap()
        corners.push(0, 0, width: width)
        while let (top, left) = corners.pop(width: width) {
            // (A corner met again is skipped here too: the cell it began already moved `done` past it.)
            if top == bottom || left == right || top <= done[left] { continue }
            guard at(top, left) == UInt8(ascii: "+"), let (b, r) = scanCell(top, left) else { return nil }
            for x in left..<r {
                guard done[x] == top - 1 else { return nil }
                done[x] = b - 1
            }
            found.append((top, left, b, r))
            corners.push(top, r, width: width)
            corners.push(b, left, width: width)
            if budget < 0 { return nil }
        }
        guard done[0..<right].allSatisfy({ $0 == bottom - 1 }) else { return nil }
        // Rows and columns: the distinct edges.
        let ys = Array(Set(found.flatMap { [$0.top, $0.bottom] })).sorted()
        let xs = Array(Set(found.flatMap { [$0.left, $0.right] })).sorted()
        var rowOf: [Int: Int] = [:], columnOf: [Int: Int] = [:]
        for (k, y) in ys.enumerated() { rowOf[y] = k }
        for (k, x) in xs.enumerated() { columnOf[x] = k }
        var layout = Layout()
        layout.rowCount = ys.count - 1
        layout.columnCount = xs.count - 1
        guard layout.rowCount >= 1, layout.columnCount >= 1, layout.columnCount <= Limits.maxTableColumns else { return nil }
        if let h = headerLine {
            guard let r = rowOf[h] else { return nil }
            layout.headerRows = r
        }
        layout.alignments = xs.dropLast().map { alignmentAt[$0] ?? .none }
        found.sort { ($0.top, $0.left) < ($1.top, $1.left) }
        for f in found {
            var cell = Cell(row: rowOf[f.top]!, column: columnOf[f.left]!, rowSpan: rowOf[f.bottom]! - rowOf[f.top]!,
                            columnSpan: columnOf[f.right]! - columnOf[f.left]!, lines: [])
            for y in (f.top + 1)..<f.bottom {
                let from = grid[y].byteAt[f.left + 1], to = grid[y].byteAt[f.right]
                guard from >= 0, to >= from else { return nil }
                cell.lines.append(from..<to)
            }
            layout.cells.append(cell)
        }
        return layout
    }

    /// `read` over the CriticMarkup pass's output, a placeholder as wide as the source it stands for.
    static func read(_ text: [UInt8], lines: [Range<Int>], context: CriticContext) -> Layout? {
        read(text, lines: lines, placeholderWidth: { width(context.original($0, $1)) })
    }

    /// A cell's content as Markdown: its lines without trailing spaces and without the indent they share.
    static func content(_ text: [UInt8], _ cell: Cell) -> [UInt8] {
        var lines: [ArraySlice<UInt8>] = cell.lines.map { r in
            var l = text[r]
            while l.last == UInt8(ascii: " ") { l = l.dropLast() }
            return l
        }
        let indent = lines.filter { !$0.isEmpty }.map { l in l.prefix { $0 == UInt8(ascii: " ") }.count }.min() ?? 0
        for k in lines.indices where !lines[k].isEmpty { lines[k] = lines[k].dropFirst(indent) }
        var out: [UInt8] = []
        for (k, l) in lines.enumerated() {
            if k > 0 { out.append(UInt8(ascii: "\n")) }
            out += l
        }
        return out
    }

    /// Corners to scan, top-most (then left-most) first.
    private struct CornerHeap {
        private var keys: [Int] = []
        mutating func push(_ y: Int, _ x: Int, width: Int) {
            keys.append(y * width + x)
            var k = keys.count - 1
            while k > 0 {
                let parent = (k - 1) / 2
                guard keys[parent] > keys[k] else { break }
                keys.swapAt(parent, k)
                k = parent
            }
        }
        mutating func pop(width: Int) -> (Int, Int)? {
            guard let first = keys.first else { return nil }
            let last = keys.removeLast()
            if !keys.isEmpty {
                keys[0] = last
                var k = 0
                while true {
                    let l = 2 * k + 1, r = l + 1
                    var m = k
                    if l < keys.count, keys[l] < keys[m] { m = l }
                    if r < keys.count, keys[r] < keys[m] { m = r }
                    if m == k { break }
                    keys.swapAt(m, k)
                    k = m
                }
            }
            return (first / width, first % width)
        }
    }

    // MARK: Writing

    /// A cell to lay out: its place on the grid and its content's lines.
    struct Placed {
        var row, column, rowSpan, columnSpan: Int
        var lines: [String]
    }

    /// The table's lines: `cells` tile a grid of `rows` × `alignments.count` (the caller fills gaps with empty
    /// cells); the `=` line follows the first `headerRows` rows (none for 0); colons give the alignments.
    /// `stagger` gives each cell lines of its own, in its first row, below the cells before it in that row: no
    /// line then holds two cells' text, so a CriticMarkup change spanning a cell's lines encloses, in the
    /// source, no other cell's marks.
    static func write(_ cells: [Placed], rows: Int, headerRows: Int, alignments: [ColumnAlignment], stagger: Bool = false) -> [String] {
        let columns = alignments.count
        var widths = [Int](repeating: 3, count: columns), heights = [Int](repeating: 1, count: rows)
        let lineWidths = cells.map { c in c.lines.map { width($0) }.max() ?? 0 }
        var offsets = [Int](repeating: 0, count: cells.count)
        if stagger {
            var used = [Int](repeating: 0, count: rows)
            for (k, c) in cells.enumerated().sorted(by: { ($0.element.row, $0.element.column) < ($1.element.row, $1.element.column) }) {
                offsets[k] = used[c.row]
                used[c.row] += c.lines.count
            }
            for r in 0..<rows { heights[r] = max(1, used[r]) }
        }
        // Single cells first, then spanning ones widen their last column (row) when they need more.
        let order = cells.indices.sorted { (cells[$0].columnSpan, cells[$0].rowSpan) < (cells[$1].columnSpan, cells[$1].rowSpan) }
        for k in order {
            let c = cells[k]
            let across = widths[c.column..<(c.column + c.columnSpan)].reduce(0, +) + 3 * (c.columnSpan - 1)
            if lineWidths[k] > across { widths[c.column + c.columnSpan - 1] += lineWidths[k] - across }
            let down = heights[c.row..<(c.row + c.rowSpan)].reduce(0, +) + (c.rowSpan - 1)
            if offsets[k] + c.lines.count > down { heights[c.row + c.rowSpan - 1] += offsets[k] + c.lines.count - down }
        }
        var xs = [0], ys = [0]
        for w in widths { xs.append(xs.last! + w + 3) }
        for h in heights { ys.append(ys.last! + h + 1) }
        let totalWidth = xs.last! + 1
        var canvas = [[UInt8]](repeating: [UInt8](repeating: UInt8(ascii: " "), count: totalWidth), count: ys.last! + 1)
        let headerY = headerRows > 0 ? ys[headerRows] : -1
        for c in cells {
            let x0 = xs[c.column], x1 = xs[c.column + c.columnSpan], y0 = ys[c.row], y1 = ys[c.row + c.rowSpan]
            for y in [y0, y1] {
                let edge = y == headerY ? UInt8(ascii: "=") : UInt8(ascii: "-")
                for x in (x0 + 1)..<x1 where canvas[y][x] != UInt8(ascii: "+") { canvas[y][x] = edge }
            }
            for y in (y0 + 1)..<y1 {
                canvas[y][x0] = UInt8(ascii: "|")
                canvas[y][x1] = UInt8(ascii: "|")
            }
        }
        for c in cells {
            let x0 = xs[c.column], x1 = xs[c.column + c.columnSpan], y0 = ys[c.row], y1 = ys[c.row + c.rowSpan]
            for (y, x) in [(y0, x0), (y0, x1), (y1, x0), (y1, x1)] { canvas[y][x] = UInt8(ascii: "+") }
        }
        // Colons where a column's own segment of the alignment line is bounded by corners.
        let alignY = headerRows > 0 ? headerY : 0
        for (k, a) in alignments.enumerated() where a != .none {
            let x0 = xs[k], x1 = xs[k + 1]
            guard canvas[alignY][x0] == UInt8(ascii: "+"), canvas[alignY][x1] == UInt8(ascii: "+") else { continue }
            if a == .left || a == .center { canvas[alignY][x0 + 1] = UInt8(ascii: ":") }
            if a == .right || a == .center { canvas[alignY][x1 - 1] = UInt8(ascii: ":") }
        }
        // Each line: the canvas, with the cells' text over their interiors.
        var overlays = [[(x: Int, end: Int, text: String)]](repeating: [], count: canvas.count)
        for (k, c) in cells.enumerated() {
            let x0 = xs[c.column], x1 = xs[c.column + c.columnSpan], y0 = ys[c.row]
            for (n, line) in c.lines.enumerated() where !line.isEmpty {
                let pad = (x1 - x0 - 2) - width(line)
                overlays[y0 + 1 + offsets[k] + n].append((x0 + 1, x1, " " + line + String(repeating: " ", count: max(0, pad))))
            }
        }
        var out: [String] = []
        out.reserveCapacity(canvas.count)
        for (y, row) in canvas.enumerated() {
            var line = ""
            var x = 0
            for o in overlays[y].sorted(by: { $0.x < $1.x }) {
                line += String(decoding: row[x..<o.x], as: UTF8.self)
                line += o.text
                x = o.end
            }
            line += String(decoding: row[x...], as: UTF8.self)
            while line.hasSuffix(" ") { line.removeLast() }
            out.append(line)
        }
        return out
    }
}
