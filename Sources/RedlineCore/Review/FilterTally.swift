import Foundation

/// Which review filters selected something in one conversion, and what the document's changes and comments have
/// that a filter could have named: filled by the engines as they decide (`ReviewOptions.decision(for:)` and
/// `keeps(_:)`, on the model route, DOCX's and RTF's in-place rewriters alike), read once the conversion is done
/// (`FilterReport`). Shared by reference between the copies of the options the stages and threads hold, and
/// guarded by a lock; a tally never makes two options differ (`ReviewOptions.tally`).
public final class FilterTally: @unchecked Sendable, Hashable {
    /// What a group of changes (or comments) has, as a filter's conditions could name it.
    public struct Pool: Sendable, Equatable {
        /// Authors in order of appearance ("" for none).
        public var authors: [String] = []
        /// Kinds in order of appearance.
        public var kinds: [ChangeKind] = []
        /// Ids in order of appearance (the first 21).
        public var ids: [String] = []
        /// The earliest and latest dates.
        public var firstDate: String?
        public var lastDate: String?
        /// How many were decided (a change decided twice counts twice).
        public var count = 0

        public init() {}

        mutating func add(_ info: ChangeInfo) {
            count += 1
            let a = info.change.author ?? ""
            if !authors.contains(a) && authors.count < 200 { authors.append(a) }
            if !kinds.contains(info.kind) { kinds.append(info.kind) }
            if let id = info.change.id, !id.isEmpty, ids.count < 21, !ids.contains(id) { ids.append(id) }
            if let d = info.change.date, !d.isEmpty {
                if firstDate.map({ d < $0 }) ?? true { firstDate = d }
                if lastDate.map({ d > $0 }) ?? true { lastDate = d }
            }
        }
    }

    /// The indexes of the filters that matched something, by option.
    public struct Matched: Sendable, Equatable {
        public var accept: Set<Int> = []
        public var reject: Set<Int> = []
        public var dropComments: Set<Int> = []
    }

    private let lock = NSLock()
    private var _matched = Matched()
    private var _changes = Pool()
    private var _comments = Pool()

    public init() {}

    /// The filters that matched so far.
    public var matched: Matched { lock.withLock { _matched } }
    /// The changes decided so far.
    public var changes: Pool { lock.withLock { _changes } }
    /// The comments decided so far.
    public var comments: Pool { lock.withLock { _comments } }

    /// A change decided with `review`'s filters.
    func record(change info: ChangeInfo, _ review: ReviewOptions) {
        lock.withLock {
            _changes.add(info)
            for (i, f) in review.accept.enumerated() where f.matches(info) { _matched.accept.insert(i) }
            for (i, f) in review.reject.enumerated() where f.matches(info) { _matched.reject.insert(i) }
        }
    }

    /// A comment decided with `review`'s filters (accept and reject filters naming `kind=comment` select comments).
    func record(comment info: ChangeInfo, _ review: ReviewOptions) {
        lock.withLock {
            _comments.add(info)
            for (i, f) in review.dropComments.enumerated() where f.matches(info) { _matched.dropComments.insert(i) }
            for (i, f) in review.accept.enumerated() where f.kinds?.contains(.comment) == true && f.matches(info) {
                _matched.accept.insert(i)
            }
            for (i, f) in review.reject.enumerated() where f.kinds?.contains(.comment) == true && f.matches(info) {
                _matched.reject.insert(i)
            }
        }
    }

    /// Every tally is equal to every other: it records what happened, it does not change what options mean.
    public static func == (lhs: FilterTally, rhs: FilterTally) -> Bool { true }
    public func hash(into hasher: inout Hasher) {}
}
