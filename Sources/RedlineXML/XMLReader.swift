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

/// A hardened streaming pull reader over libxml2's `xmlTextReader`, for untrusted XML.
///
/// Call `next()` until it returns nil; between calls read what the reader is on (`localName`,
/// `namespace`, `attribute(_:in:)`, `text`). Memory stays flat however long the input is.
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

    private var reader: xmlTextReaderPtr?
    private let context: Context
    private let namespaces: [String: Int]
    private let maxNesting: Int
    private var pendingEnd = false
    private var lastNamespacePointer: UnsafePointer<xmlChar>?
    private var lastNamespace = noNamespace
    private var namespaceCache: [UnsafePointer<xmlChar>: Int] = [:]
    /// Local names by libxml2's interned pointer: a direct-mapped table (names repeat endlessly).
    private var nameSlots = [(UnsafePointer<xmlChar>?, String)](repeating: (nil, ""), count: 512)
    /// The current node's name and namespace number, once asked for.
    private var currentName: String?
    private var currentNamespace: Int?

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
        self.maxNesting = limits.maxNesting
        self.context = Context(read: read)
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOCDATA.rawValue | XML_PARSE_COMPACT.rawValue)
        let ctx = Unmanaged.passUnretained(context).toOpaque()
        guard let r = xmlReaderForIO(readInput, nil, ctx, nil, nil, options) else {
            throw RedlineError.malformed("\(name): the XML cannot be read (empty or unreadable)")
        }
        reader = r
        xmlTextReaderSetStructuredErrorHandler(r, recordError, ctx)
    }

    deinit {
        if let reader { xmlFreeTextReader(reader) }
    }

    /// Moves to the next start tag, end tag or text; nil at the end of the document.
    /// Comments, processing instructions and the XML declaration are skipped.
    public func next() throws -> XMLNodeKind? {
        guard let r = reader else { return nil }
        currentName = nil
        currentNamespace = nil
        if pendingEnd {
            pendingEnd = false
            kind = .end
            return .end
        }
        while true {
            let status = xmlTextReaderRead(r)
            if status == 0 {
                if let e = context.thrown ?? context.firstError.map({ RedlineError.malformed("\(name): \($0)") }) {
                    try fail(e)
                }
                finish()
                return nil
            }
            if status < 0 { try fail(failure()) }
            switch Int32(xmlTextReaderNodeType(r)) {
            case Int32(XML_READER_TYPE_ELEMENT.rawValue):
                if xmlTextReaderDepth(r) >= maxNesting {
                    try fail(.limit("\(name): XML nested deeper than \(maxNesting) elements (line \(line))"))
                }
                pendingEnd = xmlTextReaderIsEmptyElement(r) == 1
                kind = .start
                return .start
            case Int32(XML_READER_TYPE_END_ELEMENT.rawValue):
                kind = .end
                return .end
            case Int32(XML_READER_TYPE_TEXT.rawValue), Int32(XML_READER_TYPE_CDATA.rawValue),
                 Int32(XML_READER_TYPE_WHITESPACE.rawValue), Int32(XML_READER_TYPE_SIGNIFICANT_WHITESPACE.rawValue):
                kind = .text
                return .text
            case Int32(XML_READER_TYPE_DOCUMENT_TYPE.rawValue):
                try fail(.unsupported("\(name): the XML has a DTD (<!DOCTYPE>), which Redline refuses: entities could expand without bound or load other files"))
            case Int32(XML_READER_TYPE_ENTITY_REFERENCE.rawValue), Int32(XML_READER_TYPE_ENTITY.rawValue):
                try fail(.unsupported("\(name): the XML uses an entity reference (line \(line)); Redline does not expand entities"))
            default:
                continue
            }
        }
    }

    /// The local name of the current element (start or end), without prefix.
    public var localName: String {
        if let n = currentName { return n }
        guard let r = reader, let p = xmlTextReaderConstLocalName(r) else { return "" }
        let slot = Int(truncatingIfNeeded: UInt(bitPattern: p) >> 3) & (nameSlots.count - 1)
        if nameSlots[slot].0 == p {
            currentName = nameSlots[slot].1
            return nameSlots[slot].1
        }
        let s = String(cString: p)
        nameSlots[slot] = (p, s)
        currentName = s
        return s
    }

    /// The caller's number for the current element's namespace URI, or `noNamespace`.
    public var namespace: Int {
        if let n = currentNamespace { return n }
        guard let r = reader else { return Self.noNamespace }
        let n = number(ofNamespace: xmlTextReaderConstNamespaceUri(r))
        currentNamespace = n
        return n
    }

    /// The namespace URI of the current element ("" when none).
    public var namespaceURI: String {
        guard let r = reader, let p = xmlTextReaderConstNamespaceUri(r) else { return "" }
        return String(cString: p)
    }

    /// True when the current element is `local` in namespace number `namespace`.
    public func isElement(_ local: String, in namespace: Int) -> Bool {
        self.namespace == namespace && localName == local
    }

    /// The text of the current text node ("" elsewhere).
    public var text: String {
        guard kind == .text, let r = reader, let p = xmlTextReaderConstValue(r) else { return "" }
        return String(cString: p)
    }

    /// Depth of the current node (the root element is 0).
    public var depth: Int {
        guard let r = reader else { return 0 }
        return Int(xmlTextReaderDepth(r))
    }

    /// The 1-based line the parser has reached, for messages.
    public var line: Int {
        guard let r = reader else { return 0 }
        return Int(xmlTextReaderGetParserLineNumber(r))
    }

    /// The value of the current start element's attribute `local` in namespace number `namespace`
    /// (`noNamespace` for an unprefixed attribute); nil when absent.
    public func attribute(_ local: String, in namespace: Int = noNamespace) -> String? {
        guard kind == .start, let r = reader else { return nil }
        defer { xmlTextReaderMoveToElement(r) }
        var more = xmlTextReaderMoveToFirstAttribute(r)
        while more == 1 {
            if let p = xmlTextReaderConstLocalName(r), local.withCString({ strcmp($0, p) == 0 }),
               number(ofNamespace: xmlTextReaderConstNamespaceUri(r)) == namespace {
                return xmlTextReaderConstValue(r).map { String(cString: $0) } ?? ""
            }
            more = xmlTextReaderMoveToNextAttribute(r)
        }
        return nil
    }

    /// Every attribute of the current start element (namespace declarations excluded).
    public var attributes: [XMLAttribute] {
        guard kind == .start, let r = reader else { return [] }
        defer { xmlTextReaderMoveToElement(r) }
        var out: [XMLAttribute] = []
        var more = xmlTextReaderMoveToFirstAttribute(r)
        while more == 1 {
            if xmlTextReaderIsNamespaceDecl(r) != 1 {
                out.append(XMLAttribute(namespace: number(ofNamespace: xmlTextReaderConstNamespaceUri(r)),
                                        localName: xmlTextReaderConstLocalName(r).map { String(cString: $0) } ?? "",
                                        value: xmlTextReaderConstValue(r).map { String(cString: $0) } ?? ""))
            }
            more = xmlTextReaderMoveToNextAttribute(r)
        }
        return out
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

    // MARK: Internals

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

    private func failure() -> RedlineError {
        if let e = context.thrown { return e }
        if let m = context.firstError { return .malformed("\(name): \(m)") }
        return .malformed("\(name): malformed XML near line \(line)")
    }

    private func fail(_ e: RedlineError) throws -> Never {
        finish()
        throw e
    }

    private func finish() {
        if let reader { xmlFreeTextReader(reader) }
        reader = nil
        pendingEnd = false
        namespaceCache = [:]
        nameSlots = [(UnsafePointer<xmlChar>?, String)](repeating: (nil, ""), count: 512)
        lastNamespacePointer = nil
        currentName = nil
        currentNamespace = nil
    }

    /// The state the C callbacks reach through their context pointer.
    final class Context {
        let read: (UnsafeMutableRawBufferPointer) throws -> Int
        var thrown: RedlineError?
        var firstError: String?
        init(read: @escaping (UnsafeMutableRawBufferPointer) throws -> Int) { self.read = read }
    }
}

