import Foundation
import RedlineCore
import RedlineScrivener
import RedlineConversion
import RedlineBatch

/// How a Scrivener project is migrated.
public struct ScrivenerMigrationOptions: Sendable {
    /// How the outputs are laid out.
    public enum Layout: String, Sendable, CaseIterable {
        /// One manuscript: folder and document titles as headings by depth, documents in binder order,
        /// each item's metadata in a section under its heading.
        case single
        /// One file per binder item in folders that keep the binder order (numeric prefixes), YAML front
        /// matter for the metadata, and an index.
        case tree
    }

    /// The output format (`md`, `docx`, `rtf`...).
    public var format: Format
    public var layout: Layout
    /// Also export the Research folder, into a folder of its own.
    public var research: Bool
    /// Also export each document's snapshots beside it.
    public var snapshots: Bool
    /// What happens to tracked changes and comments.
    public var review: ReviewOptions
    public var write: WriteOptions

    public init(format: Format, layout: Layout = .single, research: Bool = false, snapshots: Bool = false,
                review: ReviewOptions = ReviewOptions(), write: WriteOptions = WriteOptions()) {
        self.format = format
        self.layout = layout
        self.research = research
        self.snapshots = snapshots
        self.review = review
        self.write = write
    }
}

/// Migrates a Scrivener project (`.scriv` folder) to Markdown/CriticMarkup, DOCX or RTF:
///
///     binder ──▶ manuscript order (Draft, depth first, compile flags) ──▶ per item: RTF text + comments
///            ──▶ single: one ChunkSource over every item ──▶ writer ──▶ OUT
///            ──▶ tree:   one document per item (front matter) ──▶ writer ──▶ OUT/NN-slug/NN-slug.ext + index
///
/// Every output is written whole or not at all (`AtomicFile`); the project is only read.
public enum ScrivenerMigration {
    /// Migrates the project at `project` into `output` (a file for `single`, a folder for `tree`).
    /// Throws when the project cannot be opened or the format cannot be written; an item that cannot be
    /// read is recorded as failed in the report and the others are still migrated.
    public static func run(project: String, output: String, options: ScrivenerMigrationOptions) throws -> MigrationReport {
        guard options.format.writer != nil else {
            throw RedlineError.usage("Redline cannot write \(options.format.name) yet (see 'redline formats')")
        }
        let projectDiagnostics = Diagnostics()
        let scriv = try ScrivenerProject(path: project, diagnostics: projectDiagnostics)
        guard !scriv.folder.contains(output) else {
            throw RedlineError.usage("\(output) is inside the project \(project); Redline never writes into a project")
        }
        let clock = ContinuousClock.now
        var m = Migrator(project: scriv, projectPath: project, output: output, options: options,
                         diagnostics: projectDiagnostics)
        try m.run()
        m.report.project = projectDiagnostics.all
        m.report.seconds = Migrator.seconds(since: clock)
        return m.report
    }
}

/// One migration in progress: the plan of outputs, and the report.
struct Migrator {
    let project: ScrivenerProject
    let projectPath: String
    let output: String
    let options: ScrivenerMigrationOptions
    let diagnostics: Diagnostics
    var report = MigrationReport()

    /// Where each migrated item went: a file relative to `base`, and an anchor in it (single layout).
    struct Target: Sendable { var file: String; var anchor: String? }
    var targets: [String: Target] = [:]
    /// The folder outputs are relative to.
    var base: String = "."
    var manuscript: [MigrationNode] = []
    var research: [MigrationNode] = []
    var paths: [String: String] = [:]   // item id → file (tree layout, manuscript and research)
    var titles: [String: String] = [:]  // item id → binder path for reports

    init(project: ScrivenerProject, projectPath: String, output: String, options: ScrivenerMigrationOptions,
         diagnostics: Diagnostics) {
        self.project = project
        self.projectPath = projectPath
        self.output = output
        self.options = options
        self.diagnostics = diagnostics
    }

    var ext: String { options.format.extensions.first ?? options.format.name }

    /// The conversion every output is written through (items are read as RTF, written as `format`).
    var conversion: ConversionOptions {
        ConversionOptions(from: options.format, to: options.format, review: options.review, write: options.write)
    }

    mutating func run() throws {
        manuscript = project.manuscript(diagnostics: diagnostics)
        if options.research { research = project.research() }
        reportLeftOut()
        switch options.layout {
        case .tree:
            base = output
            try makeDirectory(output)
            planTree(manuscript, under: "", trail: [])
            planTree(research, under: "research/", trail: ["Research"])
            try writeTree(manuscript)
            try writeTree(research)
            try writeIndex(manuscript, to: "index.\(ext)", title: project.name)
            if !research.isEmpty { try writeIndex(research, to: "research/index.\(ext)", title: "Research") }
        case .single:
            let dir = (output as NSString).deletingLastPathComponent
            base = dir.isEmpty ? "." : dir
            let file = (output as NSString).lastPathComponent
            let stem = (file as NSString).deletingPathExtension
            planSingle(file: file)
            planTree(research, under: "\(stem)-research/", trail: ["Research"])
            try writeSingle(file: file, snapshotsDir: "\(stem)-snapshots/")
            if !research.isEmpty {
                try writeTree(research)
                try writeIndex(research, to: "\(stem)-research/index.\(ext)", title: "Research")
            }
        }
    }

