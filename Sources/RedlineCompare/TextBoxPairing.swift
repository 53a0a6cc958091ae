import RedlineCore

/// Text boxes (`TextBox`) in a comparison. The i-th box of OLD in reading order is taken to be NEW's i-th: its
/// paragraphs are given NEW's box, so that a paragraph kept in a box compares equal and a deleted one is written
/// in the same box as the text around it (the readers number boxes, and a resized box has another size). With
/// `compareTextBoxes` off, OLD's boxes hold NEW's blocks instead, so NEW's boxes come out unmarked; OLD's boxes
/// beyond NEW's are then left out (a box NEW added is still an insertion: there is no OLD box to take it as).
enum TextBoxPairing {
    /// OLD's blocks with its boxes paired with NEW's.
    static func paired(old: [Block], new: [Block], replacingContent: Bool) -> [Block] {
        // One look through OLD (most documents have no box); then each side is walked once.
        guard old.contains(where: \.holdsTextBox) else { return old }
        var boxes: [(box: TextBox, blocks: [Block])] = []
        collect(new, into: &boxes)
        var rest = boxes[...]
        return rewrite(old, taking: &rest, replacing: replacingContent)
    }

    /// The boxes in `blocks` in reading order, with their blocks.
    private static func collect(_ blocks: [Block], into out: inout [(box: TextBox, blocks: [Block])]) {
        for run in blocks.textBoxRuns() {
            if let box = run.box {
                out.append((box, Array(run.blocks)))
            } else if let b = run.blocks.first, !b.childBlocks.isEmpty {
                _ = b.mapBlockArrays { inner in
                    collect(inner, into: &out)
                    return inner
                }
            }
        }
    }

    private static func rewrite(_ blocks: [Block], taking new: inout ArraySlice<(box: TextBox, blocks: [Block])>,
                                replacing: Bool) -> [Block] {
        var out: [Block] = []
        for run in blocks.textBoxRuns() {
            if run.box != nil {
                guard let pair = new.popFirst() else {
                    if !replacing { out += run.blocks }
                    continue
                }
                out += replacing ? pair.blocks : run.blocks.map { $0.inTextBox(pair.box) }
            } else {
                out += run.blocks.map { b in
                    b.childBlocks.isEmpty ? b : b.mapBlockArrays { rewrite($0, taking: &new, replacing: replacing) }
                }
            }
        }
        return out
    }
}
