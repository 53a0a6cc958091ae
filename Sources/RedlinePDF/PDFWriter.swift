import Foundation
import RedlineCore
import RedlineDOCX
import RedlineHTML

/// PDF output, rendered by a real engine (the choice and its measured reasons: ARCHITECTURE.md):
/// - Chromium (`ChromiumEngine`, the default when installed) prints the HTML review page Redline writes:
///   comments in the right margin level with their anchors, with author, date, replies and resolved
///   state; insertions underlined and deletions struck through in a colour per author, change bars,
///   moves, formatting and paragraph changes marked.
/// - LibreOffice (`PDFEngine`) renders the DOCX Redline writes, so the page follows the DOCX layout;
///   LibreOffice 7.4 cannot print comments in the margin, so each thread is printed as a note at its
///   anchor (`CommentNotes`), and paragraph changes, which it draws nothing for, get a pilcrow
///   (`ParagraphChangeMarks`). Both stages act on the render-only document, never on DOCX output.
/// Several sinks finishing together share one engine run (`PDFRenderQueue`).
public struct PDFWriter: FormatWriter {
    public init() {}

    /// A batch worker joins the render queue until it has no more inputs (`Format.batchWorker`).
    public static let batchWorker: @Sendable () -> @Sendable () -> Void = {
        PDFRenderQueue.shared.join()
        return { PDFRenderQueue.shared.leave() }
    }

    /// What to install when no engine is there.
    static let installHint = "PDF output needs Chromium (comments in the margin) or LibreOffice: apt-get install chromium (or libreoffice-writer-nogui)"

    /// A sink that writes the PDF into `output` at `finish`; throws at once when the engine is missing.
    public func sink(to output: any ByteOutput, options: WriteOptions, diagnostics: Diagnostics) throws -> any ChunkSink {
        let (engine, fallback) = try Self.engine(for: options)
        var sink = try PDFSink(output: output, engine: engine, options: options, diagnostics: diagnostics)
        sink.warnCommentsAtAnchors = fallback
        return sink
    }

    /// The engine `options` ask for (`pdfEngine`), or without a choice Chromium when there is one, else
    /// LibreOffice (`fallback`: comments then cannot go in the margin). Throws one error naming what to
    /// install when the engine is missing.
    static func engine(for options: WriteOptions,
                       environment: [String: String] = ProcessInfo.processInfo.environment) throws -> (any PDFRenderer, fallback: Bool) {
        switch options.pdfEngine {
        case .chromium?: return (try ChromiumEngine.locate(environment: environment), false)
        case .libreoffice?: return (try PDFEngine.locate(environment: environment), false)
        case nil:
            if let chromium = try? ChromiumEngine.locate(environment: environment) { return (chromium, false) }
            guard let soffice = try? PDFEngine.locate(environment: environment) else { throw RedlineError.io(installHint) }
            return (soffice, true)
        }
    }
}

/// One PDF: chunks go to the page the engine renders (a temporary file), then the engine renders it.
struct PDFSink: ChunkSink {
    private let output: any ByteOutput
    private let engine: any PDFRenderer
    private let page: TemporaryPage
    private var chain: StageChain<AnyChunkSink>
    private let registration: PDFRenderQueue.Registration
    private let diagnostics: Diagnostics
    /// LibreOffice was taken because Chromium is missing: a document with comments gets a warning.
    var warnCommentsAtAnchors = false
    private var comments = 0

    init(output: any ByteOutput, engine: any PDFRenderer, options: WriteOptions, diagnostics: Diagnostics) throws {
        self.output = output
        self.engine = engine
        self.diagnostics = diagnostics
        if engine is ChromiumEngine {
            var html = options
            html.embedMedia = true
            html.mediaOutput = nil
            page = try TemporaryPage(suffix: ".html")
            chain = StageChain(stages: [DropRawContent()],
                               writer: try HTMLWriter(runningHeads: true).sink(to: page.output, options: html, diagnostics: diagnostics))
        } else {
            page = try TemporaryPage(suffix: ".docx")
            let sink = try DOCXWriter().sink(to: page.output, options: options, diagnostics: diagnostics)
            chain = StageChain(stages: [ParagraphChangeMarks(), CommentNotes()], writer: sink)
        }
        registration = PDFRenderQueue.shared.register()
    }

    mutating func begin(_ header: DocumentHeader) throws { try chain.begin(header) }
    mutating func write(_ chunk: Chunk) throws {
        comments += chunk.comments.count
        try chain.write(chunk)
    }

    mutating func finish() throws {
        try chain.finish()
        try page.close()
        if warnCommentsAtAnchors && comments > 0 {
            diagnostics.report(.pdfCommentsAtAnchors,
                               "comments are printed at their anchors, not in the margin: Chromium is not installed (apt-get install chromium), and LibreOffice, which rendered the PDF instead, cannot put comments in the margin",
                               count: comments)
        }
        let pdf = try registration.render(page.path, engine: engine)
        try output.write(bytes: pdf)
    }
}

/// The page an engine renders (DOCX or HTML): a uniquely named file in the temporary directory (names
/// must differ within one engine run), removed with its owner.
final class TemporaryPage: @unchecked Sendable {
    let path: String
    let output: FileDescriptorOutput
    private var fd: Int32

    init(suffix: String) throws {
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(base)/redline-pdf-XXXXXX\(suffix)".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, Int32(suffix.utf8.count)) }
        guard fd >= 0 else {
            throw RedlineError.io("cannot create a temporary file in \(base): \(String(cString: strerror(errno)))")
        }
        self.fd = fd
        path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        output = FileDescriptorOutput(fd: fd, name: path)
    }

    func close() throws {
        try output.flush()
        if fd >= 0 { closeDescriptor(fd); fd = -1 }
    }

    deinit {
        if fd >= 0 { closeDescriptor(fd) }
        unlink(path)
    }
}

private func closeDescriptor(_ fd: Int32) { close(fd) }
