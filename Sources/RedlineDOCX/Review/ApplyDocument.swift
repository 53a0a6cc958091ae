import RedlineCore

/// `word/document.xml` with a plan's steps: named paragraphs rewritten (`ApplyParagraph`), new paragraphs
/// inserted, every other byte copied.
struct ApplyDocument {
    let scan: ApplyXMLScan
    let plan: ApplyPlan
    let accept: Bool
    let ids: ApplyIDs
    let existingComments: [ReviewComments.Entry]
    let styles: [UInt8]
    var body: ApplyBody
    var map: [Int?] = []
    /// New comments: (plan comment, the id written).
    var newComments: [(Comment, Int)] = []
    var keptInside = 0
    /// The bytes `render` gives: the whole part (nil), or the story element's alone (a note's).
    var range: Range<Int>?

    private var commentIDs: [String: Int] = [:]
    /// Anchors of each comment still to write, and in all (a comment crossing paragraphs has one per leaf).
    private var anchorsLeft: [String: Int] = [:], anchorsTotal: [String: Int] = [:]
    private var rewritten: [Int: [UInt8]] = [:]
    private var removed: Set<Int> = []
    private var inserts: [(at: Int, bytes: [UInt8])] = []
    /// Paragraphs a `.delete` step names, with its change.
    private var deletedParas: [Int: Change] = [:]
    /// Byte ranges removed whole (rows, tables: accepted deletions).
    private var removedRanges: [Range<Int>] = []
    /// Accepted joins: content of paragraphs whose marks went, by the paragraph they join.
    private var carried: [Int: [UInt8]] = [:]
    /// New `w:pPr`s of paragraphs a property step names.
    private var restyled: [Int: String] = [:]
    /// Writes property steps; counts what it could not write as asked.
    var properties: ApplyProperties

    /// `properties`: ORIGINAL's styles and numbering as read for another story (each note's writer shares the
    /// one read once), else read from `styles` and `numbering`.
    init(body: ApplyBody, plan: ApplyPlan, accept: Bool, ids: ApplyIDs, existingComments: [ReviewComments.Entry],
         styles: [UInt8], numbering: [UInt8] = [], properties: ApplyProperties? = nil) {
        scan = body.scan
        self.plan = plan
        self.accept = accept
        self.ids = ids
        self.existingComments = existingComments
        self.styles = styles
        self.properties = properties ?? ApplyProperties(styles: styles, numbering: numbering)
        self.body = body
    }

