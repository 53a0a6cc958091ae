import Foundation
import XCTest
import RedlineCore
@testable import RedlineRTF

/// LibreOffice opens what the RTF writer produces: its plain-text export (which shows inserted and deleted
/// text alike) has the same words as the document with every change shown.
final class RTFLibreOfficeTests: XCTestCase {
    func testLibreOfficeReadsOurRTF() throws {
        guard let soffice = ["/usr/bin/soffice", "/usr/local/bin/soffice", "/opt/homebrew/bin/soffice"]
            .first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw XCTSkip("LibreOffice (soffice) is not installed")
        }
        let dir = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("redline-rtf-lo-\(getpid())")
        try? FileManager.default.removeItem(at: dir)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var docs: [(String, Document)] = []
        for i in 0..<6 {
            var g = DocumentGenerator(seed: 0x10 + UInt64(i))
            var d = g.document()
            d.blocks = d.blocks.map(Self.withoutNotes)
            d.notes = []
            docs.append(("generated-\(i)", d))
        }
        for fixture in ["scrivener-manuscript", "revisions-annotations"] {
            let path = RTFTestSupport.repository.appendingPathComponent("Corpus/rtf/\(fixture).rtf").path
            if FileManager.default.fileExists(atPath: path) { docs.append((fixture, try RTFTestSupport.readFile(path))) }
        }
        var paths: [String] = []
        for (name, d) in docs {
            let path = dir.appendingPathComponent("\(name).rtf").path
            try Data(try RTFWriter().write(d)).write(to: URL(fileURLWithPath: path))
            paths.append(path)
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: soffice)
        p.arguments = ["--headless", "-env:UserInstallation=file://\(dir.path)/profile", "--convert-to", "txt:Text",
                       "--outdir", dir.appendingPathComponent("out").path] + paths
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        for (name, d) in docs {
            let txt = dir.appendingPathComponent("out/\(name).txt")
            let theirs = try String(contentsOf: txt, encoding: .utf8).replacingOccurrences(of: "\u{FEFF}", with: "")
            let ours = Self.expectedText(d)
            // List markers are LibreOffice's own rendering (its bullets differ by level); compare the text.
            func isMarker(_ w: String) -> Bool {
                ["•", "◦", "▪", "–"].contains(w) || (w.count > 1 && (w.hasSuffix(".") || w.hasSuffix(")")) && Int(w.dropLast()) != nil)
            }
            XCTAssertEqual(RTFTestSupport.words(theirs).filter { !isMarker($0) }, RTFTestSupport.words(ours).filter { !isMarker($0) }, name)
        }
    }

    /// The text LibreOffice should show: every change, list markers, footnote numbers, rules as `* * *`.
    static func expectedText(_ d: Document) -> String {
        var out = ""
        var footnote = 0
        func inlines(_ xs: [Inline]) {
            for x in xs {
                switch x {
                case .text(let s), .code(let s): out += s
                case .lineBreak: out += "\n"
                case .softBreak: out += " "
                case .noteReference: footnote += 1; out += "\(footnote)"
                default: inlines(x.children)
                }
            }
        }
        func blocks(_ bs: [Block]) {
            for b in bs {
                switch b {
                case .paragraph(let p), .heading(_, let p): inlines(p.content); out += "\n"
                case .list(let l):
                    for (n, item) in l.items.enumerated() {
                        switch l.kind {
                        case .bullet: out += "• "
                        case .ordered(let s, let delimiter): out += "\(s + n)\(delimiter) "
                        }
                        blocks(item)
                    }
                case .table(let t): for r in t.rows { for c in r.cells { blocks(c.blocks) } }
                case .blockQuote(let q): blocks(q)
                case .codeBlock(let c): out += c.text
                case .thematicBreak: out += "* * *\n"
                case .raw: break
                }
            }
        }
        blocks(d.blocks)
        return out
    }

    static func withoutNotes(_ b: Block) -> Block {
        func strip(_ xs: [Inline]) -> [Inline] {
            InlineBuilder.normalized(xs.compactMap { x in
                if case .noteReference = x { return nil }
                return x.mapChildren(strip)
            })
        }
        switch b {
        case .paragraph(var p): p.content = strip(p.content); return .paragraph(p)
        case .heading(let l, var p): p.content = strip(p.content); return .heading(level: l, p)
        default: return b.mapBlockArrays { $0.map(withoutNotes) }
        }
    }
}
