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
        var rewriter = Comparer(ids: ids, noteIDs: noteIDs)
        func block(_ b: Block) -> Block { rewriter.rewriteBlock(b) ?? b }
        var out = d
        out.blocks = rewriter.rewriteBlocks(d.blocks)
        // DOCX gives comment and note bodies the "annotation text"/"footnote text" styles and an empty comment an
        // empty paragraph and author: both mean "nothing set" here.
        func body(_ bs: [Block]) -> [Block] {
            let plainNames: Set<String> = ["annotation text", "footnote text", "endnote text"]
            let out = bs.map { b -> Block in
                guard case .paragraph(var p) = b, let n = p.style.name, plainNames.contains(n.lowercased()) else { return block(b) }
                p.style = ParagraphStyle()
                return block(.paragraph(p))
            }
            return out == [.paragraph(Paragraph([]))] ? [] : out
        }
        out.comments = d.comments.map { c in
            var c = c
            if c.author == "" { c.author = nil }
            c.id = ids[c.id] ?? c.id
            c.parentID = c.parentID.map { ids[$0] ?? $0 }
            c.resolved = false
            c.body = body(c.body)
            return c
        }
        out.notes = d.notes.map { n in
            var n = n
            n.id = noteIDs[n.id] ?? n.id
            n.blocks = body(n.blocks)
            return n
        }
        return out
    }

    /// The rewriter behind `comparable`: ids renumbered or dropped, adjacent changes by one hand joined,
    /// explicit zero paragraph formatting as none, "heading N" style names of level-N headings dropped.
    struct Comparer: ModelRewriter {
        let ids: [String: String]
        let noteIDs: [String: String]

        mutating func rewriteInlines(_ xs: [Inline]) -> [Inline] { InlineBuilder.normalized(descend(into: xs)) }

        mutating func rewriteInline(_ x: Inline) -> [Inline] {
            switch x {
            case .commentStart(let id): return [.commentStart(ids[id] ?? id)]
            case .commentEnd(let id): return [.commentEnd(ids[id] ?? id)]
            case .commentPoint(let id): return [.commentPoint(ids[id] ?? id)]
            case .noteReference(let id): return [.noteReference(noteIDs[id] ?? id)]
            case .insertion(var c, let k): c.id = nil; return [.insertion(c, rewriteInlines(k))]
            case .deletion(var c, let k): c.id = nil; return [.deletion(c, rewriteInlines(k))]
            case .substitution(var c, let a, let b):
                c.id = nil
                return [.substitution(c, deleted: rewriteInlines(a), inserted: rewriteInlines(b))]
            default: return [descend(into: x)]
            }
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

        mutating func rewriteParagraph(_ paragraph: Paragraph) -> Paragraph {
            var p = paragraph
            p.style = style(p.style)
            // Adjacent changes by the same hand (separate ids in DOCX, dropped above) are one change.
            p.content = InlineBuilder.pairingSubstitutions(InlineBuilder.inlines(from: rewriteInlines(p.content).runs))
            p.markChange = p.markChange.map(RTFDOCXTests.anonymousID)
            return p
        }

        mutating func rewriteBlock(_ b: Block) -> Block? {
            let r = descend(into: b)
            guard case .heading(let l, var p)? = r else { return r }
            // "heading 1" is what a level-1 heading is called in both formats.
            if p.style.name?.lowercased() == "heading \(l)" { p.style.name = nil }
            return .heading(level: l, p)
        }
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

    /// The document as RTF can hold it, with each difference one the RTF writer reports: moves become a
    /// deletion and an insertion, a change inside another keeps the inner one, formatting changes and row
    /// changes go, equations are their TeX as text.
    static func rtfCarriable(_ d: Document) -> (Document, Set<String>) {
        var codes = Set<String>()
        func inlines(_ xs: [Inline]) -> [Inline] {
            InlineBuilder.normalized(xs.flatMap { x -> [Inline] in
                switch x {
                case .move(let m, let c):
                    codes.insert("rtf.move-as-change")
                    return [m.side == .from ? .deletion(m.change, inlines(c)) : .insertion(m.change, inlines(c))]
                case .formatChange(_, let c):
                    codes.insert("rtf.format-change-dropped")
                    return inlines(c)
                case .math(_, let tex):
                    // Equations are written as their TeX source (lossy.math).
                    codes.insert("lossy.math")
                    return [.text(tex)]
                default:
                    return [x.mapChildren(inlines)]
                }
            })
        }
        /// As runs, where an inner change wins (what RTF keeps), then nested again.
        func carried(_ xs: [Inline]) -> [Inline] {
            let moved = inlines(xs)
            if RTFSink.hasNestedChange(moved, in: .none) { codes.insert("rtf.nested-change") }
            return InlineBuilder.pairingSubstitutions(InlineBuilder.inlines(from: moved.runs))
        }
        func block(_ b: Block) -> Block {
            switch b {
            case .paragraph(var p):
                p.content = carried(p.content)
                if p.styleChange != nil { codes.insert("rtf.paragraph-style-change-dropped"); p.styleChange = nil }
                return .paragraph(p)
            case .heading(let l, var p):
                p.content = carried(p.content)
                if p.styleChange != nil { codes.insert("rtf.paragraph-style-change-dropped"); p.styleChange = nil }
                return .heading(level: l, p)
            case .table(var t):
                for r in t.rows.indices where t.rows[r].change != nil {
                    codes.insert("rtf.row-change-dropped")
                    t.rows[r].change = nil
                }
                return Block.table(t).mapBlockArrays { $0.map(block) }
            default:
                return b.mapBlockArrays { $0.map(block) }
            }
        }
        var out = d
        out.blocks = d.blocks.map(block)
        out.comments = d.comments.map { c in
            var c = c
            if c.resolved { codes.insert("rtf.comment-resolved-dropped") }
            c.body = c.body.map(block)
            return c
        }
        out.notes = d.notes.map { n in var n = n; n.blocks = n.blocks.map(block); return n }
        return (out, codes)
    }

    func testDOCXToRTFAndBack() throws {
        let dir = RTFTestSupport.repository.appendingPathComponent("Corpus/docx")
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { $0.hasSuffix(".docx") }.sorted()
        XCTAssertFalse(files.isEmpty)
        for f in files {
            let source = try Converter.read(.file(dir.appendingPathComponent(f).path), format: docx)
            let (carriable, expectedCodes) = Self.rtfCarriable(source)
            let doc = Self.comparable(carriable)
            let diags = Diagnostics()
            let back = Self.comparable(try convert(source, to: rtf, diags))
            let reported = Set(diags.all.map(\.code.rawValue))
            XCTAssertTrue(expectedCodes.isSubset(of: reported), "\(f): expected \(expectedCodes.sorted()), reported \(reported.sorted())")
            if back.blocks != doc.blocks { XCTFail("\(f): " + RTFTestSupport.difference(back.blocks, doc.blocks)) }
            XCTAssertEqual(back.comments, doc.comments, f)
            XCTAssertEqual(back.notes, doc.notes, f)
        }
    }
}
