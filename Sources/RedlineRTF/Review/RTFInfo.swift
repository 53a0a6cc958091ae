import RedlineCore

/// What an RTF file's `\info` group records about the file itself.
public enum RTFInfo {
    /// Who last saved the file: the text of `{\info{\operator NAME}}`, if set (Word writes `\operator` on every
    /// save, `\author` only when the file is made, so `\operator` is the counterpart of DOCX's `cp:lastModifiedBy`).
    /// Reads the header only: it stops at the end of `\info` or at the body's first paragraph word or text.
    public static func lastEditor(_ input: DocumentInput) throws -> String? {
        var lexer = try RTFRawLexer(input)
        var depth = 0
        var awaitingFirst = false
        var codePage = 1252
        var uc = 1
        var infoDepth: Int?
        var collectDepth: Int?
        var text = RTFReviewText(codePage: codePage)
        while true {
            let t = try lexer.next()
            switch t.kind {
            case .end:
                return nil
            case .groupStart:
                depth += 1
                awaitingFirst = true
                continue
            case .groupEnd:
                if depth == collectDepth {
                    let v = text.value
                    return v.isEmpty ? nil : v
                }
                if depth == infoDepth { return nil }
                depth -= 1
                if depth <= 0 { return nil }
            case .word:
                if t.name == bin { lexer.expectBinary(t.param ?? 0) }
                if awaitingFirst {
                    if depth == 2, t.name == info { infoDepth = depth }
                    if let i = infoDepth, depth == i + 1, t.name == `operator` {
                        collectDepth = depth
                        text = RTFReviewText(codePage: codePage)
                        awaitingFirst = false
                        continue
                    }
                }
                if depth == 1 {
                    if t.name == ansicpg, let v = t.param, CodePageDecoder.isSupported(v) { codePage = v }
                    if t.name == ucWord { uc = max(0, min(t.param ?? 1, 16)) }
                    if bodyWords.contains(t.name) { return nil }
                }
                if collectDepth != nil { text.add(t, raw: lexer.raw, fallback: uc) }
            case .text:
                if collectDepth != nil {
                    text.add(t, raw: lexer.raw, fallback: uc)
                } else if depth == 1, lexer.raw.contains(where: { $0 != 32 && $0 != 9 }) {
                    return nil
                }
            case .hex, .symbol:
                if collectDepth != nil { text.add(t, raw: lexer.raw, fallback: uc) }
            case .ignorable, .binary:
                break
            }
            if t.kind != .ignorable { awaitingFirst = false }
        }
    }

    private static let bin = RTFWordKey("bin"), info = RTFWordKey("info"), `operator` = RTFWordKey("operator")
    private static let ansicpg = RTFWordKey("ansicpg"), ucWord = RTFWordKey("uc")
    /// Words that start the body at the top level: the header is over.
    private static let bodyWords: Set<RTFWordKey> = [RTFWordKey("pard"), RTFWordKey("par"), RTFWordKey("sectd"),
                                                     RTFWordKey("sect")]
}
