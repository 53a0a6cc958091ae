import Foundation
import RedlineCore

/// One conversion, fully described: formats, review decisions (changes and comments), reader and writer options.
public struct ConversionOptions: Sendable {
    public var from: Format
    public var to: Format
    /// What happens to tracked changes and comments.
    public var review: ReviewOptions
    public var read: ReadOptions
    public var write: WriteOptions
    /// False to write the output from the model even where `ConversionPlan` would keep the input in place
    /// (tests of the writers, and callers who want Redline's own rendering of a same-format document).
    public var allowsInPlace = true
    /// A review filter that selects nothing fails the conversion (`--strict-filters`) instead of a warning
    /// (`review.filter-unmatched`).
    public var strictFilters = false

    public init(from: Format, to: Format, review: ReviewOptions = ReviewOptions(),
                read: ReadOptions = ReadOptions(), write: WriteOptions = WriteOptions()) {
        self.from = from
        self.to = to
        self.review = review
        self.read = read
        self.write = write
    }

    /// One decision for every change (comments by default: kept when marked, dropped otherwise).
    public init(from: Format, to: Format, changes: ChangeMode, read: ReadOptions = ReadOptions(),
                write: WriteOptions = WriteOptions()) {
        self.init(from: from, to: to, review: ReviewOptions(changes: changes), read: read, write: write)
    }

    /// The transform stages the review options ask for, in order.
    public var stages: [any ChunkStage] { review.stages }

    /// The reader's options: linked pictures are loaded when the output format embeds them.
    public var readOptions: ReadOptions {
        var w = write
        to.adjustOptions?(&w)
        var r = read
        r.loadLinkedMedia = r.loadLinkedMedia || to.embedsPictures(w)
        return r
    }

    /// How this conversion is carried out (`ConversionPlan`: in place or through the model).
    public var plan: ConversionPlan { ConversionPlan(self) }

    /// Whether the output is the input reviewed in place by its format (`ConversionPlan.Route.inPlace`).
    public var reviewsInPlace: Bool { plan.route == .inPlace }

    /// These options with the review page's total of changes (`WriteOptions.listedChanges`) taken from `input`'s
    /// listing (`ChangeListing.changeCount`), so that the page, `redline changes` and `check` give one count:
    /// for an HTML or PDF review page that keeps every change marked. Unchanged for any other output, and when
    /// the listing cannot be made (the conversion then reports what is wrong with the input).
    public func counting(_ input: DocumentInput) -> ConversionOptions {
        // Only where the format lists a file from the file itself (DOCX: its XML, not a second read into the
        // model): a page made through the model marks every change the listing counts.
        guard Self.reviewPages.contains(to.name), write.reviewPanel, review.keepsAllChanges, from.changeLister != nil,
              write.listedChanges == nil else { return self }
        var o = self
        o.write.listedChanges = try? ChangeListing.changeCount(input, format: from, options: read)
        return o
    }

    /// The formats whose output is a review page with a panel counting the changes.
    static let reviewPages: Set<String> = ["html", "pdf"]

    /// The one way an output of a conversion is built: the review stages, then the output format's own
    /// (`gfm`: accept, drop comments, report), in front of the writer's sink with the write options the
    /// format forces. Single-file, batch, export, check and Scrivener conversions all write through it.
    public func branch(into output: any ByteOutput, diagnostics: Diagnostics) throws -> TeeBranch {
        guard let writer = to.writer else { throw RedlineError.usage("Redline cannot write \(to.name)") }
        var w = write
        to.adjustOptions?(&w)
        if review.leavesNothingToReview { w.reviewPanel = false }
        let sink = try writer.sink(to: output, options: w, diagnostics: diagnostics)
        let meta: [any ChunkStage] = w.metadata.isEmpty ? [] : [SetMetadata(w.metadata)]
        return TeeBranch(stages: meta + stages + (to.stages?(diagnostics) ?? []), writer: sink)
    }
}

/// Sets metadata fields over the document's (`--metadata`): a key given once replaces the input's value, a key
/// given several times becomes a list (pandoc's `-M author=A -M author=B`).
public struct SetMetadata: ChunkStage {
    let fields: [Metadata.Field]

    public init(_ fields: [Metadata.Field]) { self.fields = fields }

