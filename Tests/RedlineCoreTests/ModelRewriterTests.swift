import XCTest
@testable import RedlineCore

/// `ModelRewriter` and `ModelVisitor` reach every part of a chunk through their defaults; `Document.dump`
/// prints every node, stably.
final class ModelRewriterTests: XCTestCase {
    let ann = Change(author: "Ann", date: "2024-01-02", id: "7")

    var chunk: Chunk {
        let cell = TableCell([.paragraph(Paragraph([.text("cell"), .strong([.text("x")])]))])
        let table = Table(columns: [.left], headerRowCount: 1, rows: [TableRow([cell]), TableRow([cell], change: .inserted(ann))])
        let quote = Block.blockQuote([.list(List(kind: .bullet, items: [[.paragraph(Paragraph([.text("item"), .noteReference("n")]))], [.table(table)]]))])
        return Chunk(quote, comments: [Comment(id: "c", author: "Bob", body: [.paragraph(Paragraph([.emphasis([.text("body")])]))])],
                     notes: [Note(id: "n", blocks: [.paragraph(Paragraph([.substitution(ann, deleted: [.text("a")], inserted: [.text("b")])]))])])
    }

    /// Upper-cases every text; deletes strong inlines and inserted rows.
    struct Shout: ModelRewriter {
        mutating func rewriteInline(_ inline: Inline) -> [Inline] {
            switch inline {
            case .text(let s): return [.text(s.uppercased())]
            case .strong: return []
            default: return [descend(into: inline)]
            }
        }
        mutating func rewriteRow(_ row: TableRow) -> TableRow? { row.change == nil ? descend(into: row) : nil }
    }

    struct Texts: ModelVisitor {
        var seen: [String] = []
        mutating func visitInline(_ inline: Inline) {
            if case .text(let s) = inline { seen.append(s) }
            descend(into: inline)
        }
    }

    func testRewriterReachesBlocksNotesAndCommentBodiesAndDeletes() throws {
        var r = Shout()
        let out = try XCTUnwrap(r.rewriteChunk(chunk))
        var texts = Texts()
        texts.visitChunk(out)
        XCTAssertEqual(texts.seen, ["ITEM", "CELL", "A", "B", "BODY"])
        guard case .blockQuote(let q) = out.block, case .list(let l) = q[0], case .table(let t) = l.items[1][0] else {
            return XCTFail("shape changed: \(out.block)")
        }
        XCTAssertEqual(t.rows.count, 1, "the inserted row is deleted")
        XCTAssertEqual(t.headerRowCount, 1)
    }

    func testVisitorOrderIsBlockThenNotesThenComments() {
        var texts = Texts()
        texts.visitChunk(chunk)
        XCTAssertEqual(texts.seen, ["item", "cell", "x", "cell", "x", "a", "b", "body"])
    }

    func testDumpShowsEveryNodeStably() {
        var doc = Document(blocks: [])
        doc.append(chunk)
        doc.metadata["title"] = .text("T")
        let expected = """
        header
          metadata "title" "T"
        blocks
          quote
            list bullet tight
              item
                paragraph
                  text "item"
                  note-reference "n"
              item
                table columns=left header-rows=1
                  row
                    cell
                      paragraph
                        text "cell"
                        strong
                          text "x"
                  row inserted {"author":"Ann","date":"2024-01-02","id":"7"}
                    cell
                      paragraph
                        text "cell"
                        strong
                          text "x"
        comments
          comment "c" {"author":"Bob"}
            paragraph
              emphasis
                text "body"
        notes
          footnote "n"
            paragraph
              substitution {"author":"Ann","date":"2024-01-02","id":"7"}
                deleted
                  text "a"
                inserted
                  text "b"

        """
        XCTAssertEqual(doc.dump, expected)
        XCTAssertEqual(doc.dump, doc.dump)
    }
}
