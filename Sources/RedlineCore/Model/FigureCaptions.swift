import Foundation

/// Figures in formats that show a caption as a paragraph (DOCX, RTF): a Markdown figure (a picture alone in its
/// paragraph with alt text, which is its caption, as pandoc reads it) is written as the picture's paragraph and a
/// caption paragraph under it (pandoc's "Captioned Figure" and "Image Caption" styles). Read back, a picture alone in
/// its paragraph followed by a caption paragraph whose text is the picture's alt text is the figure again.
public enum FigureCaptions {
    /// The style names of the picture's paragraph and of its caption.
    public static let figureName = "Captioned Figure", captionName = "Image Caption"

    /// The caption to write under `p` when it is a figure: a plain paragraph (no style, change, section or box)
    /// holding one picture with alt text whose bytes the document has, of a kind the writer `shows` (a picture it
    /// writes as its alt text gets no caption under that); nil otherwise.
    public static func caption(of p: Paragraph, shows: (MediaKind) -> Bool) -> String? {
        guard p.style.isEmpty, p.markChange == nil, p.styleChange == nil, p.sectionEnd == nil, p.textBox == nil,
              case .image(let image)? = p.content.first, let item = image.media, shows(item.kind) else { return nil }
        return figureAlt(p)
    }

    /// The alt text of `p` when it is a picture alone in a paragraph without a mark change (the figure a caption
    /// after it may belong to).
    public static func figureAlt(_ p: Paragraph) -> String? {
        guard p.markChange == nil, p.content.count == 1, case .image(let image) = p.content[0] else { return nil }
        let alt = image.alt.trimmingCharacters(in: .whitespacesAndNewlines)
        return alt.isEmpty ? nil : alt
    }

    /// Whether `p` is the caption of a figure whose alt text is `alt`: a paragraph in a caption style ("Image
    /// Caption", Word's "caption") without changes, whose text is `alt`.
    public static func isCaption(_ p: Paragraph, of alt: String) -> Bool {
        guard let name = p.style.name?.lowercased(), name == "image caption" || name == "caption",
              p.markChange == nil, p.styleChange == nil, p.sectionEnd == nil else { return false }
        for i in p.content {
            switch i {
            case .text, .emphasis, .strong: continue
            default: return false
            }
        }
        return Block.paragraph(p).plainText.trimmingCharacters(in: .whitespacesAndNewlines) == alt
    }
}
