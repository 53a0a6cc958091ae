import Foundation
import Redline
import RedlineCore
import RedlineCompare

extension Fuzz {
    /// fuzz-apply's RTF mode: ORIGINAL (Markdown) written as RTF by Redline, then EDITED applied onto that RTF,
    /// marked and accepted, and the RTF onto itself. No crash; a `RedlineError` is an acceptable answer (the
    /// read-back check's refusal among them: `Application.verify` has then compared the accept and reject views
    /// with EDITED's and ORIGINAL's text); the RTF onto itself is the RTF byte for byte, and the marked result
    /// holds every byte of the RTF in order (marking only adds).
    public static func applyRTF(_ original: [UInt8], _ edited: [UInt8]) {
        guard let doc = read(original, "md") else { return }
        let rtf = write(doc, "rtf")
        let o = scratch + "/original.rtf", e = scratch + "/edited-rtf.md"
        guard FileManager.default.createFile(atPath: o, contents: Data(rtf)),
              FileManager.default.createFile(atPath: e, contents: Data(edited)) else { fatalError("cannot write \(scratch)") }
        func run(_ path: String, _ format: Format, accept: Bool) -> [UInt8]? {
            var options = ApplyOptions(editedFormat: format, originalFormat: FormatRegistry.rtf,
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
                fatalError("apply onto RTF threw a non-RedlineError: \(error)")
            }
            return out.bytes
        }
        if let same = run(o, FormatRegistry.rtf, accept: false), same != rtf {
            fatalError("apply of an RTF onto itself did not give it back:\n\(String(decoding: same, as: UTF8.self).debugDescription)")
        }
        if let marked = run(e, FormatRegistry.markdown, accept: false), !holds(marked, rtf) {
            fatalError("apply onto RTF removed bytes of ORIGINAL:\n\(String(decoding: rtf, as: UTF8.self).debugDescription)\n\(String(decoding: marked, as: UTF8.self).debugDescription)")
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
