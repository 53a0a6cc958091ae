import RedlineCore

extension RTFParser {
    /// Acts on one known control word: each group of words has its handler.
    func word(_ k: RTFKeyword, _ p: Int?) throws {
        switch k {
        case .document(let w): documentWord(w, p ?? 0)
        case .table(let w): tableWord(w, p ?? 0)
        case .structure(let w): structureWord(w, p ?? 0)
        case .character(let w): characterWord(w, p)
        case .paragraph(let w): paragraphWord(w, p ?? 0)
        case .special(let scalar): appendCharacter(scalar)
        case .note(let w): noteWord(w)
        case .picture(let w): try pictureWord(w, p ?? 0)
        case .ignored: break
        case .skipDestination: setDestination(.skip)
        case .headerFooter(let kind, let which): startHeaderFooter(kind, which)
        case .section(let w): sectionWord(w, p)
        }
    }

    /// The document, its character set and Unicode escapes.
    private func documentWord(_ w: RTFKeyword.DocumentWord, _ v: Int) {
        switch w {
        case .rtf: break
        case .ansi: tables.documentCodePage = 1252
        case .mac: tables.documentCodePage = 10000
        case .pc: tables.documentCodePage = 437
        case .pca: tables.documentCodePage = 850
        case .ansicpg:
            if CodePageDecoder.isSupported(v) { tables.documentCodePage = v } else {
                diagnostics.report(.rtfUnknownCodePage, "code page \(v) is not known; its bytes were read as Windows-1252")
                tables.documentCodePage = 1252
            }
            fontCodePages.removeAll()
        case .deff: tables.defaultFont = v
        case .uc:
            if v < 0 || v > 16 {
                reportClamped()
                state.fallbackLength = min(max(v, 0), 16)
            } else {
                state.fallbackLength = v
            }
        case .u: unicode(v)
        case .upr:
            state.unicodeOuter = state.dest
            setDestination(.skip)
        case .ud: break
        }
    }

    /// Skips `\bin` data, warning when it runs past the end of the input.
    func skipBinary(n: Int) throws {
        let got = try tokenizer.skipBinary(n)
        if got < n {
            diagnostics.report(.rtfTruncated, "a \\bin of \(n) bytes runs past the end of the input (truncated?)")
        }
    }

    func reportClamped() {
        diagnostics.report(.rtfParameterClamped, "a control word parameter out of range was clamped")
    }

    func textDestination(_ t: TextTarget) {
        setDestination(.text(t))
        collect.removeAll(keepingCapacity: true)
    }

    /// A control symbol.
    func symbol(_ c: UInt8) {
        switch c {
        case UInt8(ascii: "\\"), UInt8(ascii: "{"), UInt8(ascii: "}"): text([c])
        case UInt8(ascii: "~"): appendCharacter(0xA0)
        case UInt8(ascii: "_"): appendCharacter(0x2011)
        case UInt8(ascii: "-"): break
        case 9: appendCharacter(9)
        default: break
        }
    }

    /// `\uN`: a UTF-16 code unit (negative values count from 65536), then fallback characters to skip.
    private func unicode(_ v: Int) {
        var u = UInt32(truncatingIfNeeded: v < 0 ? v + 65536 : v) & 0xFFFF
        if v > 0xFFFF { u = 0xFFFD }
        fallbackToSkip = state.fallbackLength
        if (0xD800...0xDBFF).contains(u) { highSurrogate = u; return }
        if (0xDC00...0xDFFF).contains(u) {
            if let h = highSurrogate {
                highSurrogate = nil
                appendCharacter(0x10000 + ((h - 0xD800) << 10) + (u - 0xDC00))
            } else { appendCharacter(0xFFFD) }
            return
        }
        if highSurrogate != nil { highSurrogate = nil; appendCharacter(0xFFFD) }
        appendCharacter(u)
    }
}
