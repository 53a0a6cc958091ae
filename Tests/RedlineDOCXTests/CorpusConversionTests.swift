import Foundation
import Redline
import RedlineCore
import XCTest

/// Every DOCX in the shared corpus and in Corpus/docx converts to Markdown (CriticMarkup, clean and
/// original), and what comes out is checked, not only that something did: read back, the clean and
/// original versions hold no review mark, the marked one holds as many comments as the document (unless
/// a change nested in a change had to be written as text), and
/// every word of the document as accepted (or rejected) is in the Markdown of that version.
final class CorpusConversionTests: XCTestCase {
    /// Counts review marks and comment anchors in a model.
    struct Marks: ModelVisitor {
        var changes = 0
        mutating func visitParagraph(_ p: Paragraph) {
            if p.markChange != nil || p.styleChange != nil { changes += 1 }
            descend(into: p)
        }
        mutating func visitRow(_ row: TableRow) {
            if row.change != nil { changes += 1 }
            descend(into: row)
        }
        mutating func visitInline(_ inline: Inline) {
            switch inline {
            case .insertion, .deletion, .substitution, .move, .formatChange: changes += 1
            default: break
            }
            descend(into: inline)
        }
    }

    /// The words (letters and digits) of a model's text.
    static func words(_ d: Document) -> Set<String> {
        let text = (d.blocks + d.notes.flatMap(\.blocks)).map(\.plainText).joined(separator: " ")
        return Set(text.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init))
    }

    func testEveryDOCXConvertsToMarkdown() throws {
        guard let md = FormatRegistry.named("md"), md.writer != nil, let docx = FormatRegistry.named("docx") else {
            throw FormatMissing("the Markdown writer is not registered yet")
        }
        let own = ((try? FileManager.default.contentsOfDirectory(atPath: Fixtures.repo.appendingPathComponent("Corpus/docx").path)) ?? [])
            .filter { $0.hasSuffix(".docx") }.map { Fixtures.repo.appendingPathComponent("Corpus/docx/\($0)").path }
        let paths = Fixtures.sharedDOCX().map(Fixtures.shared) + own
        XCTAssertGreaterThan(paths.count, 4)
        var wordsChecked = 0
        for path in paths {
            let source = try Converter.read(.file(path), format: docx)
            for mode in ChangeMode.allCases {
                let out = MemoryOutput()
                do {
                    try Converter.convert(.file(path), to: out, options: ConversionOptions(from: docx, to: md, changes: mode),
                                          diagnostics: Diagnostics())
                } catch {
                    XCTFail("\(path) \(mode): \(error)")
                    continue
                }
                let readBack = Diagnostics()
                let back = try Converter.read(.bytes(out.bytes), format: md, diagnostics: readBack)
                var marks = Marks()
                for b in back.blocks + back.notes.flatMap(\.blocks) + back.comments.flatMap(\.body) { marks.visitBlock(b) }
                switch mode {
                case .marked:
                    let text = source.blocks.map(\.plainText).joined()
                    if !text.isEmpty { XCTAssertFalse(out.string.isEmpty, "\(path): empty Markdown") }
                    // CriticMarkup cannot nest a change in a change: the inner one is written as text, reported
                    // (critic.nested-mark) on the way back, and its attribution then reads as a comment.
                    if readBack.count(of: .criticNestedMark) == 0 {
                        XCTAssertEqual(back.comments.count, source.comments.count, "\(path): comments lost or made up")
                    }
                case .accept, .reject:
                    XCTAssertEqual(marks.changes, 0, "\(path) \(mode): review marks left in the \(mode) version")
                    XCTAssertTrue(back.comments.isEmpty, "\(path) \(mode): comments left")
                    let expected = Self.words(try source.applying([ReviewTransform(mode)]))
                    let missing = expected.subtracting(Self.words(back))
                    XCTAssertTrue(missing.isEmpty, "\(path) \(mode): words lost: \(missing.sorted().prefix(10))")
                    wordsChecked += expected.count
                }
            }
        }
        XCTAssertGreaterThan(wordsChecked, 1000)
    }
}
