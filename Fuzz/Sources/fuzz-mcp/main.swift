import FuzzSupport
import Foundation
import RedlineMCP

// SwiftPM links this executable's own entry point as `main` (over libFuzzer's): it hands over to libFuzzer.
exit(runFuzzer(fuzz))

/// The root the server's tools work in: a scratch directory with a small Markdown document and a DOCX
/// made from it; whatever a call writes there is removed after each input.
let fuzzRoot: String = {
    let dir = NSTemporaryDirectory() + "redline-fuzz-mcp-\(getpid())"
    try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let md = "# Title\n\nThe quick {++brown ++}fox {--jumps--} over the {==lazy==}{>>Why?<<} dog.\n\nThe end.\n"
    _ = FileManager.default.createFile(atPath: dir + "/a.md", contents: Data(md.utf8))
    if let doc = Fuzz.read(Array(md.utf8), "md") {
        _ = FileManager.default.createFile(atPath: dir + "/a.docx", contents: Data(Fuzz.write(doc, "docx")))
    }
    return dir
}()
let seedFiles: Set<String> = ["a.md", "a.docx"]
let fuzzServer = try! RedlineMCPServer(root: fuzzRoot)

/// One input: its lines are JSON-RPC messages sent, after `initialize`, to a server in this process; every
/// one must be answered or ignored as the protocol says, and nothing may crash.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = fuzzBytes(data, count)
    final class Box: @unchecked Sendable { var replies: [Data] = [] }
    let box = Box()
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        box.replies = await fuzzServer.respond(to: bytes, timeout: 8)
        done.signal()
    }
    done.wait()
    for reply in box.replies {
        guard (try? JSONSerialization.jsonObject(with: reply)) != nil else {
            fatalError("the server wrote a line that is not JSON: \(String(decoding: reply.prefix(200), as: UTF8.self))")
        }
    }
    for name in (try? FileManager.default.contentsOfDirectory(atPath: fuzzRoot)) ?? [] where !seedFiles.contains(name) {
        try? FileManager.default.removeItem(atPath: fuzzRoot + "/" + name)
    }
    return 0
}
