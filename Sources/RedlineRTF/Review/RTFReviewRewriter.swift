import RedlineCore

/// Rewrites an RTF token stream with review decisions applied and everything else copied byte for byte.
///
/// Revision words (`\revised`, `\deleted`, `\revauth`... `\crauth`) are held with the formatting words around
/// them until content comes; then, if the content's change stays, they are written as they were, and if it is
/// decided they are left out (and the words that put the output's revision state right are written in their
/// place when the group mixes decided and kept changes). Content whose change goes (a rejected insertion, an
/// accepted deletion: text, characters, pictures, notes, a paragraph mark, which merges the paragraphs) is
/// left out; everything else is copied. Dropped annotations go with their marks and ranges.
/// Old-properties records (`{\*\oldcprops}`...) go on accept and are put back in force on reject.
/// Memory is flat: the output is handed on in 64 KiB blocks, and only a run of control words or a small
/// record group is held at a time.
struct RTFReviewRewriter {
    /// The state a group saves.
    private struct Frame {
        var input = RTFRevisionState()
        var output = RTFRevisionState()
        var body = true
        var hidden = false
        var story = 0
        var fallback = 1
        /// Output of this group is left out (a dropped annotation, a removed picture or note).
        var muted = false
        var revisionTable = false
        /// This group is an entry of the revision table (an author's name).
        var collectsAuthor = false
    }

    private let review: ReviewOptions
    private let comments: RTFCommentDecisions
    private var lexer: RTFRawLexer
    private let sink: ([UInt8]) throws -> Void
    private var stack: [Frame] = []
    private var cur = Frame()
    private var out: [UInt8] = []
    private var tailNeedsDelimiter = (false, false)
    /// Something was left out since the last text written (only then can a control word lose its delimiter).
    private var broken = false

    // Words held until content decides them.
    private var pendingKept: [UInt8] = []
    private var pendingAll: [UInt8] = []
    private var pendingHasRevision = false
    private var pendingActive = false
    private var pendingP = RTFRevisionState()
    private var pendingBase = RTFRevisionState()

    // A `{` waiting for the word that says what its group is.
    private var opening: [UInt8]?
    // A group read whole (`RTFBufferedGroup`).
    private var buffered: (kind: RTFBufferedGroup, depth: Int, all: [UInt8], inner: [UInt8], text: RTFReviewText, author: Int?, date: Int)?

    private var numbering = RTFChangeNumbering()
    private var contentInParagraph: [Bool] = [false]
    private var authors: [String] = []
    private var authorText: RTFReviewText?
    private var codePage = 1252
    private var annotationIndex = 0
    private var lastPropertyDropped = false
    /// Whether the output differs from the input at all.
    private(set) var changed = false

    init(_ input: DocumentInput, review: ReviewOptions, comments: RTFCommentDecisions, sink: @escaping ([UInt8]) throws -> Void) throws {
        self.review = review
        self.comments = comments
        self.lexer = try RTFRawLexer(input)
        self.sink = sink
        out.reserveCapacity(1 << 17)
    }

    mutating func run() throws {
        while true {
            let t = try lexer.next()
            if t.kind == .end { break }
            if buffered != nil { try buffer(t); continue }
            if t.kind == .binary {
                // `\bin` data is written as it comes (after the held words, its `\bin N` among them).
                try sync(neutral: true)
                write(lexer.raw, isText: false)
                continue
            }
            if opening != nil {
                if t.kind == .ignorable || (t.kind == .symbol && t.symbol == UInt8(ascii: "*")) {
                    opening!.append(contentsOf: lexer.raw)
                    continue
                }
                try open(first: t)
                if buffered != nil { continue }
            }
            try token(t)
            // A long run of control words without content or a brace is written out (memory stays flat).
            if pendingKept.count > 1 << 16 { try sync(neutral: true) }
        }
        if let o = opening { hold(o); opening = nil }
        try sync(neutral: true)
        try flush(force: true)
    }

    // MARK: Tokens

