internal import CLibXML2

/// The libxml2 library Redline runs with.
public enum XMLLibrary {
    /// Its version as the library reports it at run time (`xmlParserVersion`, "20914" → "2.9.14").
    public static var version: String {
        let raw = String(cString: __xmlParserVersion().pointee!)
        guard let n = Int(raw.prefix { $0.isNumber }) else { return raw }
        return "\(n / 10000).\(n / 100 % 100).\(n % 100)"
    }
}
