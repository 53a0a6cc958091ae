import RedlineCore
import RedlineXML

/// A Markdown author's own lines for the blocks Redline wrote into a DOCX (`Paragraph.source`, `List.source`,
/// `Table.source`: wrapping, `_x_` or `*x*`, `+` bullets, table padding), kept in one custom XML part
/// (`customXml/item1.xml`, root `md:sources` in `namespace`) so that md → DOCX → md gives the author's text
/// back. Each entry is keyed by a hash of the block as the DOCX reader reads it back (`key`): an entry is used
/// only while its block is still what Redline wrote; a block a co-author changed (its text, formatting, a tracked
/// change or a comment in it) reads as it now is and is written anew. Entries of one key are used in the order
/// written. Word and LibreOffice keep custom XML parts when they save a document.
enum MarkdownSources {
    /// The namespace of the part's root element.
    static let namespace = "urn:redline:markdown-source:1"
    /// The part's name in a package Redline writes.
    static let partName = "customXml/item1.xml"

    // MARK: Writing

    /// The source kept with a top-level block while it is still the block that was read, and its key; nil for
    /// a block without one.
    static func entry(of block: Block) -> (key: String, text: String)? {
        let source: SourceText
        switch block {
        case .paragraph(let p), .heading(_, let p): source = p.source
        case .list(let l): source = l.source
        case .table(let t): source = t.source
        default: return nil
        }
        guard !source.isEmpty, let text = source.text(ifStill: block), writable(text), !isPlainLine(block, text),
              let key = BlockShape.key(block) else { return nil }
        return (key, text)
    }

    /// A paragraph (or ATX heading) whose source is its text on one line of letters, digits, single spaces and
    /// plain punctuation, starting with a letter: the Markdown writer writes it so anyway, so no entry is
    /// needed (most paragraphs of unwrapped prose).
    private static func isPlainLine(_ block: Block, _ text: String) -> Bool {
        let content: [Inline], prefix: String
        switch block {
        case .paragraph(let p): (content, prefix) = (p.content, "")
        case .heading(let level, let p) where p.headingAttributes == nil:
            (content, prefix) = (p.content, String(repeating: "#", count: level) + " ")
        default: return false
        }
        guard content.count == 1, case .text(let t) = content[0], text.utf8.count == prefix.utf8.count + t.utf8.count,
              text.hasPrefix(prefix), text.hasSuffix(t), t.first?.isLetter == true else { return false }
        var space = false
        for s in t.unicodeScalars {
            if s == " " {
                if space { return false }
                space = true
                continue
            }
            space = false
            if s.value >= 0x80 ? !s.properties.isAlphabetic : !(s.properties.isAlphabetic || ("0"..."9").contains(s) || ",.;:'\"?!()-".unicodeScalars.contains(s)) {
                return false
            }
        }
        return !space
    }

    /// Whether XML 1.0 can hold `text` as it is (no control characters but tab and line feed, no CR: the
    /// parser would make CR LF a line feed).
    private static func writable(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { s in
            s.value >= 0x20 ? (s.value < 0xFFFE && s.value != 0x7F) : s == "\n" || s == "\t"
        }
    }

    /// The part's start: the declaration and the root's start tag.
    static func begin(into x: inout XMLText) {
        x.raw(xmlDeclaration)
        x.open("md:sources", [("xmlns:md", namespace)])
    }

    /// One entry.
    static func add(_ key: String, _ text: String, into x: inout XMLText) {
        x.element("md:s", [("k", key)], text: text)
    }

    /// The part's end.
    static func end(into x: inout XMLText) { x.close("md:sources") }

    /// The part's properties (`customXml/itemProps1.xml`), its item id derived from the part's name so the
    /// package stays deterministic.
    static let propertiesXML = xmlDeclaration
        + "<ds:datastoreItem ds:itemID=\"{6D6B8A51-52C1-4E2B-9F0A-4D61726B646E}\" "
        + "xmlns:ds=\"http://schemas.openxmlformats.org/officeDocument/2006/customXml\"><ds:schemaRefs>"
        + "<ds:schemaRef ds:uri=\"\(namespace)\"/></ds:schemaRefs></ds:datastoreItem>"

