import RedlineCore

/// The `w:rPr` element (or nothing) written for the last few run looks without a character style, newest
/// first: a paragraph repeats a few looks (bold, italic, plain...) run after run, and building the
/// properties again for each cost ~1,200 instructions a run (PERFORMANCE.md, "Small runs"). A look with a
/// style is not kept: its `w:rStyle` comes from the style catalogue, which the writer asks each time.
struct RunPropertiesCache {
    private struct Entry {
        var format: TextFormat
        var inLink: Bool
        var element: [UInt8]
    }

    /// A struct, not a tuple: tuples in an array were copied through the runtime's generic witnesses.
    private var entries: [Entry] = []
    static let capacity = 4

    /// The element written for `format` in (or out of) a link, when kept.
    func element(for format: TextFormat, inLink: Bool) -> [UInt8]? {
        // Compared in place, by index: a `for e in entries` loop copies every entry it looks at.
        for k in entries.indices where entries[k].inLink == inLink && entries[k].format == format { return entries[k].element }
        return nil
    }

    /// Keeps `element` for `format` (a format with a character style is not kept).
    mutating func keep(_ element: [UInt8], for format: TextFormat, inLink: Bool) {
        guard !format.hasStyle else { return }
        if entries.count == Self.capacity { entries.removeLast() }
        entries.insert(Entry(format: format, inLink: inLink, element: element), at: 0)
    }
}
