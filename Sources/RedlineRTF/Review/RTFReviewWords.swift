/// What a control word means to the in-place review (`RTFReviewRewriter`); words not listed are formatting
/// or structure, copied in order.
enum RTFReviewWord {
    /// A revision property: `\revised`, `\deleted`, their authors and dates, `\crauth`/`\crdate`.
    case revision(RTFRevisionProperty)
    /// `\prauth`, `\prdate`, `\trauth`, `\trdate`: who changed paragraph or row properties, and when.
    case propertyRevision(ChangeKindTag, isAuthor: Bool)
    case plain, hidden, uc, ansicpg, bin
    case par
    /// `\cell`, `\nestcell`, `\row`, `\nestrow`, `\sect`: close the paragraph before them when it has content
    /// (the reader's rule), and are never left out.
    case cellEnd
    /// A character of body text (`\tab`, `\emdash`, `\line`, `\u`...).
    case character
    /// A special character the reader does not read (`\chftn`, `\chdate`...): removed with its text.
    case uncountedCharacter
    case chatn
    case footnote, annotation, pict
    /// Groups holding an object or picture (`\shppict`, `\nonshppict`, `\object`, `\shp`).
    case object
    case revtbl
    /// A destination whose text is not body text.
    case destination
    /// Small groups decided whole when they end: comment range ends and old-properties records.
    case buffered(RTFBufferedGroup)

    enum ChangeKindTag { case paragraph, table }

    static func lookup(_ key: RTFWordKey) -> RTFReviewWord? { table[key] }

    private static let table: [RTFWordKey: RTFReviewWord] = {
        var t: [RTFWordKey: RTFReviewWord] = [:]
        func add(_ names: [String], _ w: RTFReviewWord) { for n in names { t[RTFWordKey(n)] = w } }
        add(["revised"], .revision(.revised))
        add(["deleted"], .revision(.deleted))
        add(["revauth"], .revision(.revauth))
        add(["revdttm"], .revision(.revdttm))
        add(["revauthdel"], .revision(.revauthdel))
        add(["revdttmdel"], .revision(.revdttmdel))
        add(["crauth"], .revision(.crauth))
        add(["crdate"], .revision(.crdate))
        add(["prauth"], .propertyRevision(.paragraph, isAuthor: true))
        add(["prdate"], .propertyRevision(.paragraph, isAuthor: false))
        add(["trauth"], .propertyRevision(.table, isAuthor: true))
        add(["trdate"], .propertyRevision(.table, isAuthor: false))
        add(["plain"], .plain)
        add(["v"], .hidden)
        add(["uc"], .uc)
        add(["ansicpg"], .ansicpg)
        add(["bin"], .bin)
        add(["par"], .par)
        add(["cell", "nestcell", "row", "nestrow", "sect"], .cellEnd)
        add(["tab", "emdash", "endash", "bullet", "lquote", "rquote", "ldblquote", "rdblquote", "emspace", "enspace",
             "qmspace", "zwj", "zwnj", "ltrmark", "rtlmark", "zwbo", "zwnbo", "line", "u"], .character)
        add(["chftn", "chdate", "chtime", "chpgn"], .uncountedCharacter)
        add(["chatn"], .chatn)
        add(["footnote"], .footnote)
        add(["annotation"], .annotation)
        add(["pict"], .pict)
        add(["shppict", "nonshppict", "object", "shp"], .object)
        add(["revtbl"], .revtbl)
        add(["atrfstart"], .buffered(.rangeStart))
        add(["atrfend"], .buffered(.rangeEnd))
        add(["oldcprops"], .buffered(.oldCharacter))
        add(["oldpprops"], .buffered(.oldParagraph))
        add(["oldtprops"], .buffered(.oldTable))
        add(["oldsprops"], .buffered(.oldSection))
        // The destinations the reader does not read as body text (RTFParser+Words).
        add(["fonttbl", "colortbl", "stylesheet", "listtable", "list", "listlevel", "leveltext", "levelnumbers",
             "listname", "listpicture", "listoverridetable", "listoverride", "info", "title", "author", "subject",
             "keywords", "creatim", "revtim", "userprops", "propname", "staticval", "defchp", "defpap", "upr",
             "fldinst", "objdata", "shpinst", "picprop", "listtext", "pntext", "pn", "atnid", "atnauthor",
             "atnref", "atnparent", "atndate", "header", "headerl", "headerr", "headerf", "footer", "footerl",
             "footerr", "footerf", "ftnsep", "ftnsepc", "ftncn", "aftnsep", "aftnsepc", "aftncn", "xe", "tc", "txe",
             "rxe", "sp", "sn", "sv", "nonesttables", "nesttableprops"], .destination)
        add(RTFKeyword.skippedDestinations, .destination)
        return t
    }()
}

/// The revision properties of RTF character state.
enum RTFRevisionProperty { case revised, deleted, revauth, revdttm, revauthdel, revdttmdel, crauth, crdate }

/// Groups the rewriter reads whole before deciding them.
enum RTFBufferedGroup { case rangeStart, rangeEnd, oldCharacter, oldParagraph, oldTable, oldSection }

/// The revision part of RTF character state, as the input states it or as the output has it so far.
struct RTFRevisionState: Equatable {
    var revised = false, deleted = false
    var revauth = 0, revdttm = 0, revauthdel = 0, revdttmdel = 0
    /// The author of a formatting change (`\crauth`), nil when none is in force.
    var crauth: Int?
    var crdate = 0

    mutating func apply(_ p: RTFRevisionProperty, _ param: Int?) {
        let on = (param ?? 1) != 0, v = param ?? 0
        switch p {
        case .revised: revised = on
        case .deleted: deleted = on
        case .revauth: revauth = v
        case .revdttm: revdttm = v
        case .revauthdel: revauthdel = v
        case .revdttmdel: revdttmdel = v
        case .crauth: crauth = v
        case .crdate: crdate = v
        }
    }

    /// The same state with the values that do not count (an author while nothing is revised) zeroed.
    var normalized: RTFRevisionState {
        var s = RTFRevisionState()
        s.revised = revised
        s.deleted = deleted
        if revised { s.revauth = revauth; s.revdttm = revdttm }
        if deleted { s.revauthdel = revauthdel; s.revdttmdel = revdttmdel }
        if let c = crauth { s.crauth = c; s.crdate = crdate }
        return s
    }

    /// The control words that turn `from` into `self` (normalized states), ending with a space.
    func words(from: RTFRevisionState) -> [UInt8] {
        var s = ""
        if revised != from.revised || (revised && (revauth != from.revauth || revdttm != from.revdttm)) {
            s += revised ? "\\revised\\revauth\(revauth)\\revdttm\(revdttm)" : "\\revised0"
        }
        if deleted != from.deleted || (deleted && (revauthdel != from.revauthdel || revdttmdel != from.revdttmdel)) {
            s += deleted ? "\\deleted\\revauthdel\(revauthdel)\\revdttmdel\(revdttmdel)" : "\\deleted0"
        }
        if let c = crauth, c != from.crauth || crdate != from.crdate { s += "\\crauth\(c)\\crdate\(crdate)" }
        return s.isEmpty ? [] : Array((s + " ").utf8)
    }
}
