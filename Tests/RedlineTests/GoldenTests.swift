import Foundation
import XCTest
import Redline

/// Golden files: every input under `Corpus/<family>/` (not `bad/`, `demo/` or `scrivener/`, which have
/// their own tests) is converted to each golden target, and output and warnings must equal the files under
/// `Golden/<family>/<case>/`. A missing golden fails. `make golden` (REDLINE_UPDATE_GOLDEN=1) rewrites them.
///
/// Targets per input: Markdown marked/clean/original (`marked.md`, `clean.md`, `original.md`), HTML marked,
/// RTF marked and DOCX marked (as its XML parts, `marked.docx.txt`), for each of those formats that
/// Redline writes. Beside each output, `<name>.warnings` holds the warnings, one per line. And the reader
/// golden, `model.txt`: the model as read (`Document.dump`) with the reader's warnings in
/// `model.txt.warnings`, so a reader regression shows as a reader diff, not only through a writer.
final class GoldenTests: XCTestCase {
    struct Target {
        var format: String
        var changes: ChangeMode
        var file: String
    }

    static let targets: [Target] = [
        Target(format: "md", changes: .marked, file: "marked.md"),
        Target(format: "md", changes: .accept, file: "clean.md"),
        Target(format: "md", changes: .reject, file: "original.md"),
        Target(format: "html", changes: .marked, file: "marked.html"),
        Target(format: "rtf", changes: .marked, file: "marked.rtf"),
        Target(format: "docx", changes: .marked, file: "marked.docx.txt"),
    ]

    var updating: Bool { ProcessInfo.processInfo.environment["REDLINE_UPDATE_GOLDEN"] == "1" }

    func testGoldenFiles() throws {
        let root = RepositoryPaths.root
        let inputs = try RepositoryPaths.corpusInputs()
        XCTAssertFalse(inputs.isEmpty, "no inputs under Corpus/")
        var checked = 0
        for input in inputs {
            let relative = String(input.dropFirst(root.count + "/Corpus/".count))
            guard let from = FormatRegistry.inferred(fromPath: input), from.reader != nil else {
                XCTFail("\(relative): no reader for this extension")
                continue
            }
            let caseDir = root + "/Golden/" + (relative as NSString).deletingPathExtension
            let (model, readWarnings) = readModel(input, from: from)
            check(model, at: caseDir + "/model.txt", label: "\(relative) → model.txt")
            check(readWarnings, at: caseDir + "/model.txt.warnings", label: "\(relative) → model.txt warnings")
            for target in Self.targets {
                guard let to = FormatRegistry.named(target.format), to.writer != nil else { continue }
                let (output, warnings, media) = render(input, from: from, to: to, changes: target.changes,
                                                       mediaLink: (target.file as NSString).deletingPathExtension + ".media")
                check(output, at: caseDir + "/" + target.file, label: "\(relative) → \(target.file)")
                if !media.isEmpty || FileManager.default.fileExists(atPath: caseDir + "/" + target.file + ".media") {
                    check(media, at: caseDir + "/" + target.file + ".media", label: "\(relative) → \(target.file) pictures")
                }
                check(warnings, at: caseDir + "/" + target.file + ".warnings", label: "\(relative) → \(target.file) warnings")
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 0)
    }

    /// The model as read (or the error) and the reader's warnings, as text.
    func readModel(_ input: String, from: Format) -> (String, String) {
        let diagnostics = Diagnostics()
        var text: String
        do {
            text = try Converter.read(.file(input), format: from, diagnostics: diagnostics).dump
        } catch let e as RedlineError {
            text = "error[\(e.kind.rawValue)]: \(e.message)\n"
        } catch {
            text = "error: \(error)\n"
        }
        return (text, Self.warningLines(diagnostics))
    }

    static func warningLines(_ diagnostics: Diagnostics) -> String {
        diagnostics.all.map { "\($0.code) ×\($0.count) \($0.location.map { "\($0): " } ?? "")\($0.message)\n" }.joined()
    }

    /// The output (or the error, as `error[kind]: message`), the warnings, and the pictures extracted
    /// (Markdown, HTML: a line `name size sha256` each, linked as `mediaLink/name`), as text.
    func render(_ input: String, from: Format, to: Format, changes: ChangeMode, mediaLink: String) -> (String, String, String) {
        var options = ConversionOptions(from: from, to: to, changes: changes)
        // The marked DOCX and RTF goldens of DOCX and RTF inputs are the writers' output from the model: converted
        // as they are, they are the input itself (in place; PageLossTests checks that).
        options.allowsInPlace = changes != .marked
        let mediaDir = NSTemporaryDirectory() + "redline-golden-media-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: mediaDir) }
        options.write.mediaOutput = MediaOutput(directory: mediaDir, linkPrefix: mediaLink)
        let diagnostics = Diagnostics()
        let out = MemoryOutput()
        var text: String
        do {
            try Converter.convert(.file(input), to: out, options: options, diagnostics: diagnostics)
            text = to.name == "docx" ? GoldenRendering.docxText(out.bytes) : out.string
        } catch let e as RedlineError {
            text = "error[\(e.kind.rawValue)]: \(e.message)\n"
        } catch {
            text = "error: \(error)\n"
        }
        let warnings = Self.warningLines(diagnostics)
        var media = ""
        for name in ((try? FileManager.default.contentsOfDirectory(atPath: mediaDir)) ?? []).sorted() {
            let bytes = [UInt8](FileManager.default.contents(atPath: mediaDir + "/" + name) ?? Data())
            media += "\(name) \(bytes.count) \(ContentHash.sha256(bytes))\n"
        }
        return (text, warnings, media)
    }

    func check(_ actual: String, at path: String, label: String) {
        if updating {
            try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                     withIntermediateDirectories: true)
            FileManager.default.createFile(atPath: path, contents: Data(actual.utf8))
            return
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            XCTFail("\(label): missing golden \(path) (run `make golden` and review it)")
            return
        }
        let expected = String(decoding: data, as: UTF8.self)
        if expected != actual {
            XCTFail("\(label): output differs from \(path)\n" + GoldenDiff.describe(expected: expected, actual: actual))
        }
    }
}

/// A short readable description of where two texts first differ.
enum GoldenDiff {
    static func describe(expected: String, actual: String) -> String {
        let e = expected.components(separatedBy: "\n"), a = actual.components(separatedBy: "\n")
        var i = 0
        while i < min(e.count, a.count) && e[i] == a[i] { i += 1 }
        var s = "first difference at line \(i + 1):\n"
        for k in max(0, i - 2)..<i { s += "  \(e[k])\n" }
        for k in i..<min(i + 3, e.count) { s += "- \(e[k])\n" }
        for k in i..<min(i + 3, a.count) { s += "+ \(a[k])\n" }
        return s
    }
}