    private mutating func token(_ t: RTFRawToken) throws {
        switch t.kind {
        case .groupStart:
            opening = lexer.raw
        case .groupEnd:
            try sync(neutral: true, synthesize: false)
            let closing = cur
            cur = stack.popLast() ?? Frame()
            if closing.collectsAuthor { authors.append(Self.entry(authorText?.value)); authorText = nil }
            if closing.muted && !cur.muted { drop() } else { write(lexer.raw, isText: false) }
        case .ignorable:
            hold(lexer.raw)
        case .text:
            if cur.revisionTable || authorText != nil { authorText?.add(t, raw: lexer.raw, fallback: cur.fallback) }
            try content(counted: true, isText: true)
        case .hex:
            if authorText != nil { authorText?.add(t, raw: lexer.raw, fallback: cur.fallback) }
            try content(counted: true)
        case .symbol:
            switch t.symbol {
            case 10, 13: try paragraphMark()
            case UInt8(ascii: "~"), UInt8(ascii: "_"), UInt8(ascii: "\\"), UInt8(ascii: "{"), UInt8(ascii: "}"), 9:
                if authorText != nil { authorText?.add(t, raw: lexer.raw, fallback: cur.fallback) }
                try content(counted: true)
            case UInt8(ascii: "-"): try content(counted: false)
            default: hold(lexer.raw)
            }
        case .word:
            try word(t)
        case .binary, .end:
            break
        }
    }

    private mutating func word(_ t: RTFRawToken) throws {
        guard let w = RTFReviewWord.lookup(t.name) else { hold(lexer.raw); return }
        switch w {
        case .revision(let p):
            cur.input.apply(p, t.param)
            holdRevision(p, t.param)
        case .propertyRevision(let kind, let isAuthor):
            let dropIt: Bool
            let changeKind: ChangeKind = kind == .paragraph ? .paragraph : .table
            if isAuthor {
                let info = ChangeInfo(kind: changeKind, change: Change(author: author(t.param ?? 0)))
                dropIt = review.decision(for: info) != .keep
                lastPropertyDropped = dropIt
            } else {
                // A date word goes with the author word before it; alone, as the shared decision says for a
                // change of this kind that names nobody.
                dropIt = lastPropertyDropped || review.decision(for: ChangeInfo(kind: changeKind, change: Change())) != .keep
            }
            if dropIt { drop() } else { hold(lexer.raw) }
        case .plain:
            cur.input = RTFRevisionState()
            cur.hidden = false
            // Revision words held before `\plain` served only content that was left out: they go.
            if pendingHasRevision && !review.keepsAllChanges {
                pendingAll.removeAll(keepingCapacity: true)
                pendingHasRevision = false
                changed = true
                broken = true
            }
            hold(lexer.raw)
            pendingP = RTFRevisionState()
            pendingBase = RTFRevisionState()
        case .hidden:
            cur.hidden = (t.param ?? 1) != 0
            hold(lexer.raw)
        case .uc:
            cur.fallback = max(0, min(t.param ?? 1, 16))
            hold(lexer.raw)
        case .ansicpg:
            if let v = t.param, CodePageDecoder.isSupported(v) { codePage = v }
            hold(lexer.raw)
        case .bin:
            hold(lexer.raw)
            lexer.expectBinary(t.param ?? 0)
        case .par:
            if cur.body { try paragraphMark() } else { hold(lexer.raw) }
        case .cellEnd:
            if cur.body && contentInParagraph[cur.story] {
                let key = revisionKey(cur.input)
                let id = numbering.paragraphEnd(story: cur.story, revised: key != nil)
                contentInParagraph[cur.story] = false
                try sync(desired(cur.input, id: id, kind: .paragraph).state)
            } else {
                try sync(neutral: true)
            }
            write(lexer.raw, isText: false)
        case .character:
            if t.name == RTFReviewText.u, authorText != nil { authorText?.add(t, raw: lexer.raw, fallback: cur.fallback) }
            try content(counted: true)
        case .uncountedCharacter:
            try content(counted: false)
        case .chatn:
            if comments.drops(annotation: annotationIndex) { drop() } else { hold(lexer.raw) }
        case .footnote:
            if cur.body {
                // The note reference is body content of the story around the note.
                try content(counted: true, emit: false, nested: false)
                cur.story += 1
                startStory()
            }
            hold(lexer.raw)
        case .annotation:
            annotationIndex += 1
            cur.story += 1
            cur.body = true
            startStory()
            hold(lexer.raw)
        case .pict:
            if cur.body && !cur.hidden { _ = count() }
            cur.body = false
            hold(lexer.raw)
        case .object:
            if t.name == RTFWordKey("nonshppict") { cur.body = false }
            hold(lexer.raw)
        case .revtbl:
            cur.body = false
            cur.revisionTable = true
            hold(lexer.raw)
        case .destination:
            cur.body = false
            hold(lexer.raw)
        case .buffered:
            hold(lexer.raw)
        }
    }

