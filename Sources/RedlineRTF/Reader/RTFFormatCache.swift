import RedlineCore

/// Display formats and revision dates the reader has already worked out: runs alternate between a few
/// formats and a document's revisions share a few dates, so each is computed once.
struct RTFFormatCache {
    /// The keys and display formats of the last few formats used, newest first (runs alternate between a few:
    /// plain, italic, bold...); checked before `byKey`, whose hashing costs more than these comparisons.
    private var recentKeys: [CharFormat] = []
    private var recentFormats: [TextFormat] = []
    /// Display formats by RTF character properties (revision marks cleared).
    private var byKey: [CharFormat: TextFormat] = [:]
    private var dates: [Int: String?] = [:]
    private var lastDate: (dttm: Int, value: String?)?

    /// The display format worked out before for `key`, if any.
    mutating func format(for key: CharFormat) -> TextFormat? {
        for i in recentKeys.indices where recentKeys[i] == key { return recentFormats[i] }
        if let t = byKey[key] {
            remember(key, t)
            return t
        }
        return nil
    }

    /// Keeps the display format worked out for `key`.
    mutating func store(_ format: TextFormat, for key: CharFormat) {
        remember(key, format)
        if byKey.count < 1024 { byKey[key] = format }
    }

    /// Forgets the display formats (a font, colour or style table entry changed).
    mutating func invalidate() {
        byKey.removeAll()
        recentKeys.removeAll()
        recentFormats.removeAll()
    }

    /// A revision date, decoded once per distinct value.
    mutating func date(_ dttm: Int) -> String? {
        // A deletion and the insertion that replaces it usually share their date: check the last one first.
        if let last = lastDate, last.dttm == dttm { return last.value }
        let d: String?
        if let cached = dates[dttm] { d = cached } else {
            d = dateFromDTTM(dttm)
            if dates.count < 4096 { dates[dttm] = d }
        }
        lastDate = (dttm, d)
        return d
    }

    private mutating func remember(_ key: CharFormat, _ format: TextFormat) {
        if recentKeys.count >= 4 {
            recentKeys.removeLast()
            recentFormats.removeLast()
        }
        recentKeys.insert(key, at: 0)
        recentFormats.insert(format, at: 0)
    }
}
