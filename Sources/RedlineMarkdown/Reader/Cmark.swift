internal import CCmarkGFM
import RedlineCore
import Foundation

/// A parsed Markdown node: a Swift mirror of one cmark-gfm node, so nothing outside this file
/// touches the C library. Block nodes carry their source lines (1-based, in the parsed text).
struct MDNode {
    /// What a node is.
    enum Kind: Equatable {
        case document, blockQuote, list, item, codeBlock, htmlBlock, paragraph, heading, thematicBreak
        case footnoteDefinition, table, tableRow, tableCell
        case text, softBreak, lineBreak, code, htmlInline, emphasis, strong, strikethrough, link, image
        case footnoteReference
        case other

        /// An inline node (whose source position the reader never reads: it is not mirrored).
        var isInline: Bool {
            switch self {
            case .text, .softBreak, .lineBreak, .code, .htmlInline, .emphasis, .strong, .strikethrough, .link, .image,
                 .footnoteReference: return true
            default: return false
            }
        }
    }

    var kind: Kind
    var children: [MDNode] = []
    /// Text of leaves (text, code, code block, HTML), footnote label of references and definitions.
    var literal: String = ""
    private var lines: (start: Int32, end: Int32, column: Int32) = (0, 0, 0)
    /// What only some block and link nodes have, out of line: a node is 56 bytes, not 128, and a paragraph
    /// of a million inlines is mirrored in a third of the memory (PERFORMANCE.md, "Small runs").
    private var box: ExtraBox?

    init(kind: Kind) { self.kind = kind }

    var startLine: Int { get { Int(lines.start) } set { lines.start = Int32(clamping: newValue) } }
    var endLine: Int { get { Int(lines.end) } set { lines.end = Int32(clamping: newValue) } }
    var startColumn: Int { get { Int(lines.column) } set { lines.column = Int32(clamping: newValue) } }
    /// Link/image URL; code block info string.
    var url: String { get { extra.url } set { extra.url = newValue } }
    var title: String { get { extra.title } set { extra.title = newValue } }
    var level: Int { get { extra.level } set { extra.level = newValue } }
    var ordered: Bool { get { extra.ordered } set { extra.ordered = newValue } }
    var start: Int { get { extra.start } set { extra.start = newValue } }
    var parenDelimiter: Bool { get { extra.parenDelimiter } set { extra.parenDelimiter = newValue } }
    var tight: Bool { get { extra.tight } set { extra.tight = newValue } }
    var isHeaderRow: Bool { get { extra.isHeaderRow } set { extra.isHeaderRow = newValue } }
    var alignments: [ColumnAlign] { get { extra.alignments } set { extra.alignments = newValue } }

    private struct Extra {
        var url = ""
        var title = ""
        var level = 0
        var ordered = false
        var start = 1
        var parenDelimiter = false
        var tight = false
        var isHeaderRow = false
        var alignments: [ColumnAlign] = []
    }

    private final class ExtraBox {
        var value: Extra
        init(_ value: Extra) { self.value = value }
    }

    private var extra: Extra {
        get { box?.value ?? Extra() }
        set {
            if box != nil, isKnownUniquelyReferenced(&box!) { box!.value = newValue } else { box = ExtraBox(newValue) }
        }
    }

    /// A table column alignment as cmark reports it.
    enum ColumnAlign { case none, left, center, right }
}

/// Parses Markdown text with cmark-gfm (CommonMark with its `<url>` autolinks, GFM tables and strikethrough).
/// GFM's bare-URL autolinks are off: text that looks like a URL stays text, so it round-trips exactly.
/// Footnotes are handled by the reader (see `CriticScanner`), not by cmark.
enum Cmark {
    /// Registers cmark-gfm's extensions once in the process. `cmark_gfm_core_extensions_ensure_registered` tests and
    /// sets a plain global flag: two threads calling it at once (compare and apply read two documents on two
    /// threads) both registered the extensions, and one registration leaked (fuzz-apply's intermittent
    /// LeakSanitizer report, allocations inside libcmark-gfm). A Swift `static let` is initialised once, thread-safely.
    static func ensureExtensions() { _ = registered }

    private static let registered: Void = cmark_gfm_core_extensions_ensure_registered()

