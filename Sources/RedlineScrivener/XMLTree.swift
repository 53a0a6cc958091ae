import RedlineCore
import RedlineXML

/// A small element tree for Scrivener's little XML files (the binder, comments, snapshot indexes), read with
/// the hardened pull reader of RedlineXML. Text is the element's own character data and CDATA, joined.
enum XMLTree {
    /// One element: local name, attributes by local name, child elements in order, own text.
    struct Element {
        var name: String
        var attributes: [String: String] = [:]
        var children: [Element] = []
        var text: String = ""

        /// The first child element called `name`.
        func child(_ name: String) -> Element? { children.first { $0.name == name } }
        /// Every child element called `name`, in order.
        func children(_ name: String) -> [Element] { children.filter { $0.name == name } }
    }

    /// Deepest element nesting accepted.
    static let maxDepth = 2_048
}

extension XMLTree {
    /// Reads `bytes` into a tree; `name` names the input in messages. Throws `RedlineError` on malformed
    /// XML, a DTD or entities (refused by the reader), or nesting deeper than `maxDepth`.
    static func parse(_ bytes: [UInt8], name: String) throws -> Element {
        var limits = Limits()
        limits.maxNesting = maxDepth
        let reader = try XMLReader(bytes: bytes, name: name, limits: limits)
        var stack: [Element] = []
        var root: Element?
        while let kind = try reader.next() {
            switch kind {
            case .start:
                var e = Element(name: reader.localName)
                for a in reader.attributes where a.namespace == XMLReader.noNamespace {
                    e.attributes[a.localName] = a.value
                }
                stack.append(e)
            case .end:
                guard let done = stack.popLast() else { continue }
                if stack.isEmpty { root = done } else { stack[stack.count - 1].children.append(done) }
            case .text:
                if !stack.isEmpty { stack[stack.count - 1].text += reader.text }
            }
        }
        guard let root else { throw RedlineError.malformed("\(name): no XML element") }
        return root
    }
}
