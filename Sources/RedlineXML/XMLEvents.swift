@preconcurrency internal import CLibXML2
import Foundation
import RedlineCore

// The SAX2 side of `XMLReader`: libxml2 calls these functions while it parses a piece of input; they
// append events to the reader's `EventQueue` (reached through the parser's user data pointer).

/// One parse event. For a start tag, `start`/`count` index its attributes; for text, the arena bytes.
/// `nameID` and `namespace` are the caller's numbers for the element's local name and namespace URI
/// (-1 when not listed), looked up once per interned name while parsing.
struct Event {
    var kind: XMLNodeKind
    var nameID: Int32
    var namespace: Int32
    var depth: Int32
    var name: UnsafePointer<xmlChar>?
    var uri: UnsafePointer<xmlChar>?
    var start: Int
    var count: Int
    /// The element's prefix (interned; nil when unprefixed), for writers that copy events.
    var prefix: UnsafePointer<xmlChar>? = nil
    /// The namespace declarations of a start tag: `EventBatch.declarations[nsStart..<nsStart+nsCount]`.
    var nsStart: Int32 = 0
    var nsCount: Int32 = 0
}

/// One namespace declaration of a start tag (`xmlns:w="..."`): prefix and URI bytes in the arena
/// (an empty prefix is the default namespace).
struct NamespaceDeclaration {
    var prefixStart: Int
    var prefixCount: Int
    var uriStart: Int
    var uriCount: Int
}

/// One attribute of a start event: interned name, the caller's number for its namespace, value bytes
/// in the arena.
struct AttributeEvent {
    var name: UnsafePointer<xmlChar>
    var namespace: Int32
    var valueStart: Int
    var valueCount: Int
    var prefix: UnsafePointer<xmlChar>? = nil
}

/// The caller's numbers for libxml2's interned strings (element names, namespace URIs). The parser
/// interns every name, and names repeat endlessly: each interned pointer is looked up in `table` once,
/// then found again in a direct-mapped table (a dictionary behind it for collisions). Used by the
/// parser's callbacks only, one call at a time.
final class InternedNumbers {
    private let table: [String: Int]
    private static let slotBits = 8
    /// The direct-mapped table, by a hash of the pointer (raw memory: this runs for every element).
    private let slots = PointerSlot.table(bits: slotBits)
    private var more: [UnsafePointer<xmlChar>: Int32] = [:]

    init(_ table: [String: Int]) {
        self.table = table
    }

    deinit { slots.deallocate() }

    /// The number of the interned string `p`; -1 for nil or a string not in the table.
    @inline(__always)
    func number(_ p: UnsafePointer<xmlChar>?) -> Int32 {
        guard let p else { return -1 }
        let slot = PointerSlot.index(p, bits: Self.slotBits)
        if slots[slot].0 == p { return slots[slot].1 }
        return lookUp(p, slot)
    }

    private func lookUp(_ p: UnsafePointer<xmlChar>, _ slot: Int) -> Int32 {
        let n = more[p] ?? Int32(truncatingIfNeeded: table[String(cString: p)] ?? -1)
        if let old = slots[slot].0 { more[old] = slots[slot].1 }
        slots[slot] = (p, n)
        return n
    }
}

/// The events of one piece of input: what the reader walks. Names are libxml2's interned strings, text
/// and attribute values bytes in `arena`.
struct EventBatch {
    var items: [Event] = []
    var attributes: [AttributeEvent] = []
    var declarations: [NamespaceDeclaration] = []
    var arena: [UInt8] = []
    /// The line the parser had reached at the end of the piece, for messages.
    var line = 0

    /// Empties the batch, keeping its storage for the next piece.
    mutating func reset() {
        items.removeAll(keepingCapacity: true)
        attributes.removeAll(keepingCapacity: true)
        declarations.removeAll(keepingCapacity: true)
        arena.removeAll(keepingCapacity: true)
        line = 0
    }

    func string(_ start: Int, _ count: Int) -> String {
        arena.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[start..<(start + count)]), as: UTF8.self) }
    }
}

/// What the SAX callbacks fill for one piece of input (reached through the parser's user data).
/// The properties are read and written millions of times per document by the callbacks, one access at a
/// time, never overlapping: their exclusivity checks are off (they were a tenth of the time).
final class EventQueue {
    @exclusivity(unchecked) var batch = EventBatch()
    @exclusivity(unchecked) var depth: Int32 = 0
    @exclusivity(unchecked) var sawRoot = false
    let maxNesting: Int
    var parser: xmlParserCtxtPtr?
    /// Why parsing was stopped on purpose (a DTD, an entity reference, too deep).
    var refusal: RedlineError?
    var firstError: String?
    /// The caller's numbers for element names and namespace URIs.
    let names: InternedNumbers
    let namespaces: InternedNumbers

