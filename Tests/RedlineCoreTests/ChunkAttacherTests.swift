import XCTest
@testable import RedlineCore

/// `ChunkAttacher`: the one rule for which chunk carries a comment thread or a note.
final class ChunkAttacherTests: XCTestCase {
    private func para(_ inlines: Inline...) -> Block { .paragraph(Paragraph(inlines)) }
    private func comment(_ id: String, parent: String? = nil, body: [Block] = []) -> Comment {
        Comment(id: id, body: body, parentID: parent)
    }
    private func ids(_ c: Chunk) -> (comments: [String], notes: [String]) {
        (c.comments.map(\.id), c.notes.map(\.id))
    }

    func testEachTravelsWithTheFirstBlockThatReferencesIt() {
        var a = ChunkAttacher(comments: [comment("c1"), comment("c2")], notes: [Note(id: "n1", blocks: [])])
        let first = a.chunk(for: para(.text("x"), .commentEnd("c2")))
        let second = a.chunk(for: para(.commentStart("c1"), .noteReference("n1"), .commentPoint("c2")))
        XCTAssertEqual(ids(first).comments, ["c2"], "an end anchor counts as a reference")
        XCTAssertEqual(ids(second).comments, ["c1"])
        XCTAssertEqual(ids(second).notes, ["n1"])
        XCTAssertTrue(a.isEmpty)
        let third = a.chunk(for: para(.commentStart("c1"), .noteReference("n1")))
        XCTAssertTrue(third.comments.isEmpty && third.notes.isEmpty, "a reference to what was attached attaches nothing")
    }

    func testReadingOrderAcrossNestedBlocks() {
        var a = ChunkAttacher(comments: [comment("c1"), comment("c2")], notes: [])
        let table = Block.table(Table(columns: [.none, .none], headerRowCount: 0, rows: [TableRow([
            TableCell([para(.commentPoint("c2"))]), TableCell([para(.commentPoint("c1"))]),
        ])]))
        XCTAssertEqual(ids(a.chunk(for: .blockQuote([table]))).comments, ["c2", "c1"])
    }

    func testThreadsTravelWholeRootsFirst() {
        var a = ChunkAttacher()
        a.add(comment("r1", parent: "c1"))
        a.add(comment("c1"))
        a.add(comment("r2", parent: "c1"))
        a.add(comment("orphan", parent: "missing"))
        let reply = a.chunk(for: para(.commentPoint("r1")))
        XCTAssertTrue(reply.comments.isEmpty, "an anchor naming a reply takes nothing")
        XCTAssertEqual(ids(a.chunk(for: para(.commentStart("c1")))).comments, ["c1", "r1", "r2"])
        XCTAssertEqual(a.takeUnreferenced().comments.map(\.id), ["orphan"])
    }

    func testAnchorsInsideNotesTravelWithTheNoteDepthFirst() {
        let inner = Note(id: "inner", blocks: [para(.commentPoint("cn"))])
        let outer = Note(id: "outer", blocks: [para(.noteReference("inner"))])
        var a = ChunkAttacher(comments: [comment("cn"), comment("c1")],
                              notes: [inner, Note(id: "later", blocks: []), outer])
        let c = a.chunk(for: para(.noteReference("outer"), .commentPoint("c1"), .noteReference("later")))
        XCTAssertEqual(ids(c).notes, ["outer", "inner", "later"], "a note, what it references, then the rest")
        XCTAssertEqual(ids(c).comments, ["cn", "c1"], "a comment anchored in a note comes where the note is")
        XCTAssertTrue(a.isEmpty)
    }

    func testAnchorsInsideCommentBodiesTravelWithTheComment() {
        let body = [para(.text("see"), .noteReference("n1"), .commentPoint("inner"))]
        var a = ChunkAttacher(comments: [comment("inner"), comment("c1", body: body), comment("c2")],
                              notes: [Note(id: "n1", blocks: [])])
        let c = a.chunk(for: para(.commentPoint("c1"), .commentPoint("c2")))
        XCTAssertEqual(ids(c).comments, ["c1", "inner", "c2"])
        XCTAssertEqual(ids(c).notes, ["n1"])
    }

    func testSelfReferencesEndAndNothingIsDropped() {
        let loop = Note(id: "n", blocks: [para(.noteReference("n"))])
        var a = ChunkAttacher(comments: [comment("c", body: [para(.commentPoint("c"))])],
                              notes: [loop, Note(id: "n", blocks: [para(.text("second"))])])
        let c = a.chunk(for: para(.noteReference("n"), .commentPoint("c")))
        XCTAssertEqual(ids(c).notes, ["n", "n"], "notes sharing an id travel together")
        XCTAssertEqual(ids(c).comments, ["c"])
    }

    func testUnreferencedInTheOrderAdded() {
        var a = ChunkAttacher()
        a.add(Note(id: "n2", blocks: []))
        a.add(comment("c2"))
        a.add(Note(id: "n1", blocks: []))
        a.add(comment("c1"))
        a.add(comment("c2r", parent: "c2"))
        _ = a.chunk(for: para(.text("nothing")))
        let left = a.takeUnreferenced()
        XCTAssertEqual(left.comments.map(\.id), ["c2", "c2r", "c1"])
        XCTAssertEqual(left.notes.map(\.id), ["n2", "n1"])
        XCTAssertTrue(a.isEmpty)
        // Taken and added again: ordered by the new addition.
        a.add(comment("c1"))
        a.add(comment("c2"))
        XCTAssertEqual(a.takeUnreferenced().comments.map(\.id), ["c1", "c2"])
    }

    func testDocumentChunksFollowTheRule() {
        let doc = Document(blocks: [para(.noteReference("outer")), para(.commentStart("c1"))],
                           comments: [comment("c1"), comment("lost")],
                           notes: [Note(id: "inner", blocks: []), Note(id: "outer", blocks: [para(.noteReference("inner"))])])
        let chunks = doc.chunks
        XCTAssertEqual(chunks.map { ids($0).notes }, [["outer", "inner"], []])
        XCTAssertEqual(chunks.map { ids($0).comments }, [[], ["c1", "lost"]])
        XCTAssertEqual(Document(blocks: [], comments: [comment("c")]).chunks.map { ids($0).comments }, [["c"]],
                       "with no block, an empty paragraph carries what is left")
    }
}
