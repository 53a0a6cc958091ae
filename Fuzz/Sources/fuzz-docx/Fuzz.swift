import FuzzSupport
import Foundation

// SwiftPM links this executable's own entry point as `main` (over libFuzzer's): it hands over to libFuzzer.
exit(runFuzzer(fuzz))

/// One input (see Fuzz/README.md).
func fuzz(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = fuzzBytes(data, count)
    _ = Fuzz.read(bytes, "docx")
    return 0
}
