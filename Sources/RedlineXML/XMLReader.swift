@preconcurrency internal import CLibXML2
import Foundation
import RedlineCore

/// What the reader is positioned on.
public enum XMLNodeKind: Sendable {
    /// An element's start tag (`localName`, `namespace`, attributes).
    case start
    /// An element's end (also reported after an empty element such as `<w:b/>`).
    case end
    /// Character data: text, CDATA or whitespace (`text`).
    case text
}

/// One attribute of the current element.
public struct XMLAttribute: Hashable, Sendable {
    /// The caller's number for the attribute's namespace URI (`XMLReader.noNamespace` when unprefixed).
    public var namespace: Int
    public var localName: String
    public var value: String
}

/// A hardened streaming pull reader over libxml2's SAX2 push parser, for untrusted XML.
///
/// Call `next()` until it returns nil; between calls read what the reader is on (`localName`,
/// `namespace`, `attribute(_:in:)`, `text`). The input is parsed 64 KiB at a time into a queue of events
/// (names are libxml2's interned strings, text and attribute values bytes in an arena), so memory stays
/// flat however long the input is and no tree is built.
/// Elements are matched by namespace URI and local name, never by prefix: the caller maps the URIs it
/// cares about to its own numbers (several URIs may share a number, e.g. Transitional and Strict OOXML).
///
/// Safety: no network (`XML_PARSE_NONET`), external entities never loaded, entities never substituted,
/// any DTD refused (OOXML and Scrivener files have none), nesting limited by `Limits.maxNesting`,
/// invalid UTF-8 rejected. Every failure is a `RedlineError` naming the input and line.
public final class XMLReader {
    /// The namespace number of unprefixed names and of namespaces the caller did not map.
    public static let noNamespace = -1

    /// The name of the input for messages (`word/document.xml`).
    public let name: String
    /// What the reader is on after the last `next()`.
    public private(set) var kind: XMLNodeKind = .end

    private let events: EventQueue
    private var position = 0
    private var parser: xmlParserCtxtPtr?
    private let read: (UnsafeMutableRawBufferPointer) throws -> Int
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    private var finished = false
    private let namespaces: [String: Int]
    private var lastNamespacePointer: UnsafePointer<xmlChar>?
    private var lastNamespace = noNamespace
    private var namespaceCache: [UnsafePointer<xmlChar>: Int] = [:]
    /// Local names by libxml2's interned pointer: a direct-mapped table (names repeat endlessly).
    private var nameSlots = [(UnsafePointer<xmlChar>?, String)](repeating: (nil, ""), count: 512)

