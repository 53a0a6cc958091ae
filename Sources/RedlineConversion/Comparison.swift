import Foundation
import RedlineCore
import RedlineCompare

/// One comparison of two files, fully described: the formats, the comparison's own options, and the
/// reader and writer options (pictures, resource paths, formatting) as a conversion has them.
public struct ComparisonOptions: Sendable, Codable {
    /// The format of both inputs, or nil to tell each from its extension.
    public var from: Format?
    /// The output format.
    public var to: Format
    /// What is marked and how (author, date, granularity, moves, formatting).
    public var compare: CompareOptions
    public var read: ReadOptions
    public var write: WriteOptions

    public init(from: Format? = nil, to: Format, compare: CompareOptions = CompareOptions(),
                read: ReadOptions = ReadOptions(), write: WriteOptions = WriteOptions()) {
        self.from = from
        self.to = to
        self.compare = compare
        self.read = read
        self.write = write
    }

    enum CodingKeys: String, CodingKey { case from, to, compare, read, write }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func format(_ name: String?) throws -> Format? {
            guard let name else { return nil }
            guard let f = FormatRegistry.named(name) else {
                throw DecodingError.dataCorruptedError(forKey: .to, in: c, debugDescription: "unknown format \(name)")
            }
            return f
        }
        from = try format(c.decodeIfPresent(String.self, forKey: .from))
        to = try format(c.decode(String.self, forKey: .to))!
        compare = try c.decode(CompareOptions.self, forKey: .compare)
        read = try c.decode(ReadOptions.self, forKey: .read)
        write = try c.decode(WriteOptions.self, forKey: .write)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(from?.name, forKey: .from)
        try c.encode(to.name, forKey: .to)
        try c.encode(compare, forKey: .compare)
        try c.encode(read, forKey: .read)
        try c.encode(write, forKey: .write)
    }
}

/// Runs comparisons: both inputs read (OLD on a second thread), compared into NEW with review marks,
/// written by the output format's writer. When NEW and the output share a format with a finisher
/// (`ConversionPlan(comparing:...)`: DOCX), the result is written with NEW's styles and then laid into
/// NEW's own file (NEW's headers, footers, sections and settings).
public enum Comparison {
    /// Reads one input, naming the file in any error; its reader's warnings go to `diagnostics`.
    public static func read(_ path: String, format: Format?, options: ReadOptions,
                            diagnostics: Diagnostics) throws -> (Document, Format) {
        guard FileManager.default.fileExists(atPath: path) else { throw RedlineError.io("\(path): no such file") }
        guard let format = format ?? FormatRegistry.inferred(fromPath: path) else {
            throw RedlineError.usage("cannot tell the format of '\(path)'; name it with --from")
        }
        guard format.reader != nil else { throw RedlineError.usage("\(path): Redline cannot read \(format.name)") }
        do {
            return (try Converter.read(.file(path), format: format, options: options, diagnostics: diagnostics), format)
        } catch let e as RedlineError {
            throw RedlineError(e.kind, "\(path): \(e.message)")
        }
    }

    /// Reads OLD on a second thread while NEW is read on this one (errors name their file, OLD's first).
    /// Warnings come OLD's first, each of OLD's messages naming OLD, then NEW's.
    public static func readBoth(old: String, new: String, from: Format?, options: ReadOptions,
                                diagnostics: Diagnostics) throws -> (old: (Document, Format), new: (Document, Format)) {
        final class Slot: @unchecked Sendable { var result: Result<(Document, Format), any Error>? }
        let slot = Slot()
        let oldSide = Diagnostics(), newSide = Diagnostics()
        let thread = StackThread.spawn(name: "redline-old") {
            slot.result = Result { try read(old, format: from, options: options, diagnostics: oldSide) }
        }
        if thread == nil { slot.result = Result { try read(old, format: from, options: options, diagnostics: oldSide) } }
        let b = Result { try read(new, format: from, options: options, diagnostics: newSide) }
        thread?.join()
        let a = try slot.result!.get()
        let n = try b.get()
        for d in oldSide.all {
            var d = d
            d.message = "in OLD \(old): " + d.message
            diagnostics.report(d)
        }
        diagnostics.absorb([newSide])
        return (a, n)
    }

