extension ReviewOptions {
    /// The stages that carry out these decisions, in order: `ReviewTransform` unless every change stays,
    /// then `DropComments` unless every comment stays (the plain one when every comment goes).
    public var stages: [any ChunkStage] {
        var s: [any ChunkStage] = []
        if !keepsAllChanges { s.append(ReviewTransform(self)) }
        // Every comment goes; through the filters' own test when a tally records which of them matched.
        if dropsEveryComment && (tally == nil || dropComments.isEmpty) {
            s.append(DropComments())
        } else if !keepsAllComments {
            s.append(DropComments(self))
        }
        return s
    }

    /// True when no comment can stay, whatever its author or state.
    public var dropsEveryComment: Bool { effectiveComments == .drop }
}
