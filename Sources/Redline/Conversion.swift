import Foundation
import RedlineCore

/// What to do with comments.
public enum CommentMode: String, Sendable, CaseIterable {
    /// Keep comments as comments.
    case keep
    /// Remove every comment.
    case drop
}

/// One conversion, fully described: formats, what happens to changes and comments, writer options.
public struct ConversionOptions: Sendable {
    public var from: Format
    public var to: Format
    public var changes: ChangeMode
    /// nil: keep comments in the marked version, drop them from clean and original versions.
    public var comments: CommentMode?
    public var read: ReadOptions
    public var write: WriteOptions

    public init(from: Format, to: Format, changes: ChangeMode = .marked, comments: CommentMode? = nil,
                read: ReadOptions = ReadOptions(), write: WriteOptions = WriteOptions()) {
        self.from = from
        self.to = to
        self.changes = changes
        self.comments = comments
        self.read = read
        self.write = write
    }

    /// The comment mode in force: explicit, or by default keep for marked and drop otherwise.
    public var effectiveComments: CommentMode { comments ?? (changes == .marked ? .keep : .drop) }

    /// The review decisions these options ask for.
    public var reviewOptions: ReviewOptions {
        ReviewOptions(changes: changes, comments: comments.map { $0 == .drop ? CommentPolicy.drop : .keep })
    }

    /// The transform stages for these options, in order.
    public var stages: [any ChunkStage] {
        var s: [any ChunkStage] = []
        if changes != .marked { s.append(ReviewTransform(changes)) }
        if effectiveComments == .drop { s.append(DropComments()) }
        return s
    }
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
        if try reviewInPlace(input, to: output, options: options) { return }
        guard let reader = options.from.reader else {
            throw RedlineError.usage("Redline cannot read \(options.from.name)")
        }
        guard let writer = options.to.writer else {
            throw RedlineError.usage("Redline cannot write \(options.to.name)")
        }
        var write = options.write
        options.to.adjustOptions?(&write)
        var read = options.read
        read.loadLinkedMedia = read.loadLinkedMedia || options.to.embedsPictures(write)
        // The reader and the writer run on two threads, each reporting into its own diagnostics; merged
        // afterwards in the order one thread would have reported them.
        let readSide = Diagnostics(), writeSide = Diagnostics()
        defer { diagnostics.absorb([readSide, writeSide]) }
        var source = try reader.open(input, options: read, diagnostics: readSide)
        writeSide.stamp = 1
        var sink = try writer.sink(to: output, options: write, diagnostics: writeSide)
        try Pipeline.runConcurrently(source: &source, stages: options.stages, sink: &sink,
                                     readSide: readSide, writeSide: writeSide)
        try output.flush()
    }

    /// DOCX → DOCX with review decisions and no option that needs the model: the original package is
    /// rewritten in place (`InPlaceReview`). False when the conversion path is needed.
    private static func reviewInPlace(_ input: DocumentInput, to output: any ByteOutput, options: ConversionOptions) throws -> Bool {
        let review = options.reviewOptions
        guard InPlaceReview.applies(from: options.from, to: options.to, review: review, write: options.write) else { return false }
        try InPlaceReview.review(input, to: output, review: review, limits: options.read.limits)
        return true
    }

    /// Converts `input` into the file at `path`, written whole or not at all (a temporary file in the
    /// same directory, renamed into place on success). Pictures a Markdown or HTML output links to go into
    /// `options.write.mediaOutput`, by default a folder beside the output named after it (`ch.media`).
    public static func convert(_ input: DocumentInput, toFile path: String, options: ConversionOptions,
                               diagnostics: Diagnostics) throws {
        var options = options
        if options.write.mediaOutput == nil { options.write.mediaOutput = .beside(path) }
        try AtomicFile.write(to: path) { out in
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
        guard let writer = format.writer else { throw RedlineError.usage("Redline cannot write \(format.name)") }
        var o = options
        format.adjustOptions?(&o)
        try LargeStack.run {
            var source = ChunkArraySource(document)
            var sink = try writer.sink(to: output, options: o, diagnostics: diagnostics)
            try Pipeline.run(source: &source, stages: [], sink: &sink)
            try output.flush()
        }
    }
}
