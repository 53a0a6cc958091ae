import Foundation

// Raw-pointer helpers shared by more than one module (RedlineCore's `ScratchDirectory`, RedlineZip's
// `ZipWriter`), each with the argument why its pointer use is sound. The raw pointers that serve a C
// callback stay beside their callback, where the comments give the same argument for them: the
// `Unmanaged` contexts of `StackThread` (LargeStack.swift), of libzip's `DeflatedFileSource`
// (RedlineZip/BackgroundDeflater.swift), of libxml2's `EventQueue` (RedlineXML/XMLChunkParser.swift, XMLEvents.swift)
// and of cmark's `CmarkArena` (RedlineMarkdown/Reader/CmarkArena.swift), and the C string arrays the signal
// handlers use (`Temporaries` in AtomicFile.swift, `ScratchDirectory`). RedlineXML's own helpers for
// libxml2's interned strings are in RedlineXML/UnsafeHelpers.swift.

/// Makes a new directory from `template`, a path ending in `XXXXXX` that `mkdtemp(3)` replaces (mode 0700),
/// and returns its path; nil when it cannot be made, with `errno` saying why (`free` leaves `errno` alone).
///
/// Safety: `mkdtemp` gets the base address of an array that holds the template's UTF-8 bytes and their NUL
/// (`utf8CString`), so the C string it reads is terminated inside the array; it writes only the six `X`s, in
/// place, so nothing is written past the array. The pointer lives only inside `withUnsafeMutableBufferPointer`:
/// the path is read back from the array after the closure, not through the pointer `mkdtemp` returns
/// (which points into the same array and would outlive the closure).
package func makeTemporaryDirectory(_ template: String) -> String? {
    var path = Array(template.utf8CString)
    let made = path.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) != nil }
    guard made else { return nil }
    return String(decoding: path.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
