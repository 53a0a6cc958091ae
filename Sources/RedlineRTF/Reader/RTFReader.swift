import Foundation
import RedlineCore

/// What a Scrivener `scrivcmt://ID` link stands for: a comment on the linked text, or an inline footnote
/// whose reference follows the linked text. Scrivener keeps both in the document's `content.comments`.
public enum ScrivenerAnnotation: Hashable, Sendable {
    case comment(Comment)
    case footnote(Note)
}

/// Reads RTF (Word, LibreOffice, TextEdit/Cocoa, Scrivener, WordPad, pandoc...) into the document model,
/// streaming one top-level block at a time.
///
/// Handles groups and `\*` destinations with an explicit stack (no recursion), `\uc`/`\u` with fallback
/// skipping, `\'hh` in the code page of `\ansicpg` or the current font's `\fcharset`, `\bin`, font, colour
/// and revision tables, the stylesheet, `\info`, character and paragraph formatting, lists (`\ls`, legacy
/// `\pn`), tables (nested with `\itap`), footnotes and endnotes, fields (HYPERLINK, Scrivener links),
/// annotations as comments, revisions as tracked changes, and PNG/JPEG pictures as `data:` images.
public struct RTFReader: FormatReader {
    /// Bodies for Scrivener `scrivcmt://ID` links, keyed by ID (from the document's `content.comments`).
    /// A linked comment anchors on the link's text; a linked footnote is referenced right after it.
    public var scrivenerAnnotations: [String: ScrivenerAnnotation]
    /// The link target for a Scrivener `scrivlnk://ID` document link; by default `#ID`.
    public var scrivenerLinkTarget: @Sendable (String) -> String

    /// A reader; `scrivenerAnnotations` and `scrivenerLinkTarget` matter only for Scrivener RTF.
    public init(scrivenerAnnotations: [String: ScrivenerAnnotation] = [:],
                scrivenerLinkTarget: @escaping @Sendable (String) -> String = { "#" + $0 }) {
        self.scrivenerAnnotations = scrivenerAnnotations
        self.scrivenerLinkTarget = scrivenerLinkTarget
    }

    /// Opens `input` and reads up to its first body text (tables, `\info`); throws `RedlineError` for input that
    /// is not RTF or cannot be read.
    public func open(_ input: DocumentInput, options: ReadOptions, diagnostics: Diagnostics) throws -> any ChunkSource {
        try RTFSource(input, reader: self, options: options, diagnostics: diagnostics)
    }

    /// Reads a whole document into memory.
    public func read(_ input: DocumentInput, options: ReadOptions = ReadOptions(),
                     diagnostics: Diagnostics = Diagnostics()) throws -> Document {
        var source = try RTFSource(input, reader: self, options: options, diagnostics: diagnostics)
        return try Document(reading: &source)
    }
}

/// The chunk source over one RTF input: the header is read on opening, then blocks as they complete.
public struct RTFSource: ChunkSource {
    /// Metadata from `\info` and `\*\userprops`, defaults from `\defchp`/`\defpap`.
    public let header: DocumentHeader
    private let parser: RTFParser

    init(_ input: DocumentInput, reader: RTFReader, options: ReadOptions, diagnostics: Diagnostics) throws {
        parser = try RTFParser(input, reader: reader, options: options, diagnostics: diagnostics)
        try parser.readHeader()
        header = parser.header
    }

    /// The next top-level block with the comments and notes it references.
    public mutating func next() throws -> Chunk? {
        try parser.nextChunk()
    }
}
