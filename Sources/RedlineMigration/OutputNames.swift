import Foundation
import RedlineScrivener
import RedlineCore
import RedlineConversion
import RedlineBatch

/// File names, heading anchors and relative links for migrated binder items.
enum OutputNames {
    /// A file-name-safe form of a title: lower case letters and digits, other characters folded into
    /// single hyphens, at most 60 characters; "untitled" when nothing is left.
    static func slug(_ title: String) -> String {
        var out = ""
        var hyphen = false
        for ch in title.lowercased() {
            if ch.isLetter || ch.isNumber {
                if hyphen && !out.isEmpty { out.append("-") }
                hyphen = false
                out.append(ch)
            } else {
                hyphen = true
            }
            if out.count >= 60 { break }
        }
        return out.isEmpty ? "untitled" : out
    }

    /// A snapshot's file name kept as Scrivener wrote it (a date and time such as `2024-02-01-10-00-00+0100`):
    /// letters, digits and `+ - _ .` stay, anything else becomes a hyphen, and it never starts with a dot.
    static func snapshotName(_ name: String) -> String {
        var out = String(name.map { c -> Character in
            c.isASCII && (c.isLetter || c.isNumber || "+-_.".contains(c)) ? c : "-"
        })
        while out.hasPrefix(".") { out.removeFirst() }
        return out.isEmpty ? "snapshot" : out
    }

    /// A numeric prefix for position `index` (1-based) among `count` siblings: at least two digits.
    static func prefix(_ index: Int, of count: Int) -> String {
        let width = max(2, String(count).count)
        let s = String(index)
        return String(repeating: "0", count: max(0, width - s.count)) + s
    }

    /// The anchor a heading gets in GitHub-flavoured Markdown and pandoc: lower case, punctuation removed,
    /// spaces as hyphens.
    static func anchor(_ title: String) -> String {
        var out = ""
        for ch in title.lowercased() {
            if ch.isLetter || ch.isNumber || ch == "-" || ch == "_" { out.append(ch) } else if ch == " " { out.append("-") }
        }
        return out.isEmpty ? "section" : out
    }

    /// The path from the folder of `from` to `to` (both relative to the output root, "/"-separated).
    static func relative(from: String, to: String) -> String {
        let a = from.split(separator: "/").dropLast()
        let b = to.split(separator: "/")
        var common = 0
        while common < a.count && common < b.count - 1 && a[a.startIndex + common] == b[common] { common += 1 }
        let up = Array(repeating: "..", count: a.count - common)
        return (up + b[common...].map(String.init)).joined(separator: "/")
    }

    /// `path` percent-encoded for a link (spaces and other characters that end a Markdown link).
    static func urlPath(_ path: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "()[]<> ")
        return path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
    }
}
