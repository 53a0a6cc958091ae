import Foundation
import RedlineCore
import RedlineScrivener
import RedlineConversion
import RedlineBatch

extension Migrator {
    /// Writes the whole manuscript into one file, streaming: one item is held in memory at a time.
    mutating func writeSingle(file: String, snapshotsDir: String) throws {
        let writerDiagnostics = Diagnostics()
        let log = SingleLog()
        var order: [MigrationNode] = []
        for root in manuscript { root.forEach { order.append($0) } }
        var source = SingleManuscriptSource(migrator: self, file: file, snapshotsDir: snapshotsDir, nodes: order,
                                            writerDiagnostics: writerDiagnostics, log: log)
        var conversion = self.conversion
        if conversion.write.mediaOutput == nil { conversion.write.mediaOutput = .beside(absolute(file)) }
        try makeDirectory(base)
        try AtomicFile.write(to: absolute(file)) { out in
            var branch = try conversion.branch(into: out, diagnostics: writerDiagnostics)
            try Pipeline.run(source: &source, stages: [], sink: &branch)
        }
        source.closeRecord()
        // What the writer reports as it finishes (fonts over the whole file, side parts) is the project's.
        for d in source.writerDiagnosticsSinceLastItem() { diagnostics.report(d) }
        report.records += log.records
        report.outputs.append(absolute(file))
        report.outputs += log.records.flatMap { $0.outputs.filter { $0 != absolute(file) } }
    }
}

/// The records of a single-layout migration, filled in as the source moves from item to item.
final class SingleLog: @unchecked Sendable {
    var records: [MigrationRecord] = []
}

/// The manuscript as one stream of chunks: for each item in binder order its heading (level = depth),
/// its metadata section, then its text.
struct SingleManuscriptSource: ChunkSource {
    let header: DocumentHeader
    private let migrator: Migrator
    private let file: String
    private let snapshotsDir: String
    private let nodes: [MigrationNode]
    private let writerDiagnostics: Diagnostics
    private let log: SingleLog
    private var position = 0
    private var pending: [Chunk] = []
    private var pendingIndex = 0
    /// The item whose chunks are being written: its record, reader diagnostics, start time.
    private var open: (record: MigrationRecord, diagnostics: Diagnostics, start: ContinuousClock.Instant)?
    private var writerCounts: [DiagnosticCode: Int] = [:]
    private var numbers = NoteNumbers()
    /// Picture items of the manuscript, read as they come (content-hash ids; files, not memory).
    private let pictures = MediaStore()

    init(migrator: Migrator, file: String, snapshotsDir: String, nodes: [MigrationNode],
         writerDiagnostics: Diagnostics, log: SingleLog) {
        var h = DocumentHeader()
        h.metadata["title"] = .text(migrator.project.name)
        header = h
        self.migrator = migrator
        self.file = file
        self.snapshotsDir = snapshotsDir
        self.nodes = nodes
        self.writerDiagnostics = writerDiagnostics
        self.log = log
    }

    mutating func next() throws -> Chunk? {
        while pendingIndex >= pending.count {
            closeRecord()
            guard position < nodes.count else { return nil }
            pending = load(nodes[position], number: position + 1)
            pendingIndex = 0
            position += 1
        }
        defer { pendingIndex += 1 }
        return pending[pendingIndex]
    }

    /// Finishes the record of the item just written: adds what the writer reported while writing it.
    mutating func closeRecord() {
        guard var o = open else { return }
        open = nil
        for d in writerDiagnosticsSinceLastItem() { o.diagnostics.report(d) }
        o.record.diagnostics = o.diagnostics.all
        o.record.seconds = Migrator.seconds(since: o.start)
        log.records.append(o.record)
    }

    /// What the writer reported since the last call, with the counts of that stretch.
    mutating func writerDiagnosticsSinceLastItem() -> [Diagnostic] {
        var out: [Diagnostic] = []
        for d in writerDiagnostics.all {
            let delta = d.count - writerCounts[d.code, default: 0]
            if delta > 0 {
                var x = d
                x.count = delta
                out.append(x)
            }
            writerCounts[d.code] = d.count
        }
        return out
    }

    /// The chunks of one item. A text that cannot be read leaves the heading and a failed record.
    private mutating func load(_ n: MigrationNode, number: Int) -> [Chunk] {
        let d = Diagnostics()
        let start = ContinuousClock.now
        var rec = migrator.record(for: n, relative: file)
        var chunks: [Chunk] = []
        if n.depth > 6 {
            d.report(.scrivenerHeadingDepth, "the binder nests deeper than six levels; the heading was set at level 6")
        }
        chunks.append(Chunk(.heading(level: min(n.depth, 6), Paragraph([.text(n.item.displayTitle)]))))
        if n.included && n.isMedia {
            // A picture in the manuscript: a paragraph showing it, under its heading.
            if let src = migrator.project.path(of: .text, for: n.item, diagnostics: d),
               let item = pictures.add(contentsOf: src, name: n.item.displayTitle, diagnostics: d) {
                chunks.append(Chunk(.paragraph(Paragraph([.image(Image(source: "", alt: n.item.displayTitle, media: item))]))))
            } else {
                rec.failure = RedlineError.malformed("the picture's file is missing or unreadable")
            }
        } else if n.included {
            do {
                let text = try migrator.project.readText(of: n.item, diagnostics: d, linkTarget: migrator.links(from: file))
                let meta = ItemMetadata(item: n.item, text: text, settings: migrator.project.binder.settings, diagnostics: d)
                if let section = meta.section(notes: text.notes) { chunks.append(Chunk(section)) }
                chunks += numbers.renumber(text.document).chunks
                if migrator.options.snapshots {
                    let dir = snapshotsDir + OutputNames.prefix(number, of: nodes.count) + "-"
                        + OutputNames.slug(n.item.displayTitle) + "/"
                    rec.outputs += try migrator.writeSnapshots(of: n.item, into: dir, title: n.item.displayTitle,
                                                               diagnostics: d)
                }
            } catch {
                rec.failure = error as? RedlineError ?? RedlineError.malformed("\(error)")
            }
        }
        open = (rec, d, start)
        return chunks
    }
}
