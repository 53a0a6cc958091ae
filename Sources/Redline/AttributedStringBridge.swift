import Foundation
import RedlineCore

/// Redline's attributes for Foundation's `AttributedString`: paragraph formatting, heading level, character
/// formatting, links, tracked changes and comment ranges, so Swift apps can edit Redline documents as
/// attributed text and hand them back.
///
///     let doc = try Converter.read(.file("draft.rtf"), format: FormatRegistry.named("rtf")!)
///     var text = AttributedString(redline: doc)
///     text.redlineParagraphStyle        // per run: ParagraphStyle of its paragraph
///     let back = Document(redline: text, header: doc.header, comments: doc.comments)
///
/// Paragraphs end in "\n" (which carries the paragraph's attributes); a line break inside a paragraph is
/// U+2028. Lists, quotations and tables become their paragraphs in reading order; note references,
/// images and point comments are not carried.
extension AttributeScopes {
    /// The attributes Redline reads and writes, plus Foundation's.
    public struct RedlineAttributes: AttributeScope {
        public let redlineParagraphStyle: RedlineParagraphStyleAttribute
        public let redlineHeadingLevel: RedlineHeadingLevelAttribute
        public let redlineTextFormat: RedlineTextFormatAttribute
        public let redlineLink: RedlineLinkAttribute
        public let redlineChange: RedlineChangeAttribute
        public let redlineParagraphMarkChange: RedlineParagraphMarkChangeAttribute
        public let redlineComments: RedlineCommentsAttribute
        public let foundation: FoundationAttributes
    }

    /// Redline's attribute scope.
    public var redline: RedlineAttributes.Type { RedlineAttributes.self }
}

extension AttributeDynamicLookup {
    /// `text.redlineParagraphStyle`, `run.redlineTextFormat`, ...
    public subscript<T: AttributedStringKey>(dynamicMember keyPath: KeyPath<AttributeScopes.RedlineAttributes, T>) -> T {
        self[T.self]
    }
}

/// The paragraph formatting of the paragraph a character belongs to.
public enum RedlineParagraphStyleAttribute: CodableAttributedStringKey {
    public typealias Value = ParagraphStyle
    public static let name = "redline.paragraphStyle"
}

/// The heading level (1...6) of the paragraph a character belongs to.
public enum RedlineHeadingLevelAttribute: CodableAttributedStringKey {
    public typealias Value = Int
    public static let name = "redline.headingLevel"
}

/// The complete character formatting of a run (bold, italic, font, size, colours...).
public enum RedlineTextFormatAttribute: CodableAttributedStringKey {
    public typealias Value = TextFormat
    public static let name = "redline.textFormat"
}

/// A link with its title (Foundation's `link` is set too when the URL parses).
public enum RedlineLinkAttribute: CodableAttributedStringKey {
    public typealias Value = Link
    public static let name = "redline.link"
}

/// A tracked insertion, deletion or move covering the text.
public enum RedlineChangeAttribute: CodableAttributedStringKey {
    public typealias Value = RunChange
    public static let name = "redline.change"
}

/// A tracked change to a paragraph break, on the "\n" that ends the paragraph.
public enum RedlineParagraphMarkChangeAttribute: CodableAttributedStringKey {
    public typealias Value = ParagraphMarkChange
    public static let name = "redline.paragraphMarkChange"
}

/// The ids of the comments whose ranges cover the text (bodies stay in `Document.comments`).
public enum RedlineCommentsAttribute: CodableAttributedStringKey {
    public typealias Value = [String]
    public static let name = "redline.comments"
}

extension AttributedString {
    /// `runs` with each field atom replaced by its result's runs (in the field's change): attributed text shows a
    /// field as the text it computed.
    static func expandingFields(_ runs: [Run]) -> [Run] {
        guard runs.contains(where: { if case .atom(.field) = $0.content { return true } else { return false } }) else { return runs }
        var out: [Run] = []
        for run in runs {
            guard case .atom(.field(_, let result)) = run.content else { out.append(run); continue }
            for var inner in expandingFields(result.runs) {
                if inner.change == nil { inner.change = run.change }
                out.append(inner)
            }
        }
        return out
    }

