import RedlineCore

extension DocumentComparer {
    /// Paragraph styles of a title block (pandoc writes the front matter into a DOCX's body so): lower-cased.
    static let titleBlockStyles: Set<String> = ["title", "subtitle", "author", "date", "abstract", "abstract title"]

    /// Metadata keys compared as metadata (reported, not marked): the title block's, and the description fields.
    static let comparedMetadataKeys = ["title", "subtitle", "author", "date", "abstract", "subject", "keywords", "description"]

    /// How many leading blocks of `doc` are its title block: a first paragraph in the Title style whose text is
    /// `doc`'s own metadata title, and the paragraphs in title-block styles (Subtitle, Author, Date, Abstract)
    /// right after it. 0 when the body does not start with its metadata's title.
    static func titleBlockLength(_ doc: Document) -> Int {
        func words(_ s: String) -> [Substring] { s.split(whereSeparator: { $0.isWhitespace }) }
        guard let title = doc.metadata["title"]?.strings.joined(separator: " "), !words(title).isEmpty,
              case .paragraph(let first)? = doc.blocks.first, first.style.name?.lowercased() == "title",
              words(first.content.plainText) == words(title) else { return 0 }
        var n = 1
        while n < doc.blocks.count, case .paragraph(let p) = doc.blocks[n], let name = p.style.name?.lowercased(),
              titleBlockStyles.contains(name), name != "title" { n += 1 }
        return n
    }

    /// Whether `doc`'s first block is a paragraph in the Title style.
    static func startsWithTitle(_ doc: Document) -> Bool {
        if case .paragraph(let p)? = doc.blocks.first { return p.style.name?.lowercased() == "title" }
        return false
    }

    /// The comparison with the metadata compared as metadata: a title block that one side shows in its body and the
    /// other keeps only in its metadata (a DOCX pandoc made from Markdown front matter, against that Markdown) is
    /// left out of the comparison, NEW's put back unmarked at the start; metadata fields that differ
    /// (`comparedMetadataKeys`) are reported as `compare.metadata`, the result keeping NEW's.
    static func comparingMetadata(old: Document, new: Document, diagnostics: Diagnostics,
                                  compare: (Document, Document) -> (Document, CompareStats)) -> (Document, CompareStats) {
        let differing = comparedMetadataKeys.filter { key in
            (old.metadata[key]?.strings ?? []).map(normalizedSpace) != (new.metadata[key]?.strings ?? []).map(normalizedSpace)
        }
        if !differing.isEmpty {
            let shown = differing.map { key -> String in
                func value(_ d: Document) -> String { d.metadata[key].map { "\"\($0.strings.joined(separator: "; "))\"" } ?? "none" }
                return "\(key) (OLD \(value(old)), NEW \(value(new)))"
            }
            diagnostics.report(.compareMetadata,
                               "the metadata differ: \(shown.joined(separator: ", ")); metadata is not marked, the result has NEW's",
                               count: differing.count)
        }
        let oldTitle = titleBlockLength(old), newTitle = titleBlockLength(new)
        guard (oldTitle > 0 && newTitle == 0 && !startsWithTitle(new)) || (newTitle > 0 && oldTitle == 0 && !startsWithTitle(old)) else {
            return compare(old, new)
        }
        var a = old, b = new
        a.blocks.removeFirst(oldTitle)
        b.blocks.removeFirst(newTitle)
        var (result, stats) = compare(a, b)
        result.blocks.insert(contentsOf: new.blocks[..<newTitle], at: 0)
        return (result, stats)
    }

    private static func normalizedSpace(_ s: String) -> String {
        s.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}