    /// Parses `text` and returns the document node; throws when nesting is deeper than `maxDepth`.
    /// With `doubleTilde` only `~~text~~` is strikethrough (pandoc's Markdown, where `~x~` is a subscript);
    /// without it `~text~` is too (GitHub's).
    static func parse(_ text: [UInt8], footnotes: Bool = false, maxDepth: Int = 2_000, doubleTilde: Bool = true) throws -> MDNode {
        if opensTooDeep(text, limit: maxDepth) {
            throw RedlineError.limit("Markdown nesting deeper than \(maxDepth) levels (\(Limits.name("maxMarkdownNesting", maxDepth)))")
        }
        ensureExtensions()
        var options = CMARK_OPT_UNSAFE
        if doubleTilde { options |= CMARK_OPT_STRIKETHROUGH_DOUBLE_TILDE }
        if footnotes { options |= CMARK_OPT_FOOTNOTES }
        // cmark's tree lives in an arena (`CmarkArena`), dropped whole once mirrored: no node is freed one
        // by one. The arena's life is this scope: the parser and the tree do not leave it.
        var tooDeep = false
        // One parse at a time in the process: cmark-gfm keeps the extensions' special characters (`~` of
        // strikethrough) in one global table that attaching an extension adds to and freeing a parser
        // takes from, so a parser freed on another thread made `~~s~~` plain text here (compare reads its
        // two documents on two threads; `CmarkArenaTests` parses on eight).
        parseLock.lock()
        defer { parseLock.unlock() }
        let doc = CmarkArena.scoped { mem -> MDNode in
            guard let parser = cmark_parser_new_with_mem(Int32(options), mem) else { return MDNode(kind: .document) }
            defer { cmark_parser_free(parser) }
            for name in ["table", "strikethrough"] {
                if let ext = cmark_find_syntax_extension(name) { cmark_parser_attach_syntax_extension(parser, ext) }
            }
            text.withUnsafeBufferPointer { buf in
                buf.baseAddress.map { base in
                    base.withMemoryRebound(to: CChar.self, capacity: buf.count) { cmark_parser_feed(parser, $0, buf.count) }
                }
            }
            guard let root = cmark_parser_finish(parser) else { return MDNode(kind: .document) }
            return mirror(root, depth: maxDepth, tooDeep: &tooDeep)
        }
        if tooDeep { throw RedlineError.limit("Markdown nesting deeper than \(maxDepth) levels (\(Limits.name("maxMarkdownNesting", maxDepth)))") }
        return doc
    }

    static let parseLock = NSLock()

