import RedlineCore
import RedlineXML
import RedlineZip

/// A canonical text view of a DOCX package for golden tests: every part sorted by name under a
/// `=== name ===` header; XML parts pretty-printed one node a line with fixed prefixes, attributes sorted,
/// whitespace-only text dropped (kept where `xml:space="preserve"` is in force) and text quoted.
/// Two packages with the same parts as XML give the same dump, whatever their zip bytes or prefixes.
public enum DOCXPackageDump {
    /// The dump of the package in `bytes`.
    public static func text(of bytes: [UInt8]) throws -> String {
        let archive = try ZipArchive(bytes: bytes)
        var out = ""
        for entry in archive.entries.filter({ !$0.isDirectory }).sorted(by: { $0.name < $1.name }) {
            let data = try archive.read(entry)
            if entry.name.hasSuffix(".xml") || entry.name.hasSuffix(".rels") {
                out += "=== \(entry.name) ===\n"
                out += try xml(data, name: entry.name)
            } else {
                out += "=== \(entry.name) (binary, \(data.count) bytes) ===\n"
            }
        }
        return out
    }

    /// Prefixes printed for the namespaces of WordprocessingML packages; others print as `{uri}`. Spelled
    /// out here, not taken from the writer's constants, so the dump does not follow a writer mistake.
    static let prefixes: [(uri: String, prefix: String)] = [
        ("http://schemas.openxmlformats.org/wordprocessingml/2006/main", "w"),
        ("http://schemas.openxmlformats.org/officeDocument/2006/relationships", "r"),
        ("http://schemas.openxmlformats.org/markup-compatibility/2006", "mc"),
        ("http://schemas.microsoft.com/office/word/2010/wordml", "w14"),
        ("http://schemas.microsoft.com/office/word/2012/wordml", "w15"),
        ("http://schemas.microsoft.com/office/word/2016/wordml/cid", "w16cid"),
        ("http://schemas.microsoft.com/office/word/2018/wordml/cex", "w16cex"),
        ("http://purl.oclc.org/ooxml/wordprocessingml/main", "w"),
        ("http://purl.oclc.org/ooxml/officeDocument/relationships", "r"),
        ("http://schemas.openxmlformats.org/package/2006/content-types", "ct"),
        ("http://schemas.openxmlformats.org/package/2006/relationships", "rel"),
        ("http://schemas.openxmlformats.org/package/2006/metadata/core-properties", "cp"),
        ("http://purl.org/dc/elements/1.1/", "dc"), ("http://purl.org/dc/terms/", "dcterms"),
        ("http://purl.org/dc/dcmitype/", "dcmitype"), ("http://www.w3.org/2001/XMLSchema-instance", "xsi"),
        ("http://schemas.openxmlformats.org/officeDocument/2006/custom-properties", "custom"),
        ("http://schemas.openxmlformats.org/officeDocument/2006/extended-properties", "ep"),
        ("http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes", "vt"),
        ("http://www.w3.org/XML/1998/namespace", "xml"),
        ("http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing", "wp"),
        ("http://schemas.openxmlformats.org/drawingml/2006/main", "a"),
        ("http://schemas.openxmlformats.org/drawingml/2006/picture", "pic"),
        ("urn:schemas-microsoft-com:vml", "v"), ("urn:schemas-microsoft-com:office:office", "o"),
        ("http://schemas.openxmlformats.org/officeDocument/2006/math", "m"),
    ]

    private static func xml(_ bytes: [UInt8], name: String) throws -> String {
        var numbers: [String: Int] = [:]
        for (i, p) in prefixes.enumerated() where numbers[p.uri] == nil { numbers[p.uri] = i }
        let reader = try XMLReader(bytes: bytes, name: name, namespaces: numbers)
        var out = ""
        /// The start tag waiting to see whether the element is empty.
        var pending: String?
        /// For each open element: its name and whether xml:space="preserve" is in force.
        var stack: [(name: String, preserve: Bool)] = []
        func indent(_ depth: Int) -> String { String(repeating: "  ", count: depth) }
        func flushPending() {
            if let p = pending { out += p + ">\n" }
            pending = nil
        }
        while let kind = try reader.next() {
            switch kind {
            case .start:
                flushPending()
                let element = qualified(reader.namespace, reader.localName, uri: reader.namespaceURI)
                var preserve = stack.last?.preserve ?? false
                var attrs: [String] = []
                for a in reader.attributes {
                    let n = a.namespace == XMLReader.noNamespace ? a.localName : qualified(a.namespace, a.localName, uri: "")
                    if n == "xml:space" { preserve = a.value == "preserve" }
                    attrs.append("\(n)=\"\(escape(a.value))\"")
                }
                pending = indent(stack.count) + "<" + element + attrs.sorted().map { " " + $0 }.joined()
                stack.append((element, preserve))
            case .end:
                guard let top = stack.popLast() else { continue }
                if pending != nil {
                    out += pending! + "/>\n"
                    pending = nil
                } else {
                    out += indent(stack.count) + "</\(top.name)>\n"
                }
            case .text:
                let t = reader.text
                let blank = t.allSatisfy { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }
                if blank && !(stack.last?.preserve ?? false) { continue }
                flushPending()
                out += indent(stack.count) + quoted(t) + "\n"
            }
        }
        return out
    }

    private static func qualified(_ number: Int, _ local: String, uri: String) -> String {
        if number >= 0 && number < prefixes.count { return prefixes[number].prefix + ":" + local }
        return uri.isEmpty ? local : "{\(uri)}" + local
    }

    private static func escape(_ s: String) -> String {
        var out = ""
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case "\"": out += "&quot;"
            case "\n": out += "&#10;"
            case "\t": out += "&#9;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    private static func quoted(_ s: String) -> String {
        var out = "\""
        for c in s.unicodeScalars {
            switch c {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default: out.unicodeScalars.append(c)
            }
        }
        return out + "\""
    }
}
