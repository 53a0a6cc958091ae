import Foundation
import Redline
import RedlineCore

extension Fuzz {
    /// fuzz-apply's DOCX mode: ORIGINAL (Markdown) written as DOCX by Redline, then EDITED applied onto that
    /// package, marked and accepted (body, footnotes, new notes), and the package onto itself. No crash; a
    /// `RedlineError` is an acceptable answer (the read-back check's refusal among them: `Application.verify`
    /// has then compared the accept and reject views of the body and the notes with EDITED's and ORIGINAL's);
    /// the package onto itself is the package byte for byte, and a marked result reads back.
    public static func applyDOCX(_ original: [UInt8], _ edited: [UInt8]) {
        guard let doc = read(original, "md") else { return }
        let docx = write(doc, "docx")
        let o = scratch + "/original.docx", e = scratch + "/edited-docx.md"
        guard FileManager.default.createFile(atPath: o, contents: Data(docx)),
              FileManager.default.createFile(atPath: e, contents: Data(edited)) else { fatalError("cannot write \(scratch)") }
        func run(_ path: String, _ format: Format, accept: Bool) -> [UInt8]? {
            var options = ApplyOptions(editedFormat: format, originalFormat: FormatRegistry.docx,
                                       compare: CompareOptions(author: "F", date: "2024-01-01T00:00:00Z"), accept: accept)
            options.force = true
            let out = MemoryOutput()
            // Models apply lets go of on a thread of their own: gone before LeakSanitizer looks, thrown or not.
            defer { StackThread.waitForReleases() }
            do {
                _ = try Application.apply(edited: path, onto: o, options: options, into: out, diagnostics: Diagnostics())
            } catch is RedlineError {
                return nil
            } catch {
                fatalError("apply onto DOCX threw a non-RedlineError: \(error)")
            }
            return out.bytes
        }
        if let same = run(o, FormatRegistry.docx, accept: false), same != docx {
            fatalError("apply of a DOCX onto itself did not give it back")
        }
        if let marked = run(e, FormatRegistry.markdown, accept: false), read(marked, "docx") == nil {
            fatalError("apply onto DOCX wrote a package its reader refuses")
        }
        _ = run(e, FormatRegistry.markdown, accept: true)
    }
}