    mutating func render() throws -> [UInt8] {
        // A comment crossing paragraphs is anchored in each: its start goes in the first, its end in the last.
        var seen: [String: Int] = [:]
        for (n, step) in plan.steps.enumerated() {
            guard case .edit(_, let edits, _) = step else { continue }
            for e in edits { if case .comment(let id) = e.kind { seen[id, default: 0] += 1; anchorsLeft[id] = seen[id]; _ = n } }
        }
        anchorsTotal = anchorsLeft
        map = body.align(plan.leaves)
        for (k, leaf) in plan.leaves.enumerated() where map[k] == nil {
            // A code block's text ends in a new line its paragraph does not hold.
            if case .codeBlock = leaf.block {
                let from = (map[..<k].compactMap { $0 }.last ?? -1) + 1
                if let c = (from..<min(body.paras.count, from + 64)).first(where: { body.text($0) + "\n" == leaf.text }) { map[k] = c }
            }
        }
        var skip = 0
        for (n, step) in plan.steps.enumerated() {
            if skip > 0 { skip -= 1; continue }
            if case .insert(let after, _, false, let path, let change) = step, case .cell(let row, _)? = path.last {
                // The cells of a new row: a new w:tr when a neighbouring row gives its structure.
                var cells: [(Int, [Block])] = []
                for case .insert(after, let blocks, false, let p, _) in plan.steps[n...] {
                    guard case .cell(row, let column)? = p.last, p.dropLast() == path.dropLast() else { break }
                    cells.append((column, blocks))
                }
                if try insertRow(after: after, cells: cells, change: change) {
                    skip = cells.count - 1
                    continue
                }
            }
            switch step {
            case .edit(let leaf, let edits, let markDeleted):
                let c = try paragraph(of: leaf)
                var r = ApplyParagraph(scan: scan, paragraph: body.paras[c].token, accept: accept, ids: ids)
                r.markDeleted = markDeleted
                r.properties = restyled.removeValue(forKey: c)
                for e in edits {
                    switch e.kind {
                    case .replace: r.replaces.append(e)
                    case .format: r.formats.append(e)
                    case .comment(let id):
                        guard let n = commentID(id) else { continue }
                        let start = "<w:commentRangeStart w:id=\"\(n)\"/>"
                        let end = "<w:commentRangeEnd w:id=\"\(n)\"/><w:r><w:commentReference w:id=\"\(n)\"/></w:r>"
                        let left = anchorsLeft[id] ?? 1
                        anchorsLeft[id] = left - 1
                        let isFirst = left == (anchorsTotal[id] ?? 1), isLast = left == 1
                        if e.range.isEmpty && isFirst && isLast {
                            r.after[e.range.lowerBound, default: []].append(start + end)
                        } else {
                            if isFirst { r.before[e.range.lowerBound, default: []].append(start) }
                            if isLast { r.after[e.range.upperBound, default: []].append(end) }
                        }
                    }
                }
                r.prefix = carried.removeValue(forKey: c) ?? []
                let bytes = r.render()
                keptInside += r.keptInside
                if accept, markDeleted != nil, let next = joinable(c) {
                    // Accepted, a paragraph whose mark goes joins the next one.
                    carried[next] = Array(bytes[r.contentRange])
                    removed.insert(c)
                } else if accept, markDeleted != nil, removable(c), body.text(c).isEmpty,
                          edits.allSatisfy({ $0.inserted.isEmpty }), r.prefix.isEmpty {
                    // An empty paragraph whose mark goes with nothing to join: gone.
                    removed.insert(c)
                } else {
                    rewritten[c] = bytes
                }
            case .delete(let leaf, let change):
                let c = try paragraph(of: leaf)
                deletedParas[c] = change
                if accept && removable(c) {
                    if let carry = carried.removeValue(forKey: c), let next = joinable(c) { carried[next] = carry }
                    removed.insert(c)
                    continue
                }
                var r = ApplyParagraph(scan: scan, paragraph: body.paras[c].token, accept: accept, ids: ids)
                let n = body.text(c).utf8.count
                if n > 0 { r.replaces.append(TextEdit(range: 0..<n, inserted: [], change: change)) }
                r.markDeleted = change
                r.prefix = carried.removeValue(forKey: c) ?? []
                rewritten[c] = r.render()
                keptInside += r.keptInside
            case .insert(let after, let blocks, let whole, let path, let change):
                try insert(after: after, blocks: blocks, whole: whole, path: path, change: change)
            case .restyle(let leaf, let old, let new, let change):
                let c = try paragraph(of: leaf)
                restyled[c] = properties.restyled(body.pPr(c), old: old, new: new, change: change, accept: accept, ids: ids)
            }
        }
        deleteRows()
        for (c, carry) in carried where rewritten[c] == nil {
            var r = ApplyParagraph(scan: scan, paragraph: body.paras[c].token, accept: accept, ids: ids)
            r.prefix = carry
            r.properties = restyled.removeValue(forKey: c)
            rewritten[c] = r.render()
        }
        // Paragraphs whose properties alone changed.
        for (c, pPr) in restyled where rewritten[c] == nil && !removed.contains(c) {
            var r = ApplyParagraph(scan: scan, paragraph: body.paras[c].token, accept: accept, ids: ids)
            r.properties = pPr
            rewritten[c] = r.render()
        }
        // Assemble: copy between the rewritten, removed paragraphs and insertion points.
        var events: [(at: Int, order: Int, kind: Int, index: Int)] = []
        for (n, ins) in inserts.enumerated() {
            // What goes inside a removed row goes after it.
            let at = removedRanges.first { $0.contains(ins.at) && $0.lowerBound != ins.at }?.upperBound ?? ins.at
            events.append((at, n, 0, n))
        }
        for c in rewritten.keys { events.append((body.start(c), Int.max, 1, c)) }
        for c in removed { events.append((body.start(c), Int.max, 2, c)) }
        for (n, r) in removedRanges.enumerated() { events.append((r.lowerBound, Int.max - 1, 3, n)) }
        events.sort { ($0.at, $0.order) < ($1.at, $1.order) }
        var out: [UInt8] = []
        let whole = range ?? 0..<scan.bytes.count
        out.reserveCapacity(whole.count + 4096)
        var pos = whole.lowerBound
        for e in events {
            if e.kind != 0 && e.at < pos { continue }  // inside a removed range
            if e.at > pos { out += scan.bytes[pos..<e.at]; pos = e.at }
            switch e.kind {
            case 0: out += inserts[e.index].bytes
            case 1:
                out += rewritten[e.index]!
                pos = body.end(e.index)
            case 2: pos = body.end(e.index)
            default: pos = removedRanges[e.index].upperBound
            }
        }
        out += scan.bytes[pos..<whole.upperBound]
        return out
    }