    /// Counts, as project notes, what a migration leaves out: the Trash, Research and snapshots.
    private func reportLeftOut() {
        let trash = project.countItems(in: project.binder.trash)
        if trash > 0 {
            diagnostics.report(.scrivenerTrashSkipped, "items in the Trash were left out", count: trash, severity: .note)
        }
        if !options.research {
            let n = project.countItems(in: project.binder.research)
            if n > 0 {
                diagnostics.report(.scrivenerResearchSkipped, "research items were left out (--research exports them)",
                                   count: n, severity: .note)
            }
        }
        if !options.snapshots {
            var n = 0
            for root in manuscript { root.forEach { n += project.snapshots(of: $0.item, diagnostics: diagnostics).isEmpty ? 0 : 1 } }
            if n > 0 {
                diagnostics.report(.scrivenerSnapshotsSkipped,
                                   "documents with snapshots: the snapshots were left out (--snapshots exports them)",
                                   count: n, severity: .note)
            }
        }
    }

    // MARK: Plans

    /// Gives every node of `nodes` a file `under` a folder: `NN-slug.ext`, its children in `NN-slug/`.
    private mutating func planTree(_ nodes: [MigrationNode], under folder: String, trail: [String]) {
        for (i, n) in nodes.enumerated() {
            let name = OutputNames.prefix(i + 1, of: nodes.count) + "-" + OutputNames.slug(n.item.displayTitle)
            let path = trail + [n.item.displayTitle]
            titles[n.item.id] = path.joined(separator: " / ")
            if n.included {
                let file = folder + name + "." + (n.isMedia ? project.safeExtension(n.item) ?? "bin" : ext)
                paths[n.item.id] = file
                if !n.item.id.isEmpty { targets[n.item.id] = Target(file: file, anchor: nil) }
            }
            planTree(n.children, under: folder + name + "/", trail: path)
        }
    }

    /// Gives every manuscript item an anchor in the one file.
    private mutating func planSingle(file: String) {
        var used: [String: Int] = [:]
        func plan(_ nodes: [MigrationNode], trail: [String]) {
            for n in nodes {
                let path = trail + [n.item.displayTitle]
                titles[n.item.id] = path.joined(separator: " / ")
                let a = OutputNames.anchor(n.item.displayTitle)
                let k = used[a, default: 0]
                used[a] = k + 1
                if !n.item.id.isEmpty { targets[n.item.id] = Target(file: file, anchor: k == 0 ? a : "\(a)-\(k)") }
                plan(n.children, trail: path)
            }
        }
        plan(manuscript, trail: [])
    }

    /// The URLs of links from `file` to other items (nil: the item is not migrated).
    func links(from file: String) -> @Sendable (String) -> String? {
        let targets = self.targets
        return { Self.link(targets, from: file, to: $0) }
    }

    /// The URL a link in `file` to item `id` gets; nil when that item is not migrated.
    static func link(_ targets: [String: Target], from file: String, to id: String) -> String? {
        guard let t = targets[id] else { return nil }
        if t.file == file, let a = t.anchor { return "#" + a }
        let rel = OutputNames.urlPath(OutputNames.relative(from: file, to: t.file))
        return t.anchor.map { rel + "#" + $0 } ?? rel
    }

    // MARK: Writing

    func absolute(_ relative: String) -> String { base == "." ? relative : base + "/" + relative }

