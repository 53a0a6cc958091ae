import Foundation
import RedlineCore
import RedlineDOCX
import RedlineZip
import XCTest

/// Helpers for the DOCX writer tests: writing documents, temporary files, and the real consumers
/// (LibreOffice, pandoc, python-docx). A missing consumer fails the test under CI and skips it locally.
enum DOCXTest {
    /// The DOCX bytes for `document`.
    static func write(_ document: Document, options: WriteOptions = WriteOptions(),
                      diagnostics: Diagnostics = Diagnostics()) throws -> [UInt8] {
        let out = MemoryOutput()
        var source = ChunkArraySource(document)
        var sink = try DOCXWriter().sink(to: out, options: options, diagnostics: diagnostics)
        try Pipeline.run(source: &source, stages: [], sink: &sink)
        return out.bytes
    }

    /// The test process's folder for `temporaryDirectory`, removed when the process exits.
    private static let temporaryRoot: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("redline-docx-tests-\(getpid())")
        atexit { try? FileManager.default.removeItem(at: DOCXTest.temporaryRoot) }
        return url
    }()

    /// A new empty temporary directory (in a folder removed when the test process exits).
    static func temporaryDirectory() throws -> URL {
        let url = temporaryRoot.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Writes `bytes` to `name` in a new temporary directory and returns the path.
    static func file(_ bytes: [UInt8], named name: String = "out.docx") throws -> URL {
        let url = try temporaryDirectory().appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }

    /// Runs a program; returns its exit status, standard output and standard error.
    @discardableResult
    static func run(_ arguments: [String], in directory: URL? = nil) throws -> (status: Int32, out: String, err: String) {
        try TestProcess.run(arguments, in: directory)
    }

    /// Skips (locally) or fails (under CI) when `tool` is not installed.
    static func require(_ tool: String, check: [String]? = nil) throws {
        try TestProcess.require(tool, check: check)
    }

    /// One part of a DOCX as text ("" when there is no such part).
    static func part(_ name: String, of docx: [UInt8]) throws -> String {
        let archive = try ZipArchive(bytes: docx)
        return try archive.read(named: name).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// The names of a DOCX's parts in archive order.
    static func partNames(_ docx: [UInt8]) throws -> [String] {
        try ZipArchive(bytes: docx).entries.map(\.name)
    }

    /// LibreOffice's plain text for a DOCX (it shows deleted and inserted text alike).
    static func libreOfficeText(_ docx: URL) throws -> String {
        try require("soffice")
        let dir = try temporaryDirectory()
        let profile = try temporaryDirectory()
        let r = try run(["soffice", "--headless", "-env:UserInstallation=file://\(profile.path)",
                         "--convert-to", "txt:Text", "--outdir", dir.path, docx.path])
        let txt = dir.appendingPathComponent(docx.deletingPathExtension().lastPathComponent + ".txt")
        guard let data = FileManager.default.contents(atPath: txt.path) else {
            XCTFail("LibreOffice could not open \(docx.lastPathComponent): \(r.err)")
            return ""
        }
        try? FileManager.default.removeItem(at: profile)
        return String(decoding: data, as: UTF8.self)
    }

    /// The text of LibreOffice's PDF rendering of a DOCX (through `pdftotext`): lines that overlap on the
    /// page come out interleaved, so a layout fault shows as words out of order.
    static func renderedText(_ docx: URL) throws -> String {
        try require("soffice")
        try require("pdftotext")
        let dir = try temporaryDirectory()
        let profile = try temporaryDirectory()
        let r = try run(["soffice", "--headless", "-env:UserInstallation=file://\(profile.path)",
                         "--convert-to", "pdf", "--outdir", dir.path, docx.path])
        try? FileManager.default.removeItem(at: profile)
        let pdf = dir.appendingPathComponent(docx.deletingPathExtension().lastPathComponent + ".pdf")
        guard FileManager.default.fileExists(atPath: pdf.path) else {
            XCTFail("LibreOffice could not render \(docx.lastPathComponent): \(r.err)")
            return ""
        }
        return try run(["pdftotext", "-layout", pdf.path, "-"]).out
    }

    /// Checks that `theirs` holds `ours` in order, with nothing else but list numbers, bullets and note
    /// marks (digits, roman numerals, also glued to the word before them).
    static func assertSameWords(_ ours: [String], _ theirs: [String], _ label: String,
                                file: StaticString = #filePath, line: UInt = #line) {
        func isMark(_ s: Substring) -> Bool { s.allSatisfy { $0.isNumber || "ivxlc".contains($0) } }
        var i = 0
        var extra: [String] = []
        for w in theirs {
            if i < ours.count && (ours[i] == w || (w.hasPrefix(ours[i]) && isMark(w.dropFirst(ours[i].count)))) {
                i += 1
            } else {
                extra.append(w)
            }
        }
        XCTAssertEqual(i, ours.count, "\(label): words missing or out of order from '\(i < ours.count ? ours[i] : "")' on",
                       file: file, line: line)
        XCTAssertEqual(extra.filter { !isMark($0[...]) }, [], "\(label): words that are not ours", file: file, line: line)
    }

    /// pandoc's native AST of a DOCX with every change kept.
    static func pandocNative(_ docx: URL) throws -> String {
        try require("pandoc")
        let r = try run(["pandoc", "--track-changes=all", "-f", "docx", "-t", "native", docx.path])
        XCTAssertEqual(r.status, 0, "pandoc failed: \(r.err)")
        return r.out
    }

    /// Opens a DOCX with python-docx; returns its paragraph texts.
    static func pythonDocxParagraphs(_ docx: URL) throws -> [String] {
        try require("python-docx", check: ["python3", "-c", "import docx"])
        let r = try run(["python3", "-c", "import docx,sys\nfor p in docx.Document(sys.argv[1]).paragraphs: print(p.text)", docx.path])
        XCTAssertEqual(r.status, 0, "python-docx could not open \(docx.lastPathComponent): \(r.err)")
        return r.out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// The words of `text`: letters and digits, in order.
    static func words(_ text: String) -> [String] {
        text.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
    }
}
