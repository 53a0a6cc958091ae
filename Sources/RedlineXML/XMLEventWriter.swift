@preconcurrency internal import CLibXML2
import Foundation
import RedlineCore

/// A namespace declaration (`xmlns:w="..."`; an empty prefix declares the default namespace).
public struct XMLNamespaceDeclaration: Hashable, Sendable {
    public var prefix: String
    public var uri: String
}

/// An attribute as written: prefix ("" when none), local name, the caller's namespace number, value.
public struct XMLNodeAttribute: Hashable, Sendable {
    public var prefix: String
    public var localName: String
    public var namespace: Int
    public var value: String

    public init(prefix: String, localName: String, namespace: Int, value: String) {
        self.prefix = prefix
        self.localName = localName
        self.namespace = namespace
        self.value = value
    }
}

/// A small element captured whole from an `XMLReader` (a properties element such as `w:rPr`), to be
/// changed and written back by `XMLEventWriter`. Prefixes, declarations and attribute order are kept.
public struct XMLFragment: Sendable {
    public var prefix: String
    public var localName: String
    public var namespace: Int
    public var declarations: [XMLNamespaceDeclaration]
    public var attributes: [XMLNodeAttribute]
    public var children: [XMLFragmentChild]

    public init(prefix: String, localName: String, namespace: Int, declarations: [XMLNamespaceDeclaration] = [],
                attributes: [XMLNodeAttribute] = [], children: [XMLFragmentChild] = []) {
        self.prefix = prefix
        self.localName = localName
        self.namespace = namespace
        self.declarations = declarations
        self.attributes = attributes
        self.children = children
    }

    /// The value of attribute `local` in namespace number `namespace`.
    public func attribute(_ local: String, in namespace: Int) -> String? {
        attributes.first { $0.localName == local && $0.namespace == namespace }?.value
    }

    /// True when this is `local` in namespace number `namespace`.
    public func isElement(_ local: String, in namespace: Int) -> Bool {
        self.namespace == namespace && localName == local
    }

    /// The child elements, in order.
    public var elements: [XMLFragment] {
        children.compactMap { if case .element(let e) = $0 { return e } else { return nil } }
    }
}

/// A child of a captured element.
public enum XMLFragmentChild: Sendable {
    case element(XMLFragment)
    case text(String)
}

extension XMLReader {
    /// The prefix of the current element ("" when none).
    public var prefix: String {
        guard let p = current?.prefix else { return "" }
        return String(cString: p)
    }

    /// The namespace declarations of the current start tag.
    public var declarations: [XMLNamespaceDeclaration] {
        guard let e = current, e.kind == .start, e.nsCount > 0 else { return [] }
        return (Int(e.nsStart)..<Int(e.nsStart + e.nsCount)).map { i in
            let d = cursor.batch.declarations[i]
            return XMLNamespaceDeclaration(prefix: cursor.batch.string(d.prefixStart, d.prefixCount),
                                           uri: cursor.batch.string(d.uriStart, d.uriCount))
        }
    }

    /// Every attribute of the current start tag with its prefix.
    public var prefixedAttributes: [XMLNodeAttribute] {
        guard let e = current, e.kind == .start else { return [] }
        return (e.start..<(e.start + e.count)).map { i in
            let a = cursor.batch.attributes[i]
            return XMLNodeAttribute(prefix: a.prefix.map { String(cString: $0) } ?? "", localName: String(cString: a.name),
                                    namespace: Int(a.namespace), value: cursor.batch.string(a.valueStart, a.valueCount))
        }
    }

    /// From a start tag, the whole element as a fragment, ending on its end tag.
    public func fragment() throws -> XMLFragment {
        var top = XMLFragment(prefix: prefix, localName: localName, namespace: namespace, declarations: declarations,
                              attributes: prefixedAttributes)
        guard kind == .start else { return top }
        var stack: [XMLFragment] = []
        while let k = try next() {
            switch k {
            case .start:
                stack.append(top)
                top = XMLFragment(prefix: prefix, localName: localName, namespace: namespace, declarations: declarations,
                                  attributes: prefixedAttributes)
            case .text:
                top.children.append(.text(text))
            case .end:
                guard var parent = stack.popLast() else { return top }
                parent.children.append(.element(top))
                top = parent
            }
        }
        return top
    }
}

/// Writes XML event by event into a byte buffer: events copied from an `XMLReader` (names, prefixes,
/// namespace declarations, attributes and text as they were; an element without content is written
/// `<a/>`), captured fragments, or elements named by the caller. Text is escaped (`&`, `<`, `>`, CR),
/// attribute values too (`&`, `<`, `"`, tab, LF, CR as character references), so that what a parser
/// reads back is what was read. Comments and processing instructions are not reproduced (the reader
/// skips them). The caller takes the bytes (`bytes`, `take()`), and may cut them back to a `mark()`.
public struct XMLEventWriter {
    /// What has been written and not taken.
    public private(set) var bytes: [UInt8] = []
    /// A start tag is open (`<a x="1"`), waiting for `>` or `/>`.
    private var open = false

    public init(capacity: Int = 1 << 20) { bytes.reserveCapacity(capacity) }

    /// The XML declaration that Office writes.
    public mutating func declaration() {
        raw("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\r\n")
    }

    /// Closes an open start tag and returns the current length: a place to `cut(to:)` or `slice(from:)`.
    public mutating func mark() -> Int {
        closeStart()
        return bytes.count
    }

    /// Removes everything written after `mark`.
    public mutating func cut(to mark: Int) {
        closeStart()
        if mark < bytes.count { bytes.removeSubrange(mark...) }
    }