    /// The first token of a group after `{` (and `\*`): decides whether the group is copied, muted or read whole.
    private mutating func open(first t: RTFRawToken) throws {
        guard let bytes = opening else { return }
        opening = nil
        var mute = false
        var star = false
        for b in bytes where b == UInt8(ascii: "*") { star = true }
        if t.kind == .word {
            let w = RTFReviewWord.lookup(t.name)
            switch w {
            case .buffered(let kind)?:
                try sync(neutral: true)
                buffered = (kind, 1, bytes + lexer.raw, [], RTFReviewText(codePage: codePage), nil, 0)
                return
            case .annotation?:
                mute = comments.drops(annotation: annotationIndex)
            case .destination? where t.name == RTFWordKey("atnid") || t.name == RTFWordKey("atnauthor"):
                mute = comments.drops(annotation: annotationIndex)
            case .pict?, .object?, .footnote?:
                mute = cur.body && removes(cur.input)
            default:
                break
            }
            if star && w == nil && RTFKeyword.table[t.name] == nil {
                // An unknown destination: not body text (the reader skips it).
                try begin(bytes, mute: false)
                cur.body = false
                return
            }
        }
        try begin(bytes, mute: mute)
    }

    private mutating func begin(_ bytes: [UInt8], mute: Bool) throws {
        try sync(neutral: true)
        if mute && !cur.muted { drop() } else { write(bytes, isText: false) }
        let parentIsTable = cur.revisionTable
        stack.append(cur)
        if mute { cur.muted = true }
        if parentIsTable {
            authorText = RTFReviewText(codePage: codePage)
            cur.revisionTable = false
            cur.collectsAuthor = true
        }
    }

    private mutating func startStory() {
        while contentInParagraph.count <= cur.story { contentInParagraph.append(false) }
        contentInParagraph[cur.story] = false
        _ = numbering.paragraphEnd(story: cur.story, revised: false)
    }

    // MARK: Content and decisions

    /// Body content (text, a character, a picture, a note reference): left out when its change goes,
    /// written after the held words otherwise.
    /// `nested`: text and line breaks, whose deletion nests in their insertion when they have both marks
    /// (pictures and note references have the deletion only, as the reader reads them).
    private mutating func content(counted: Bool, isText: Bool = false, emit: Bool = true, nested: Bool = true) throws {
        guard cur.body else {
            try sync(neutral: true)
            write(lexer.raw, isText: isText)
            return
        }
        var ids: (id: String?, insertion: String?) = (nil, nil)
        if counted && !cur.hidden {
            ids.id = count(nested: nested)
            ids.insertion = numbering.insertionID(story: cur.story)
        } else {
            ids = numbering.peek(story: cur.story, key: numberingKey(cur.input, nested: nested))
        }
        let (state, removed) = desired(cur.input, id: ids.id, kind: nil, insertionID: nested ? ids.insertion : nil, nested: nested)
        if !emit {
            if removed { return }
            try sync(state)
            return
        }
        if removed { drop(); return }
        try sync(state)
        write(lexer.raw, isText: isText)
    }

    /// Numbers counted body content (the reader's runs) and notes that the paragraph has some.
    private mutating func count(nested: Bool = false) -> String? {
        contentInParagraph[cur.story] = true
        return numbering.content(story: cur.story, key: numberingKey(cur.input, nested: nested))
    }

