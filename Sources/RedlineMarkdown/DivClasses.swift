import RedlineCore

/// A fenced div's classes (`::: {.callout-note}`, `::: warning`) travel as the paragraph style name of the
/// blocks inside it: the classes with their dots, joined by spaces (`.callout-note`, `.column-margin .aside`).
/// DOCX gets a paragraph style of that name (no Word style name starts with a dot), and a style name of that
/// form is written back as the div.
enum DivClasses {
    /// True for a class the style name can carry: an ASCII letter, then letters, digits, `-` or `_`.
    static func isClass(_ s: Substring) -> Bool {
        guard let first = s.utf8.first, isLetter(first) else { return false }
        return s.utf8.allSatisfy { b in
            isLetter(b) || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "-") || b == UInt8(ascii: "_")
        }
    }

    private static func isLetter(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
    }

    /// The style name for these classes.
    static func styleName<S: Sequence>(_ classes: S) -> String where S.Element: StringProtocol {
        classes.map { "." + $0 }.joined(separator: " ")
    }

    /// The classes a paragraph style name stands for, or nil when it is an ordinary style name.
    static func classes(of name: String?) -> [Substring]? {
        guard let name, name.hasPrefix(".") else { return nil }
        let parts = name.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.allSatisfy({ $0.hasPrefix(".") && isClass($0.dropFirst()) }) else { return nil }
        return parts.map { $0.dropFirst() }
    }

    /// The fence line that opens a div with these classes.
    static func fence(_ classes: [Substring]) -> String {
        "::: {" + classes.map { "." + $0 }.joined(separator: " ") + "}"
    }
}
