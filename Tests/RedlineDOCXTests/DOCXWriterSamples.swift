import Foundation
import RedlineCore

/// Model documents built in code for the DOCX writer tests: every feature the writer carries.
enum DOCXWriterSamples {
    static let ann = Change(author: "Ann Editor", date: "2024-01-15T14:30:00Z")
    static let bob = Change(author: "Bob Author", date: "2024-02-01T09:00:00Z")

    static func p(_ inlines: Inline...) -> Block { .paragraph(Paragraph(inlines)) }

    /// A 40×20 red PNG as a data URI (how the RTF reader gives embedded pictures).
    static let redPNG = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAACgAAAAUCAIAAABwJOjsAAAAJElEQVR4nGM4o6Q0IIhh1OJRi0ctHrV41OJRi0ctHrV45FgMAJxAUi7vNQYmAAAAAElFTkSuQmCC"

    /// Review marks of every kind, comments (ranges across paragraphs, overlapping, point, reply,
    /// resolved), notes, formatting, lists, a table with row changes and spans, quote and code.
    static var marked: Document {
        var header = DocumentHeader()
        header.metadata["title"] = .text("The Marked Sample")
        header.metadata["author"] = .list(["Ann Editor", "Bob Author"])
        header.metadata["date"] = .text("2024-01-15")
        header.metadata["status"] = .text("draft")
        let blocks: [Block] = [
            .heading(level: 1, Paragraph([.text("Chapter "), .insertion(ann, [.text("One")])])),
            p(.text("The quick "), .deletion(ann, [.text("brown ")]), .text("fox "),
              .substitution(bob, deleted: [.text("jumps")], inserted: [.text("leaps")]),
              .text(" over the "), .commentStart("c1"), .text("lazy dog"), .commentEnd("c1"), .text(".")),
            p(.commentStart("c2"), .text("A comment that crosses "), .commentStart("c3"), .text("paragraphs")),
            p(.text("and ends here"), .commentEnd("c2"), .text(" while another"), .commentEnd("c3"),
              .text(" overlaps it. Point"), .commentPoint("c4"), .text(" comment.")),
            .paragraph(Paragraph([.text("This paragraph was split here")], markChange: .inserted(ann))),
            .paragraph(Paragraph([.text("and these two were merged")], markChange: .deleted(bob))),
            .paragraph(Paragraph([.text("Centred by a tracked change.")], style: ParagraphStyle(alignment: .center),
                                 styleChange: ParagraphStyleChange(change: ann, old: ParagraphStyle(alignment: .left)))),
            p(.text("Formats: "), .strong([.text("bold")]), .text(" "), .emphasis([.text("italic")]), .text(" "),
              .underline([.text("under")]), .text(" "), .strikethrough([.text("struck")]), .text(" x"),
              .superscript([.text("2")]), .text(" H"), .subscript([.text("2")]), .text("O "),
              .smallCaps([.text("caps")]), .text(" "), .highlight([.text("marked")]), .text(" "),
              .styled(CharacterStyle(fontFamily: "Georgia", fontSize: 14, color: RGBColor(red: 0xC0, green: 0, blue: 0)),
                      [.text("red")]), .text(" "), .code("let x = 1"), .text(" "),
              .link(Link(url: "https://example.com/a?b=1&c=2", title: "Example"), [.text("a link")]), .text(".")),
            p(.text("Made "), .formatChange(FormatChange(change: bob, old: TextFormat()), [.strong([.text("bold")])]),
              .text(" by Bob, noted"), .noteReference("n1"), .text(" and endnoted"), .noteReference("n2"), .text(".")),
            p(.text("Moved: "), .move(Move(change: ann, name: "move1", side: .from), [.text("this sentence.")])),
            p(.text("Here: "), .move(Move(change: ann, name: "move1", side: .to), [.text("this sentence.")])),
            .blockQuote([p(.text("A quoted line."))]),
            .list(List(kind: .bullet, items: [
                [p(.text("first bullet"))],
                [p(.text("second bullet")), .list(List(kind: .ordered(start: 3, delimiter: "."), items: [
                    [p(.text("three"))], [p(.text("four"))],
                ]))],
            ])),
            .codeBlock(CodeBlock(language: "swift", text: "let a = 1\n\tlet b = 2\n")),
            .table(Table(columns: [.left, .center, .right], headerRowCount: 1, rows: [
                TableRow([TableCell([p(.text("H1"))]), TableCell([p(.text("H2"))]), TableCell([p(.text("H3"))])]),
                TableRow([TableCell([p(.text("spans two"))], columnSpan: 2), TableCell([p(.text("tall"))], rowSpan: 2)]),
                TableRow([TableCell([p(.text("new"))]), TableCell([p(.text("row"))])], change: .inserted(ann)),
                TableRow([TableCell([p(.text("old"))]), TableCell([p(.text("gone"))]), TableCell([p(.text("row"))])],
                         change: .deleted(bob)),
            ])),
            .thematicBreak,
            p(.text("A picture: "), .image(Image(source: redPNG, title: "Red", alt: "a red box")), .text(".")),
            .raw(format: "html", text: "<div>raw</div>"),
            p(.text("The end.")),
        ]
        let comments = [
            Comment(id: "c1", author: "Ann Editor", initials: "AE", date: "2024-01-15T14:31:00Z",
                    body: [p(.text("Which dog?"))]),
            Comment(id: "c1r", author: "Bob Author", initials: "BA", date: "2024-01-16T08:00:00Z",
                    body: [p(.text("The lazy one."))], parentID: "c1"),
            Comment(id: "c2", author: "Bob Author", date: "2024-02-01T10:00:00Z",
                    body: [p(.text("Two paragraphs")), p(.text("of comment."))], resolved: true),
            Comment(id: "c3", author: "Ann Editor", body: [p(.text("Overlapping."))]),
            Comment(id: "c4", author: "Ann Editor", date: "2024-01-15T15:00:00Z", body: [p(.text("A point."))]),
        ]
        let notes = [
            Note(id: "n1", kind: .footnote, blocks: [p(.text("A footnote with "), .emphasis([.text("style")]), .text("."))]),
            Note(id: "n2", kind: .endnote, blocks: [p(.text("An endnote."))]),
        ]
        return Document(header: header, blocks: blocks, comments: comments, notes: notes)
    }
}
