import XCTest
@testable import RedlineDOCX
import RedlineCore
import RedlineTestSupport

/// The DOCX reader parses `comments.xml` as the body reaches each comment's anchor (`DOCXCommentStream`;
/// PERFORMANCE.md, "Comments"): the chunks and warnings must be those of reading every comment first.
final class DOCXCommentStreamTests: XCTestCase {
    private let ns = MinimalDOCX.w + " xmlns:w14=\"http://schemas.microsoft.com/office/word/2010/wordml\""
        + " xmlns:w15=\"http://schemas.microsoft.com/office/word/2012/wordml\""

    /// Random documents: comments out of anchor order, unanchored, replies (some before their root in the
    /// file, some replies to replies), resolved, anchored in other comments and in footnotes, ranges across
    /// paragraphs, duplicate ids, and warnings both in comment bodies and in the body.
    func testReadAlongsideTheBodyEqualsReadFirst() throws {
        var rng = SeededRandom(seed: SeededRandom.seed(default: 15))
        for round in 0..<40 {
            let bytes = try randomDocument(&rng, comments: 1 + Int(rng.next() % 40))
            let (lazy, lazyWarnings) = try read(bytes, whole: false)
            let (whole, wholeWarnings) = try read(bytes, whole: true)
            XCTAssertEqual(lazy, whole, "round \(round)")
            XCTAssertEqual(lazyWarnings, wholeWarnings, "round \(round)")
            XCTAssertEqual(lazy.flatMap(\.comments).count, whole.flatMap(\.comments).count)
        }
    }

    /// Comments anchored in file order are parsed as their anchors come: after the first chunk only the
    /// first few of 200 have been read (with every comment read first, all 200 would be).
    func testCommentsAreReadAsTheirAnchorsCome() throws {
        let n = 200
        var body = "", comments = ""
        for i in 0..<n {
            body += "<w:p><w:commentRangeStart w:id=\"\(i)\"/><w:r><w:t>s\(i)</w:t></w:r><w:commentRangeEnd w:id=\"\(i)\"/></w:p>"
            comments += "<w:comment w:id=\"\(i)\" w:author=\"A\"><w:p w14:paraId=\"\(String(format: "%08X", i + 1))\"><w:r><w:t>c\(i)</w:t></w:r></w:p></w:comment>"
        }
        let bytes = try MinimalDOCX.package(body: body, extraParts: [("word/comments.xml", "<w:comments \(ns)>\(comments)</w:comments>")])
        var source = try DOCXSource(.bytes(bytes), limits: Limits(), diagnostics: Diagnostics())
        let first = try XCTUnwrap(try source.next())
        XCTAssertEqual(first.comments.map(\.id), ["0"])
        XCTAssertLessThanOrEqual(source.commentsRead, 2)
        var all = first.comments
        while let c = try source.next() { all += c.comments }
        XCTAssertEqual(all.map(\.id), (0..<n).map(String.init))
        XCTAssertEqual(source.commentsRead, n)
    }

    private func read(_ bytes: [UInt8], whole: Bool) throws -> ([Chunk], [Diagnostic]) {
        let diagnostics = Diagnostics()
        var source = try DOCXSource(.bytes(bytes), limits: Limits(), diagnostics: diagnostics, commentsWhole: whole)
        var chunks: [Chunk] = []
        while let c = try source.next() { chunks.append(c) }
        return (chunks, diagnostics.all)
    }

