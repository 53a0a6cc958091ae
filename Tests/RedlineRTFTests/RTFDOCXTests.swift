import Foundation
import XCTest
import Redline
@testable import RedlineRTF

/// DOCX ↔ RTF through Redline's own writers keeps text, formatting and review metadata.
final class RTFDOCXTests: XCTestCase {
    private let docx = FormatRegistry.named("docx")!
    private let rtf = FormatRegistry.named("rtf")!

    private func convert(_ d: Document, to format: Format, _ diags: Diagnostics = Diagnostics()) throws -> Document {
        let out = MemoryOutput()
        try Converter.write(d, format: format, to: out, diagnostics: diags)
        return try Converter.read(.bytes(out.bytes), format: format)
    }

    /// What both formats carry, for comparison: blocks, comments (without RTF-invisible resolved state and
    /// ids, which writers renumber), notes, and review marks.
    static func comparable(_ d: Document) -> Document {
        var ids: [String: String] = [:]
        for c in d.comments where ids[c.id] == nil { ids[c.id] = "c\(ids.count + 1)" }
        var noteIDs: [String: String] = [:]
        for n in d.notes where noteIDs[n.id] == nil { noteIDs[n.id] = "n\(noteIDs.count + 1)" }
        func inlines(_ xs: [Inline]) -> [Inline] {
            InlineBuilder.normalized(xs.map { x in
                switch x {
                case .commentStart(let id): return .commentStart(ids[id] ?? id)
                case .commentEnd(let id): return .commentEnd(ids[id] ?? id)
                case .commentPoint(let id): return .commentPoint(ids[id] ?? id)
                case .noteReference(let id): return .noteReference(noteIDs[id] ?? id)
                case .insertion(var c, let k): c.id = nil; return .insertion(c, inlines(k))
                case .deletion(var c, let k): c.id = nil; return .deletion(c, inlines(k))
                case .substitution(var c, let a, let b): c.id = nil; return .substitution(c, deleted: inlines(a), inserted: inlines(b))
                default: return x.mapChildren(inlines)
                }
            })
        }
        // RTF's \pard means left-aligned with zero indents and spacing: an explicit zero is the same as none.
        func style(_ s: ParagraphStyle) -> ParagraphStyle {
            var s = s
            if s.alignment == .left { s.alignment = nil }
            for k in [\ParagraphStyle.firstLineIndent, \.leftIndent, \.rightIndent, \.spaceBefore, \.spaceAfter] where s[keyPath: k] == 0 {
                s[keyPath: k] = nil
            }
            return s
        }
        func block(_ b: Block) -> Block {
            switch b {
            case .paragraph(var p):
                p.style = style(p.style)
                p.content = inlines(p.content)
                p.markChange = p.markChange.map(Self.anonymousID)
                return .paragraph(p)
            case .heading(let l, var p):
                p.style = style(p.style)
                p.content = inlines(p.content)
                p.markChange = p.markChange.map(Self.anonymousID)
                // "heading 1" is what a level-1 heading is called in both formats.
                if p.style.name?.lowercased() == "heading \(l)" { p.style.name = nil }
                return .heading(level: l, p)
            default: return b.mapBlockArrays { $0.map(block) }
            }
        }
        var out = d
        out.blocks = d.blocks.map(block)
        out.comments = d.comments.map { c in
            var c = c
            c.id = ids[c.id] ?? c.id
            c.parentID = c.parentID.map { ids[$0] ?? $0 }
            c.resolved = false
            c.body = c.body.map(block)
            return c
        }
        out.notes = d.notes.map { n in
            var n = n
            n.id = noteIDs[n.id] ?? n.id
            n.blocks = n.blocks.map(block)
            return n
        }
        return out
    }

    static func anonymousID(_ m: ParagraphMarkChange) -> ParagraphMarkChange {
        switch m {
        case .inserted(var c): c.id = nil; return .inserted(c)
        case .deleted(var c): c.id = nil; return .deleted(c)
        }
    }

    func testRTFToDOCXAndBack() throws {
        for name in ["scrivener-manuscript", "revisions-annotations"] {
            let path = RTFTestSupport.repository.appendingPathComponent("Corpus/rtf/\(name).rtf").path
            let doc = Self.comparable(try Converter.read(.file(path), format: rtf))
            let back = Self.comparable(try convert(doc, to: docx))
            if back.blocks != doc.blocks { XCTFail("\(name): " + RTFTestSupport.difference(back.blocks, doc.blocks)) }
            XCTAssertEqual(back.comments, doc.comments, name)
            XCTAssertEqual(back.notes, doc.notes, name)
        }
    }

    func testDOCXToRTFAndBack() throws {
        let dir = RTFTestSupport.repository.appendingPathComponent("Corpus/docx")
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { $0.hasSuffix(".docx") }.sorted()
        XCTAssertFalse(files.isEmpty)
        for f in files {
            let doc = Self.comparable(try Converter.read(.file(dir.appendingPathComponent(f).path), format: docx))
            let back = Self.comparable(try convert(doc, to: rtf))
            if back.blocks != doc.blocks { XCTFail("\(f): " + RTFTestSupport.difference(back.blocks, doc.blocks)) }
            XCTAssertEqual(back.comments, doc.comments, f)
            XCTAssertEqual(back.notes, doc.notes, f)
        }
    }
}
