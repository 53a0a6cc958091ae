import FuzzSupport
import Foundation
import RedlineMCP

// SwiftPM links this executable's own entry point as `main` (over libFuzzer's): it hands over to libFuzzer.
exit(runFuzzer(fuzz))

/// What every input shares, as static properties: initialized on first use (once, thread-safe). Top-level
/// `let`s in main.swift are not: they are set as the top-level code reaches them, and `exit` above never
/// returns, so `fuzz` read them unset (the server a null reference: the SEGV at 0x20 in `respond`).
enum Harness {
    /// The root the server's tools work in: a scratch directory with a small Markdown document and a DOCX
    /// made from it; whatever a call writes there is removed after each input.
    static let root: String = {
        let dir = NSTemporaryDirectory() + "redline-fuzz-mcp-\(getpid())"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        // libFuzzer's -fork mode starts a process per job: each removes its own folder when it exits.
        atexit { try? FileManager.default.removeItem(atPath: Harness.root) }
        let md = "# Title\n\nThe quick {++brown ++}fox {--jumps--} over the {==lazy==}{>>Why?<<} dog.\n\nThe end.\n"
        _ = FileManager.default.createFile(atPath: dir + "/a.md", contents: Data(md.utf8))
        if let doc = Fuzz.read(Array(md.utf8), "md") {
            _ = FileManager.default.createFile(atPath: dir + "/a.docx", contents: Data(Fuzz.write(doc, "docx")))
        }
        return dir
    }()
    static let seedFiles: Set<String> = ["a.md", "a.docx"]
    static let server = try! RedlineMCPServer(root: root)

    /// The server's answers to `bytes`: the first line it wrote that is not JSON, if any. The answers live only
    /// in this call's frame, gone when it returns: an array of `Data` still alive when libFuzzer looks for leaks
    /// (in the task that called this, not yet torn down when `fuzz` returns) reads to LeakSanitizer as leaked
    /// storage, its references being tagged enum payloads it does not recognise.
    static func firstLineNotJSON(_ bytes: [UInt8]) async -> String? {
        let replies = await server.respond(to: bytes, timeout: 8)
        for reply in replies where (try? JSONSerialization.jsonObject(with: reply)) == nil {
            return String(decoding: reply.prefix(200), as: UTF8.self)
        }
        return nil
    }
}

/// One input: its lines are JSON-RPC messages sent, after `initialize`, to a server in this process; every
/// one must be answered or ignored as the protocol says, and nothing may crash.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = fuzzBytes(data, count)
    final class Box: @unchecked Sendable { var notJSON: String? }
    let box = Box()
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        box.notJSON = await Harness.firstLineNotJSON(bytes)
        done.signal()
    }
    done.wait()
    if let line = box.notJSON { fatalError("the server wrote a line that is not JSON: \(line)") }
    for name in (try? FileManager.default.contentsOfDirectory(atPath: Harness.root)) ?? [] where !Harness.seedFiles.contains(name) {
        try? FileManager.default.removeItem(atPath: Harness.root + "/" + name)
    }
    return 0
}
