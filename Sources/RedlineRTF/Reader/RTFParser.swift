import Foundation
import RedlineCore

/// The RTF interpreter: a loop over tokens with an explicit group stack (no recursion, so nesting depth
/// costs memory only up to the limit and never stack). Body text becomes runs in the current story;
/// finished top-level blocks of the main story become chunks.
///
/// The parser is used by one thread and never re-enters itself, so its hottest properties skip Swift's dynamic
/// exclusivity checks (`@exclusivity(unchecked)`): measured, those checks were about a fifth of RTF → RTF time.
final class RTFParser {
    let reader: RTFReader
    let diagnostics: Diagnostics
    let maxNesting: Int
    @exclusivity(unchecked) var tokenizer: RTFTokenizer

    var header = DocumentHeader()
    @exclusivity(unchecked) var state = GroupState()
    @exclusivity(unchecked) var stack: [GroupState] = []
    /// Groups beyond the nesting limit, read as if they were not there.
    var excessDepth = 0
    var documentOpen = false, documentClosed = false, ended = false
    var bodyStarted = false
    @exclusivity(unchecked) var starPending = false
    /// Fallback characters still to skip after `\uN`.
    @exclusivity(unchecked) var fallbackToSkip = 0
    var highSurrogate: UInt32?

    /// The header's tables and the entry being read.
    @exclusivity(unchecked) var tables = RTFHeaderTables()
    @exclusivity(unchecked) var decoders: [Int: CodePageDecoder] = [:]
    /// A double-byte lead byte waits in some decoder for its trail byte.
    var leadPending = false
    /// The code page of each font number used so far (from `tables`).
    @exclusivity(unchecked) var fontCodePages: [Int: Int] = [:]
    /// The text of the destination being collected (a table entry, an annotation's author...).
    @exclusivity(unchecked) var collect: [UInt8] = []

    // Body.
    @exclusivity(unchecked) var stories: [Story] = [Story(kind: .main)]
    @exclusivity(unchecked) var fields: [FieldState] = []
    /// A body field whose result spans paragraphs ended since the last body paragraph, and where (`BlockField`).
    var blockFieldEnd: BlockField.End?
    var rowDefinitions: [Int: RowDefinition] = [:]
    var rowDefinitionDepth = 1
    var listsWithListText = Set<Int>()
    /// The `\pict` being read.
    var picture = RTFPicture()
    /// The document's pictures (`\pict` data kept by content hash in temporary files).
    let media: MediaStore
    var pendingInitials: String?
    /// A heading's attributes (`\redlineattr`) for the paragraph being read.
    var pendingHeadingAttributes: String?
    /// A `\redlineinline` was read: the next note is an inline note, and how many were.
    var pendingInlineNote = false
    var inlineNoteCounter = 0
    var pendingAuthor: String?
    var annotationCounter = 0
    /// Text boxes read so far (their `TextBox.number`).
    var textBoxCount = 0
    /// The rectangle (left, top, right, bottom in twips) of the shape whose instructions are being read.
    var shapeRect: [Int?] = [nil, nil, nil, nil]
    var noteCounter = 0
    var paragraphCounter = 0

    // Output.
    @exclusivity(unchecked) var out = RTFChunkOutput()
    /// Display formats and revision dates already worked out.
    @exclusivity(unchecked) var formats = RTFFormatCache()
    var hiddenCount = 0
    /// The section being read and the document's page (`RTFParser+Sections.swift`).
    var sections = RTFSections()
    /// Text runs in code page 65001 that held bytes that are not UTF-8.
    var invalidUTF8Runs = 0
    var startedRanges = Set<String>()

    /// Largest picture kept (bytes); larger ones are dropped with a warning.
    var maxPictureBytes: Int { media.limits.maxPictureBytes }

    init(_ input: DocumentInput, reader: RTFReader, options: ReadOptions, diagnostics: Diagnostics) throws {
        self.reader = reader
        self.diagnostics = diagnostics
        self.maxNesting = max(16, options.limits.maxNesting)
        media = MediaStore(limits: options.limits)
        tokenizer = try RTFTokenizer(input)
        try checkSignature(input.displayName)
    }

    /// Reads the tokens before the first body content (tables, `\info`), so the header is complete.
    func readHeader() throws {
        while !bodyStarted, !ended { try step() }
    }

    /// The next finished chunk, or nil at the end.
    /// One chunk is held back until the next is ready or the input ends: a `\sect` after a paragraph's
    /// `\par`, and the document's last section, still reach it.
    func nextChunk() throws -> Chunk? {
        while out.chunks.count - out.position < 2 && !ended { try step() }
        guard out.position < out.chunks.count else { return nil }
        let chunk = out.chunks[out.position]
        out.position += 1
        if out.position >= 64 {
            out.chunks.removeFirst(out.position)
            out.position = 0
        }
        return chunk
    }

    // MARK: Signature

    private func checkSignature(_ name: String) throws {
        // Accept a UTF-8 byte order mark and white space before `{\rtf`, within the first piece read (the
        // tokenizer skips NUL bytes: /dev/zero would be read forever).
        let head = try tokenizer.head()
        guard let k = head.firstIndex(where: { ![0, 9, 10, 13, 32, 0xEF, 0xBB, 0xBF].contains($0) }),
              head[k] == UInt8(ascii: "{") else { throw notRTF(name, head) }
        var first = try tokenizer.next()
        if first == .text {
            var t = tokenizer.text[...]
            if t.starts(with: [0xEF, 0xBB, 0xBF]) { t = t.dropFirst(3) }
            if t.allSatisfy({ $0 == 32 || $0 == 9 }) { first = try tokenizer.next() }
        }
        guard first == .groupStart else { throw notRTF(name) }
        let second = try tokenizer.next()
        guard case .word(.document(.rtf), _) = second else { throw notRTF(name) }
        documentOpen = true
        stack.append(state)  // the document group
    }

