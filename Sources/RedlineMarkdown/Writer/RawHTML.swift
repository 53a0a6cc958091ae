/// Whether raw HTML written as it stands reads back as the same raw HTML, cmark being the judge. Raw HTML from
/// elsewhere (a Word paragraph in the "Raw Block: html" style holding plain words) need not: the writer then
/// uses pandoc's explicit form, a ```` ```{=html} ```` fence or a `` `…`{=html} `` span, which read back as it.
enum RawHTML {
    /// `text` alone reads as one HTML block holding exactly it (a final line end aside).
    static func readsAsBlock(_ text: String) -> Bool {
        guard text.utf8.first == UInt8(ascii: "<") || text.utf8.first == UInt8(ascii: " ") else { return false }
        guard let doc = try? Cmark.parse(Array(text.utf8)), doc.children.count == 1,
              doc.children[0].kind == .htmlBlock else { return false }
        return trimmed(doc.children[0].literal) == trimmed(text)
    }

    /// `text` after a letter reads as one raw HTML inline holding exactly it.
    static func readsAsInline(_ text: String) -> Bool {
        guard text.utf8.first == UInt8(ascii: "<"),
              let doc = try? Cmark.parse(Array(("x" + text).utf8)), doc.children.count == 1,
              doc.children[0].kind == .paragraph else { return false }
        let inlines = doc.children[0].children
        return inlines.count == 2 && inlines[1].kind == .htmlInline && inlines[1].literal == text
    }

    private static func trimmed(_ s: String) -> Substring {
        var s = Substring(s)
        while s.hasSuffix("\n") { s = s.dropLast() }
        return s
    }
}