    /// The paragraph paragraph `c` joins when its mark goes (the next one in the same container), nil when none
    /// or when `c` ends a section.
    func joinable(_ c: Int) -> Int? {
        guard c + 1 < body.paras.count, body.paras[c + 1].parent == body.paras[c].parent, !body.hasSection(c) else { return nil }
        return c + 1
    }

    /// Rows whose every paragraph a `.delete` step names: marked deleted (`w:trPr/w:del`), or removed when
    /// accepted (the table too when no row is left).
    mutating func deleteRows() {
        var rows: [Int: [Int]] = [:]
        for (c, p) in body.paras.enumerated() { if let r = p.row { rows[r, default: []].append(c) } }
        var gone: [Int: [Int]] = [:]  // table -> removed rows
        for (row, paras) in rows.sorted(by: { $0.key < $1.key }) where paras.allSatisfy({ deletedParas[$0] != nil }) {
            // Only rows of which no nested table holds a paragraph the step left.
            let change = deletedParas[paras[0]]!
            if accept {
                gone[body.paras[paras[0]].table!, default: []].append(row)
                continue
            }
            inserts.append((rowMarkOffset(row), Array(("<w:del" + ids.attributes(change) + "/>").utf8)))
            if !scan.bytesHaveChild(row, "w:trPr") {
                let at = inserts.count - 1
                inserts[at].bytes = Array("<w:trPr>".utf8) + inserts[at].bytes + Array("</w:trPr>".utf8)
            }
        }
        for (table, removedRows) in gone {
            let all = scan.children(of: table, named: "w:tr")
            if Set(all) == Set(removedRows) {
                removedRanges.append(scan.tokens[table].range.lowerBound..<scan.tokens[scan.end(of: table)].range.upperBound)
            } else {
                for r in removedRows { removedRanges.append(scan.tokens[r].range.lowerBound..<scan.tokens[scan.end(of: r)].range.upperBound) }
            }
        }
    }

    /// Where a row's deletion mark goes: at the end of its `w:trPr` (before a `w:trPrChange`), or where a
    /// new `w:trPr` would go (after `w:tblPrEx`).
    func rowMarkOffset(_ row: Int) -> Int {
        if let trPr = scan.children(of: row, named: "w:trPr").first {
            if let change = scan.children(of: trPr, named: "w:trPrChange").first { return scan.tokens[change].range.lowerBound }
            return scan.tokens[scan.end(of: trPr)].range.lowerBound
        }
        if let ex = scan.children(of: row, named: "w:tblPrEx").first { return scan.tokens[scan.end(of: ex)].range.upperBound }
        return scan.tokens[row].range.upperBound
    }

