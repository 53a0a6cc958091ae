import FuzzSupport
import Foundation

// SwiftPM links this executable's own entry point as `main` (over libFuzzer's): it hands over to libFuzzer.
exit(runFuzzer(fuzz))

/// One input (see Fuzz/README.md); also exported under libFuzzer's name, which its own `main` references.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = fuzzBytes(data, count)
    _ = Fuzz.read(bytes, "rtf")
    // Who last saved it (`{\info{\operator …}}`, apply's and combine's default author): its own header scan.
    _ = Fuzz.lastEditor(bytes, "rtf")
    return 0
}