    init(maxNesting: Int, names: [String: Int], namespaces: [String: Int]) {
        self.maxNesting = maxNesting
        self.names = InternedNumbers(names)
        self.namespaces = InternedNumbers(namespaces)
    }

    /// Appends an attribute value. Without entity substitution libxml2 hands every "&" of a value over
    /// as "&#38;" (so that a tree builder could tell it from an entity); every "&" it gives starts one.
    func appendAttributeValue(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress, memchr(base, 0x26, bytes.count) != nil else {
            batch.arena.append(contentsOf: bytes)
            return
        }
        var i = 0
        while i < bytes.count {
            batch.arena.append(bytes[i])
            if bytes[i] == 0x26, i + 4 < bytes.count, bytes[i + 1] == 0x23, bytes[i + 2] == 0x33, bytes[i + 3] == 0x38,
               bytes[i + 4] == 0x3B {
                i += 5
            } else {
                i += 1
            }
        }
    }

    /// The SAX2 callbacks that fill a queue: elements with namespaces, text (also CDATA and whitespace),
    /// a refusal for any DTD or entity reference, and the first error.
    static func saxHandler() -> xmlSAXHandler {
        var sax = xmlSAXHandler()
        sax.initialized = UInt32(XML_SAX2_MAGIC)
        sax.startElementNs = saxStart
        sax.endElementNs = saxEnd
        sax.characters = saxCharacters
        sax.cdataBlock = saxCharacters
        sax.ignorableWhitespace = saxCharacters
        sax.internalSubset = saxDoctype
        sax.externalSubset = saxDoctype
        sax.reference = saxReference
        sax.serror = saxError
        return sax
    }

    func refuse(_ e: RedlineError) {
        if refusal == nil { refusal = e }
        if let parser { xmlStopParser(parser) }
    }
}

private func queue(_ ctx: UnsafeMutableRawPointer?) -> EventQueue {
    Unmanaged<EventQueue>.fromOpaque(ctx!).takeUnretainedValue()
}

/// Runs `body` on the queue without retaining and releasing it (the reader keeps it alive while libxml2
/// parses): the element and text callbacks run millions of times per document.
@inline(__always)
private func withQueue(_ ctx: UnsafeMutableRawPointer?, _ body: (EventQueue) -> Void) {
    Unmanaged<EventQueue>.fromOpaque(ctx!)._withUnsafeGuaranteedRef(body)
}

private func saxStart(_ ctx: UnsafeMutableRawPointer?, _ localname: UnsafePointer<xmlChar>?, _ prefix: UnsafePointer<xmlChar>?,
                      _ uri: UnsafePointer<xmlChar>?, _ nbNamespaces: Int32, _ namespaces: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?,
                      _ nbAttributes: Int32, _ nbDefaulted: Int32, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?) {
    withQueue(ctx) { q in
        if Int(q.depth) >= q.maxNesting {
            q.refuse(.limit("XML nested deeper than \(q.maxNesting) elements (\(Limits.name("maxNesting", q.maxNesting)))"))
            return
        }
        let first = q.batch.attributes.count
        if let attributes, nbAttributes > 0 {
            for i in 0..<Int(nbAttributes) {
                guard let name = attributes[i * 5] else { continue }
                // Safety: libxml2 passes each attribute's value as [begin, end) in its input, valid during this
                // callback only: the bytes are copied into the arena here.
                let begin = attributes[i * 5 + 3], end = attributes[i * 5 + 4]
                let start = q.batch.arena.count
                if let begin, let end, end > begin { q.appendAttributeValue(UnsafeBufferPointer(start: begin, count: end - begin)) }
                q.batch.attributes.append(AttributeEvent(name: name, namespace: q.namespaces.number(attributes[i * 5 + 2]),
                                                         valueStart: start, valueCount: q.batch.arena.count - start,
                                                         prefix: attributes[i * 5 + 1]))
            }
        }
        let nsFirst = q.batch.declarations.count
        if let namespaces, nbNamespaces > 0 {
            for i in 0..<Int(nbNamespaces) {
                let p = q.batch.arena.count
                if let pre = namespaces[i * 2] { q.batch.arena.append(contentsOf: xmlStringBytes(pre)) }
                let u = q.batch.arena.count
                if let uri = namespaces[i * 2 + 1] { q.batch.arena.append(contentsOf: xmlStringBytes(uri)) }
                q.batch.declarations.append(NamespaceDeclaration(prefixStart: p, prefixCount: u - p, uriStart: u,
                                                                 uriCount: q.batch.arena.count - u))
            }
        }
        q.batch.items.append(Event(kind: .start, nameID: q.names.number(localname), namespace: q.namespaces.number(uri),
                                   depth: q.depth, name: localname, uri: uri, start: first, count: q.batch.attributes.count - first,
                                   prefix: prefix, nsStart: Int32(nsFirst), nsCount: Int32(q.batch.declarations.count - nsFirst)))
        q.depth += 1
        q.sawRoot = true
    }
}