    /// Whether paragraph `c` can go without leaving its container empty or losing a section break.
    func removable(_ c: Int) -> Bool {
        let p = body.paras[c]
        guard !body.hasSection(c) else { return false }
        if p.top == p.token { return true }
        return (c > 0 && body.paras[c - 1].parent == p.parent) || (c + 1 < body.paras.count && body.paras[c + 1].parent == p.parent)
    }

    func paragraph(of leaf: Int) throws -> Int {
        guard leaf < map.count, let c = map[leaf] else {
            let text = leaf < plan.leaves.count ? String(plan.leaves[leaf].text.prefix(40)) : ""
            throw RedlineError.unsupported("paragraph \(leaf + 1) of ORIGINAL (\"\(text)\") was not found in word/document.xml by its text: nothing was written")
        }
        return c
    }

    /// The id a comment of the plan is written with; nil when ORIGINAL already has it (same author and text).
    mutating func commentID(_ id: String) -> Int? {
        if let n = commentIDs[id] { return n }
        guard let c = plan.comments.first(where: { $0.id == id }) else { return nil }
        let text = ApplyComments.plainText(c.body)
        if existingComments.contains(where: { $0.author == c.author && $0.text == text }) { return nil }
        let n = ids.take()
        commentIDs[id] = n
        newComments.append((c, n))
        return n
    }

    // MARK: New paragraphs

    mutating func insert(after: Int?, blocks: [Block], whole: Bool, path: [LeafContainer], change: Change) throws {
        let at: Int
        let near: Int?
        if let after {
            var last = after
            if whole {
                // After the whole top-level block the leaf sits in.
                while last + 1 < plan.leaves.count, plan.leaves[last + 1].topLevel == plan.leaves[after].topLevel { last += 1 }
            }
            let c = try paragraph(of: last)
            at = whole ? body.topEnd(c) : body.end(c)
            near = after
        } else if let first = map.first ?? nil {
            at = whole ? body.topStart(first) : body.start(first)
            near = 0
        } else {
            at = body.bodyEnd
            near = nil
        }
        var xml = ""
        for b in blocks {
            if whole, case .table(let t) = b, !(at > body.bodyEnd) {
                xml += newTable(t, near: near, change: change)
                continue
            }
            leaves(b, inList: path.contains { if case .item = $0 { return true } else { return false } },
                   inQuote: path.contains(.quote)) { leaf, inList, inQuote in
                xml += newParagraph(leaf, inList: inList, inQuote: inQuote, near: near, change: change)
            }
        }
        inserts.append((at, Array(xml.utf8)))
    }

    /// A new table: the properties of ORIGINAL's first table (its style, borders), else width automatic;
    /// every row marked inserted, each cell's paragraphs as new paragraphs.
    func newTable(_ t: Table, near: Int?, change: Change) -> String {
        var tblPr = "<w:tblPr><w:tblW w:w=\"0\" w:type=\"auto\"/></w:tblPr>"
        if let first = scan.tokens.firstIndex(where: { $0.kind == .start && $0.name == "w:tbl" }),
           let p = scan.children(of: first, named: "w:tblPr").first {
            tblPr = ApplyXMLScan.withoutChildren(String(decoding: scan.bytes(p, scan.end(of: p)), as: UTF8.self),
                                                 ["w:tblPrChange", "w:tblW", "w:tblLook"], root: "w:tblPr")
        }
        let columns = max(1, t.rows.map { $0.cells.reduce(0) { $0 + max(1, $1.columnSpan) } }.max() ?? 1)
        var xml = "<w:tbl>" + tblPr + "<w:tblGrid>" + String(repeating: "<w:gridCol/>", count: columns) + "</w:tblGrid>"
        for row in t.rows {
            xml += "<w:tr>" + (accept ? "" : "<w:trPr><w:ins" + ids.attributes(change) + "/></w:trPr>")
            for cell in row.cells {
                xml += "<w:tc>" + (cell.columnSpan > 1 ? "<w:tcPr><w:gridSpan w:val=\"\(cell.columnSpan)\"/></w:tcPr>" : "")
                var content = ""
                for b in cell.blocks {
                    leaves(b, inList: false, inQuote: false) { leaf, inList, inQuote in
                        content += newParagraph(leaf, inList: inList, inQuote: inQuote, near: near, change: change, pPr: "")
                    }
                }
                if content.isEmpty { content = newParagraph(.paragraph(Paragraph([])), inList: false, inQuote: false, near: near, change: change, pPr: "") }
                xml += content + "</w:tc>"
            }
            xml += "</w:tr>"
        }
        return xml + "</w:tbl>"
    }