    private mutating func paragraphMark() throws {
        guard cur.body else { hold(lexer.raw); return }
        let key = revisionKey(cur.input)
        let id = numbering.paragraphEnd(story: cur.story, revised: key != nil)
        contentInParagraph[cur.story] = false
        let (state, removed) = desired(cur.input, id: id, kind: .paragraph)
        if removed { drop(); return }
        try sync(state)
        write(lexer.raw, isText: false)
    }

    private func revisionKey(_ s: RTFRevisionState) -> (deletion: Bool, author: String?, date: String?)? {
        if s.deleted { return (true, author(s.revauthdel), dateFromDTTM(s.revdttmdel)) }
        if s.revised { return (false, author(s.revauth), dateFromDTTM(s.revdttm)) }
        return nil
    }

    private func numberingKey(_ s: RTFRevisionState, nested: Bool = false) -> RTFChangeNumbering.Key? {
        guard let k = revisionKey(s) else { return nil }
        let inserted = nested && s.deleted && s.revised ? Change(author: author(s.revauth), date: dateFromDTTM(s.revdttm)) : nil
        return .init(deletion: k.deletion, author: k.author, date: k.date, inserted: inserted)
    }

    /// True when content in state `s` goes (whatever its id: for objects and notes, whose id the group's
    /// first content takes).
    private func removes(_ s: RTFRevisionState) -> Bool {
        guard let k = revisionKey(s) else { return false }
        let d = review.decision(for: ChangeInfo(kind: k.deletion ? .deletion : .insertion,
                                                change: Change(author: k.author, date: k.date, id: numbering.peek(story: cur.story, key: numberingKey(s)).id)))
        return k.deletion ? d == .accept : d == .reject
    }

    /// The revision state the output should have for content in input state `s` with change id `id`
    /// (`kind` nil: inserted or deleted text; `.paragraph`: a paragraph mark), and whether the content goes.
    private func desired(_ s: RTFRevisionState, id: String?, kind: ChangeKind?, insertionID: String? = nil,
                         nested: Bool = false) -> (state: RTFRevisionState, removed: Bool) {
        var d = s.normalized
        var removed = false
        if nested && kind == nil && s.deleted && s.revised {
            // Inserted, then deleted: two changes. It goes when its insertion is rejected or its deletion accepted.
            let ins = review.decision(for: ChangeInfo(kind: .insertion, change: Change(author: author(s.revauth), date: dateFromDTTM(s.revdttm), id: insertionID)))
            let del = review.decision(for: ChangeInfo(kind: .deletion, change: Change(author: author(s.revauthdel), date: dateFromDTTM(s.revdttmdel), id: id)))
            if ins != .keep { d.revised = false; d.revauth = 0; d.revdttm = 0 }
            if del != .keep { d.deleted = false; d.revauthdel = 0; d.revdttmdel = 0 }
            removed = ins == .reject || del == .accept
        } else if let k = revisionKey(s) {
            let info = ChangeInfo(kind: kind ?? (k.deletion ? .deletion : .insertion), change: Change(author: k.author, date: k.date, id: id))
            let decision = review.decision(for: info)
            if decision != .keep {
                d.revised = false; d.deleted = false
                d.revauth = 0; d.revdttm = 0; d.revauthdel = 0; d.revdttmdel = 0
                removed = k.deletion ? decision == .accept : decision == .reject
            }
        }
        if let c = s.crauth {
            let info = ChangeInfo(kind: .formatting, change: Change(author: author(c), date: dateFromDTTM(s.crdate)))
            if review.decision(for: info) != .keep { d.crauth = nil; d.crdate = 0 }
        }
        return (d, removed)
    }

    private func author(_ i: Int) -> String? {
        guard i >= 0, i < authors.count else { return nil }
        let a = authors[i]
        return a.isEmpty || a == "Unknown" ? nil : a
    }

    private static func entry(_ s: String?) -> String {
        var s = s ?? ""
        while s.hasSuffix(";") { s.removeLast() }
        return s.trimmingSpaces
    }

