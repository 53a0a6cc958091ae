import Foundation
import RedlineCore

/// Holds the RTF body while the tables it needs (fonts, colours, styles, lists, authors) are still being
/// discovered: in memory up to a limit, then in a temporary file, so memory stays flat on long documents.
final class SpillBuffer {
    private var memory: [UInt8] = []
    private var file: FileHandle?
    private var path: String?
    private let limit: Int

    init(limit: Int = 4 << 20) {
        self.limit = limit
        memory.reserveCapacity(1 << 16)
    }

    deinit {
        try? file?.close()
        if let path { unlink(path) }
    }

    func append(_ bytes: [UInt8]) throws {
        memory += bytes
        if memory.count >= limit { try spill() }
    }

    private func spill() throws {
        if file == nil {
            var template = Array((NSTemporaryDirectory() + "/redline-rtf-XXXXXX").utf8CString)
            let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard fd >= 0 else { throw RedlineError.io("cannot create a temporary file: \(String(cString: strerror(errno)))") }
            path = String(cString: template)
            file = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        }
        do { try file!.write(contentsOf: memory) } catch {
            throw RedlineError.io("cannot write a temporary file: \(error.localizedDescription)")
        }
        memory.removeAll(keepingCapacity: true)
    }

    /// Copies everything to `output` in pieces, then frees the buffer.
    func copy(to output: any ByteOutput) throws {
        if let file {
            try spill()
            do {
                try file.seek(toOffset: 0)
                while let d = try file.read(upToCount: 1 << 16), !d.isEmpty {
                    try output.write(bytes: [UInt8](d))
                }
            } catch let e as RedlineError { throw e } catch {
                throw RedlineError.io("cannot read a temporary file: \(error.localizedDescription)")
            }
        }
        try output.write(bytes: memory)
        memory = []
    }
}
