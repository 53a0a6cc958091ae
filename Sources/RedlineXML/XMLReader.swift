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
    /// The attribute's name without prefix.
    public var localName: String
    /// The value, with character and predefined entity references decoded.
    public var value: String
}

/// A hardened streaming pull reader over libxml2's SAX2 push parser, for untrusted XML.
///
/// Call `next()` until it returns nil; between calls read what the reader is on (`localName`,
/// `namespace`, `attribute(_:in:)`, `text`). The input is parsed 64 KiB at a time into a queue of events
/// (names are libxml2's interned strings, text and attribute values bytes in an arena), so memory stays
/// flat however long the input is and no tree is built.
/// Elements are matched by namespace URI and local name, never by prefix: the caller maps the URIs it
/// cares about to its own numbers (several URIs may share a number, e.g. Transitional and Strict OOXML),
/// and may list the local names it matches often: `nameID` is then a number to switch on, found once per
/// distinct name instead of a string built and compared per element.
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
    public var kind: XMLNodeKind { cursor.kind }

    // The reader's hot state, read for every event, skips exclusivity checks (PERFORMANCE.md): two parts,
    // `cursor` and `nameStrings`, each accessed one access at a time (unchecked, an overlapping access would be
    // undefined behaviour rather than a trap).
    @exclusivity(unchecked) var cursor = Cursor()
    /// Where the pieces come from: parsed on this thread, or on a thread of their own.
    private let source: Source
    /// Keeps the interned names of `batch` valid, whenever the parser is freed.
    private let internedNames: NameDictionary
    /// Local names by libxml2's interned pointer: a direct-mapped table (names repeat endlessly) of the
    /// pointer and the name's place in `nameStrings`, in raw memory: made and freed in a few hundred
    /// instructions, where an array of 512 (pointer, `String`) pairs cost some 40,000 per reader, and a small
    /// DOCX opens a dozen readers (PERFORMANCE.md, "Compare batches").
    private let nameSlots = NameSlots()
    /// The local names `nameSlots` point to: one per slot at most (a slot taken over reuses its string's place).
    @exclusivity(unchecked) private var nameStrings: [String] = []
    private static let nameSlotBits = 9

    /// Where the reader is: the events of the current piece of input and the position in them.
    struct Cursor {
        var kind: XMLNodeKind = .end
        var position = 0
        /// The events of the current piece of input.
        var batch = EventBatch()
        /// The last piece has been read.
        var finished = false
    }

    private enum Source {
        case inline(ChunkParser)
        case background(BackgroundParser)
    }

    /// Reads XML held in memory.
    public convenience init(bytes: [UInt8], name: String, namespaces: [String: Int] = [:], names: [String] = [],
                            limits: Limits = Limits()) throws {
        var offset = 0
        try self.init(name: name, namespaces: namespaces, names: names, limits: limits) { buffer in
            let n = min(buffer.count, bytes.count - offset)
            if n > 0 {
                // Safety: n > 0 bytes from `offset` are both within `bytes` (n <= bytes.count - offset) and within
                // `buffer` (n <= buffer.count), so neither base address is nil and the copy stays in both.
                bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: n) }
            }
            offset += n
            return n
        }
    }

    /// Reads XML that `read` supplies in pieces: it fills the start of the buffer and returns how many
    /// bytes it wrote, 0 at the end. An error it throws ends reading and is rethrown by `next()`.
    /// `names`: local names whose position in the list `nameID` gives.
    public init(name: String, namespaces: [String: Int] = [:], names: [String] = [], limits: Limits = Limits(),
                read: @escaping (UnsafeMutableRawBufferPointer) throws -> Int) throws {
        let parser = try ChunkParser(name: name, namespaces: namespaces, names: Self.numbers(names), limits: limits, read: read)
        self.name = name
        internedNames = parser.names
        source = .inline(parser)
    }

    /// Like `init(name:namespaces:names:limits:read:)`, but `read` and libxml2's parsing run on a thread
    /// of their own, a few pieces ahead of the caller's work on the events (for a large part such as a
    /// DOCX body). What the reader gives is exactly the same, errors included, in the same order. `read`
    /// is called on that thread (hence `sending`: nothing it uses may be used elsewhere meanwhile); the
    /// thread stops and is joined when the reader is released.
    public init(parsingInBackground name: String, namespaces: [String: Int] = [:], names: [String] = [],
                limits: Limits = Limits(), read: sending @escaping (UnsafeMutableRawBufferPointer) throws -> Int) throws {
        let parser = try ChunkParser(name: name, namespaces: namespaces, names: Self.numbers(names), limits: limits, read: read)
        self.name = name
        internedNames = parser.names
        source = .background(try BackgroundParser(parser))
    }

    /// `names` numbered by position (the first of equal names wins). Readers are made by the dozen per
    /// small document with the same few lists (`OOXML.names`), so the last few tables are kept, found again
    /// by the list (an array compares equal to itself at once, by its storage).
    private static func numbers(_ names: [String]) -> [String: Int] {
        if names.isEmpty { return [:] }
        return numberTables.table(for: names)
    }

    private static let numberTables = NumberTables()

    /// `nameSlots`' raw table, freed with the reader.
    private final class NameSlots {
        let slots: UnsafeMutablePointer<(UnsafePointer<xmlChar>?, Int32)>
        init() { slots = PointerSlot.table(bits: XMLReader.nameSlotBits) }
        deinit { slots.deallocate() }
    }

    /// The recent name tables, shared by every reader of the process.
    private final class NumberTables: @unchecked Sendable {
        private let lock = NSLock()
        private var recent: [(names: [String], table: [String: Int])] = []

        func table(for names: [String]) -> [String: Int] {
            lock.lock()
            if let hit = recent.first(where: { $0.names == names }) { lock.unlock(); return hit.table }
            lock.unlock()
            let table = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
            lock.lock()
            if recent.count == 8 { recent.removeFirst() }
            recent.append((names, table))
            lock.unlock()
            return table
        }
    }

    /// Moves to the next start tag, end tag or text; nil at the end of the document.
    /// Comments, processing instructions and the XML declaration are skipped.
    public func next() throws -> XMLNodeKind? {
        cursor.position += 1
        if cursor.position < cursor.batch.items.count {
            let k = cursor.batch.items[cursor.position].kind
            cursor.kind = k
            return k
        }
        return try nextPiece()
    }

    /// `next()` at the end of the current piece's events: the next piece (skipping empty ones).
    private func nextPiece() throws -> XMLNodeKind? {
        while cursor.position >= cursor.batch.items.count {
            if cursor.finished {
                cursor.position = cursor.batch.items.count
                return nil
            }
            cursor.position = 0
            switch source {
            case .inline(let parser):
                do {
                    if try !parser.parse(into: &cursor.batch) { cursor.finished = true }
                } catch {
                    cursor.finished = true
                    throw error
                }
            case .background(let parser):
                switch parser.next(returning: &cursor.batch) {
                case .events(let events, let last):
                    cursor.batch = events
                    if last { cursor.finished = true }
                case .failure(let error):
                    cursor.finished = true
                    throw error
                }
            }
        }
        let k = cursor.batch.items[cursor.position].kind
        cursor.kind = k
        return k
    }

    var current: Event? {
        cursor.position >= 0 && cursor.position < cursor.batch.items.count ? cursor.batch.items[cursor.position] : nil
    }

    /// The local name of the current element (start or end), without prefix.
    public var localName: String {
        guard let p = current?.name else { return "" }
        let slot = PointerSlot.index(p, bits: Self.nameSlotBits)
        let slots = nameSlots.slots
        let (held, place) = slots[slot]
        if held == p { return nameStrings[Int(place)] }
        let s = String(cString: p)
        if place >= 0 {
            nameStrings[Int(place)] = s
            slots[slot].0 = p
        } else {
            slots[slot] = (p, Int32(nameStrings.count))
            nameStrings.append(s)
        }
        return s
    }

    /// The position of the current element's local name in the `names` the reader was given; -1 when
    /// it is not listed, and on text.
    public var nameID: Int { Int(current?.nameID ?? -1) }

    /// The caller's number for the current element's namespace URI, or `noNamespace`.
    public var namespace: Int { Int(current?.namespace ?? -1) }

    /// The namespace URI of the current element ("" when none).
    public var namespaceURI: String { current?.uri.map { String(cString: $0) } ?? "" }

    /// True when the current element is `local` in namespace number `namespace`.
    public func isElement(_ local: String, in namespace: Int) -> Bool {
        self.namespace == namespace && localName == local
    }

    /// The text of the current text node ("" elsewhere).
    public var text: String {
        guard let e = current, e.kind == .text else { return "" }
        return cursor.batch.string(e.start, e.count)
    }

    /// Depth of the current node (the root element is 0).
    public var depth: Int { Int(current?.depth ?? 0) }

    /// The 1-based line the parser had reached at the end of the current piece of input, for messages.
    public var line: Int { cursor.batch.line }

    /// The value of the current start element's attribute `local` in namespace number `namespace`
    /// (`noNamespace` for an unprefixed attribute); nil when absent.
    public func attribute(_ local: String, in namespace: Int = noNamespace) -> String? {
        guard let e = current, e.kind == .start, e.count > 0 else { return nil }
        // Safety: `want` is used only inside `withCString`; an attribute's name is a NUL-terminated string
        // interned in the parser's dictionary, which lives as long as this reader (`NameDictionary`).
        return local.withCString { want -> String? in
            for i in e.start..<(e.start + e.count) {
                let a = cursor.batch.attributes[i]
                if a.namespace == namespace, strcmp(want, UnsafeRawPointer(a.name).assumingMemoryBound(to: CChar.self)) == 0 {
                    return cursor.batch.string(a.valueStart, a.valueCount)
                }
            }
            return nil
        }
    }

    /// Every attribute of the current start element (namespace declarations excluded).
    public var attributes: [XMLAttribute] {
        guard let e = current, e.kind == .start else { return [] }
        return (e.start..<(e.start + e.count)).map { i in
            let a = cursor.batch.attributes[i]
            return XMLAttribute(namespace: Int(a.namespace), localName: String(cString: a.name),
                                value: cursor.batch.string(a.valueStart, a.valueCount))
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

    /// From a start tag, calls `visit` on each start tag inside the element, in document order, ending on
    /// the element's end tag. `visit` returns true when it has read the element it was called on up to its
    /// end tag (with `elementText`, `skipElement` or a parser of its own), false to go on into it.
    public func forEachDescendant(_ visit: () throws -> Bool) throws {
        var open = 1
        while open > 0, let k = try next() {
            switch k {
            case .text: continue
            case .end: open -= 1
            case .start: if try !visit() { open += 1 }
            }
        }
    }

    /// From a start tag, the concatenated text inside the element, ending on its end tag.
    public func elementText() throws -> String {
        guard kind == .start else { return "" }
        // The usual element, one text node and the end tag (`<w:t>text</w:t>`): no concatenation.
        guard let first = try next() else { return "" }
        if first == .end { return "" }
        var out = ""
        var open = 1
        if first == .text { out = text } else { open += 1 }
        while open > 0, let k = try next() {
            switch k {
            case .start: open += 1
            case .end: open -= 1
            case .text: out += text
            }
        }
        return out
    }
}
