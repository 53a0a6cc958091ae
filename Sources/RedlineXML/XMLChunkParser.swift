@preconcurrency internal import CLibXML2
import RedlineCore

/// libxml2's SAX2 push parser over a `read` function: each `parse(into:)` reads up to 64 KiB of input
/// and parses it into an event batch. Used by `XMLReader` on the reader's thread, or on a thread of its
/// own (`BackgroundParser`); either way by one thread at a time.
final class ChunkParser {
    let name: String
    private var parser: xmlParserCtxtPtr?
    private let events: EventQueue
    private let read: (UnsafeMutableRawBufferPointer) throws -> Int
    /// Left uninitialised: only the bytes `read` wrote are parsed (zeroing 64 KiB per reader was a tenth of
    /// reading a small DOCX, which opens a dozen readers).
    private var buffer = [UInt8](unsafeUninitializedCapacity: 1 << 16) { _, count in count = 1 << 16 }
    /// The parser's name dictionary, which holds the interned names the batches point to. The reader
    /// keeps a reference too, so that names stay valid after this parser is gone.
    let names: NameDictionary

    init(name: String, namespaces: [String: Int], names: [String: Int], limits: Limits,
         read: @escaping (UnsafeMutableRawBufferPointer) throws -> Int) throws {
        XMLSafety.install()
        self.name = name
        self.read = read
        self.events = EventQueue(maxNesting: limits.maxNesting, names: names, namespaces: namespaces)
        var sax = EventQueue.saxHandler()
        // Safety: the context is unretained: `events` is a constant of this parser, which frees libxml2's parser
        // (`close`, at the latest in `deinit`) before `events` can go, so no callback sees a freed queue.
        let ctx = Unmanaged.passUnretained(events).toOpaque()
        guard let p = xmlCreatePushParserCtxt(&sax, ctx, nil, 0, nil) else {
            throw RedlineError.malformed("\(name): the XML parser could not start")
        }
        xmlCtxtUseOptions(p, Int32(XML_PARSE_NONET.rawValue))
        parser = p
        events.parser = p
        self.names = NameDictionary(p.pointee.dict)
    }

    deinit { close() }

    /// Parses the next piece of input into `batch` (emptied first). Returns false once the input has
    /// ended (the batch then holds the last events); throws the first error, after which it is closed.
    func parse(into batch: inout EventBatch) throws -> Bool {
        batch.reset()
        guard let p = parser else { return false }
        swap(&batch, &events.batch)
        defer { swap(&batch, &events.batch) }
        var n = 0
        do {
            n = try buffer.withUnsafeMutableBytes { try read($0) }
        } catch let e as RedlineError {
            fail(); throw e
        } catch {
            fail(); throw RedlineError.io("\(name): \(error)")
        }
        let status = buffer.withUnsafeBytes { b in
            b.withMemoryRebound(to: CChar.self) { xmlParseChunk(p, $0.baseAddress, Int32(n), n == 0 ? 1 : 0) }
        }
        events.batch.line = Int(xmlSAX2GetLineNumber(UnsafeMutableRawPointer(p)))
        if let e = events.refusal {
            fail(); throw RedlineError(e.kind, "\(name): \(e.message)")
        }
        if status != 0 || p.pointee.wellFormed == 0 {
            let message = events.firstError ?? "malformed XML near line \(events.batch.line)"
            fail(); throw RedlineError.malformed("\(name): \(message)")
        }
        if n == 0 {
            if events.depth != 0 || !events.sawRoot {
                fail()
                throw RedlineError.malformed("\(name): " + (events.sawRoot ? "the XML ends inside an element" : "the XML is empty (no root element)"))
            }
            close()
            return false
        }
        return true
    }

    /// After an error: no events from this piece, and no more parsing.
    private func fail() {
        events.batch.reset()
        close()
    }

    /// Frees the parser; parsing after this reads nothing.
    private func close() {
        if let parser { xmlFreeParserCtxt(parser) }
        parser = nil
        events.parser = nil
    }
}

/// A reference to a parser's name dictionary, released with the last holder: interned names stay valid
/// for as long as the reader that walks them, whichever thread parsed them and whenever that parser was
/// freed. Shared by the reader and a parsing thread: it is immutable, libxml2 counts references to a
/// dictionary under its own lock, and an interned string never changes (hence the unchecked `Sendable`).
final class NameDictionary: @unchecked Sendable {
    private let dict: xmlDictPtr?

    init(_ dict: xmlDictPtr?) {
        self.dict = dict
        if let dict { xmlDictReference(dict) }
    }

    deinit { if let dict { xmlDictFree(dict) } }
}