    /// Reads XML held in memory.
    public convenience init(bytes: [UInt8], name: String, namespaces: [String: Int] = [:], limits: Limits = Limits()) throws {
        var offset = 0
        try self.init(name: name, namespaces: namespaces, limits: limits) { buffer in
            let n = min(buffer.count, bytes.count - offset)
            if n > 0 {
                bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: n) }
            }
            offset += n
            return n
        }
    }

    /// Reads XML that `read` supplies in pieces: it fills the start of the buffer and returns how many
    /// bytes it wrote, 0 at the end. An error it throws ends reading and is rethrown by `next()`.
    public init(name: String, namespaces: [String: Int] = [:], limits: Limits = Limits(),
                read: @escaping (UnsafeMutableRawBufferPointer) throws -> Int) throws {
        XMLSafety.install()
        self.name = name
        self.namespaces = namespaces
        self.read = read
        self.events = EventQueue(maxNesting: limits.maxNesting)
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
        let ctx = Unmanaged.passUnretained(events).toOpaque()
        guard let p = xmlCreatePushParserCtxt(&sax, ctx, nil, 0, nil) else {
            throw RedlineError.malformed("\(name): the XML parser could not start")
        }
        xmlCtxtUseOptions(p, Int32(XML_PARSE_NONET.rawValue))
        parser = p
        events.parser = p
    }

    deinit {
        if let parser { xmlFreeParserCtxt(parser) }
    }

    /// Moves to the next start tag, end tag or text; nil at the end of the document.
    /// Comments, processing instructions and the XML declaration are skipped.
    public func next() throws -> XMLNodeKind? {
        position += 1
        while position >= events.items.count {
            if finished {
                position = events.items.count
                return nil
            }
            try parseMore()
        }
        let k = events.items[position].kind
        kind = k
        return k
    }

    /// Parses the next piece of input into a fresh event queue (position 0).
    private func parseMore() throws {
        guard let p = parser else { finished = true; return }
        events.reset()
        position = 0
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
        if let e = events.refusal {
            fail(); throw RedlineError(e.kind, "\(name): \(e.message)")
        }
        if status != 0 || p.pointee.wellFormed == 0 {
            let message = events.firstError ?? "malformed XML near line \(line)"
            fail(); throw RedlineError.malformed("\(name): \(message)")
        }
        if n == 0 {
            if events.depth != 0 || !events.sawRoot {
                fail(); throw RedlineError.malformed("\(name): " + (events.sawRoot ? "the XML ends inside an element" : "the XML is empty (no root element)"))
            }
            finished = true
        }
        position = 0
    }

    private func fail() {
        finished = true
        events.reset()
        position = 0
        if let parser { xmlFreeParserCtxt(parser) }
        parser = nil
        events.parser = nil
    }

    private var current: Event? {
        position >= 0 && position < events.items.count ? events.items[position] : nil
    }

    /// The local name of the current element (start or end), without prefix.
    public var localName: String {
        guard let p = current?.name else { return "" }
        let slot = Int(truncatingIfNeeded: UInt(bitPattern: p) >> 3) & (nameSlots.count - 1)
        if nameSlots[slot].0 == p { return nameSlots[slot].1 }
        let s = String(cString: p)
        nameSlots[slot] = (p, s)
        return s
    }

    /// The caller's number for the current element's namespace URI, or `noNamespace`.
    public var namespace: Int { number(ofNamespace: current?.uri) }

    /// The namespace URI of the current element ("" when none).
    public var namespaceURI: String { current?.uri.map { String(cString: $0) } ?? "" }

    /// True when the current element is `local` in namespace number `namespace`.
    public func isElement(_ local: String, in namespace: Int) -> Bool {
        self.namespace == namespace && localName == local
    }

    /// The text of the current text node ("" elsewhere).
    public var text: String {
        guard let e = current, e.kind == .text else { return "" }
        return events.string(e.start, e.count)
    }

    /// Depth of the current node (the root element is 0).
    public var depth: Int { Int(current?.depth ?? 0) }

    /// The 1-based line the parser has reached, for messages.
    public var line: Int {
        guard let p = parser else { return 0 }
        return Int(xmlSAX2GetLineNumber(UnsafeMutableRawPointer(p)))
    }

    /// The value of the current start element's attribute `local` in namespace number `namespace`
    /// (`noNamespace` for an unprefixed attribute); nil when absent.
    public func attribute(_ local: String, in namespace: Int = noNamespace) -> String? {
        guard let e = current, e.kind == .start, e.count > 0 else { return nil }
        return local.withCString { want -> String? in
            for i in e.start..<(e.start + e.count) {
                let a = events.attributes[i]
                if strcmp(want, UnsafeRawPointer(a.name).assumingMemoryBound(to: CChar.self)) == 0,
                   number(ofNamespace: a.uri) == namespace {
                    return events.string(a.valueStart, a.valueCount)
                }
            }
            return nil
        }
    }

    /// Every attribute of the current start element (namespace declarations excluded).
    public var attributes: [XMLAttribute] {
        guard let e = current, e.kind == .start else { return [] }
        return (e.start..<(e.start + e.count)).map { i in
            let a = events.attributes[i]
            return XMLAttribute(namespace: number(ofNamespace: a.uri), localName: String(cString: a.name),
                                value: events.string(a.valueStart, a.valueCount))
        }
    }

    /// From a start tag, skips everything up to and including the matching end tag.
    public func skipElement() throws {
        guard kind == .start else { return }
        var open = 1
        while open > 0, let k = try next() {
            if k == .start { open += 1 } else if k == .end { open -= 1 }
        }
    }

    /// From a start tag, the concatenated text inside the element, ending on its end tag.
    public func elementText() throws -> String {
        guard kind == .start else { return "" }
        var out = ""
        var open = 1
        while open > 0, let k = try next() {
            switch k {
            case .start: open += 1
            case .end: open -= 1
            case .text: out += text
            }
        }
        return out
    }

    private func number(ofNamespace p: UnsafePointer<xmlChar>?) -> Int {
        guard let p else { return Self.noNamespace }
        if p == lastNamespacePointer { return lastNamespace }
        let n: Int
        if let cached = namespaceCache[p] {
            n = cached
        } else {
            n = namespaces[String(cString: p)] ?? Self.noNamespace
            namespaceCache[p] = n
        }
        lastNamespacePointer = p
        lastNamespace = n
        return n
    }
}

/// One parse event. For a start tag, `start`/`count` index its attributes; for text, the arena bytes.
struct Event {
    var kind: XMLNodeKind
    var name: UnsafePointer<xmlChar>?
    var uri: UnsafePointer<xmlChar>?
    var start: Int
    var count: Int
    var depth: Int32
}

