import Foundation
import Redline
import RedlineCompare
import RedlineCore
import RedlineTestSupport
import XCTest

/// The inputs kept in Fuzz/regressions (crashers fuzzing or hostile testing found, once fixed) run through
/// what their fuzz target runs, in the ordinary test build: `make test` catches a regression without the
/// sanitizer build (`make fuzz`, about 5 minutes to build here).
final class FuzzRegressionTests: XCTestCase {
    private func inputs(_ target: String) throws -> [(String, [UInt8])] {
        let dir = RepositoryPaths.root + "/Fuzz/regressions/" + target
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        return try names.sorted().map { ($0, [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/" + $0)))) }
    }

    /// Reads `bytes` as `format`: a `RedlineError` is an acceptable answer, anything else is not.
    private func read(_ bytes: [UInt8], _ format: String, _ name: String) -> Document? {
        do { return try Converter.read(.bytes(bytes), format: FormatRegistry.named(format)!) }
        catch is RedlineError { return nil }
        catch { XCTFail("\(name): \(error)"); return nil }
    }

    /// The letters and digits of every block as Unicode scalars (the fuzz package's `Fuzz.text`): what a write
    /// and a read must keep.
    private func text(_ doc: Document) -> String {
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: doc.blocks.map(\.plainText).joined(separator: " ").unicodeScalars
            .filter { $0.properties.isAlphabetic || $0.properties.numericType != nil })
        return String(kept)
    }

    /// Writes every writable format; Markdown, DOCX and RTF must read back with the same text unless the
    /// writer said a picture was lost (`media.*`), the fuzz-roundtrip target's own check.
    private func writeAll(_ doc: Document, _ name: String) throws {
        let before = text(doc)
        for format in ["md", "gfm", "html", "docx", "rtf"] {
            let out = MemoryOutput()
            let d = Diagnostics()
            try Converter.write(doc, format: FormatRegistry.named(format)!, to: out, diagnostics: d)
            guard ["md", "docx", "rtf"].contains(format) else { continue }
            guard let again = read(out.bytes, format, "\(name) → \(format)") else {
                XCTFail("\(name): \(format) reader refused the \(format) writer's output")
                continue
            }
            let mediaLoss = d.all.contains { $0.code.rawValue.hasPrefix("media.") }
            if !mediaLoss {
                XCTAssertEqual(text(again), before, "\(name): \(format) write+read changed the text")
            }
        }
    }

    /// `document.xml` in the smallest package the DOCX reader accepts, as the fuzz package's `Fuzz.docx` wraps it.
    private func docx(documentXML: [UInt8]) throws -> [UInt8] {
        try MinimalDOCX.package(documentXML: documentXML, compressionLevel: 0)
    }

    func testKeptInputs() throws {
        for (name, bytes) in try inputs("markdown") { _ = read(bytes, "md", name) }
        for (name, bytes) in try inputs("rtf") { _ = read(bytes, "rtf", name) }
        for (name, bytes) in try inputs("docx") + inputs("zip") { _ = read(bytes, "docx", name) }
        for (name, bytes) in try inputs("docx-xml") { _ = read(try docx(documentXML: bytes), "docx", name) }
        for (name, bytes) in try inputs("roundtrip") {
            guard let first = bytes.first else { continue }
            let rest = Array(bytes.dropFirst())
            let (input, format) = first % 3 == 2 ? (try docx(documentXML: rest), "docx") : (rest, first % 3 == 0 ? "md" : "rtf")
            if let doc = read(input, format, name) { try writeAll(doc, name) }
        }
        for (name, bytes) in try inputs("compare") { compare(bytes, name) }
        for (name, bytes) in try inputs("apply") { try apply(bytes, name) }
        XCTAssertFalse(try inputs("markdown").isEmpty)
    }

    /// The fuzz-apply target's check: ORIGINAL and EDITED Markdown split at the first NUL byte; EDITED applied
    /// onto ORIGINAL (`force`), rejecting the marks as text gives ORIGINAL's bytes, and ORIGINAL applied onto
    /// itself is ORIGINAL. A `RedlineError` is an acceptable answer.
    private func apply(_ bytes: [UInt8], _ name: String) throws {
        let cut = bytes.firstIndex(of: 0) ?? bytes.count / 2
        let original = Array(bytes[..<cut]), edited = Array(bytes[min(cut + 1, bytes.count)...])
        let dir = NSTemporaryDirectory() + "redline-fuzz-apply-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let o = dir + "/original.md", e = dir + "/edited.md"
        try Data(original).write(to: URL(fileURLWithPath: o))
        try Data(edited).write(to: URL(fileURLWithPath: e))
        func run(_ edited: String) -> [UInt8]? {
            var options = ApplyOptions(editedFormat: FormatRegistry.markdown, originalFormat: FormatRegistry.markdown,
                                       compare: CompareOptions(author: "F", date: "2024-01-01T00:00:00Z"))
            options.force = true
            let out = MemoryOutput()
            do { _ = try Application.apply(edited: edited, onto: o, options: options, into: out, diagnostics: Diagnostics()) }
            catch is RedlineError { return nil }
            catch { XCTFail("\(name): \(error)"); return nil }
            return out.bytes
        }
        guard let same = run(o) else { return }
        XCTAssertEqual(String(decoding: same, as: UTF8.self), String(decoding: original, as: UTF8.self), "\(name): onto itself")
        XCTAssertEqual(same, original, "\(name): onto itself (bytes)")
        if let marked = run(e) {
            XCTAssertEqual(String(decoding: Self.rejectedAsText(marked), as: UTF8.self), String(decoding: original, as: UTF8.self),
                           "\(name): reject\n\(String(decoding: marked, as: UTF8.self))")
        }
        // fuzz-apply's RTF mode (`Fuzz.applyRTF`): the marked result keeps every byte of the RTF in order.
        try applyOntoWritten(original: o, edited: e, name, format: FormatRegistry.rtf) { marked, rtf in
            var i = 0
            for x in marked where i < rtf.count && rtf[i] == x { i += 1 }
            XCTAssertEqual(i, rtf.count, "\(name): apply onto RTF removed bytes of ORIGINAL")
        }
        // Its DOCX mode (`Fuzz.applyDOCX`: body, notes): the marked result reads back.
        try applyOntoWritten(original: o, edited: e, name, format: FormatRegistry.docx) { marked, _ in
            XCTAssertNoThrow(try Converter.read(.bytes(marked), format: FormatRegistry.docx), "\(name): apply onto DOCX")
        }
    }

    /// fuzz-apply's modes onto a written ORIGINAL (`Fuzz.applyOntoWritten`): ORIGINAL written in `format`, the
    /// file onto itself is the file, EDITED applied onto it marked passes `check` (the marked result, the file)
    /// and accepted does not fail; a `RedlineError` is an acceptable answer.
    private func applyOntoWritten(original o: String, edited e: String, _ name: String, format: Format,
                                  check: ([UInt8], [UInt8]) throws -> Void) throws {
        guard let doc = try? Converter.read(.file(o), format: FormatRegistry.markdown) else { return }
        let out = MemoryOutput()
        try Converter.write(doc, format: format, to: out, diagnostics: Diagnostics())
        let written = out.bytes, path = o + "." + format.name
        try Data(written).write(to: URL(fileURLWithPath: path))
        func run(_ edited: String, _ editedFormat: Format, accept: Bool) -> [UInt8]? {
            var options = ApplyOptions(editedFormat: editedFormat, originalFormat: format,
                                       compare: CompareOptions(author: "F", date: "2024-01-01T00:00:00Z"), accept: accept)
            options.force = true
            let out = MemoryOutput()
            do { _ = try Application.apply(edited: edited, onto: path, options: options, into: out, diagnostics: Diagnostics()) }
            catch is RedlineError { return nil }
            catch { XCTFail("\(name): \(error)"); return nil }
            return out.bytes
        }
        if let same = run(path, format, accept: false) { XCTAssertEqual(same, written, "\(name): \(format.name) onto itself") }
        if let marked = run(e, FormatRegistry.markdown, accept: false) { try check(marked, written) }
        _ = run(e, FormatRegistry.markdown, accept: true)
    }

    /// CriticMarkup rejected as text on bytes (the fuzz package's `Fuzz.rejectedAsText`).
    static func rejectedAsText(_ s: [UInt8]) -> [UInt8] {
        let closes: [String: [UInt8]] = ["{++": Array("++}".utf8), "{--": Array("--}".utf8), "{~~": Array("~~}".utf8),
                                         "{==": Array("==}".utf8), "{>>": Array("<<}".utf8)]
        var out: [UInt8] = []
        var i = 0
        while i < s.count {
            guard s[i] == UInt8(ascii: "{"), i + 3 <= s.count, let close = closes[String(decoding: s[i..<(i + 3)], as: UTF8.self)]
            else { out.append(s[i]); i += 1; continue }
            let head = String(decoding: s[i..<(i + 3)], as: UTF8.self)
            var end = i + 3
            while end + 3 <= s.count, Array(s[end..<(end + 3)]) != close { end += 1 }
            if end + 3 > s.count { end = s.count }
            let body = Array(s[(i + 3)..<end])
            i = min(end + 3, s.count)
            switch head {
            case "{--", "{==": out += body
            case "{~~":
                var k = 0
                while k + 1 < body.count, !(body[k] == UInt8(ascii: "~") && body[k + 1] == UInt8(ascii: ">")) { k += 1 }
                out += k + 1 < body.count ? Array(body[..<k]) : body
            default: break
            }
        }
        return out
    }

    /// The fuzz-compare target's check: OLD and NEW Markdown split at the first NUL byte, compared with and
    /// without moves; accepting gives NEW and rejecting OLD (inputs' own changes taken as accepted; OLD's tables'
    /// columns not compared when compare reported them changed).
    private func compare(_ bytes: [UInt8], _ name: String) {
        let cut = bytes.firstIndex(of: 0) ?? bytes.count / 2
        guard let a0 = read(Array(bytes[..<cut]), "md", name), let b0 = read(Array(bytes[min(cut + 1, bytes.count)...]), "md", name)
        else { return }
        let a = DocumentComparer.accepted(a0), b = DocumentComparer.accepted(b0)
        for moves in [true, false] {
            let d = Diagnostics()
            let (result, _) = DocumentComparer.compare(old: a, new: b, options: CompareOptions(date: "2024-01-01T00:00:00Z", detectMoves: moves),
                                                       diagnostics: d)
            if d.count(of: .compareUntrackedBlock) > 0 { continue }  // a block compare cannot mark, and says so
            XCTAssertEqual(ExactnessNormalization.document(DocumentComparer.accepted(result)), ExactnessNormalization.document(b), "\(name): accept")
            // A table whose columns changed keeps NEW's (compare.table-columns): rejecting is compared without them.
            let columns = d.count(of: .compareTableColumns) > 0
            let rejected = ExactnessNormalization.document(DocumentComparer.rejected(result)), old = ExactnessNormalization.old(a)
            XCTAssertEqual(columns ? ExactnessNormalization.withoutTableColumns(rejected) : rejected,
                           columns ? ExactnessNormalization.withoutTableColumns(old) : old, "\(name): reject")
        }
    }
}
