import RedlineCore

/// What reading a Scrivener project can lose or find wrong. Stable codes: scripts match on them.
extension DiagnosticCode {
    /// A binder item's UUID or ID holds characters that cannot name a file (`../`, `/`): its files were not read.
    public static let scrivenerUnsafeID: DiagnosticCode = "scrivener.unsafe-id"
    /// A file the binder points to leads outside the project folder (a symbolic link): it was not read.
    public static let scrivenerOutsideProject: DiagnosticCode = "scrivener.outside-project"
    /// A text document has no text file: migrated as empty (normal for documents nobody typed into).
    public static let scrivenerMissingText: DiagnosticCode = "scrivener.missing-text"
    /// A side file (notes, synopsis, comments) exists but could not be read.
    public static let scrivenerUnreadableFile: DiagnosticCode = "scrivener.unreadable-file"
    /// A comment or footnote in `content.comments` is anchored nowhere in the text: it was attached at the end.
    public static let scrivenerCommentUnanchored: DiagnosticCode = "scrivener.comment-unanchored"
    /// A `scrivlnk://` link points to an item that is not migrated: the link text is kept, the link dropped.
    public static let scrivenerLinkTargetMissing: DiagnosticCode = "scrivener.link-target-missing"
    /// A binder folder sits deeper than six levels: its heading was set at level 6.
    public static let scrivenerHeadingDepth: DiagnosticCode = "scrivener.heading-depth"
    /// A picture, PDF or other non-text item in the manuscript was not migrated.
    public static let scrivenerMediaSkipped: DiagnosticCode = "scrivener.media-skipped"
    /// Items not included in compile were left out of the manuscript.
    public static let scrivenerExcluded: DiagnosticCode = "scrivener.excluded"
    /// Items in the Trash were left out.
    public static let scrivenerTrashSkipped: DiagnosticCode = "scrivener.trash-skipped"
    /// Research items were left out (use `--research` to export them).
    public static let scrivenerResearchSkipped: DiagnosticCode = "scrivener.research-skipped"
    /// Snapshots were left out (use `--snapshots` to export them).
    public static let scrivenerSnapshotsSkipped: DiagnosticCode = "scrivener.snapshots-skipped"
    /// Document notes went into front matter as plain text: their formatting, comments and notes were dropped.
    public static let scrivenerNotesFlattened: DiagnosticCode = "scrivener.notes-flattened"
    /// The binder names a label, status, keyword or custom field that its settings do not define.
    public static let scrivenerUnknownReference: DiagnosticCode = "scrivener.unknown-reference"
    /// Two binder items share one UUID or ID: only the first gets the files.
    public static let scrivenerDuplicateID: DiagnosticCode = "scrivener.duplicate-id"
    /// The project folder holds several `.scrivx` binders: the one named after the folder (or the first) was read.
    public static let scrivenerSeveralBinders: DiagnosticCode = "scrivener.several-binders"
}