    private func randomDocument(_ rng: inout SeededRandom, comments n: Int) throws -> [UInt8] {
        func pick(_ k: Int) -> Int { Int(rng.next() % UInt64(k)) }
        // Comment ids, some repeated; each comment's paragraph id; parents among earlier or later comments.
        let ids = (0..<n).map { i in pick(12) == 0 ? "7" : String(i * 3 + 1) }
        let paraIDs = (0..<n).map { String(format: "%08X", 0x100 + $0) }
        var parent = [Int?](repeating: nil, count: n)
        for i in 0..<n where pick(3) == 0 { let j = pick(n); if j != i { parent[i] = j } }
        // The body: paragraphs with anchors of a random subset, in random order; ranges may span paragraphs.
        let anchored = (0..<n).filter { _ in pick(5) != 0 }.shuffled(using: &rng)
        var body = "", open: [String] = []
        for (k, i) in anchored.enumerated() {
            var p = "<w:p>"
            if pick(6) == 0 { p += "<w:r><w:br w:type=\"page\"/></w:r>" }
            switch pick(3) {
            case 0: p += "<w:r><w:t>x\(k)</w:t></w:r><w:r><w:commentReference w:id=\"\(ids[i])\"/></w:r>"
            case 1: p += "<w:commentRangeStart w:id=\"\(ids[i])\"/><w:r><w:t>y\(k)</w:t></w:r>"; open.append(ids[i])
            default: p += "<w:commentRangeStart w:id=\"\(ids[i])\"/><w:r><w:t>z\(k)</w:t></w:r><w:commentRangeEnd w:id=\"\(ids[i])\"/>"
            }
            if !open.isEmpty, pick(2) == 0 { p += "<w:commentRangeEnd w:id=\"\(open.removeFirst())\"/>" }
            if pick(8) == 0 { p += "<w:r><w:footnoteReference w:id=\"1\"/></w:r>" }
            body += p + "</w:p>"
        }
        body += "<w:p>" + open.map { "<w:commentRangeEnd w:id=\"\($0)\"/>" }.joined() + "<w:r><w:t>end</w:t></w:r></w:p>"
        // The comments part: bodies with formatting, a page break (a warning), an anchor of another comment.
        var part = ""
        for i in 0..<n {
            var inner = "<w:r><w:rPr><w:b/></w:rPr><w:t>c\(i)</w:t></w:r>"
            if pick(5) == 0 { inner += "<w:r><w:br w:type=\"page\"/></w:r>" }
            if pick(6) == 0 { inner += "<w:r><w:commentReference w:id=\"\(ids[pick(n)])\"/></w:r>" }
            let second = pick(4) == 0 ? "<w:p w14:paraId=\"AAAA\(String(format: "%04X", i))\"><w:r><w:t>two</w:t></w:r></w:p>" : ""
            let last = second.isEmpty ? "<w:p w14:paraId=\"\(paraIDs[i])\">\(inner)</w:p>" : "<w:p>\(inner)</w:p>" + second
            let date = pick(2) == 0 ? " w:date=\"2024-05-0\(1 + pick(9))T10:00:00Z\"" : ""
            part += "<w:comment w:id=\"\(ids[i])\" w:author=\"R\(pick(3))\" w:initials=\"R\"\(date)>\(last)</w:comment>"
        }
        var extended = ""
        for i in 0..<n {
            let p = part.contains("AAAA\(String(format: "%04X", i))") ? "AAAA\(String(format: "%04X", i))" : paraIDs[i]
            let parentAttribute = parent[i].map { " w15:paraIdParent=\"\(paraIDs[$0])\"" } ?? ""
            extended += "<w15:commentEx w15:paraId=\"\(p)\"\(parentAttribute) w15:done=\"\(pick(3) == 0 ? 1 : 0)\"/>"
        }
        let notes = "<w:footnotes \(ns)><w:footnote w:id=\"1\"><w:p><w:r><w:t>note</w:t></w:r>"
            + "<w:r><w:commentReference w:id=\"\(ids[pick(n)])\"/></w:r></w:p></w:footnote></w:footnotes>"
        return try MinimalDOCX.package(body: body, extraParts: [
            ("word/comments.xml", "<w:comments \(ns)>\(part)</w:comments>"),
            ("word/commentsExtended.xml", "<w15:commentsEx \(ns)>\(extended)</w15:commentsEx>"),
            ("word/footnotes.xml", notes),
        ])
    }
}
