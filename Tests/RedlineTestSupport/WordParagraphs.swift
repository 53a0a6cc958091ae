/// The `w:p` elements of a WordprocessingML part, in order (a table's paragraphs included; none is nested in
/// another), for tests that compare a document's paragraphs one by one.
public func wordParagraphs(_ xml: String) -> [String] {
    var out: [String] = []
    var rest = xml[...]
    func next() -> Range<Substring.Index>? {
        [rest.range(of: "<w:p>"), rest.range(of: "<w:p ")].compactMap { $0 }.min { $0.lowerBound < $1.lowerBound }
    }
    while let r = next(), let e = rest[r.lowerBound...].range(of: "</w:p>") {
        out.append(String(rest[r.lowerBound..<e.upperBound]))
        rest = rest[e.upperBound...]
    }
    return out
}