    func makeDirectory(_ path: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw RedlineError.io("cannot create the folder \(path): \(error.localizedDescription)")
        }
    }

    /// Writes `document` through the stages and the writer into `relative`, reporting into `diagnostics`.
    func write(_ document: Document, to relative: String, diagnostics: Diagnostics) throws {
        let path = absolute(relative)
        try makeDirectory((path as NSString).deletingLastPathComponent)
        var conversion = self.conversion
        if conversion.write.mediaOutput == nil { conversion.write.mediaOutput = .beside(path) }
        // Staged like batch outputs: whole or not at all (renamed into place), without a disk sync per file,
        // which would cost more than the conversion for thousands of small files.
        let file = try StagedFile(path: path)
        var source = ChunkArraySource(document)
        var branch = try conversion.branch(into: file.output, diagnostics: diagnostics)
        try Pipeline.run(source: &source, stages: [], sink: &branch)
        try file.commit()
    }

    /// The record of one item before its outputs are known.
    func record(for node: MigrationNode, relative: String?) -> MigrationRecord {
        let input = project.relativePath(of: .text, for: node.item, diagnostics: Diagnostics())
            .map { project.folder.root + "/" + $0 } ?? project.folder.root + "#" + node.item.id
        let variant = OutputVariant.name(of: options.review.changes)
        return MigrationRecord(input: input, binder: titles[node.item.id] ?? node.item.displayTitle, id: node.item.id,
                               outputs: relative.map { [absolute($0)] } ?? [], variant: variant)
    }

    /// Writes every included node of `nodes` (and below) to its planned file.
    mutating func writeTree(_ nodes: [MigrationNode]) throws {
        for root in nodes {
            var failure: Error?
            root.forEach { n in
                guard n.included, let file = paths[n.item.id] else { return }
                if let e = writeItem(n, to: file) { failure = failure ?? e }
            }
            if let failure { throw failure }
        }
    }

    /// Writes one item to `file`; errors about the item go into its record, errors about the output
    /// folder are returned.
    private mutating func writeItem(_ n: MigrationNode, to file: String) -> RedlineError? {
        let clock = ContinuousClock.now
        let d = Diagnostics()
        var rec = record(for: n, relative: file)
        do {
            if n.isMedia {
                try copyMedia(n.item, to: file, diagnostics: d)
            } else {
                let text = try project.readText(of: n.item, diagnostics: d, linkTarget: links(from: file))
                let meta = ItemMetadata(item: n.item, text: text, settings: project.binder.settings, diagnostics: d)
                var numbers = NoteNumbers()
                var doc = numbers.renumber(text.document)
                doc.metadata = meta.frontMatter(title: n.item.displayTitle, notes: text.notes, diagnostics: d)
                try write(doc, to: file, diagnostics: d)
                if options.snapshots {
                    let dir = (file as NSString).deletingPathExtension + ".snapshots/"
                    rec.outputs += try writeSnapshots(of: n.item, into: dir, title: n.item.displayTitle, diagnostics: d)
                }
            }
            report.outputs += rec.outputs
        } catch {
            let e = error as? RedlineError ?? RedlineError.malformed("\(error)")
            rec.failure = e
            rec.outputs = []
            if e.kind == .io { return e }
        }
        rec.diagnostics = d.all
        rec.seconds = Self.seconds(since: clock)
        report.records.append(rec)
        return nil
    }

    /// Copies a picture, PDF or other research file as it is.
    private func copyMedia(_ item: BinderItem, to file: String, diagnostics: Diagnostics) throws {
        guard let src = project.path(of: .text, for: item, diagnostics: diagnostics) else {
            throw RedlineError.malformed("the item's file is missing")
        }
        let bytes = try ProjectFolder.read(src, limit: 1 << 30)
        let path = absolute(file)
        try makeDirectory((path as NSString).deletingLastPathComponent)
        try AtomicFile.write(to: path) { try $0.write(bytes: bytes) }
    }

    /// Writes each snapshot of `item` into `dir` (relative), in the output format; returns the files.
    func writeSnapshots(of item: BinderItem, into dir: String, title: String, diagnostics: Diagnostics) throws -> [String] {
        var files: [String] = []
        for s in project.snapshots(of: item, diagnostics: diagnostics) {
            let file = dir + OutputNames.snapshotName(s.name) + "." + ext
            var doc = try project.readSnapshot(s, diagnostics: diagnostics)
            doc.metadata["title"] = .text(title)
            doc.metadata["snapshot"] = .text(s.name)
            try write(doc, to: file, diagnostics: diagnostics)
            files.append(absolute(file))
        }
        return files
    }

    /// Writes the index of a tree: the title, then a nested list of links to every item in binder order.
    private mutating func writeIndex(_ nodes: [MigrationNode], to file: String, title: String) throws {
        func list(_ nodes: [MigrationNode]) -> Block {
            .list(List(kind: .bullet, items: nodes.map { n in
                let label: [Inline] = [.text(n.item.displayTitle)]
                var line: [Inline] = label
                if n.included, let target = paths[n.item.id] {
                    line = [.link(Link(url: OutputNames.urlPath(OutputNames.relative(from: file, to: target))), label)]
                }
                var blocks: [Block] = [.paragraph(Paragraph(line))]
                if !n.children.isEmpty { blocks.append(list(n.children)) }
                return blocks
            }))
        }
        var doc = Document(blocks: [.heading(level: 1, Paragraph([.text(title)]))])
        doc.metadata["title"] = .text(title)
        if !nodes.isEmpty { doc.blocks.append(list(nodes)) }
        try write(doc, to: file, diagnostics: Diagnostics())
        report.outputs.append(absolute(file))
    }

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let d = ContinuousClock.now - start
        return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }
}