    /// The bytes written after `mark`, removed.
    public mutating func slice(from mark: Int) -> [UInt8] {
        closeStart()
        let s = Array(bytes[mark...])
        bytes.removeSubrange(mark...)
        return s
    }

    /// Appends bytes that are already XML.
    public mutating func append(_ b: [UInt8]) {
        closeStart()
        bytes.append(contentsOf: b)
    }

    /// Hands over everything written (an open start tag is closed first).
    public mutating func take() -> [UInt8] {
        closeStart()
        let b = bytes
        bytes.removeAll(keepingCapacity: true)
        return b
    }

    // MARK: Copying the reader's events

    /// Writes the reader's current start tag, named `rename` instead when given (the prefix stays).
    public mutating func start(_ x: XMLReader, rename: String? = nil) {
        guard let e = x.current, e.kind == .start else { return }
        closeStart()
        raw(UInt8(ascii: "<"))
        if let p = e.prefix { cString(p); raw(UInt8(ascii: ":")) }
        if let rename { raw(rename) } else if let n = e.name { cString(n) }
        if e.nsCount > 0 {
            for i in Int(e.nsStart)..<Int(e.nsStart + e.nsCount) {
                let d = x.cursor.batch.declarations[i]
                raw(" xmlns")
                if d.prefixCount > 0 { raw(UInt8(ascii: ":")); arena(x, d.prefixStart, d.prefixCount, attribute: false, escape: false) }
                raw("=\"")
                arena(x, d.uriStart, d.uriCount, attribute: true, escape: true)
                raw(UInt8(ascii: "\""))
            }
        }
        for i in e.start..<(e.start + e.count) {
            let a = x.cursor.batch.attributes[i]
            raw(UInt8(ascii: " "))
            if let p = a.prefix { cString(p); raw(UInt8(ascii: ":")) }
            cString(a.name)
            raw("=\"")
            arena(x, a.valueStart, a.valueCount, attribute: true, escape: true)
            raw(UInt8(ascii: "\""))
        }
        open = true
    }

    /// Writes the end of the reader's current element (`/>` when nothing was written since its start tag),
    /// named `rename` instead when given.
    public mutating func end(_ x: XMLReader, rename: String? = nil) {
        guard let e = x.current else { return }
        if open {
            raw("/>")
            open = false
            return
        }
        raw("</")
        if let p = e.prefix { cString(p); raw(UInt8(ascii: ":")) }
        if let rename { raw(rename) } else if let n = e.name { cString(n) }
        raw(UInt8(ascii: ">"))
    }

    /// Writes the reader's current text, escaped.
    public mutating func text(_ x: XMLReader) {
        guard let e = x.current, e.kind == .text else { return }
        closeStart()
        arena(x, e.start, e.count, attribute: false, escape: true)
    }

    // MARK: Fragments and named elements

    /// Writes a fragment and everything in it.
    public mutating func write(_ f: XMLFragment) {
        start(f)
        for c in f.children {
            switch c {
            case .element(let e): write(e)
            case .text(let t): text(t)
            }
        }
        end(prefix: f.prefix, localName: f.localName)
    }

    /// Writes a fragment's start tag only (its children are not written).
    public mutating func start(_ f: XMLFragment) {
        closeStart()
        raw(UInt8(ascii: "<"))
        name(f.prefix, f.localName)
        for d in f.declarations {
            raw(" xmlns")
            if !d.prefix.isEmpty { raw(UInt8(ascii: ":")); raw(d.prefix) }
            raw("=\"")
            escaped(d.uri, attribute: true)
            raw(UInt8(ascii: "\""))
        }
        for a in f.attributes {
            raw(UInt8(ascii: " "))
            name(a.prefix, a.localName)
            raw("=\"")
            escaped(a.value, attribute: true)
            raw(UInt8(ascii: "\""))
        }
        open = true
    }

    /// Ends the element `prefix:localName` (`/>` when nothing was written since its start tag).
    public mutating func end(prefix: String, localName: String) {
        if open {
            raw("/>")
            open = false
            return
        }
        raw("</")
        name(prefix, localName)
        raw(UInt8(ascii: ">"))
    }

    /// Writes text, escaped.
    public mutating func text(_ s: String) {
        closeStart()
        escaped(s, attribute: false)
    }

    // MARK: Bytes

    private mutating func closeStart() {
        if open {
            bytes.append(UInt8(ascii: ">"))
            open = false
        }
    }

    private mutating func name(_ prefix: String, _ local: String) {
        if !prefix.isEmpty { raw(prefix); raw(UInt8(ascii: ":")) }
        raw(local)
    }

    @inline(__always) private mutating func raw(_ b: UInt8) { bytes.append(b) }

    private mutating func raw(_ s: String) {
        var s = s
        s.withUTF8 { bytes.append(contentsOf: $0) }
    }

    private mutating func cString(_ p: UnsafePointer<xmlChar>) {
        bytes.append(contentsOf: xmlStringBytes(p))
    }

    private mutating func escaped(_ s: String, attribute: Bool) {
        var s = s
        s.withUTF8 { escape($0, attribute: attribute) }
    }

    private mutating func arena(_ x: XMLReader, _ start: Int, _ count: Int, attribute: Bool, escape doEscape: Bool) {
        guard count > 0 else { return }
        x.cursor.batch.arena.withUnsafeBufferPointer { a in
            let slice = UnsafeBufferPointer(rebasing: a[start..<(start + count)])
            if doEscape { escape(slice, attribute: attribute) } else { bytes.append(contentsOf: slice) }
        }
    }

    private mutating func escape(_ s: UnsafeBufferPointer<UInt8>, attribute: Bool) {
        (attribute ? MarkupEscaper.copiedXMLAttribute : .copiedXMLText).escape(s, into: &bytes)
    }
}