private func saxEnd(_ ctx: UnsafeMutableRawPointer?, _ localname: UnsafePointer<xmlChar>?, _ prefix: UnsafePointer<xmlChar>?,
                    _ uri: UnsafePointer<xmlChar>?) {
    withQueue(ctx) { q in
        q.depth -= 1
        q.batch.items.append(Event(kind: .end, nameID: q.names.number(localname), namespace: q.namespaces.number(uri),
                                   depth: q.depth, name: localname, uri: uri, start: 0, count: 0, prefix: prefix))
    }
}

private func saxCharacters(_ ctx: UnsafeMutableRawPointer?, _ ch: UnsafePointer<xmlChar>?, _ len: Int32) {
    guard let ch, len > 0 else { return }
    withQueue(ctx) { q in
        guard q.depth > 0 else { return }
        // Safety: `len` (> 0) bytes at `ch`, valid during this callback only: copied into the arena here.
        let bytes = UnsafeBufferPointer(start: ch, count: Int(len))
        if let last = q.batch.items.last, last.kind == .text, last.start + last.count == q.batch.arena.count {
            q.batch.arena.append(contentsOf: bytes)
            q.batch.items[q.batch.items.count - 1].count += Int(len)
            return
        }
        let start = q.batch.arena.count
        q.batch.arena.append(contentsOf: bytes)
        q.batch.items.append(Event(kind: .text, nameID: -1, namespace: -1, depth: q.depth, name: nil, uri: nil, start: start, count: Int(len)))
    }
}

private func saxDoctype(_ ctx: UnsafeMutableRawPointer?, _ name: UnsafePointer<xmlChar>?, _ externalID: UnsafePointer<xmlChar>?,
                        _ systemID: UnsafePointer<xmlChar>?) {
    queue(ctx).refuse(.unsupported(
        "the XML has a DTD (<!DOCTYPE>), which Redline refuses: entities could expand without bound or load other files"))
}

private func saxReference(_ ctx: UnsafeMutableRawPointer?, _ name: UnsafePointer<xmlChar>?) {
    queue(ctx).refuse(.unsupported("the XML uses an entity reference; Redline does not expand entities"))
}

/// libxml2's structured error callback: keeps the first error (warnings are ignored), on one line.
private func saxError(_ ctx: UnsafeMutableRawPointer?, _ error: UnsafeMutablePointer<xmlError>?) {
    guard let ctx, let error, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
    let q = queue(ctx)
    guard q.firstError == nil else { return }
    // One line: libxml2 adds details on further lines ("Bytes: 0xC3 0x28 ...").
    let message = error.pointee.message.map { String(cString: $0) }?
        .split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "; ")
        ?? "malformed XML"
    // libxml2's own size limits (without XML_PARSE_HUGE, which Redline never sets) surface as "Huge input
    // lookup", "huge text node", "AttValue length too long": a limit, not damage, and said so.
    let lower = message.lowercased()
    if lower.contains("huge") || lower.contains("too long") || lower.contains("limit exceeded") {
        q.refuse(.limit("an XML text or attribute value near line \(error.pointee.line) is longer than \(Limits.maxXMLTextBytes) bytes (\(Limits.name("maxXMLTextBytes", Limits.maxXMLTextBytes)))"))
        return
    }
    q.firstError = "malformed XML at line \(error.pointee.line): \(message)"
}

/// Process-wide libxml2 settings that keep untrusted XML from reaching outside the input.
enum XMLSafety {
    /// Installs, once, an external-entity loader that refuses every URL (no files, no network).
    static func install() { _ = installed }
    private static let installed: Bool = {
        xmlInitParser()
        xmlSetExternalEntityLoader { _, _, _ in nil }
        return true
    }()
}
