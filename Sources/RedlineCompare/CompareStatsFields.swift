import RedlineCore

extension CompareStats {
    /// Every count, in the order `--stats` prints them: the JSON key, the label a person reads, the value.
    /// The text (`--stats`) and the JSON forms (batch reports, `check --against --format json`) are both
    /// made from this one list, so they carry the same fields (`wordsChanged` included).
    public var fields: [(key: String, label: String, value: Int)] {
        [("insertions", "insertions", insertions),
         ("deletions", "deletions", deletions),
         ("substitutions", "substitutions", substitutions),
         ("moves", "moves", moves),
         ("formatChanges", "formatting changes", formatChanges),
         ("paragraphStyleChanges", "paragraph style changes", paragraphStyleChanges),
         ("paragraphMarkChanges", "paragraph breaks inserted or deleted", paragraphMarkChanges),
         ("rowChanges", "table rows inserted or deleted", rowChanges),
         ("wordsInserted", "words inserted", wordsInserted),
         ("wordsDeleted", "words deleted", wordsDeleted),
         ("wordsChanged", "words changed", wordsChanged)]
    }

    /// The counts as JSON keys and values (every field of `fields`).
    public var jsonObject: [String: Int] {
        Dictionary(fields.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
    }

    /// The counts as `--stats` prints them, one `label: value` line each.
    public var text: String { fields.map { "\($0.label): \($0.value)" }.joined(separator: "\n") }
}