    private func notRTF(_ name: String, _ head: ArraySlice<UInt8> = []) -> RedlineError {
        if let kind = FileSniffing.looksLike(Array(head.prefix(32))), !kind.hasPrefix("it is an RTF") {
            return .malformed("\(name) is not RTF: \(kind)")
        }
        return .malformed("\(name) is not RTF: it does not start with {\\rtf")
    }

    // MARK: The loop

    /// Handles one token.
    func step() throws {
        let token = try tokenizer.next()
        if fallbackToSkip > 0 {
            switch token {
            case .groupStart, .groupEnd, .end: fallbackToSkip = 0
            case .hexByte, .symbol, .word, .unknownWord:
                fallbackToSkip -= 1
                if case .word(.picture(.bin), let p) = token { _ = try tokenizer.skipBinary(max(0, p ?? 0)) }
                return
            case .text:
                let n = tokenizer.text.count
                if n <= fallbackToSkip { fallbackToSkip -= n; return }
                let rest = Array(tokenizer.text[fallbackToSkip...])
                fallbackToSkip = 0
                if !documentClosed { text(rest) }
                return
            }
        }
        if documentClosed {
            try afterEnd(token)
            return
        }
        switch token {
        case .groupStart: push()
        case .groupEnd: pop()
        case .word(let k, let p):
            starPending = false
            if state.dest == .skip {
                if k == .picture(.shptxt), state.inShape {
                    startTextBox()
                    return
                }
                if state.inShape, case .picture(let w) = k, let i = [.shpleft, .shptop, .shpright, .shpbottom].firstIndex(of: w) {
                    shapeRect[i] = p
                    return
                }
                if k == .picture(.bin) { try skipBinary(n: max(0, p ?? 0)) } else if k == .document(.ud), let outer = state.unicodeOuter {
                    state.dest = outer
                    state.unicodeOuter = nil
                }
                return
            }
            try word(k, p)
        case .unknownWord:
            if starPending { setDestination(.skip) }
            starPending = false
        case .symbol(let c):
            if c == UInt8(ascii: "*") { starPending = true; return }
            starPending = false
            if state.dest == .skip { return }
            symbol(c)
        case .hexByte(let b):
            starPending = false
            if state.dest == .skip { return }
            byte(b)
        case .text:
            starPending = false
            if state.dest == .skip { return }
            text(tokenizer.text, isASCII: tokenizer.textIsASCII)
        case .end:
            finishInput()
        }
    }

    private func afterEnd(_ token: RTFToken) throws {
        switch token {
        case .end: finishInput()
        case .text where tokenizer.text.allSatisfy({ $0 == 32 || $0 == 9 }): break
        default:
            diagnostics.report(.rtfTrailingContent, "content after the end of the RTF document was ignored")
            // Skip the rest quickly.
            while try tokenizer.next() != .end {}
            finishInput()
        }
    }

    // MARK: Groups

    func push() {
        if stack.count >= maxNesting {
            if excessDepth == 0 {
                diagnostics.report(.rtfNestingLimit, "groups nested deeper than \(maxNesting) were read as if flat")
            }
            excessDepth += 1
            return
        }
        stack.append(state)
        state.ownsDest = false
        state.ownsStory = false
        state.ownsField = false
    }

    func pop() {
        if excessDepth > 0 { excessDepth -= 1; return }
        guard stack.count > 1 else {
            if stack.count == 1 {
                // The document group closes.
                let finished = state
                state = stack.removeLast()
                finishGroup(finished)
                documentClosed = true
                finishDocument()
                return
            }
            diagnostics.report(.rtfUnbalancedBraces, "a closing brace had no group to close and was ignored")
            return
        }
        // Paragraph and character properties of a group end with it, but a story or field keeps its place.
        guard needsFinishing(state) else {
            state = stack.removeLast()
            return
        }
        let finished = state
        state = stack.removeLast()
        finishGroup(finished)
    }

    /// Whether `finishGroup(g)` has anything to do (most groups only set character properties).
    private func needsFinishing(_ g: GroupState) -> Bool {
        if g.ownsDest || g.ownsField || g.ownsStory { return true }
        switch g.dest {
        case .fontTable, .styleSheet: return true
        default: return false
        }
    }

    func setDestination(_ d: Destination) {
        state.dest = d
        state.ownsDest = true
    }

    private func finishGroup(_ g: GroupState) {
        if g.ownsDest { finishDestination(g) } else {
            switch g.dest {
            case .fontTable: commitFont()
            case .styleSheet: commitStyle()
            default: break
            }
        }
        if g.ownsField { finishField(g.field) }
        if g.ownsStory { finishStory(g.story) }
    }

    // MARK: End of input

    private func finishInput() {
        guard !ended else { return }
        if !documentClosed {
            let open = stack.count + excessDepth
            diagnostics.report(.rtfTruncated, "the RTF input ends inside \(open) open group\(open == 1 ? "" : "s") (truncated?); read what was there")
            excessDepth = 0
            while stack.count > 1 { pop() }
            if stack.count == 1 { pop() }
        }
        if !documentClosed { finishDocument() }
        ended = true
        bodyStarted = true
    }


}