    func leaves(_ b: Block, inList: Bool, inQuote: Bool, _ visit: (Block, Bool, Bool) -> Void) {
        switch b {
        case .paragraph, .heading, .codeBlock: visit(b, inList, inQuote)
        case .blockQuote(let bs): for x in bs { leaves(x, inList: inList, inQuote: true, visit) }
        case .list(let l): for item in l.items { for x in item { leaves(x, inList: true, inQuote: inQuote, visit) } }
        case .table(let t):
            for row in t.rows { for cell in row.cells { for x in cell.blocks { leaves(x, inList: inList, inQuote: inQuote, visit) } } }
        case .thematicBreak, .raw: break
        }
    }

    /// A new row holding `cells` (column, blocks), shaped like the row of leaf `after` (after it) or else of the
    /// next leaf (before it): its row and cell properties, the row marked inserted. False when neither is in a row.
    mutating func insertRow(after: Int?, cells: [(Int, [Block])], change: Change) throws -> Bool {
        var reference: Int?, before = false
        if let after, let c = map[after], let r = body.paras[c].row {
            reference = r
        } else if let next = after.map({ $0 + 1 }) ?? (plan.leaves.isEmpty ? nil : 0), next < map.count,
                  let c = map[next], let r = body.paras[c].row {
            reference = r
            before = true
        }
        guard let row = reference else { return false }
        var trPr = ""
        if let t = scan.children(of: row, named: "w:trPr").first {
            trPr = ApplyXMLScan.children(of: String(decoding: scan.bytes(t, scan.end(of: t)), as: UTF8.self))
                .filter { !["w:ins", "w:del", "w:trPrChange"].contains($0.name) }.map(\.xml).joined()
        }
        if !accept { trPr += "<w:ins" + ids.attributes(change) + "/>" }
        var xml = "<w:tr>" + (trPr.isEmpty ? "" : "<w:trPr>" + trPr + "</w:trPr>")
        let tcs = scan.children(of: row, named: "w:tc")
        for (k, tc) in tcs.enumerated() {
            var tcPr = ""
            if let t = scan.children(of: tc, named: "w:tcPr").first {
                tcPr = ApplyXMLScan.without(String(decoding: scan.bytes(t, scan.end(of: t)), as: UTF8.self),
                                            ["w:vMerge", "w:tcPrChange", "w:cellIns", "w:cellDel", "w:cellMerge"])
                tcPr = tcPr.replacingOccurrences(of: "<w:pPr>", with: "<w:tcPr>").replacingOccurrences(of: "</w:pPr>", with: "</w:tcPr>")
            }
            var pPr: String?
            if let p = scan.children(of: tc, named: "w:p").first, let c = body.paras.firstIndex(where: { $0.token == p }) {
                pPr = ApplyXMLScan.without(body.pPr(c), ["w:sectPr", "w:pPrChange", "w:rPr", "w:numPr"])
            }
            var content = ""
            for (column, blocks) in cells where column == k || (k == tcs.count - 1 && column >= tcs.count) {
                for b in blocks {
                    leaves(b, inList: false, inQuote: false) { leaf, inList, inQuote in
                        content += newParagraph(leaf, inList: inList, inQuote: inQuote, near: after, change: change, pPr: pPr)
                    }
                }
            }
            if content.isEmpty { content = newParagraph(.paragraph(Paragraph([])), inList: false, inQuote: false, near: after, change: change, pPr: pPr) }
            xml += "<w:tc>" + tcPr + content + "</w:tc>"
        }
        xml += "</w:tr>"
        let at = before ? scan.tokens[row].range.lowerBound : scan.tokens[scan.end(of: row)].range.upperBound
        inserts.append((at, Array(xml.utf8)))
        return true
    }