    // MARK: Held words and output

    private mutating func startPending() {
        guard !pendingActive else { return }
        pendingActive = true
        pendingP = cur.output
        pendingBase = cur.output
    }

    /// Holds formatting bytes until content decides the revision words among them.
    private mutating func hold(_ bytes: [UInt8]) {
        startPending()
        pendingKept.append(contentsOf: bytes)
        if pendingHasRevision { pendingAll.append(contentsOf: bytes) }
    }

    private mutating func holdRevision(_ p: RTFRevisionProperty, _ param: Int?) {
        startPending()
        if !pendingHasRevision { pendingAll = pendingKept; pendingHasRevision = true }
        pendingAll.append(contentsOf: lexer.raw)
        pendingP.apply(p, param)
    }

    /// Writes the held words: as they were when they give `target`, else without their revision words and
    /// with the words that give `target` (when `synthesize`).
    private mutating func sync(_ target: RTFRevisionState, synthesize: Bool = true) throws {
        if pendingActive {
            if pendingHasRevision && pendingP.normalized == target.normalized {
                write(pendingAll, isText: false)
                cur.output = pendingP
            } else {
                if pendingHasRevision { changed = true; broken = true }
                write(pendingKept, isText: false)
                cur.output = pendingBase
            }
            pendingKept.removeAll(keepingCapacity: true)
            pendingAll.removeAll(keepingCapacity: true)
            pendingHasRevision = false
            pendingActive = false
        }
        if synthesize && cur.output.normalized != target.normalized {
            write(target.normalized.words(from: cur.output.normalized), isText: false)
            cur.output = target
            changed = true
        }
        if out.count >= 1 << 16 { try flush(force: false) }
    }

    /// `sync` for a point that is not content (a group start or end): the target is what content in the
    /// current state would get.
    private mutating func sync(neutral: Bool, synthesize: Bool = true) throws {
        guard pendingActive || synthesize else { return }
        let ids = numbering.peek(story: cur.story, key: numberingKey(cur.input, nested: true))
        try sync(desired(cur.input, id: ids.id, kind: nil, insertionID: ids.insertion, nested: true).state,
                 synthesize: synthesize && pendingActive)
    }

    /// Leaves the current token out.
    private mutating func drop() {
        changed = true
        broken = true
    }

    private mutating func write(_ bytes: [UInt8], isText: Bool) {
        guard !cur.muted, !bytes.isEmpty else { return }
        // Text right after a control word without its delimiter (the words between were left out) gets one.
        if isText {
            if broken && needsDelimiter(before: bytes[0]) { out.append(UInt8(ascii: " ")) }
            broken = false
        }
        out.append(contentsOf: bytes)
    }

    /// Whether text starting with `first` would be read as part of a control word the output ends with
    /// (its letters, its number, its sign or its delimiter).
    private func needsDelimiter(before first: UInt8) -> Bool {
        let isLetter = (first | 0x20) >= 97 && (first | 0x20) <= 122
        guard isLetter || (first >= 48 && first <= 57) || first == 32 || first == UInt8(ascii: "-") else { return false }
        let (bare, number) = out.isEmpty ? tailNeedsDelimiter : Self.endsWithBareWord(out)
        return bare && !(number && first == UInt8(ascii: "-"))
    }

    /// Whether `b` ends with a control word without delimiter, and whether that word has a number.
    private static func endsWithBareWord(_ b: [UInt8]) -> (Bool, Bool) {
        var i = b.count - 1
        let digitsEnd = i
        while i >= 0 && b[i] >= 48 && b[i] <= 57 { i -= 1 }
        let number = i < digitsEnd
        if i >= 0 && b[i] == UInt8(ascii: "-") { i -= 1 }
        let lettersEnd = i
        while i >= 0 && ((b[i] | 0x20) >= 97 && (b[i] | 0x20) <= 122) { i -= 1 }
        guard i < lettersEnd, i >= 0, b[i] == UInt8(ascii: "\\") else { return (false, false) }
        // An escaped backslash (`\\`) before the letters makes them text.
        var slashes = 0
        while i >= 0 && b[i] == UInt8(ascii: "\\") { slashes += 1; i -= 1 }
        return (slashes % 2 == 1, number)
    }

