import Foundation
import RedlineCore

/// The tracked changes and comments of a document, as `redline changes` lists them. A format with a
/// `ChangeLister` (DOCX) is listed from the file itself (one item per revision element and per comment, ids
/// its `w:id`), by the same walk that reviews it in place; other formats through their reader, changes numbered in reading order as
/// `ReviewTransform` numbers them, so a listed id is the one `--accept id=` selects on either path.
public enum ChangeListing {
    /// Every change and comment of `input`.
    public static func list(_ input: DocumentInput, format: Format, options: ReadOptions = ReadOptions()) throws -> [ChangeListItem] {
        try LargeStack.run {
            if let lister = format.changeLister { return try lister.list(input, limits: options.limits) }
            guard let reader = format.reader else { throw RedlineError.usage("Redline cannot read \(format.name)") }
            var source = try reader.open(input, options: options, diagnostics: Diagnostics())
            var numbering = NumberChanges()
            var list = ModelChangeList()
            while let chunk = try source.next() {
                try numbering.process(chunk) { list.add($0) }
            }
            return list.all
        }
    }

    /// The items as text (one aligned line each), JSON (an array of objects) or CSV (with a header line).
    public static func render(_ items: [ChangeListItem], as format: String) throws -> String {
        switch format {
        case "json":
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            return String(decoding: try encoder.encode(items), as: UTF8.self) + "\n"
        case "csv":
            var out = "id,kind,element,author,date,story,paragraph,heading,before,after,thread,resolved\r\n"
            for i in items {
                let fields = [i.id, i.kind.rawValue, i.element, i.author ?? "", i.date ?? "", i.story, String(i.paragraph),
                              i.heading ?? "", i.before, i.after, i.thread ?? "", i.resolved.map { $0 ? "yes" : "no" } ?? ""]
                out += fields.map(csv).joined(separator: ",") + "\r\n"
            }
            return out
        case "text":
            var out = ""
            for i in items {
                var line = "\(i.id)\t\(i.kind.rawValue)\t\(i.author ?? "-")\t\(i.date ?? "-")\t\(i.story) ¶\(i.paragraph)"
                if let h = i.heading { line += " under \"\(h)\"" }
                if !i.before.isEmpty || !i.after.isEmpty {
                    if i.kind == .comment {
                        line += "\ton \"\(i.before)\": \"\(i.after)\""
                    } else if i.before == i.after {
                        line += "\t\"\(i.after)\""
                    } else {
                        line += "\t\"\(i.before)\" -> \"\(i.after)\""
                    }
                }
                if let t = i.thread { line += "\treply to \(t)" }
                if i.resolved == true { line += "\tresolved" }
                out += line + "\n"
            }
            return out
        default:
            throw RedlineError.usage("unknown listing format '\(format)' (text, json or csv)")
        }
    }

    private static func csv(_ s: String) -> String {
        guard s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return s }
        return "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
