import Foundation
import RedlineCore
import RedlineXML
import RedlineZip
import XCTest

/// Every DOCX in the shared corpus reads without error, and the tracked changes and comments we find
/// are exactly the ones in its XML, counted here straight from the parts.
final class CorpusCountTests: XCTestCase {
    struct Counts: Equatable, CustomStringConvertible {
        var insertions = 0, deletions = 0, moves = 0, insertedMarks = 0, deletedMarks = 0, rowChanges = 0, comments = 0
        var description: String {
            "ins \(insertions) del \(deletions) moves \(moves) marks +\(insertedMarks)/-\(deletedMarks) rows \(rowChanges) comments \(comments)"
        }
    }

    func testEveryCorpusDOCXReadsAndItsChangesAreCounted() throws {
        let all = Fixtures.sharedDOCX()
        try XCTSkipIf(all.isEmpty, "shared corpus not found")
        for rel in all {
            let path = Fixtures.shared(rel)
            let diagnostics = Diagnostics()
            let doc: Document
            do { doc = try Fixtures.read(path, diagnostics: diagnostics) } catch {
                XCTFail("\(rel): \(error)")
                continue
            }
            XCTAssertEqual(modelCounts(doc), try xmlCounts(path), rel)
            // Every comment that is not a reply has an anchor in the text.
            var anchored: Set<String> = []
            let walk: (Inline) -> Void = { i in
                switch i {
                case .commentStart(let id), .commentPoint(let id): anchored.insert(id)
                default: break
                }
            }
            for b in doc.blocks { b.forEachInline(walk) }
            for n in doc.notes { for b in n.blocks { b.forEachInline(walk) } }
            for c in doc.comments where c.parentID == nil { XCTAssertTrue(anchored.contains(c.id), "\(rel): comment \(c.id) has no anchor") }
        }
    }

    /// What the model holds: inline insertions/deletions (a substitution is one of each), moves (each end),
    /// paragraph-mark and row changes, comments; in the body, notes and comment bodies.
    func modelCounts(_ doc: Document) -> Counts {
        var c = Counts()
        c.comments = doc.comments.count
        func inline(_ i: Inline) {
            switch i {
            case .insertion: c.insertions += 1
            case .deletion: c.deletions += 1
            case .substitution: c.insertions += 1; c.deletions += 1
            case .move: c.moves += 1
            default: break
            }
        }
        func block(_ b: Block) {
            b.forEachInline(inline)
            b.forEachParagraph { p in
                switch p.markChange {
                case .inserted?: c.insertedMarks += 1
                case .deleted?: c.deletedMarks += 1
                case nil: break
                }
            }
            func rows(_ b: Block) {
                if case .table(let t) = b { c.rowChanges += t.rows.filter { $0.change != nil }.count }
                for child in b.childBlocks { rows(child) }
            }
            rows(b)
        }
        doc.blocks.forEach(block)
        doc.notes.forEach { $0.blocks.forEach(block) }
        doc.comments.forEach { $0.body.forEach(block) }
        return c
    }

    /// Run content that shows something (a field code alone, e.g. an inserted LISTNUM, shows nothing we keep).
    let visible: Set<String> = ["t", "delText", "tab", "br", "cr", "sym", "drawing", "pict", "footnoteReference",
                                "endnoteReference", "noBreakHyphen", "softHyphen"]

    /// The same, counted from the raw parts: `w:ins`/`w:del`/`w:moveFrom`/`w:moveTo` holding visible runs, marks
    /// (`w:pPr/w:rPr/w:ins|w:del`, a mark both inserted and deleted counting as neither), row changes
    /// (`w:trPr/w:ins|w:del`), `w:comment` elements. `mc:Fallback` content is skipped as Word shows the choice.
    func xmlCounts(_ path: String) throws -> Counts {
        var c = Counts()
        let zip = try ZipArchive(path: path)
        let ns = ["http://schemas.openxmlformats.org/wordprocessingml/2006/main": 1,
                  "http://purl.oclc.org/ooxml/wordprocessingml/main": 1,
                  "http://schemas.openxmlformats.org/markup-compatibility/2006": 2]
        for part in ["word/document.xml", "word/footnotes.xml", "word/endnotes.xml", "word/comments.xml"] {
            guard let bytes = try zip.read(named: part) else { continue }
            let x = try XMLReader(bytes: bytes, name: part, namespaces: ns)
            var stack: [String] = []
            var revisionHasRun: [Bool] = []
            var markIns = false, markDel = false
            while let k = try x.next() {
                switch k {
                case .text: continue
                case .start:
                    if x.namespace == 2 && x.localName == "Fallback" { try x.skipElement(); continue }
                    let name = x.namespace == 1 ? x.localName : "?"
                    let parent = stack.last ?? "", grand = stack.dropLast().last ?? ""
                    if ["ins", "del", "moveFrom", "moveTo"].contains(name) {
                        if parent == "rPr" && grand == "pPr" {
                            if name == "ins" { markIns = true } else if name == "del" { markDel = true }
                        } else if parent == "trPr" {
                            c.rowChanges += 1
                        }
                    }
                    if name == "comment" && part == "word/comments.xml" { c.comments += 1 }
                    if visible.contains(name) { revisionHasRun = revisionHasRun.map { _ in true } }
                    if name == "pPr" && parent == "p" { markIns = false; markDel = false }
                    stack.append(name)
                    revisionHasRun.append(false)
                case .end:
                    let name = stack.removeLast()
                    let hadRun = revisionHasRun.removeLast()
                    let parent = stack.last ?? ""
                    if hadRun && parent != "rPr" && parent != "trPr" && parent != "numPr" {
                        switch name {
                        case "ins": c.insertions += 1
                        case "del": c.deletions += 1
                        case "moveFrom", "moveTo": c.moves += 1
                        default: break
                        }
                    }
                    if name == "pPr" && parent == "p" {
                        if markIns && !markDel { c.insertedMarks += 1 }
                        if markDel && !markIns { c.deletedMarks += 1 }
                    }
                }
            }
        }
        return c
    }
}