    /// Whether some line opens more than `limit` quotes and list items before its text (`> > - > …`). cmark
    /// builds every level before the mirror sees the depth, about 300 bytes a level: a 5 MB line of `>` took
    /// 1.4 GB before the nesting error. Deeper nesting over several lines needs its indentation to grow with
    /// every level, so it cannot be deep in a file of any size cmark could hold. Lines of fenced code, HTML
    /// blocks and indented code open nothing (`VerbatimLines`), nor does a thematic break (`* * * …`).
    static func opensTooDeep(_ text: [UInt8], limit: Int) -> Bool {
        func isSpace(_ b: UInt8) -> Bool { b == UInt8(ascii: " ") || b == UInt8(ascii: "\t") }
        func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
        let n = text.count
        var lines = VerbatimLines()
        var lineStart = 0
        while lineStart < n {
            var lineEnd = lineStart
            while lineEnd < n, text[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
            defer { lineStart = lineEnd + 1 }
            let inContainer = lines.inContainer
            guard lines.next(text[lineStart..<lineEnd]) != .verbatim else { continue }
            var k = lineStart
            while k < lineEnd, text[k] == UInt8(ascii: " ") { k += 1 }
            if k - lineStart >= 4 && !inContainer { continue }  // indented code, or a paragraph's text
            var depth = 0
            var bullets = Set<UInt8>()
            while k < lineEnd {
                let c = text[k]
                if c == UInt8(ascii: ">") { depth += 1; k += 1; continue }
                if isSpace(c) { k += 1; continue }
                if c == UInt8(ascii: "-") || c == UInt8(ascii: "*") || c == UInt8(ascii: "+"), k + 1 < lineEnd, isSpace(text[k + 1]) {
                    depth += 1; bullets.insert(c); k += 2; continue
                }
                var d = k
                while d < lineEnd, d - k < 9, isDigit(text[d]) { d += 1 }
                if d > k, d + 1 < lineEnd, text[d] == UInt8(ascii: ".") || text[d] == UInt8(ascii: ")"), isSpace(text[d + 1]) {
                    depth += 1; bullets.insert(0); k = d + 2; continue
                }
                break
            }
            guard depth > limit else { continue }
            // `* * * …` or `- - - …` (`>`s before it or not) is a thematic break when nothing else is on the line.
            if bullets.count == 1, let b = bullets.first, b == UInt8(ascii: "*") || b == UInt8(ascii: "-"),
               text[k..<lineEnd].allSatisfy({ isSpace($0) || $0 == b }) { continue }
            return true
        }
        return false
    }

    private static func string(_ p: UnsafePointer<CChar>?) -> String {
        guard let p else { return "" }
        return String(cString: p)
    }

    private static func mirror(_ node: OpaquePointer, depth: Int, tooDeep: inout Bool) -> MDNode {
        var n = MDNode(kind: kind(of: node))
        guard depth > 0 else { tooDeep = true; return n }
        // Only blocks' positions are read (inline nodes' were three calls each for a million of them).
        if !n.kind.isInline {
            n.startLine = Int(cmark_node_get_start_line(node))
            n.endLine = Int(cmark_node_get_end_line(node))
            n.startColumn = Int(cmark_node_get_start_column(node))
        }
        switch n.kind {
        case .text, .code, .htmlInline, .htmlBlock:
            n.literal = string(cmark_node_get_literal(node))
        case .codeBlock:
            n.literal = string(cmark_node_get_literal(node))
            n.url = string(cmark_node_get_fence_info(node))
        case .heading:
            n.level = Int(cmark_node_get_heading_level(node))
        case .list:
            n.ordered = cmark_node_get_list_type(node) == CMARK_ORDERED_LIST
            n.start = Int(cmark_node_get_list_start(node))
            n.parenDelimiter = cmark_node_get_list_delim(node) == CMARK_PAREN_DELIM
            n.tight = cmark_node_get_list_tight(node) != 0
        case .link, .image:
            n.url = string(cmark_node_get_url(node))
            n.title = string(cmark_node_get_title(node))
        case .footnoteReference, .footnoteDefinition:
            n.literal = string(cmark_node_get_literal(node))
        case .table:
            let count = Int(cmark_gfm_extensions_get_table_columns(node))
            if let a = cmark_gfm_extensions_get_table_alignments(node) {
                n.alignments = (0..<count).map { i in
                    switch a[i] {
                    case UInt8(ascii: "l"): return .left
                    case UInt8(ascii: "c"): return .center
                    case UInt8(ascii: "r"): return .right
                    default: return .none
                    }
                }
            }
        case .tableRow:
            n.isHeaderRow = cmark_gfm_extensions_get_table_row_is_header(node) != 0
                || string(cmark_node_get_type_string(node)) == "table_header"
        default: break
        }
        // No child is freed: the tree's arena goes whole after the mirror (`CmarkArena`). A huge paragraph's
        // tree is a piece's (`ParagraphPieces`), not the paragraph's.
        // The children counted first (a pointer walk), so the array is allocated once, not doubled ~20
        // times for a paragraph of a million inlines.
        var count = 0
        var next = cmark_node_first_child(node)
        while let c = next { count += 1; next = cmark_node_next(c) }
        guard count > 0 else { return n }
        n.children.reserveCapacity(count)
        var child = cmark_node_first_child(node)
        while let c = child {
            n.children.append(mirror(c, depth: depth - 1, tooDeep: &tooDeep))
            child = cmark_node_next(c)
        }
        return n
    }

    private static func kind(of node: OpaquePointer) -> MDNode.Kind {
        switch cmark_node_get_type(node) {
        case CMARK_NODE_DOCUMENT: return .document
        case CMARK_NODE_BLOCK_QUOTE: return .blockQuote
        case CMARK_NODE_LIST: return .list
        case CMARK_NODE_ITEM: return .item
        case CMARK_NODE_CODE_BLOCK: return .codeBlock
        case CMARK_NODE_HTML_BLOCK: return .htmlBlock
        case CMARK_NODE_PARAGRAPH: return .paragraph
        case CMARK_NODE_HEADING: return .heading
        case CMARK_NODE_THEMATIC_BREAK: return .thematicBreak
        case CMARK_NODE_FOOTNOTE_DEFINITION: return .footnoteDefinition
        case CMARK_NODE_TEXT: return .text
        case CMARK_NODE_SOFTBREAK: return .softBreak
        case CMARK_NODE_LINEBREAK: return .lineBreak
        case CMARK_NODE_CODE: return .code
        case CMARK_NODE_HTML_INLINE: return .htmlInline
        case CMARK_NODE_EMPH: return .emphasis
        case CMARK_NODE_STRONG: return .strong
        case CMARK_NODE_LINK: return .link
        case CMARK_NODE_IMAGE: return .image
        case CMARK_NODE_FOOTNOTE_REFERENCE: return .footnoteReference
        default:
            switch string(cmark_node_get_type_string(node)) {
            case "table": return .table
            case "table_row", "table_header": return .tableRow
            case "table_cell": return .tableCell
            case "strikethrough": return .strikethrough
            default: return .other
            }
        }
    }
}

/// The cmark-gfm library Redline runs with.
public enum CmarkLibrary {
    /// Its version as the library reports it at run time (`cmark_version_string()`, e.g. "0.29.0.gfm.6").
    public static var version: String { String(cString: cmark_version_string()) }
}
