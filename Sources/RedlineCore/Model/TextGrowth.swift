// Appending to the text held in a run or an inline, in place. `content = .text(a + b)` while the array still
// holds `a` copies the whole text so far: joining a paragraph's many same-format pieces one by one was
// quadratic (PERFORMANCE.md, "Text that grows in place"). These take the string out of its enum first, so
// the only reference left is the local one and `+=` grows that buffer. Call them through the array
// element (`out[k].content.appendText(b)`), never through a copy of it, which would keep the string shared.

extension Run.Content {
    /// Appends `more` to the text this content holds; anything but text is left alone.
    public mutating func appendText(_ more: String) {
        guard case .text(var text) = self else { return }
        self = .lineBreak
        text += more
        self = .text(text)
    }
}

extension Inline {
    /// Appends `more` to the text of a `.text` or `.code` inline; other inlines are left alone.
    public mutating func appendText(_ more: String) {
        // `if case` binds a copy and ends; a `switch self` would keep its subject, and the text shared, alive
        // across the reassignment.
        if case .text(var text) = self {
            self = .lineBreak
            text += more
            self = .text(text)
        } else if case .code(var text) = self {
            self = .lineBreak
            text += more
            self = .code(text)
        }
    }
}