    /// The paragraphs of `document` as attributed text with Redline's attributes.
    public init(redline document: Document) {
        var out = AttributedString()
        var openComments: [String] = []
        func addParagraph(_ p: Paragraph, heading: Int?) {
            var container = AttributeContainer()
            container[RedlineParagraphStyleAttribute.self] = p.style
            container[RedlineHeadingLevelAttribute.self] = heading
            for run in Self.expandingFields(p.content.runs) {
                var text: String
                switch run.content {
                case .text(let t): text = t
                case .lineBreak: text = "\u{2028}"
                case .atom(.commentStart(let id)): openComments.append(id); continue
                case .atom(.commentEnd(let id)): openComments.removeAll { $0 == id }; continue
                case .atom(.softBreak): text = " "
                case .atom(.math(_, let tex)): text = tex  // an equation as its TeX
                case .atom: continue
                }
                if text.isEmpty { continue }
                var piece = AttributedString(text, attributes: container)
                piece[RedlineTextFormatAttribute.self] = run.format.isPlain ? nil : run.format
                piece[RedlineLinkAttribute.self] = run.link
                if let l = run.link { piece.link = URL(string: l.url) }
                piece[RedlineChangeAttribute.self] = run.change
                piece[RedlineCommentsAttribute.self] = openComments.isEmpty ? nil : openComments
                out.append(piece)
            }
            var end = AttributedString("\n", attributes: container)
            end[RedlineParagraphMarkChangeAttribute.self] = p.markChange
            end[RedlineCommentsAttribute.self] = openComments.isEmpty ? nil : openComments
            out.append(end)
        }
        func walk(_ blocks: [Block]) {
            for b in blocks {
                switch b {
                case .paragraph(let p): addParagraph(p, heading: nil)
                case .heading(let l, let p): addParagraph(p, heading: l)
                default: walk(b.childBlocks)
                }
            }
        }
        walk(document.blocks)
        self = out
    }
}

extension Document {
    /// A document from attributed text: one paragraph (or heading) per "\n"-terminated line, runs from the
    /// Redline attributes (text without them is plain).
    public init(redline text: AttributedString, header: DocumentHeader = DocumentHeader(), comments: [Comment] = []) {
        var blocks: [Block] = []
        var runs: [Run] = []
        var open: [String] = []
        var current = ""
        var currentRun: Run?
        func flushText() {
            if var r = currentRun, !current.isEmpty {
                r.content = .text(current)
                runs.append(r)
            }
            current = ""
        }
        for run in text.runs {
            let ids = run[RedlineCommentsAttribute.self] ?? []
            let format = run[RedlineTextFormatAttribute.self] ?? TextFormat()
            var template = Run(.text(""), format: format, link: run[RedlineLinkAttribute.self],
                               change: run[RedlineChangeAttribute.self])
            if template.link == nil, let url = run.link { template.link = Link(url: url.absoluteString) }
            if ids != open {
                flushText()
                for id in open where !ids.contains(id) { runs.append(Run(.atom(.commentEnd(id)))) }
                for id in ids where !open.contains(id) { runs.append(Run(.atom(.commentStart(id)))) }
                open = ids
            }
            if currentRun != template { flushText(); currentRun = template }
            for ch in text[run.range].characters {
                switch ch {
                case "\n":
                    flushText()
                    var p = Paragraph(InlineBuilder.inlines(from: runs), style: run[RedlineParagraphStyleAttribute.self] ?? ParagraphStyle(),
                                      markChange: run[RedlineParagraphMarkChangeAttribute.self])
                    p.content = InlineBuilder.normalized(p.content)
                    if let l = run[RedlineHeadingLevelAttribute.self] { blocks.append(.heading(level: l, p)) } else { blocks.append(.paragraph(p)) }
                    runs = []
                case "\u{2028}":
                    flushText()
                    var r = template
                    r.content = .lineBreak
                    runs.append(r)
                default:
                    current.append(ch)
                }
            }
        }
        flushText()
        for id in open { runs.append(Run(.atom(.commentEnd(id)))) }
        if !runs.isEmpty { blocks.append(.paragraph(Paragraph(InlineBuilder.inlines(from: runs)))) }
        self.init(header: header, blocks: blocks, comments: comments)
    }
}
