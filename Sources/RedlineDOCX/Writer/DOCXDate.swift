/// Dates as WordprocessingML wants them: `w:date` is an xsd:dateTime, core properties are W3CDTF.
enum DOCXDate {
    /// `s` as an xsd:dateTime (`2024-01-15T14:30:00Z`), accepting ISO 8601 dates with or without a time,
    /// seconds, fraction and zone, and a space for the `T`. A missing time is midnight, a missing zone UTC
    /// (as Word writes). Nil when `s` is not such a date.
    static func dateTime(_ s: String) -> String? {
        guard let p = parse(s) else { return nil }
        let time = p.time ?? "00:00:00"
        return p.date + "T" + time + (p.zone ?? "Z")
    }

    /// `s` as a W3CDTF date for `dcterms:created`/`modified` (a date alone stays a date). Nil when not a date.
    static func w3cdtf(_ s: String) -> String? {
        guard let p = parse(s) else { return nil }
        guard let time = p.time else { return p.date }
        return p.date + "T" + time + (p.zone ?? "Z")
    }

    private static func parse(_ s: String) -> (date: String, time: String?, zone: String?)? {
        let c = Array(s.trimmingSpaces.utf8)
        func digits(_ r: Range<Int>) -> Bool { r.upperBound <= c.count && r.allSatisfy { (48...57).contains(c[$0]) } }
        guard digits(0..<4), c.count >= 10, c[4] == 45, digits(5..<7), c[7] == 45, digits(8..<10) else { return nil }
        let date = String(decoding: c[0..<10], as: UTF8.self)
        guard let month = Int(date.dropFirst(5).prefix(2)), (1...12).contains(month),
              let day = Int(date.suffix(2)), (1...31).contains(day) else { return nil }
        if c.count == 10 { return (date, nil, nil) }
        guard c[10] == 84 || c[10] == 32, digits(11..<13), c.count >= 16, c[13] == 58, digits(14..<16) else { return nil }
        var time = String(decoding: c[11..<16], as: UTF8.self)
        var i = 16
        if i < c.count, c[i] == 58 {
            guard digits(i + 1..<i + 3) else { return nil }
            time += String(decoding: c[i..<i + 3], as: UTF8.self)
            i += 3
            if i < c.count, c[i] == 46 {  // fraction: dropped, Word writes whole seconds
                i += 1
                while i < c.count, (48...57).contains(c[i]) { i += 1 }
            }
        } else {
            time += ":00"
        }
        guard let h = Int(time.prefix(2)), h < 24, let m = Int(time.dropFirst(3).prefix(2)), m < 60 else { return nil }
        if i == c.count { return (date, time, nil) }
        let rest = String(decoding: c[i...], as: UTF8.self).trimmingSpaces
        if rest == "Z" || rest == "z" { return (date, time, "Z") }
        let r = Array(rest.utf8)
        if r.count == 6, r[0] == 43 || r[0] == 45, r[3] == 58, [1, 2, 4, 5].allSatisfy({ (48...57).contains(r[$0]) }) {
            return (date, time, rest)
        }
        if r.count == 5, r[0] == 43 || r[0] == 45, (1...4).allSatisfy({ (48...57).contains(r[$0]) }) {
            return (date, time, String(rest.prefix(3)) + ":" + String(rest.suffix(2)))
        }
        return nil
    }
}

extension String {
    /// Without leading and trailing spaces.
    fileprivate var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return String(s)
    }
}