    /// A new paragraph for `leaf`, its properties from ORIGINAL's nearest paragraph of the same kind (or `pPr`).
    func newParagraph(_ leaf: Block, inList: Bool, inQuote: Bool, near: Int?, change: Change, pPr given: String? = nil) -> String {
        var pPr = ""
        func nearest(_ matches: (ApplyLeaf) -> Bool) -> Int? {
            let n = plan.leaves.count
            let from = min(max(near ?? 0, 0), max(n - 1, 0))
            for d in 0..<n {
                for k in [from - d, from + d] where k >= 0 && k < n {
                    if let c = map[k], matches(plan.leaves[k]) { return c }
                }
            }
            return nil
        }
        func isList(_ l: ApplyLeaf) -> Bool { l.path.contains { if case .item = $0 { return true } else { return false } } }
        switch leaf {
        case .heading(let level, _):
            if let c = nearest({ if case .heading(level, _) = $0.block { return true } else { return false } }) {
                pPr = ApplyXMLScan.without(body.pPr(c), ["w:sectPr", "w:pPrChange", "w:rPr"])
            } else if let id = headingStyle(level) {
                pPr = "<w:pPr><w:pStyle w:val=\"\(id)\"/></w:pPr>"
            }
        case .codeBlock:
            if let c = nearest({ if case .codeBlock = $0.block { return true } else { return false } }) {
                pPr = ApplyXMLScan.without(body.pPr(c), ["w:sectPr", "w:pPrChange", "w:rPr"])
            }
        default:
            if inList, let c = nearest(isList) {
                pPr = ApplyXMLScan.without(body.pPr(c), ["w:sectPr", "w:pPrChange", "w:rPr"])
            } else if let c = nearest({ l in
                guard case .paragraph = l.block, !isList(l) else { return false }
                return l.path.contains(.quote) == inQuote
            }) {
                pPr = ApplyXMLScan.without(body.pPr(c), ["w:sectPr", "w:pPrChange", "w:rPr", "w:numPr"])
            }
        }
        if let given { pPr = given }
        var content: [Inline]
        switch leaf {
        case .paragraph(let p), .heading(_, let p): content = p.content
        case .codeBlock(let code):
            var lines = code.text
            if lines.hasSuffix("\n") { lines.removeLast() }
            content = []
            for (k, line) in lines.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                if k > 0 { content.append(.lineBreak) }
                content.append(.text(String(line)))
            }
        default: content = []
        }
        let runs = ApplyRuns.runs(content, base: "", pictures: ids.pictures, notes: ids.notes)
        if accept { return "<w:p>" + pPr + runs + "</w:p>" }
        pPr = ApplyXMLScan.markingParagraph(pPr, "<w:ins" + ids.attributes(change) + "/>", isDeletion: false)
        return "<w:p>" + pPr + (runs.isEmpty ? "" : "<w:ins" + ids.attributes(change) + ">" + runs + "</w:ins>") + "</w:p>"
    }

    /// The id of ORIGINAL's style for headings of `level` ("Heading1", "heading 1"), nil when none.
    func headingStyle(_ level: Int) -> String? {
        let s = String(decoding: styles, as: UTF8.self)
        for id in ["Heading\(level)", "heading\(level)", "Titre\(level)", "berschrift\(level)"] where s.contains("w:styleId=\"\(id)\"") {
            return id
        }
        return nil
    }
}
