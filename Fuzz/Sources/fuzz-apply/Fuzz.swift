import FuzzSupport
import Foundation

// SwiftPM links this executable's own entry point as `main` (over libFuzzer's): it hands over to libFuzzer.
exit(runFuzzer(fuzz))

/// One input: ORIGINAL and EDITED Markdown, split at the first NUL byte (see Fuzz/README.md); EDITED applied
/// onto ORIGINAL (`redline apply`) and ORIGINAL onto itself; then the same onto ORIGINAL written as RTF and
/// as DOCX (its notes too).
@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = fuzzBytes(data, count)
    let cut = bytes.firstIndex(of: 0) ?? bytes.count / 2
    let original = Array(bytes[..<cut]), edited = Array(bytes[min(cut + 1, bytes.count)...])
    Fuzz.apply(original, edited)
    Fuzz.applyRTF(original, edited)
    Fuzz.applyDOCX(original, edited)
    return 0
}
