/// What a file's first bytes say it is, for the error when a reader is given another format than its own
/// (a `.docx` that is RTF, a `.rtf` that is a DOCX): the message names what the file looks like and the
/// flag that reads it, instead of only "not a zip archive".
public enum FileSniffing {
    /// A phrase for what `prefix` (a file's first bytes) looks like and how to read it, or nil.
    public static func looksLike(_ prefix: [UInt8]) -> String? {
        var p = prefix[...]
        if p.starts(with: [0xEF, 0xBB, 0xBF]) { p = p.dropFirst(3) }
        while let b = p.first, b == 9 || b == 10 || b == 13 || b == 32 { p = p.dropFirst() }
        func starts(_ s: String) -> Bool {
            let u = Array(s.utf8)
            // ASCII letters compare without case (`{\RTF1`, `<!DOCTYPE`); other bytes exactly.
            func folded(_ b: UInt8) -> UInt8 { (0x41...0x5A).contains(b) ? b | 0x20 : b }
            return p.count >= u.count && zip(p.prefix(u.count), u).allSatisfy { folded($0) == folded($1) }
        }
        if starts("{\\rtf") { return "it is an RTF file (name it .rtf or pass --from rtf)" }
        if prefix.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return "it is a zip archive, perhaps a DOCX (name it .docx or pass --from docx)" }
        if prefix.starts(with: [0xD0, 0xCF, 0x11, 0xE0]) { return "it is an OLE compound file (an old Office format, or an encrypted DOCX)" }
        if starts("%PDF") { return "it is a PDF, which Redline does not read" }
        if starts("<!doctype html") || starts("<html") { return "it is HTML, which Redline writes but does not read" }
        if starts("<?xml") { return "it is an XML file (a Word 2003 XML or flat OPC document is not read; save it as .docx)" }
        return nil
    }
}
