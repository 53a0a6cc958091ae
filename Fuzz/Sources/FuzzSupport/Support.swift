import Foundation
import Redline
import RedlineCore
import RedlineZip
import RedlineScrivener
import RedlineCompare

/// What every fuzz target shares: read an input in a format (errors are fine, crashes are not), write a
/// document and read it back, and the text both must keep.
public enum Fuzz {
    /// Reads `bytes` as `format`; nil when the reader refused them with a `RedlineError` (that is allowed).
    public static func read(_ bytes: [UInt8], _ format: String) -> Document? {
        guard let f = FormatRegistry.named(format) else { fatalError("no format \(format)") }
        do {
            return try Converter.read(.bytes(bytes), format: f)
        } catch is RedlineError {
            return nil
        } catch {
            fatalError("\(format) reader threw a non-RedlineError: \(error)")
        }
    }

    /// Who last saved `bytes` as `format` says, where it records it: must not crash or hang on any input.
    public static func lastEditor(_ bytes: [UInt8], _ format: String) -> String? {
        guard let f = FormatRegistry.named(format) else { fatalError("no format \(format)") }
        return f.lastEditorReader?.lastEditor(.bytes(bytes), limits: Limits())
    }

    /// Writes `doc` as `format`; a writer must accept any document a reader produced.
    public static func write(_ doc: Document, _ format: String, diagnostics: Diagnostics = Diagnostics()) -> [UInt8] {
        guard let f = FormatRegistry.named(format) else { fatalError("no format \(format)") }
        let out = MemoryOutput()
        do {
            try Converter.write(doc, format: f, to: out, diagnostics: diagnostics)
        } catch {
            fatalError("\(format) writer failed on a document a reader produced: \(error)")
        }
        return out.bytes
    }

