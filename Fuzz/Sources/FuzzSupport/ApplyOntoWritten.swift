import Foundation
import Redline
import RedlineCore
import RedlineCompare

extension Fuzz {
    /// fuzz-apply's RTF mode: the marked result holds every byte of the RTF in order (marking only adds).
    public static func applyRTF(_ original: [UInt8], _ edited: [UInt8]) {
        applyOntoWritten(original, edited, format: FormatRegistry.rtf) { marked, rtf in
            holds(marked, rtf) ? nil : "apply onto RTF removed bytes of ORIGINAL:\n\(String(decoding: rtf, as: UTF8.self).debugDescription)\n\(String(decoding: marked, as: UTF8.self).debugDescription)"
        }
    }

    /// fuzz-apply's DOCX mode (body, footnotes, new notes): the marked result is a package its reader takes.
    public static func applyDOCX(_ original: [UInt8], _ edited: [UInt8]) {
        applyOntoWritten(original, edited, format: FormatRegistry.docx) { marked, _ in
            read(marked, "docx") == nil ? "apply onto DOCX wrote a package its reader refuses" : nil
        }
    }

    /// ORIGINAL (Markdown) written in `format` by Redline, then EDITED applied onto that file, marked and
    /// accepted, and the file onto itself. No crash; a `RedlineError` is an acceptable answer (the read-back
    /// check's refusal among them: `Application.verify` has then compared the accept and reject views with
    /// EDITED's and ORIGINAL's text); the file onto itself is the file byte for byte, and `check` (the marked
    /// result, the file) says what else is wrong with a marked result, nil when nothing.
    static func applyOntoWritten(_ original: [UInt8], _ edited: [UInt8], format: Format,
                                 check: ([UInt8], [UInt8]) -> String?) {
        guard let doc = read(original, "md") else { return }
        let written = write(doc, format.name)
        let o = scratch + "/original." + format.name, e = scratch + "/edited-\(format.name).md"
        guard FileManager.default.createFile(atPath: o, contents: Data(written)),
              FileManager.default.createFile(atPath: e, contents: Data(edited)) else { fatalError("cannot write \(scratch)") }
        func run(_ path: String, _ editedFormat: Format, accept: Bool) -> [UInt8]? {
            var options = ApplyOptions(editedFormat: editedFormat, originalFormat: format,
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
                fatalError("apply onto \(format.name) threw a non-RedlineError: \(error)")
            }
            return out.bytes
        }
        if let same = run(o, format, accept: false), same != written {
            fatalError("apply of a \(format.name) file onto itself did not give it back")
        }
        if let marked = run(e, FormatRegistry.markdown, accept: false), let problem = check(marked, written) {
            fatalError(problem)
        }
        _ = run(e, FormatRegistry.markdown, accept: true)
    }

    /// Whether `b` holds every byte of `a`, in order.
    static func holds(_ b: [UInt8], _ a: [UInt8]) -> Bool {
        var i = 0
        for x in b where i < a.count && a[i] == x { i += 1 }
        return i == a.count
    }
}
