import RedlineCore

/// One step of a story's edit script (16 bytes): token indices into the two sides' stores, not tokens.
struct Op {
    enum Kind: UInt8 {
        /// The token is in both: `tok` is NEW's, `other` is OLD's.
        case equal
        case delete
        case insert
        /// A NEW comment anchor, carried through unmarked.
        case pass
    }
    var kind: Kind
    /// The move this deleted (from) or inserted (to) token belongs to.
    var move: Int32 = -1
    /// The token: NEW's (equal, insert, pass) or OLD's (delete), by index in its side's `TokenStore.tokens`.
    var tok: Int32
    /// For an equal op, OLD's token; for a deletion folded from an equality by the clean-up, NEW's token (the
    /// insertion `regroup` unpacks); else -1.
    var other: Int32 = -1

    init(kind: Kind, tok: Int32, other: Int32 = -1) {
        self.kind = kind
        self.tok = tok
        self.other = other
    }

    var isChange: Bool { kind == .delete || kind == .insert }
}

/// Both sides' tokens of one story comparison, read by the clean-up, the move finder and the builder.
struct TokenView {
    let old: [Token]
    let new: [Token]
    /// The op's own token (OLD's for a deletion, else NEW's).
    @inline(__always) func tok(_ op: Op) -> Token { op.kind == .delete ? old[Int(op.tok)] : new[Int(op.tok)] }
    /// OLD's token of an equal op.
    @inline(__always) func oldTok(_ op: Op) -> Token { old[Int(op.other)] }
}

/// Compares stories (block arrays): the body, cells, quotes, list items, notes. Its state is here, its work in
/// the extensions beside it, in the order a story goes through them: StoryDiff+Stories (blocks aligned, the
/// gaps' jobs run), +Gaps (each piece's edit script), +CleanUp, +Moves (and NearMoves.swift), +Building (the
/// result's blocks), +Containers (paired tables, quotes, lists) and +WholeBlocks (what is inserted or deleted whole).
struct StoryComparer {
    let options: CompareOptions
    let change: Change
    var keys = KeyTable()
    var stats = CompareStats()
    var diagnostics: Diagnostics
    /// OLD note id → NEW note id, for notes whose references matched.
    var notePairs: [(String, String)] = []
    /// OLD note ids whose references were deleted, with the id they get in the result.
    var deletedNotes: [(String, String)] = []
    /// NEW note ids whose references were inserted.
    var insertedNotes: [String] = []
    /// Moves paired so far in this comparison (their names are `move1`, `move2`, ...).
    var moveCounter = 0
    let oldTokenizer: Tokenizer
    let newTokenizer: Tokenizer
    /// The stores of the story being compared (each `compare` call has its own, so a nested story's tokens
    /// never grow the arrays an outer story's view holds).
    var oldStore = TokenStore()
    var newStore = TokenStore()

    /// Stories of at least this many blocks have their gaps diffed on two threads (`runJobs`).
    let parallelMinimum: Int
    /// The default `parallelMinimum`: below it a second thread costs more than it saves.
    static let defaultParallelMinimum = 2_000

    init(options: CompareOptions, diagnostics: Diagnostics, parallelMinimum: Int = defaultParallelMinimum) {
        self.options = options
        self.parallelMinimum = parallelMinimum
        self.change = Change(author: options.author, date: options.date)
        self.diagnostics = diagnostics
        oldTokenizer = Tokenizer(granularity: options.granularity, keepComments: false,
                                 foldCase: options.ignoreCase, foldSpace: options.ignoreWhitespace, compareFields: options.compareFields)
        newTokenizer = Tokenizer(granularity: options.granularity, keepComments: true,
                                 foldCase: options.ignoreCase, foldSpace: options.ignoreWhitespace, compareFields: options.compareFields)
    }
}
