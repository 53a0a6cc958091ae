import Foundation
import RedlineCore
import RedlineDOCX

/// PDF output: the DOCX Redline writes (with each comment thread printed as a note at its anchor,
/// `CommentNotes`), rendered by LibreOffice headless (`PDFEngine`). Tracked changes show as LibreOffice
/// shows them: insertions underlined and deletions struck through in a colour per author, a change bar
/// in the margin, moves and attribute changes marked. Several sinks finishing together share one engine
/// run (`PDFRenderQueue`).
public struct PDFWriter: FormatWriter {
    public init() {}

    /// A batch worker joins the render queue until it has no more inputs (`Format.batchWorker`).
    static let batchWorker: @Sendable () -> @Sendable () -> Void = {
        PDFRenderQueue.shared.join()
        return { PDFRenderQueue.shared.leave() }
    }

    /// A sink that writes the PDF into `output` at `finish`; throws at once when LibreOffice is missing.
    public func sink(to output: any ByteOutput, options: WriteOptions, diagnostics: Diagnostics) throws -> any ChunkSink {
        try PDFSink(output: output, engine: PDFEngine.locate(), options: options, diagnostics: diagnostics)
    }
}

/// One PDF: chunks go through `CommentNotes` into a DOCX sink writing a temporary file.
struct PDFSink: ChunkSink {
    private let output: any ByteOutput
    private let engine: PDFEngine
    private let docx: TemporaryDOCX
    private var chain: StageChain<AnyChunkSink>
    private let registration: PDFRenderQueue.Registration

    init(output: any ByteOutput, engine: PDFEngine, options: WriteOptions, diagnostics: Diagnostics) throws {
        self.output = output
        self.engine = engine
        docx = try TemporaryDOCX()
        let sink = try DOCXWriter().sink(to: docx.output, options: options, diagnostics: diagnostics)
        chain = StageChain(stages: [CommentNotes()], sink: sink)
        registration = PDFRenderQueue.shared.register()
    }

    mutating func begin(_ header: DocumentHeader) throws { try chain.begin(header) }
    mutating func write(_ chunk: Chunk) throws { try chain.write(chunk) }

    mutating func finish() throws {
        try chain.finish()
        try docx.close()
        let pdf = try registration.render(docx.path, engine: engine)
        try output.write(bytes: pdf)
    }
}

/// The intermediate DOCX: a uniquely named file in the temporary directory (names must differ within
/// one engine run), removed with its owner.
final class TemporaryDOCX: @unchecked Sendable {
    let path: String
    let output: FileDescriptorOutput
    private var fd: Int32

    init() throws {
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(base)/redline-pdf-XXXXXX.docx".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, 5) }
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
