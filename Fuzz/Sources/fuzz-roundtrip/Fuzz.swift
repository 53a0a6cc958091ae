import FuzzSupport
import Foundation

// SwiftPM links this executable's own entry point as `main` (over libFuzzer's): it hands over to libFuzzer.
exit(runFuzzer(fuzz))

/// One input (see Fuzz/README.md); also exported under libFuzzer's name, which its own `main` references.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = fuzzBytes(data, count)
    // The first byte picks the source format; the rest is the input. Each writer runs on what the reader made.
    guard let first = bytes.first else { return 0 }
    let rest = Array(bytes.dropFirst())
    switch first % 3 {
    case 0: Fuzz.roundTrip(rest, from: "md")
    case 1: Fuzz.roundTrip(rest, from: "rtf")
    default: Fuzz.roundTrip(Fuzz.docx(documentXML: rest), from: "docx")
    }
    return 0
}
