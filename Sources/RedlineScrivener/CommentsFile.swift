import RedlineCore

/// One entry of a `content.comments` file: a comment or footnote whose body is RTF, anchored in the text by
/// a `scrivcmt://ID` link.
public struct ScrivenerComment: Hashable, Sendable {
    public var id: String
    /// `Footnote="Yes"`: a linked footnote rather than a comment.
    public var isFootnote: Bool
    /// The body as written: an RTF document.
    public var rtf: String
}

/// Reads `content.comments` (Scrivener 3) or `<ID>.comments` (Scrivener 2):
/// `<Comments><Comment ID="…" Footnote="Yes|No" Color="…"><![CDATA[{\rtf1 …}]]></Comment></Comments>`.
public enum CommentsFile {
    /// The comments in file order.
    public static func read(_ bytes: [UInt8]) throws -> [ScrivenerComment] {
        let root = try XMLTree.parse(bytes, name: "the comments file")
        guard root.name == "Comments" else {
            throw RedlineError.malformed("the comments file's root is <\(root.name)>, not <Comments>")
        }
        return root.children("Comment").compactMap { c in
            guard let id = c.attributes["ID"], !id.isEmpty else { return nil }
            return ScrivenerComment(id: id, isFootnote: c.attributes["Footnote"]?.lowercased() == "yes", rtf: c.text)
        }
    }
}