    private mutating func flush(force: Bool) throws {
        guard !out.isEmpty else { return }
        tailNeedsDelimiter = Self.endsWithBareWord(out)
        try sink(out)
        out.removeAll(keepingCapacity: true)
    }

    // MARK: Groups read whole

    private mutating func buffer(_ t: RTFRawToken) throws {
        guard var b = buffered else { return }
        b.all.append(contentsOf: lexer.raw)
        var inner = true
        switch t.kind {
        case .groupStart: b.depth += 1
        case .groupEnd:
            b.depth -= 1
            if b.depth == 0 { inner = false }
        case .word:
            if t.name == RTFWordKey("bin") { lexer.expectBinary(t.param ?? 0) }
            if let w = RTFReviewWord.lookup(t.name) {
                switch w {
                case .revision(.crauth), .propertyRevision(_, isAuthor: true): b.author = t.param ?? 0; inner = false
                case .revision(.crdate), .propertyRevision(_, isAuthor: false): b.date = t.param ?? 0; inner = false
                default: break
                }
            }
        case .text, .hex, .symbol: b.text.add(t, raw: lexer.raw, fallback: cur.fallback)
        default: break
        }
        if inner && b.depth > 0 { b.inner.append(contentsOf: lexer.raw) }
        buffered = b
        if b.depth == 0 {
            buffered = nil
            try finishBuffered(b.kind, all: b.all, inner: b.inner, text: b.text.value, author: b.author, date: b.date)
        }
    }

    private mutating func finishBuffered(_ kind: RTFBufferedGroup, all: [UInt8], inner: [UInt8], text: String,
                                         author a: Int?, date: Int) throws {
        switch kind {
        case .rangeStart, .rangeEnd:
            if cur.body { contentInParagraph[cur.story] = true }
            if comments.drops(range: text) { drop() } else { write(all, isText: false) }
        case .oldCharacter, .oldParagraph, .oldTable, .oldSection:
            let changeKind: ChangeKind = kind == .oldCharacter ? .formatting : kind == .oldTable ? .table : .paragraph
            let who = a ?? (kind == .oldCharacter ? cur.input.crauth : nil)
            let when = date != 0 ? date : (kind == .oldCharacter ? cur.input.crdate : 0)
            let info = ChangeInfo(kind: changeKind, change: Change(author: who.flatMap(author), date: dateFromDTTM(when)))
            switch review.decision(for: info) {
            case .keep: write(all, isText: false)
            case .accept: drop()
            case .reject:
                changed = true
                let reset: String
                switch kind {
                case .oldCharacter:
                    reset = "\\plain "
                    cur.output = RTFRevisionState()
                case .oldParagraph: reset = "\\pard "
                case .oldSection: reset = "\\sectd "
                default: reset = ""
                }
                write(Array(reset.utf8) + Self.trimmedStart(inner), isText: false)
            }
        }
    }

    /// `bytes` without the space that delimited the destination word before them.
    private static func trimmedStart(_ bytes: [UInt8]) -> [UInt8] {
        var i = 0
        while i < bytes.count && (bytes[i] == 32 || bytes[i] == 10 || bytes[i] == 13) { i += 1 }
        return Array(bytes[i...])
    }
}

/// Which annotations an in-place review removes: all, none, or those a first pass over the file found
/// that the review's comment options select.
struct RTFCommentDecisions {
    var all = false
    /// By annotation, in reading order (0-based).
    var annotations: [Bool] = []
    /// Range ids (`\atrfstart N`) of removed annotations.
    var ranges: Set<String> = []

    func drops(annotation i: Int) -> Bool { all || (i < annotations.count && annotations[i]) }
    func drops(range id: String) -> Bool { all || ranges.contains(id) }
}

extension StringProtocol {
    fileprivate var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " || s.first == "\t" { s.removeFirst() }
        while s.last == " " || s.last == "\t" { s.removeLast() }
        return String(s)
    }
}
