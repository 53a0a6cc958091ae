import Foundation
import XCTest
import Redline
import RedlineCore

/// Every DOCX Redline writes must validate against the ECMA-376 transitional schemas (Word refuses files
/// LibreOffice opens: element order, required attributes). Writes every readable input of `Corpus/` and
/// `../shared/corpus` to DOCX in the three change modes and runs `../shared/tools/ooxml-validate` once
/// over all of them (about 25 ms a file). The DOCX writer's own samples are checked in RedlineDOCXTests.
final class DOCXValidityTests: XCTestCase {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Runs the validator over `files`; fails with its report when any is invalid. Skips (locally) when the
    /// validator or python3-lxml is missing; fails under CI.
    static func validate(_ files: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let tool = repo.appendingPathComponent("../shared/tools/ooxml-validate").standardized.path
        let haveLXML = (try? Self.run(["python3", "-c", "import lxml"]))?.status == 0
        guard FileManager.default.fileExists(atPath: tool), haveLXML else {
            if ProcessInfo.processInfo.environment["CI"] != nil { XCTFail("ooxml-validate (python3-lxml) is required under CI") }
            throw XCTSkip("../shared/tools/ooxml-validate or python3-lxml missing")
        }
        guard !files.isEmpty else { return XCTFail("no DOCX to validate", file: file, line: line) }
        let r = try run(["python3", tool] + files)
        XCTAssertEqual(r.status, 0, "invalid DOCX written:\n" + r.out + r.err, file: file, line: line)
    }

    /// The files among `files` that the validator reports invalid (or cannot read).
    static func invalid(_ files: [String]) throws -> Set<String> {
        let tool = repo.appendingPathComponent("../shared/tools/ooxml-validate").standardized.path
        guard !files.isEmpty, FileManager.default.fileExists(atPath: tool) else { return [] }
        let r = try run(["python3", tool] + files)
        let report = r.out + r.err
        return Set(files.filter { report.contains($0 + ":") })
    }

    static func run(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        try TestProcess.run(arguments)
    }

    /// Every input file of the two corpora that a registered reader reads (bad inputs excluded).
    static func corpusInputs() -> [String] {
        var out: [String] = []
        for root in ["Corpus", "../shared/corpus"] {
            let dir = repo.appendingPathComponent(root).standardized
            guard let e = FileManager.default.enumerator(atPath: dir.path) else { continue }
            for case let rel as String in e where !rel.hasPrefix("bad/") && !rel.contains(".scriv/") {
                let ext = (rel as NSString).pathExtension.lowercased()
                guard ["docx", "rtf", "md", "text"].contains(ext) else { continue }
                out.append(dir.appendingPathComponent(rel).path)
            }
        }
        return out.sorted()
    }

    func testEveryCorpusInputWritesValidDOCX() throws {
        let inputs = Self.corpusInputs()
        XCTAssertGreaterThan(inputs.count, 20)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("redline-valid-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let docx = FormatRegistry.named("docx")!
        // DOCX → DOCX with changes accepted or rejected is reviewed in place: every part but the stories is
        // the input's, byte for byte, so those outputs are valid exactly when their input is. Inputs that
        // are invalid themselves (python-docx's template, hand-made fixtures) are checked in marked mode only.
        let invalidInputs = try Self.invalid(inputs.filter { $0.lowercased().hasSuffix(".docx") })
        var written: [String] = []
        for (k, input) in inputs.enumerated() {
            let ext = (input as NSString).pathExtension.lowercased()
            let from = FormatRegistry.named(ext == "text" ? "md" : ext)!
            let modes: [ChangeMode] = invalidInputs.contains(input) ? [.marked] : [.marked, .accept, .reject]
            for mode in modes {
                let out = dir.appendingPathComponent("\(k)-\(mode).docx").path
                do {
                    // Marked DOCX → DOCX would be the input itself (in place): written from the model instead,
                    // so the writer's output is what is checked.
                    var options = ConversionOptions(from: from, to: docx, changes: mode)
                    options.allowsInPlace = mode != .marked
                    try Converter.convert(.file(input), toFile: out, options: options, diagnostics: Diagnostics())
                    written.append(out)
                } catch {
                    // Unreadable inputs (e.g. a legacy .doc named .docx) are other tests' concern.
                    if mode == .marked { print("not converted: \(input): \(error)") }
                    break
                }
            }
        }
        XCTAssertGreaterThan(written.count, inputs.count * 2)
        // Marks the corpus lacks: a move, a change and a paragraph mark without a date (the schema requires
        // w:date on move ranges), and an author-less comment.
        let extra = dir.appendingPathComponent("undated.md").path
        try """
            A {--moved--}{>>@Ann [move=m1]<<} text {++new++} and {>>a note<<}.

            B {++moved++}{>>@Ann [move=m1]<<} here.{++
            ++}C.
            """.write(toFile: extra, atomically: true, encoding: .utf8)
        try Converter.convert(.file(extra), toFile: extra + ".docx",
                              options: ConversionOptions(from: FormatRegistry.named("md")!, to: docx), diagnostics: Diagnostics())
        written.append(extra + ".docx")
        try Self.validate(written)
    }
}
