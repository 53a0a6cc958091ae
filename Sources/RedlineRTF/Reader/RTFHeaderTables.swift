import RedlineCore

/// What the RTF header declares (fonts, colours, styles, revision authors, lists, `\info` dates), with the
/// entry being read: the tables that body text and properties refer to by number.
struct RTFHeaderTables {
    var documentCodePage = 1252
    var defaultFont = -1
    var fonts: [Int: FontEntry] = [:]
    var colors: [RGBColor?] = []
    var colorParts: (r: Int, g: Int, b: Int)?
    var paragraphStyles: [Int: StyleEntry] = [:]
    var characterStyles: [Int: String] = [:]
    /// Whether a style is one raw content is shown in (`RawStyles`).
    var hasRawStyles = false
    var revisionAuthors: [String] = []
    var listDefinitions: [Int: ListDefinition] = [:]
    var listOverrides: [Int: Int] = [:]

    // Entries being read.
    var listInProgress = ListDefinition()
    var overrideInProgress: (list: Int, ls: Int) = (0, 0)
    var fontNumber: Int?
    var fontCharset: Int?
    var fontCodePage: Int?
    var styleNumber = 0
    var styleIsCharacter = false
    var styleOutline: Int?
    var dateParts = [0, 0, 0, 0, 0]
    var propertyName: String?
}