/// libxml2's input callback: pulls bytes from the caller's closure.
private func readInput(_ ctx: UnsafeMutableRawPointer?, _ buffer: UnsafeMutablePointer<CChar>?, _ len: Int32) -> Int32 {
    guard let ctx, let buffer, len > 0 else { return -1 }
    let context = Unmanaged<XMLReader.Context>.fromOpaque(ctx).takeUnretainedValue()
    do {
        return Int32(try context.read(UnsafeMutableRawBufferPointer(start: buffer, count: Int(len))))
    } catch let e as RedlineError {
        context.thrown = e
        return -1
    } catch {
        context.thrown = .io("\(error)")
        return -1
    }
}

/// libxml2's structured error callback: keeps the first error (warnings are ignored).
private func recordError(_ ctx: UnsafeMutableRawPointer?, _ error: UnsafeMutablePointer<xmlError>?) {
    guard let ctx, let error, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
    let context = Unmanaged<XMLReader.Context>.fromOpaque(ctx).takeUnretainedValue()
    guard context.firstError == nil else { return }
    // One line: libxml2 adds details on further lines ("Bytes: 0xC3 0x28 ...").
    let message = error.pointee.message.map { String(cString: $0) }?
        .split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "; ")
        ?? "malformed XML"
    context.firstError = "malformed XML at line \(error.pointee.line): \(message)"
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
