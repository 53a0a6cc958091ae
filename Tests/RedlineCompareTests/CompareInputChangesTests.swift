import XCTest
import Foundation
import ArgumentParser
@testable import RedlineCompare
import Redline
import RedlineCLI

/// Issue #33: `redline compare --keep-input-changes` keeps NEW's own tracked changes with their authors and dates
/// and adds the differences found by comparison as changes by `--author`.
final class CompareInputChangesTests: XCTestCase {
    var tmp = ""
    static let alice = Change(author: "Alice", date: "2024-03-01T10:00:00Z")

    override func setUpWithError() throws {
        tmp = NSTemporaryDirectory() + "redline-compare-keep-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: tmp) }

    static func para(_ inlines: [Inline]) -> Block { .paragraph(Paragraph(inlines)) }

    /// OLD: three paragraphs. NEW: Alice's tracked insertion and deletion in the second, an untracked edit in
    /// the third.
    static var old: Document {
        Document(blocks: [para([.text("The first paragraph stays as it was.")]),
                          para([.text("The second paragraph has a tracked edit here.")]),
                          para([.text("The third paragraph was edited quietly.")])])
    }

    static var new: Document {
        Document(blocks: [para([.text("The first paragraph stays as it was.")]),
                          para([.text("The second paragraph has a "), .insertion(alice, [.text("small ")]),
                                .text("tracked edit"), .deletion(alice, [.text(" here")]), .text(".")]),
                          para([.text("The third paragraph was edited without tracking.")])])
    }

    static func changes(_ d: Document) -> [(String, String?, String?)] {
        var out: [(String, String?, String?)] = []
        func walk(_ inlines: [Inline]) {
            for i in inlines {
                switch i {
                case .insertion(let c, let x): out.append(("+" + x.plainText, c.author, c.date))
                case .deletion(let c, let x): out.append(("-" + x.plainText, c.author, c.date))
                case .substitution(let c, let d, let n):
                    out.append(("-" + d.plainText, c.author, c.date)); out.append(("+" + n.plainText, c.author, c.date))
                default: if !i.children.isEmpty { walk(i.children) }
                }
            }
        }
        for b in d.blocks { b.forEachParagraph { walk($0.content) } }
        for s in d.sections {
            for story in s.headersFooters { for b in story.blocks { b.forEachParagraph { walk($0.content) } } }
        }
        return out
    }

    func testModelKeepsAlicesChangesAndMarksTheUntrackedEdit() {
        var options = CompareOptions(author: "Bob", date: "2024-05-01T09:00:00Z")
        options.keepInputChanges = true
        let d = Diagnostics()
        let (result, stats) = DocumentComparer.compare(old: Self.old, new: Self.new, options: options, diagnostics: d)
        XCTAssertFalse(d.all.contains { $0.code == .compareInputChanges }, "\(d.all)")
        let found = Self.changes(result)
        XCTAssertTrue(found.contains { $0.0 == "+small " && $0.1 == "Alice" && $0.2 == "2024-03-01T10:00:00Z" }, "\(found)")
        XCTAssertTrue(found.contains { $0.0 == "- here" && $0.1 == "Alice" }, "\(found)")
        XCTAssertTrue(found.contains { $0.1 == "Bob" && $0.2 == "2024-05-01T09:00:00Z" && $0.0.contains("without") }, "\(found)")
        XCTAssertFalse(found.contains { $0.1 == "Bob" && ($0.0.contains("small") || $0.0.contains("here")) }, "\(found)")
        XCTAssertFalse(stats.isEmpty)
        XCTAssertEqual(CompareOracleTests.text(DocumentComparer.accepted(result)), CompareOracleTests.text(DocumentComparer.accepted(Self.new)))
        XCTAssertEqual(CompareOracleTests.text(DocumentComparer.rejected(result)), CompareOracleTests.text(Self.old))

        // Without the option NEW's changes are accepted first, and every mark is Bob's.
        options.keepInputChanges = false
        let plain = DocumentComparer.compare(old: Self.old, new: Self.new, options: options).0
        XCTAssertTrue(Self.changes(plain).allSatisfy { $0.1 == "Bob" })
    }

    /// Both kinds of edit in one paragraph: merged run by run, Alice's changes still hers.
    func testTrackedAndUntrackedEditsInOneParagraphAreMerged() {
        var options = CompareOptions(author: "Bob", date: "2024-05-01T09:00:00Z")
        options.keepInputChanges = true
        var new = Self.new
        new.blocks[1] = Self.para([.text("The second paragraph now has a "), .insertion(Self.alice, [.text("small ")]),
                                   .text("tracked edit"), .deletion(Self.alice, [.text(" here")]), .text(".")])
        let d = Diagnostics()
        let (result, _) = DocumentComparer.compare(old: Self.old, new: new, options: options, diagnostics: d)
        XCTAssertFalse(d.all.contains { $0.code == .compareChangesRecompared }, "\(d.all)")
        let found = Self.changes(result)
        XCTAssertTrue(found.contains { $0.0 == "+small " && $0.1 == "Alice" && $0.2 == "2024-03-01T10:00:00Z" }, "\(found)")
        XCTAssertTrue(found.contains { $0.0 == "- here" && $0.1 == "Alice" }, "\(found)")
        XCTAssertTrue(found.contains { $0.0.contains("now") && $0.1 == "Bob" }, "\(found)")
        XCTAssertEqual(CompareOracleTests.text(DocumentComparer.accepted(result)), CompareOracleTests.text(DocumentComparer.accepted(new)))
        XCTAssertEqual(CompareOracleTests.text(DocumentComparer.rejected(result)), CompareOracleTests.text(Self.old))
        // Text inserted without tracking and then deleted with tracking cannot be merged: compared afresh, with a warning.
        var both = Self.new
        both.blocks[1] = Self.para([.text("The second paragraph has a tracked edit"), .deletion(Self.alice, [.text(" right")]), .text(" here.")])
        let d2 = Diagnostics()
        let (again, _) = DocumentComparer.compare(old: Self.old, new: both, options: options, diagnostics: d2)
        XCTAssertTrue(d2.all.contains { $0.code == .compareChangesRecompared }, "\(d2.all)")
        XCTAssertEqual(CompareOracleTests.text(DocumentComparer.accepted(again)), CompareOracleTests.text(DocumentComparer.accepted(both)))
        XCTAssertEqual(CompareOracleTests.text(DocumentComparer.rejected(again)), CompareOracleTests.text(Self.old))
    }

    func testNEWWithOnlyTrackedChangesIsTheResultAsItIs() {
        var options = CompareOptions(author: "Bob")
        options.keepInputChanges = true
        var new = Self.new
        new.blocks[2] = Self.old.blocks[2]
        let (result, stats) = DocumentComparer.compare(old: Self.old, new: new, options: options)
        XCTAssertEqual(result.blocks, new.blocks)
        XCTAssertTrue(stats.isEmpty)
    }

    func testOLDsOwnChangesStillInNEWAreKept() {
        // NEW made from OLD with OLD's change still tracked: OLD's rejected view is the base.
        var options = CompareOptions(author: "Bob")
        options.keepInputChanges = true
        var old = Self.old
        old.blocks[0] = Self.para([.text("The first paragraph "), .insertion(Self.alice, [.text("really ")]), .text("stays as it was.")])
        var new = Self.new
        new.blocks[0] = old.blocks[0]
        let (result, _) = DocumentComparer.compare(old: old, new: new, options: options)
        XCTAssertEqual(CompareOracleTests.text(DocumentComparer.rejected(result)), CompareOracleTests.text(DocumentComparer.rejected(old)))
        XCTAssertEqual(CompareOracleTests.text(DocumentComparer.accepted(result)), CompareOracleTests.text(DocumentComparer.accepted(new)))
        XCTAssertTrue(Self.changes(result).contains { $0.0 == "+really " && $0.1 == "Alice" })
    }

    static func save(_ d: Document, _ format: Format, _ path: String) throws {
        let out = MemoryOutput()
        try Converter.write(d, format: format, to: out)
        try Data(out.bytes).write(to: URL(fileURLWithPath: path))
    }

    func testOLDsChangesWithANEWWithoutAnyAreTakenInTheCloserView() {
        var options = CompareOptions(author: "Bob")
        options.keepInputChanges = true
        var old = Self.old
        old.blocks[0] = Self.para([.text("The first paragraph "), .insertion(Self.alice, [.text("really ")]), .text("stays as it was.")])
        var new = DocumentComparer.accepted(old)
        new.blocks[2] = Self.new.blocks[2]
        let d = Diagnostics()
        let (result, _) = DocumentComparer.compare(old: old, new: new, options: options, diagnostics: d)
        XCTAssertEqual(CompareOracleTests.text(DocumentComparer.rejected(result)), CompareOracleTests.text(DocumentComparer.accepted(old)))
        XCTAssertEqual(CompareOracleTests.text(DocumentComparer.accepted(result)), CompareOracleTests.text(new))
        XCTAssertTrue(d.all.contains { $0.code == .compareInputChanges && $0.message.contains("accepted") }, "\(d.all)")
    }

    func run(_ args: [String]) throws {
        var command = try RedlineCommand.parseAsRoot(args)
        try LargeStack.run { try command.run() }
    }

    /// Through the command, to DOCX and to CriticMarkup: Alice's changes keep her name and date, the quiet edit is
    /// Bob's, accept gives NEW's accepted text and reject OLD's.
    func testCommandKeepsChangesThroughDOCXAndCriticMarkup() throws {
        let docx = FormatRegistry.named("docx")!, md = FormatRegistry.named("md")!
        let oldPath = tmp + "/old.docx", newPath = tmp + "/new.docx"
        try Self.save(Self.old, docx, oldPath)
        try Self.save(Self.new, docx, newPath)
        for (name, format) in [("out.docx", docx), ("out.md", md)] {
            let out = tmp + "/" + name
            try run(["compare", oldPath, newPath, "-o", out, "--keep-input-changes", "--author", "Bob",
                     "--date", "2024-05-01T09:00:00Z", "-q"])
            let result = try Converter.read(.file(out), format: format)
            let found = Self.changes(result)
            XCTAssertTrue(found.contains { $0.0 == "+small " && $0.1 == "Alice" && $0.2 == "2024-03-01T10:00:00Z" }, "\(name): \(found)")
            XCTAssertTrue(found.contains { $0.0 == "- here" && $0.1 == "Alice" }, "\(name): \(found)")
            XCTAssertTrue(found.contains { $0.1 == "Bob" && $0.0.contains("without") }, "\(name): \(found)")
            XCTAssertEqual(CompareOracleTests.text(DocumentComparer.accepted(result)),
                           CompareOracleTests.text(DocumentComparer.accepted(Self.new)), name)
            XCTAssertEqual(CompareOracleTests.text(DocumentComparer.rejected(result)), CompareOracleTests.text(Self.old), name)
            if format.isSame(as: docx) { try CompareOracleTests.validate([out]) }
        }
    }

    func testCompareOptionsDecodeWithoutTheNewKeys() throws {
        var o = CompareOptions(author: "A")
        o.keepInputChanges = true
        o.compareHeadersFooters = false
        let back = try JSONDecoder().decode(CompareOptions.self, from: try JSONEncoder().encode(o))
        XCTAssertEqual(back, o)
        let old = try JSONDecoder().decode(CompareOptions.self, from: Data(#"{"author":"A","granularity":"word","detectMoves":true,"ignoreFormatting":false,"minimumMoveWords":4}"#.utf8))
        XCTAssertFalse(old.keepInputChanges)
        XCTAssertTrue(old.compareHeadersFooters)
    }
}
