import Foundation
import Redline
import RedlineCore

/// A test writer that renders what reaches it as readable lines: metadata, blocks (links, comment anchors
/// and note references shown), comment and note bodies. Lets the migration be tested apart from real writers.
struct DumpWriter: FormatWriter {
    static let format = Format(name: "dump", summary: "test dump", extensions: ["txt"], writer: DumpWriter())

    func sink(to output: any ByteOutput, options: WriteOptions, diagnostics: Diagnostics) throws -> any ChunkSink {
        DumpSink(output: output)
    }

    static func render(_ inlines: [Inline]) -> String {
        inlines.map { i -> String in
            switch i {
            case .text(let s), .code(let s): return s
            case .link(let l, let c): return "[\(render(c))](\(l.url))"
            case .commentStart(let id): return "{c:\(id)}"
            case .commentEnd: return "{/c}"
            case .commentPoint(let id): return "{c:\(id)/}"
            case .noteReference(let id): return "[^\(id)]"
            case .emphasis(let c): return "*\(render(c))*"
            case .strong(let c): return "**\(render(c))**"
            case .lineBreak: return "\\n"
            default: return render(i.children)
            }
        }.joined()
    }

    static func render(_ block: Block, indent: String = "") -> [String] {
        switch block {
        case .heading(let l, let p): return [indent + String(repeating: "#", count: l) + " " + render(p.content)]
        case .paragraph(let p): return [indent + render(p.content)]
        case .blockQuote(let b): return b.flatMap { render($0, indent: indent + "> ") }
        case .list(let l): return l.items.flatMap { item in item.flatMap { render($0, indent: indent + "- ") } }
        default: return [indent + block.plainText]
        }
    }
}

private struct DumpSink: ChunkSink {
    let output: any ByteOutput
    mutating func begin(_ header: DocumentHeader) throws {
        for f in header.metadata.fields {
            try output.write("@\(f.key): \(f.value.strings.joined(separator: " | "))\n")
        }
    }
    mutating func write(_ chunk: Chunk) throws {
        for line in DumpWriter.render(chunk.block) { try output.write(line + "\n") }
        for c in chunk.comments { try output.write("  comment \(c.id): \(c.body.map(\.plainText).joined(separator: " / "))\n") }
        for n in chunk.notes { try output.write("  note \(n.id): \(n.blocks.map(\.plainText).joined(separator: " / "))\n") }
    }
    mutating func finish() throws {}
}