    /// The part's relationships (to its properties).
    static let relationshipsXML = xmlDeclaration
        + "<Relationships xmlns=\"\(NS.packageRels)\"><Relationship Id=\"rId1\" "
        + "Type=\"\(NS.officeRels)/customXmlProps\" Target=\"itemProps1.xml\"/></Relationships>"

    // MARK: Reading

    /// The entries of a package's Markdown sources part, by key in the order written (empty for a package
    /// without one: every other DOCX).
    final class Table {
        private var byKey: [String: [String]] = [:]
        private var used: [String: Int] = [:]

        var isEmpty: Bool { byKey.isEmpty }

        init() {}

        /// Reads the custom XML parts the main document relates to, taking the one whose root is in `namespace`.
        /// A part that is no well-formed XML (another tool's, or this one damaged) is passed over: it holds no
        /// text of the document, so the document reads as it would without it.
        init(_ package: DOCXPackage) {
            for r in package.relationships.values where r.kind == "customXml" && !r.external {
                guard let entry = package.archive.entry(named: r.target) else { continue }
                var found: [String: [String]] = [:]
                var root = true
                do {
                    let x = try package.xml(entry)
                    while let k = try x.next() {
                        guard k == .start else { continue }
                        if root {
                            guard x.localName == "sources", x.namespaceURI == MarkdownSources.namespace else { break }
                            root = false
                        } else if x.depth == 1, x.localName == "s", let key = x.attribute("k") {
                            found[key, default: []].append(try x.elementText())
                        }
                    }
                } catch {
                    continue
                }
                if !root {
                    byKey = found
                    return
                }
            }
        }

        /// `block` with its author's source attached when one was kept for it and it is as Redline wrote it
        /// (`isAsWritten`); else `block` as it is.
        func attach(_ block: Block) -> Block {
            guard !byKey.isEmpty, Self.isAsWritten(block), let key = BlockShape.key(block),
                  let text = take(key) else { return block }
            switch block {
            case .paragraph(var p):
                p.source = SourceText(text, of: block, readFromText: false)
                return .paragraph(p)
            case .heading(let level, var p):
                p.source = SourceText(text, of: block, readFromText: false)
                return .heading(level: level, p)
            case .list(var l):
                l.source = SourceText(text, of: block, readFromText: false)
                return .list(l)
            case .table(var t):
                t.source = SourceText(text, of: block, readFromText: false)
                return .table(t)
            default:
                return block
            }
        }

        private func take(_ key: String) -> String? {
            guard let list = byKey[key] else { return nil }
            let n = used[key, default: 0]
            guard n < list.count else { return nil }
            used[key] = n + 1
            return list[n]
        }

        /// Whether `block` reads as Redline's DOCX writer writes a block from Markdown: no paragraph style but, for
        /// a heading, its heading style (`ParagraphStyle.isPlainHeadingStyle`). False when a co-author set one
        /// (a style, an alignment, an indent): then the block is not the one written from Markdown.
        static func isAsWritten(_ block: Block) -> Bool {
            switch block {
            case .paragraph(let p): return p.style == ParagraphStyle()
            case .heading(let level, let p): return p.style.isPlainHeadingStyle(level: level)
            case .list(let l): return l.items.allSatisfy { $0.allSatisfy(plainInside) }
            case .table(let t): return t.rows.allSatisfy { $0.cells.allSatisfy { $0.blocks.allSatisfy(plainInside) } }
            default: return false
            }
        }

        /// A block inside a list or table as Redline writes it from Markdown: paragraphs with no style.
        private static func plainInside(_ b: Block) -> Bool {
            switch b {
            case .paragraph(let p), .heading(_, let p): return p.style == ParagraphStyle()
            case .list(let l): return l.items.allSatisfy { $0.allSatisfy(plainInside) }
            case .blockQuote(let bs): return bs.allSatisfy(plainInside)
            case .table: return false
            case .codeBlock, .thematicBreak, .raw: return true
            }
        }
    }
}