    /// The letters and digits of every block, note and comment: what a write and a read must keep
    /// (markup, spacing and escapes may change). Unicode scalars, not `Character`s (compared as a `String`,
    /// up to canonical equivalence): a dropped control character may join a combining mark to the letter
    /// before it, the same letters in other clusters.
    public static func text(_ doc: Document) -> String {
        var s = ""
        for b in doc.blocks { s += b.plainText; s += " " }
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: s.unicodeScalars.filter { $0.properties.isAlphabetic || $0.properties.numericType != nil })
        return String(kept)
    }

    /// Reads `bytes` as `from`, then writes every writable format and reads the readable ones back: no
    /// crash, and Markdown, DOCX and RTF keep the text.
    public static func roundTrip(_ bytes: [UInt8], from: String) {
        guard let doc = read(bytes, from) else { return }
        let before = text(doc)
        for format in ["md", "gfm", "html", "docx", "rtf"] {
            let d = Diagnostics()
            let written = write(doc, format, diagnostics: d)
            guard format == "md" || format == "docx" || format == "rtf" else { continue }
            // A writer that reports a lost picture (media.*) may change the text; a picture it cannot embed
            // keeps its alt text (docx.image-dropped, rtf.image-not-embedded), so the text must match then.
            let mediaLoss = d.all.contains { $0.code.rawValue.hasPrefix("media.") }
            guard let again = read(written, format) else {
                fatalError("\(format) reader refused what the \(format) writer wrote")
            }
            let after = text(again)
            if after != before && !mediaLoss {
                fatalError("\(format) write+read changed the text:\n\(String(before).debugDescription)\n\(String(after).debugDescription)")
            }
        }
    }

    /// Reads `old` and `new` as Markdown and compares them: no crash, accepting the result gives NEW and
    /// rejecting it gives OLD (the exactness the compare tests check on generated pairs; changes already in
    /// an input count as accepted, as compare reads them; unless compare reported a block it cannot mark),
    /// with and without moves, and the result's Markdown reads back.
    public static func compare(_ old: [UInt8], _ new: [UInt8]) {
        guard let a0 = read(old, "md"), let b0 = read(new, "md") else { return }
        // The inputs' own CriticMarkup kept (`--keep-input-changes`: the two layers composed by `ChangeMixing`):
        // must end, without a crash, whatever the layers are.
        var keeping = CompareOptions(date: "2024-01-01T00:00:00Z")
        keeping.keepInputChanges = true
        _ = DocumentComparer.compare(old: a0, new: b0, options: keeping, diagnostics: Diagnostics())
        let a = DocumentComparer.accepted(a0), b = DocumentComparer.accepted(b0)
        for moves in [true, false] {
            var options = CompareOptions(date: "2024-01-01T00:00:00Z")
            options.detectMoves = moves
            let d = Diagnostics()
            let (result, _) = DocumentComparer.compare(old: a, new: b, options: options, diagnostics: d)
            // A code block, raw block or rule has no change marks: compare says so (compare.untracked-block)
            // and leaves a deleted one out, so rejecting cannot give OLD then.
            if d.count(of: .compareUntrackedBlock) > 0 { continue }
            let accepted = ExactnessNormalization.document(DocumentComparer.accepted(result))
            var rejected = ExactnessNormalization.document(DocumentComparer.rejected(result))
            if accepted != ExactnessNormalization.document(b) { fatalError("compare (moves: \(moves)): accepting did not give NEW") }
            // OLD as compare takes it: its comments (and their anchors) are not carried; and a table whose columns
            // changed keeps NEW's (compare.table-columns), so rejecting is compared without the tables' columns then.
            var oldSide = ExactnessNormalization.old(a)
            if d.count(of: .compareTableColumns) > 0 {
                rejected = ExactnessNormalization.withoutTableColumns(rejected)
                oldSide = ExactnessNormalization.withoutTableColumns(oldSide)
            }
            if rejected != oldSide { fatalError("compare (moves: \(moves)): rejecting did not give OLD") }
            guard read(write(result, "md"), "md") != nil else { fatalError("the Markdown reader refused a compare result") }
        }
    }

    /// A scratch folder of this process for the files `redline apply` reads (it takes paths).
    static let scratch: String = {
        let dir = FileManager.default.temporaryDirectory.path + "/redline-fuzz-apply-\(getpid())"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        // libFuzzer's -fork mode starts a process per job: each removes its own folder when it exits.
        atexit { try? FileManager.default.removeItem(atPath: Fuzz.scratch) }
        return dir
    }()

    /// Applies `edited` onto `original` (both Markdown, `force`d) and onto itself: no crash, rejecting the
    /// result's CriticMarkup as text gives ORIGINAL's bytes exactly, and ORIGINAL applied onto itself is
    /// ORIGINAL. A `RedlineError` (an ORIGINAL holding CriticMarkup, mixed line ends, not UTF-8) is fine.
    public static func apply(_ original: [UInt8], _ edited: [UInt8]) {
        let o = scratch + "/original.md", e = scratch + "/edited.md"
        guard FileManager.default.createFile(atPath: o, contents: Data(original)),
              FileManager.default.createFile(atPath: e, contents: Data(edited)) else { fatalError("cannot write \(scratch)") }
        func run(_ edited: String) -> [UInt8]? {
            var options = ApplyOptions(editedFormat: FormatRegistry.markdown, originalFormat: FormatRegistry.markdown,
                                       compare: CompareOptions(author: "F", date: "2024-01-01T00:00:00Z"))
            options.force = true
            let out = MemoryOutput()
            // Models apply lets go of on a thread of their own: gone before LeakSanitizer looks, thrown or not.
            defer { StackThread.waitForReleases() }
            do {
                _ = try Application.apply(edited: edited, onto: o, options: options, into: out, diagnostics: Diagnostics())
            } catch is RedlineError {
                return nil
            } catch {
                fatalError("apply threw a non-RedlineError: \(error)")
            }
            return out.bytes
        }
        guard let same = run(o) else { return }
        if same != original {
            fatalError("apply ORIGINAL onto ORIGINAL did not give ORIGINAL:\n\(String(decoding: same, as: UTF8.self).debugDescription)")
        }
        guard let marked = run(e) else { return }
        let rejected = rejectedAsText(marked)
        if rejected != original {
            fatalError("rejecting apply's marks as text did not give ORIGINAL:\n\(String(decoding: marked, as: UTF8.self).debugDescription)\n\(String(decoding: rejected, as: UTF8.self).debugDescription)")
        }
    }

    /// CriticMarkup rejected as text, the way a CriticMarkup editor does (`ApplyMarkdownTests.resolvedAsText`),
    /// on bytes: `{++…++}` and `{>>…<<}` go, `{--…--}` and `{==…==}` keep their body, `{~~a~>b~~}` keeps `a`.
    public static func rejectedAsText(_ s: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(s.count)
        var i = 0
        func find(_ close: String, from: Int) -> Int? {
            let c = Array(close.utf8)
            var k = from
            while k + c.count <= s.count {
                if s[k] == c[0], s[k + 1] == c[1], s[k + 2] == c[2] { return k }
                k += 1
            }
            return nil
        }
        while i < s.count {
            guard s[i] == UInt8(ascii: "{"), i + 3 <= s.count else { out.append(s[i]); i += 1; continue }
            let head = String(decoding: s[i..<(i + 3)], as: UTF8.self)
            let closes = ["{++": "++}", "{--": "--}", "{~~": "~~}", "{==": "==}", "{>>": "<<}"]
            guard let close = closes[head] else { out.append(s[i]); i += 1; continue }
            let start = i + 3
            let end = find(close, from: start) ?? s.count
            let body = Array(s[start..<end])
            i = min(end + 3, s.count)
            switch head {
            case "{--", "{==": out += body
            case "{~~":
                var k = 0
                while k + 1 < body.count, !(body[k] == UInt8(ascii: "~") && body[k + 1] == UInt8(ascii: ">")) { k += 1 }
                out += k + 1 < body.count ? Array(body[..<k]) : body
            default: break
            }
        }
        return out
    }

    /// Lists and inflates every entry of a zip archive held in `bytes`, within the default limits.
    public static func zip(_ bytes: [UInt8]) {
        guard let archive = try? ZipArchive(bytes: bytes) else { return }
        for e in archive.entries where !e.isDirectory { _ = try? archive.read(e) }
    }

    /// `document.xml` wrapped in the smallest package the DOCX reader accepts (stored, not deflated).
    public static func docx(documentXML: [UInt8]) -> [UInt8] {
        do {
            let z = try ZipWriter(compressionLevel: 0)
            try z.add("[Content_Types].xml", text: """
                <?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">\
                <Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>\
                <Default Extension="xml" ContentType="application/xml"/>\
                <Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>
                """)
            try z.add("_rels/.rels", text: """
                <?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">\
                <Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>
                """)
            try z.add("word/document.xml", bytes: documentXML)
            var out: [UInt8] = []
            try z.finish { out.append(contentsOf: $0) }
            return out
        } catch {
            fatalError("cannot build a package: \(error)")
        }
    }

    /// TeX math: parsed (`TeXParser`), written back (`TeXWriter`), which must parse to the same TeX again; then
    /// a document holding it as inline and display math written as DOCX (TeX to OMML) and read back (OMML to
    /// TeX), which must give the TeX exactly (the OMML's own reading, or the TeX kept beside it), or the TeX as
    /// text when the parser refused it. The same through Markdown.
    public static func tex(_ bytes: [UInt8]) {
        let tex = String(decoding: bytes, as: UTF8.self)
        if let node = try? TeXParser.parse(tex) {
            let written = TeXWriter.tex(node)
            guard let again = try? TeXParser.parse(written) else { fatalError("TeXWriter wrote TeX its parser refuses: \(written)") }
            let rewritten = TeXWriter.tex(again)
            guard rewritten == written else { fatalError("TeXWriter is not a fixpoint: \(written) then \(rewritten)") }
        }
        for kind in [MathKind.inline, .display] {
            let doc = Document(blocks: [.paragraph(Paragraph([.text("a "), .math(kind, tex), .text(" b")]))])
            for format in ["docx", "md"] {
                guard let back = read(write(doc, format), format) else { fatalError("\(format) reader refused its writer's equation") }
                guard text(back) == text(doc) else { fatalError("\(format) changed an equation's text: \(tex)") }
            }
        }
    }

    /// An OMML fragment in a paragraph of the smallest DOCX: read (no crash), then written as DOCX and Markdown
    /// and read back with the same text.
    public static func omml(_ bytes: [UInt8]) {
        let xml = Array(#"<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math"><w:body><w:p>"#.utf8)
            + bytes + Array("</w:p></w:body></w:document>".utf8)
        guard let doc = read(docx(documentXML: xml), "docx") else { return }
        for format in ["docx", "md"] {
            guard let back = read(write(doc, format), format) else { fatalError("\(format) reader refused its writer's output") }
            guard text(back) == text(doc) else { fatalError("\(format) changed the text of a document with equations") }
        }
    }

    /// Parses Scrivener binder XML.
    public static func binder(_ bytes: [UInt8]) {
        _ = try? BinderReader.read(bytes, fallbackFormat: .scrivener3, diagnostics: Diagnostics())
    }
}

/// The libFuzzer entry point's bytes as an array.
public func fuzzBytes(_ data: UnsafePointer<UInt8>?, _ count: Int) -> [UInt8] {
    guard let data, count > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: data, count: count))
}

@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>,
                                 _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                                 _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

/// Runs libFuzzer with the process's arguments on `callback` (what libFuzzer's own `main` would do).
public func runFuzzer(_ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = CommandLine.unsafeArgv
    return LLVMFuzzerRunDriver(&argc, &argv, callback)
}