    /// True when OLD and NEW are of different formats: their pictures are then told apart by content only
    /// (a Markdown link and a DOCX part name say nothing of each other), so linked pictures are loaded.
    static func crossesFormats(old: String, new: String, from: Format?) -> Bool {
        guard from == nil, let a = FormatRegistry.inferred(fromPath: old), let b = FormatRegistry.inferred(fromPath: new)
        else { return false }
        return !a.isSame(as: b)
    }

    /// Compares OLD with NEW and writes the result into `output`; returns the counts of what changed.
    /// Pictures a Markdown or HTML result links to go where `options.write.mediaOutput` says.
    public static func compare(old: String, new: String, options: ComparisonOptions, into output: any ByteOutput,
                               diagnostics: Diagnostics) throws -> CompareStats {
        guard options.to.writer != nil else { throw RedlineError.usage("Redline cannot write \(options.to.name)") }
        var read = options.read
        var write = options.write
        options.to.adjustOptions?(&write)
        read.loadLinkedMedia = read.loadLinkedMedia || options.to.embedsPictures(write)
            || crossesFormats(old: old, new: new, from: options.from)
        let ((a, oldFormat), (b, newFormat)) = try readBoth(old: old, new: new, from: options.from, options: read,
                                                            diagnostics: diagnostics)
        let compare = oldFormat.isSame(as: newFormat)
            ? options.compare : DocumentComparer.acrossFormats(options.compare, old: a, new: b)
        let (doc, stats) = try LargeStack.run {
            DocumentComparer.compare(old: a, new: b, options: compare, diagnostics: diagnostics)
        }
        let plan = ConversionPlan(comparing: .file(new), newFormat: newFormat, to: options.to, write: write,
                                  limits: read.limits)
        if let finisher = plan.finisher {
            write.referenceDocument = new  // written with NEW's styles, then laid into NEW's package
            let generated = MemoryOutput()
            // NEW's page (sections, headers, footers) is laid in by the finisher from NEW's own parts; the last
            // section's headers and footers are the comparison's when it marked changes in them.
            let finalStories = doc.finalSection.map(Self.changedStories) ?? []
            var written = doc.removingSections()
            if !finalStories.isEmpty { written.finalSection = doc.finalSection }
            let keptStories = doc.sectionsInBody.filter { !Self.changedStories($0).isEmpty }.count
            if keptStories > 0 {
                diagnostics.report(.compareHeaderFooterKept,
                                   "the headers and footers of \(keptStories) section(s) before the last differ from OLD's: the result has NEW's, unmarked (only the last section's are compared in a DOCX laid into NEW's package)",
                                   count: keptStories)
            }
            try Converter.write(written, format: options.to, to: generated, options: write, diagnostics: diagnostics)
            try finisher.finish(generated: generated.bytes, new: .file(new), limits: read.limits,
                                generatedStories: finalStories, diagnostics: diagnostics, into: output)
        } else {
            try Converter.write(doc, format: options.to, to: output, options: write, diagnostics: diagnostics)
        }
        return stats
    }

    /// The places of `section`'s header and footer stories holding a tracked change.
    static func changedStories(_ section: Section) -> Set<HeaderFooter.Place> {
        Set(section.headersFooters.filter { DocumentComparer.trackedChangeCount(Document(blocks: $0.blocks)) > 0 }.map(\.place))
    }

    /// Compares OLD with NEW into the file at `path`, written whole or not at all; pictures of a
    /// Markdown or HTML result go beside it (`out.media`) unless `options.write.mediaOutput` says otherwise.
    public static func compare(old: String, new: String, options: ComparisonOptions, toFile path: String,
                               diagnostics: Diagnostics) throws -> CompareStats {
        var options = options
        if options.write.mediaOutput == nil { options.write.mediaOutput = .beside(path) }
        var stats = CompareStats()
        do {
            try AtomicFile.write(to: path, protecting: [old, new]) { out in
                stats = try compare(old: old, new: new, options: options, into: out, diagnostics: diagnostics)
            }
        } catch let e as RedlineError where !e.message.hasPrefix(old + ":") && !e.message.hasPrefix(new + ":") {
            throw RedlineError(e.kind, "\(path): \(e.message)")
        }
        return stats
    }
}