/// One attribute of a start event: interned name and namespace, value bytes in the arena.
struct AttributeEvent {
    var name: UnsafePointer<xmlChar>
    var uri: UnsafePointer<xmlChar>?
    var valueStart: Int
    var valueCount: Int
}

/// What the SAX callbacks fill for one piece of input (reached through the parser's user data).
final class EventQueue {
    var items: [Event] = []
    var attributes: [AttributeEvent] = []
    var arena: [UInt8] = []
    var depth: Int32 = 0
    var sawRoot = false
    let maxNesting: Int
    var parser: xmlParserCtxtPtr?
    /// Why parsing was stopped on purpose (a DTD, an entity reference, too deep).
    var refusal: RedlineError?
    var firstError: String?

    init(maxNesting: Int) {
        self.maxNesting = maxNesting
        items.reserveCapacity(4096)
        arena.reserveCapacity(1 << 16)
    }

    func reset() {
        items.removeAll(keepingCapacity: true)
        attributes.removeAll(keepingCapacity: true)
        arena.removeAll(keepingCapacity: true)
    }

    func string(_ start: Int, _ count: Int) -> String {
        arena.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[start..<(start + count)]), as: UTF8.self) }
    }

    /// Appends an attribute value. Without entity substitution libxml2 hands every "&" of a value over
    /// as "&#38;" (so that a tree builder could tell it from an entity); every "&" it gives starts one.
    func appendAttributeValue(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.contains(0x26) else { arena.append(contentsOf: bytes); return }
        var i = 0
        while i < bytes.count {
            arena.append(bytes[i])
            if bytes[i] == 0x26, i + 4 < bytes.count, bytes[i + 1] == 0x23, bytes[i + 2] == 0x33, bytes[i + 3] == 0x38,
               bytes[i + 4] == 0x3B {
                i += 5
            } else {
                i += 1
            }
        }
    }

    func refuse(_ e: RedlineError) {
        if refusal == nil { refusal = e }
        if let parser { xmlStopParser(parser) }
    }
}

private func queue(_ ctx: UnsafeMutableRawPointer?) -> EventQueue {
    Unmanaged<EventQueue>.fromOpaque(ctx!).takeUnretainedValue()
}

private func saxStart(_ ctx: UnsafeMutableRawPointer?, _ localname: UnsafePointer<xmlChar>?, _ prefix: UnsafePointer<xmlChar>?,
                      _ uri: UnsafePointer<xmlChar>?, _ nbNamespaces: Int32, _ namespaces: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?,
                      _ nbAttributes: Int32, _ nbDefaulted: Int32, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?) {
    let q = queue(ctx)
    if Int(q.depth) >= q.maxNesting {
        q.refuse(.limit("XML nested deeper than \(q.maxNesting) elements"))
        return
    }
    let first = q.attributes.count
    if let attributes, nbAttributes > 0 {
        for i in 0..<Int(nbAttributes) {
            guard let name = attributes[i * 5] else { continue }
            let begin = attributes[i * 5 + 3], end = attributes[i * 5 + 4]
            let start = q.arena.count
            if let begin, let end, end > begin { q.appendAttributeValue(UnsafeBufferPointer(start: begin, count: end - begin)) }
            q.attributes.append(AttributeEvent(name: name, uri: attributes[i * 5 + 2], valueStart: start, valueCount: q.arena.count - start))
        }
    }
    q.items.append(Event(kind: .start, name: localname, uri: uri, start: first, count: q.attributes.count - first, depth: q.depth))
    q.depth += 1
    q.sawRoot = true
}

private func saxEnd(_ ctx: UnsafeMutableRawPointer?, _ localname: UnsafePointer<xmlChar>?, _ prefix: UnsafePointer<xmlChar>?,
                    _ uri: UnsafePointer<xmlChar>?) {
    let q = queue(ctx)
    q.depth -= 1
    q.items.append(Event(kind: .end, name: localname, uri: uri, start: 0, count: 0, depth: q.depth))
}

private func saxCharacters(_ ctx: UnsafeMutableRawPointer?, _ ch: UnsafePointer<xmlChar>?, _ len: Int32) {
    guard let ch, len > 0 else { return }
    let q = queue(ctx)
    guard q.depth > 0 else { return }
    let bytes = UnsafeBufferPointer(start: ch, count: Int(len))
    if let last = q.items.last, last.kind == .text, last.start + last.count == q.arena.count {
        q.arena.append(contentsOf: bytes)
        q.items[q.items.count - 1].count += Int(len)
        return
    }
    let start = q.arena.count
    q.arena.append(contentsOf: bytes)
    q.items.append(Event(kind: .text, name: nil, uri: nil, start: start, count: Int(len), depth: q.depth))
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
