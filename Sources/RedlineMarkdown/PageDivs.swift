import RedlineCore

/// The page in Markdown with `--keep-formatting`: a section as a fenced div after the paragraph that ends it
/// (`.redline-section`; the document's last section `.redline-last-section`, at the end), holding its headers
/// and footers as divs of their own (`.redline-header`, `.redline-footer`, `which=first|even`) whose Markdown
/// carries their text, formatting and CriticMarkup:
///
///     ::: {.redline-section break=nextPage width=612 height=792 margin-top=72 columns=2}
///     ::: {.redline-header}
///     Quarterly report {++draft++}
///     :::
///     :::
///
/// Lengths are points; every key is optional (unstated). docs/criticmarkup.md lists the keys.
enum PageDivs {
    /// What a page div opens.
    enum Role: Equatable {
        case section(Section, last: Bool)
        case story(HeaderFooter.Kind, HeaderFooter.Which)
        /// A text box's div: its blocks are the box's (`TextBox`; the reader numbers the boxes).
        case textBox(width: Double?, height: Double?)
        /// A field whose result is the div's paragraphs (`BlockField`: a table of contents).
        case field(FieldCode)
    }

    static let sectionClass = ".redline-section", lastSectionClass = ".redline-last-section"
    static let headerClass = ".redline-header", footerClass = ".redline-footer"
    static let textBoxClass = ".redline-text-box"
    static let fieldClass = ".redline-field"

    /// The role of a div with these attribute tokens, or nil for any other div.
    static func role(_ tokens: [AttributeToken], diagnostics: Diagnostics) -> Role? {
        let keys = Set(tokens.filter { $0.value == nil }.map(\.key))
        if keys.contains(fieldClass), let instruction = tokens.first(where: { $0.key == "instr" })?.value {
            return .field(FieldCode(instruction: instruction))
        }
        if keys.contains(textBoxClass) {
            func size(_ key: String) -> Double? {
                tokens.first { $0.key == key }?.value.flatMap(Double.init).flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
            }
            return .textBox(width: size("width"), height: size("height"))
        }
        if keys.contains(headerClass) || keys.contains(footerClass) {
            let which = tokens.first { $0.key == "which" }?.value.flatMap(HeaderFooter.Which.init(rawValue:)) ?? .default
            return .story(keys.contains(headerClass) ? .header : .footer, which)
        }
        guard keys.contains(sectionClass) || keys.contains(lastSectionClass) else { return nil }
        var s = Section()
        func number(_ v: String?) -> Double? { v.flatMap(Double.init).flatMap { $0.isFinite ? $0 : nil } }
        /// Sets a part of the line numbering, which any of its keys turns on.
        func numbering(_ edit: (inout Section.LineNumbering) -> Void) {
            var n = s.lineNumbering ?? Section.LineNumbering()
            edit(&n)
            s.lineNumbering = n
        }
        for t in tokens {
            switch t.key {
            case sectionClass, lastSectionClass: continue
            case ".title-page": s.titlePage = true
            case "break": s.breakKind = t.value.flatMap(Section.BreakKind.init(rawValue:))
            case "width": s.pageWidth = number(t.value)
            case "height": s.pageHeight = number(t.value)
            case "orientation": s.orientation = t.value.flatMap(Section.Orientation.init(rawValue:))
            case "margin-top": s.margins.top = number(t.value)
            case "margin-bottom": s.margins.bottom = number(t.value)
            case "margin-left": s.margins.left = number(t.value)
            case "margin-right": s.margins.right = number(t.value)
            case "margin-header": s.margins.header = number(t.value)
            case "margin-footer": s.margins.footer = number(t.value)
            case "margin-gutter": s.margins.gutter = number(t.value)
            case "columns": s.columns = t.value.flatMap { Int($0) }.map { min(max($0, 1), 45) }
            case "column-spacing": s.columnSpacing = number(t.value)
            case "line-numbers":
                numbering { $0.countBy = t.value.flatMap { Int($0) }.map { min(max($0, 1), 100) } ?? 1 }
            case "line-numbers-start": numbering { $0.start = t.value.flatMap { Int($0) } }
            case "line-numbers-distance": numbering { $0.distance = number(t.value) }
            case "line-numbers-restart": numbering { $0.restart = t.value.flatMap(Section.LineNumbering.Restart.init(rawValue:)) }
            default:
                diagnostics.report(.markdownUnknownAttribute, "a section attribute Redline does not know was ignored ('\(t.key)')")
            }
        }
        return .section(s, last: keys.contains(lastSectionClass))
    }

    /// The fence line opening a section's div (its stories are written inside).
    static func fence(_ s: Section, last: Bool) -> String {
        var t = [AttributeToken(last ? lastSectionClass : sectionClass)]
        func add(_ key: String, _ v: Double?) { if let v { t.append(AttributeToken(key, FormatAttributes.number(v))) } }
        if let b = s.breakKind { t.append(AttributeToken("break", b.rawValue)) }
        add("width", s.pageWidth)
        add("height", s.pageHeight)
        if let o = s.orientation { t.append(AttributeToken("orientation", o.rawValue)) }
        add("margin-top", s.margins.top)
        add("margin-bottom", s.margins.bottom)
        add("margin-left", s.margins.left)
        add("margin-right", s.margins.right)
        add("margin-header", s.margins.header)
        add("margin-footer", s.margins.footer)
        add("margin-gutter", s.margins.gutter)
        if let c = s.columns { t.append(AttributeToken("columns", String(c))) }
        add("column-spacing", s.columnSpacing)
        if let n = s.lineNumbering {
            t.append(AttributeToken("line-numbers", String(n.countBy)))
            if let v = n.start { t.append(AttributeToken("line-numbers-start", String(v))) }
            add("line-numbers-distance", n.distance)
            if let r = n.restart { t.append(AttributeToken("line-numbers-restart", r.rawValue)) }
        }
        if s.titlePage { t.append(AttributeToken(".title-page")) }
        return "::: {" + AttributeList.write(t) + "}"
    }

    /// The fence line opening a text box's div.
    static func fence(_ box: TextBox) -> String {
        var t = [AttributeToken(textBoxClass)]
        if let w = box.width { t.append(AttributeToken("width", FormatAttributes.number(w))) }
        if let h = box.height { t.append(AttributeToken("height", FormatAttributes.number(h))) }
        return "::: {" + AttributeList.write(t) + "}"
    }

    /// The fence line opening a field's div.
    static func fence(_ field: FieldCode) -> String {
        "::: {" + AttributeList.write([AttributeToken(fieldClass), AttributeToken("instr", field.instruction)]) + "}"
    }

    /// The fence line opening a header's or footer's div.
    static func fence(_ story: HeaderFooter) -> String {
        let cls = story.kind == .header ? headerClass : footerClass
        return story.which == .default ? "::: {\(cls)}" : "::: {\(cls) which=\(story.which.rawValue)}"
    }
}
