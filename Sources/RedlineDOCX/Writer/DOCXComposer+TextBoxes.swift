import RedlineCore

/// Text boxes (`TextBox`): a paragraph of its own holding an inline VML rectangle whose `v:textbox` holds the
/// box's blocks, which the reader reads back as the box alone (the paragraph is only its anchor).
extension DOCXComposer {
    /// Writes `blocks`, each run of blocks wholly in one text box inside that box.
    func blocks<C: Collection>(_ blocks: C, _ ctx: Context, into x: inout XMLText) where C.Element == Block {
        guard !ctx.inTextBox, blocks.contains(where: { $0.textBox != nil }) else {
            for b in blocks { block(b, ctx, into: &x) }
            return
        }
        var inner = ctx
        inner.inTextBox = true
        for run in blocks.textBoxRuns() {
            guard let box = run.box else {
                for b in run.blocks { block(b, ctx, into: &x) }
                continue
            }
            openTextBox(box, into: &x)
            for b in run.blocks { block(b, inner, into: &x) }
            closeTextBox(into: &x)
        }
    }

    /// Opens the anchor paragraph, the rectangle and its text box (the story's reference mark, if it is still
    /// to be written, goes into the anchor paragraph). The size is the box's, else the text width and the height
    /// of its text (the box grows to fit its text).
    func openTextBox(_ box: TextBox, into x: inout XMLText) {
        x.open("w:p")
        if let prefix = storyPrefix {
            x.raw(prefix)
            storyPrefix = nil
        }
        x.open("w:r")
        x.open("w:pict")
        let width = box.width.flatMap { $0 > 0 && $0 < 2000 ? $0 : nil } ?? 468
        var style = "width:\(Self.points(width))pt"
        if let h = box.height, h > 0, h < 2000 { style += ";height:\(Self.points(h))pt" }
        x.open("v:rect", [("xmlns:v", NS.v), ("style", style)])
        x.open("v:textbox", [("style", "mso-fit-shape-to-text:t")])
        x.open("w:txbxContent")
    }

    /// Closes what `openTextBox` opened.
    func closeTextBox(into x: inout XMLText) {
        x.close("w:txbxContent")
        x.close("v:textbox")
        x.close("v:rect")
        x.close("w:pict")
        x.close("w:r")
        x.close("w:p")
    }

    private static func points(_ v: Double) -> String {
        let r = (v * 100).rounded() / 100
        return r == r.rounded() ? String(Int(r)) : String(r)
    }
}