    public mutating func begin(_ header: DocumentHeader) throws -> DocumentHeader {
        var h = header
        var seen: Set<String> = []
        for f in fields {
            if seen.insert(f.key).inserted {
                h.metadata[f.key] = f.value
            } else {
                h.metadata[f.key] = .list((h.metadata[f.key]?.strings ?? []) + f.value.strings)
            }
        }
        return h
    }

    public mutating func process(_ chunk: Chunk, emit: (Chunk) throws -> Void) throws { try emit(chunk) }
}

/// Runs conversions: reader → stages → writer.
public enum Converter {
    /// Converts `input` into `output`, reporting losses into `diagnostics`.
    /// Runs on threads with large stacks (`LargeStack`): deeply nested input cannot overflow the caller's.
    public static func convert(_ input: DocumentInput, to output: any ByteOutput, options: ConversionOptions,
                               diagnostics: Diagnostics) throws {
        try LargeStack.run { try convertHere(input, to: output, options: options, diagnostics: diagnostics) }
    }

    private static func convertHere(_ input: DocumentInput, to output: any ByteOutput, options: ConversionOptions,
                                    diagnostics: Diagnostics) throws {
        // The engines record which review filters select something; those that select nothing are reported
        // (or fail the conversion, `strictFilters`) once every change is decided, before the output is complete.
        var options = options
        let tally = options.review.hasFilters && options.review.tally == nil ? FilterTally() : nil
        if let tally { options.review.tally = tally }
        func reportFilters() throws {
            if let tally { try FilterReport.report(options.review, tally: tally, strict: options.strictFilters, into: diagnostics) }
        }
        let plan = options.plan
        if plan.route == .inPlace, let reviewer = plan.reviewer {
            try reviewer.review(input, review: options.review, limits: options.read.limits, into: output)
            try reportFilters()
            try output.flush()
            return
        }
        guard let reader = options.from.reader else {
            throw RedlineError.usage("Redline cannot read \(options.from.name)")
        }
        guard options.to.writer != nil else {
            throw RedlineError.usage("Redline cannot write \(options.to.name)")
        }
        // The reader and the writer run on two threads, each reporting into its own diagnostics; merged
        // afterwards in the order one thread would have reported them.
        let readSide = Diagnostics(), writeSide = Diagnostics()
        defer { diagnostics.absorb([readSide, writeSide]) }
        options = options.counting(input)
        var source = try reader.open(input, options: options.readOptions, diagnostics: readSide)
        writeSide.stamp = 1  // what the sink reports as it is built comes after what opening the reader did
        var branch = try options.branch(into: output, diagnostics: writeSide)
        try Pipeline.runConcurrently(source: &source, stages: [], sink: &branch,
                                     readSide: readSide, writeSide: writeSide)
        try reportFilters()
        try output.flush()
    }

    /// Converts `input` into the file at `path`, written whole or not at all (a temporary file in the
    /// same directory, renamed into place on success). Pictures a Markdown or HTML output links to go into
    /// `options.write.mediaOutput`, by default a folder beside the output named after it (`ch.media`).
    public static func convert(_ input: DocumentInput, toFile path: String, options: ConversionOptions,
                               diagnostics: Diagnostics) throws {
        var options = options
        if options.write.mediaOutput == nil { options.write.mediaOutput = .beside(path) }
        try AtomicFile.write(to: path, protecting: input.path.map { [$0] } ?? []) { out in
            try convert(input, to: out, options: options, diagnostics: diagnostics)
        }
    }

    /// Reads a whole document into memory (library use and tests).
    public static func read(_ input: DocumentInput, format: Format, options: ReadOptions = ReadOptions(),
                            diagnostics: Diagnostics = Diagnostics()) throws -> Document {
        guard let reader = format.reader else { throw RedlineError.usage("Redline cannot read \(format.name)") }
        return try LargeStack.run {
            var source = try reader.open(input, options: options, diagnostics: diagnostics)
            return try Document(reading: &source)
        }
    }

    /// Writes a document held in memory.
    public static func write(_ document: Document, format: Format, to output: any ByteOutput,
                             options: WriteOptions = WriteOptions(), diagnostics: Diagnostics = Diagnostics()) throws {
        let conversion = ConversionOptions(from: format, to: format, write: options)
        try LargeStack.run {
            var source = ChunkArraySource(document)
            var branch = try conversion.branch(into: output, diagnostics: diagnostics)
            try Pipeline.run(source: &source, stages: [], sink: &branch)
            try output.flush()
        }
    }
}
