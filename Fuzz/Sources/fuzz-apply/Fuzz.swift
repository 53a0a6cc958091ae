import FuzzSupport
import Foundation

// SwiftPM links this executable's own entry point as `main` (over libFuzzer's): it hands over to libFuzzer.
exit(runFuzzer(fuzz))

/// One input: ORIGINAL and EDITED Markdown, split at the first NUL byte (see Fuzz/README.md); EDITED applied
/// onto ORIGINAL (`redline apply`) and ORIGINAL onto itself.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = fuzzBytes(data, count)
    let cut = bytes.firstIndex(of: 0) ?? bytes.count / 2
    Fuzz.apply(Array(bytes[..<cut]), Array(bytes[min(cut + 1, bytes.count)...]))
    return 0
}
