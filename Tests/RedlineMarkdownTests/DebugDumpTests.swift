import XCTest
import Foundation
@testable import RedlineMarkdown
import RedlineCore

/// Prints the model of the file named by REDLINE_DUMP (a development aid; does nothing otherwise).
final class DebugDumpTests: XCTestCase {
    func testDump() throws {
        guard let path = ProcessInfo.processInfo.environment["REDLINE_DUMP"] else { return }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let d = Diagnostics()
        let doc = try MarkdownReader.document(text, diagnostics: d)
        dump(doc)
        print(d.all)
    }
}

/// Writes the generated document, its Markdown and what was read back for REDLINE_SEED to /tmp (a development aid).
final class DebugSeedTests: XCTestCase {
    func testSeed() throws {
        guard let s = ProcessInfo.processInfo.environment["REDLINE_DEBUG_SEED"], let seed = UInt64(s) else { return }
        let formatting = ProcessInfo.processInfo.environment["REDLINE_DEBUG_FORMATTING"] == "1"
        var g = DocumentGenerator(seed: seed, formatting: formatting)
        let doc = g.document()
        var o = WriteOptions()
        o.preserveFormatting = formatting
        let md = try MarkdownWriter.string(doc, options: o)
        let back = try MarkdownReader.document(md)
        var a = "", b = ""
        dump(doc, to: &a)
        dump(back, to: &b)
        try a.write(toFile: "/tmp/seed-expected.txt", atomically: true, encoding: .utf8)
        try b.write(toFile: "/tmp/seed-got.txt", atomically: true, encoding: .utf8)
        try md.write(toFile: "/tmp/seed.md", atomically: true, encoding: .utf8)
    }
}
