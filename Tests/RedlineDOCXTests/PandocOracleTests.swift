import Foundation
import RedlineCore
import XCTest

/// pandoc's DOCX test files come with its view of them (`pandoc/oracles/*.native`, for the
/// `--track-changes` mode in the name: `_accept`, `_reject`, `_all`; no suffix means `all`).
/// We compare the text, comment bodies and notes in reading order, with all whitespace removed, because of
/// pandoc's known quirks:
/// - spaces at the edge of an insertion or deletion are lost (pandoc issue 4427);
/// - comment replies are flattened into separate comments at the parent's place (we put a reply's body
///   right after its parent's, which gives the same text order);
/// - formatting changes (`w:rPrChange`) are ignored, so they cannot differ in text anyway.
/// `unicode.native` is the oracle of pandoc's RTF reader (`unicode.rtf`), not of `unicode.docx`: skipped.
final class PandocOracleTests: XCTestCase {
    func testTextMatchesPandocsOracles() throws {
        let oracles = Fixtures.corpus.appendingPathComponent("pandoc/oracles")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: oracles.path)) ?? []
        try XCTSkipIf(names.isEmpty, "shared corpus not found")
        var checked = 0
        for name in names.sorted() where name.hasSuffix(".native") {
            var base = String(name.dropLast(7))
            var mode = ChangeMode.marked
            for (suffix, m) in [("_accept", ChangeMode.accept), ("_reject", .reject), ("_all", .marked)] where base.hasSuffix(suffix) {
                base.removeLast(suffix.count)
                mode = m
            }
            let docx = Fixtures.shared("pandoc/\(base).docx")
            // `unicode.native` and others belong to pandoc's RTF reader tests (an .rtf of the same name).
            guard FileManager.default.fileExists(atPath: docx),
                  !FileManager.default.fileExists(atPath: Fixtures.shared("pandoc/\(base).rtf")) else { continue }
            let native = try String(contentsOf: oracles.appendingPathComponent(name), encoding: .utf8)
            let doc = try Fixtures.read(docx).applying(mode == .marked ? [] : [ReviewTransform(mode)])
            XCTAssertEqual(squeezed(Self.text(of: doc)), squeezed(Self.text(ofNative: native)), "\(base) \(mode)")
            checked += 1
        }
        XCTAssertGreaterThanOrEqual(checked, 10)
    }

    private func squeezed(_ s: String) -> String { s.filter { !$0.isWhitespace } }

    /// Our text in reading order: a comment thread's bodies at its anchor, a note's text at its reference.
    static func text(of doc: Document) -> String {
        var out = ""
        let notes = Dictionary(doc.notes.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let threads = Dictionary(grouping: doc.comments, by: { $0.parentID ?? $0.id })
        func blocks(_ bs: [Block]) { for b in bs { b.forEachInline(visit); out += " " } }
        func visit(_ i: Inline) {
            switch i {
            case .text(let s), .code(let s): out += s
            case .commentStart(let id), .commentPoint(let id):
                for c in threads[id] ?? [] { blocks(c.body) }
            case .noteReference(let id): blocks(notes[id]?.blocks ?? [])
            default: break
            }
        }
        blocks(doc.blocks)
        return out
    }

    /// The text of pandoc's native output: every `Str` in order.
    static func text(ofNative native: String) -> String {
        var out = ""
        var chars = Array(native.unicodeScalars)[...]
        while let r = chars.firstRange(of: Array("Str \"".unicodeScalars)) {
            chars = chars[r.upperBound...]
            while let c = chars.first {
                chars = chars.dropFirst()
                if c == "\"" { break }
                if c != "\\" { out.unicodeScalars.append(c); continue }
                guard let e = chars.first else { break }
                if let d = e.properties.numericType, d == .decimal {
                    let digits = chars.prefix { $0.properties.numericType == .decimal }
                    chars = chars.dropFirst(digits.count)
                    if let v = UInt32(String(String.UnicodeScalarView(digits))), let u = Unicode.Scalar(v) { out.unicodeScalars.append(u) }
                    continue
                }
                chars = chars.dropFirst()
                switch e {
                case "n": out += "\n"
                case "t": out += "\t"
                case "&": break
                default: out.unicodeScalars.append(e)
                }
            }
            out += " "
        }
        return out
    }
}
