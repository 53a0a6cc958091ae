import Foundation
import RedlineCore

/// A program that renders many files to PDF in one run (`PDFEngine`: LibreOffice from DOCX;
/// `ChromiumEngine`: Chromium from the HTML review page).
protocol PDFRenderer: Sendable {
    /// Tells engines apart: documents for different engines never share a run.
    var identity: String { get }
    /// Renders each file; per file, the PDF bytes or the error for that file alone.
    func render(_ inputs: [String]) -> [Result<[UInt8], RedlineError>]
}

/// LibreOffice, headless, as the PDF renderer: one `soffice --convert-to pdf` run over many DOCX files,
/// with a private user profile (removed afterwards), a time limit (the whole process group is killed
/// when it passes) and every PDF checked before it is handed back.
public struct PDFEngine: PDFRenderer {
    /// The `soffice` executable.
    public var executable: String
    /// Seconds one run may take before it is killed: `base` plus `perDocument` for each file.
    public var timeout: (base: Double, perDocument: Double)

    /// What to install when LibreOffice is missing.
    public static let installHint = "PDF output needs LibreOffice: apt-get install libreoffice-writer-nogui (or set REDLINE_SOFFICE to its soffice)"

    /// Export filter with its options (LibreOffice 7.4 accepts them as JSON): tagged PDF, no comment
    /// annotations. LibreOffice 7.4 has no option to print comments in the margin (`ExportNotesInMargin`
    /// is not in its filter, and its print setting for margin comments is ignored by PDF export), so
    /// `CommentNotes` prints each thread into the text; as annotations too they would be said twice.
    static let filter = #"pdf:writer_pdf_Export:{"ExportNotes":{"type":"boolean","value":"false"},"UseTaggedPDF":{"type":"boolean","value":"true"}}"#

    /// The engine on this machine: `REDLINE_SOFFICE`, else `soffice` or `libreoffice` on `PATH`.
    /// Throws one error naming what to install when there is none.
    public static func locate(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> PDFEngine {
        let (executable, timeout) = try find(variable: "REDLINE_SOFFICE", names: ["soffice", "libreoffice"],
                                             timeout: (base: 120, perDocument: 20), installHint: installHint,
                                             environment: environment)
        return PDFEngine(executable: executable, timeout: timeout)
    }

    /// An engine's executable: `variable` when set (it must be executable), else the first of `names` on
    /// `PATH`; and its time limit, `timeout` unless `REDLINE_PDF_TIMEOUT` gives one for the whole run.
    static func find(variable: String, names: [String], timeout: (base: Double, perDocument: Double), installHint: String,
                     environment: [String: String]) throws -> (String, (base: Double, perDocument: Double)) {
        var timeout = timeout
        if let t = environment["REDLINE_PDF_TIMEOUT"].flatMap(Double.init), t > 0 { timeout = (t, 0) }
        if let given = environment[variable], !given.isEmpty {
            guard access(given, X_OK) == 0 else { throw RedlineError.io("\(installHint); \(variable)=\(given) is not executable") }
            return (given, timeout)
        }
        guard let found = search(names, environment: environment) else { throw RedlineError.io(installHint) }
        return (found, timeout)
    }

    /// The first executable called one of `names` in a directory of `PATH`.
    static func search(_ names: [String], environment: [String: String]) -> String? {
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            for name in names {
                let candidate = "\(dir)/\(name)"
                if access(candidate, X_OK) == 0 { return candidate }
            }
        }
        return nil
    }

    var identity: String { "libreoffice:" + executable }

    /// Renders each DOCX in `documents` (files in one directory, distinct base names) to PDF with one
    /// engine run. Returns, per document, the PDF bytes or the error for that document alone.
    public func render(_ documents: [String]) -> [Result<[UInt8], RedlineError>] {
        guard !documents.isEmpty else { return [] }
        let work: String
        do { work = try Self.temporaryDirectory("redline-pdf") } catch {
            return documents.map { _ in .failure(error as? RedlineError ?? .io("\(error)")) }
        }
        defer { try? FileManager.default.removeItem(atPath: work) }
        let outdir = work + "/out", log = work + "/soffice.log"
        let arguments = [executable, "-env:UserInstallation=file://\(work)/profile", "--headless", "--invisible",
                         "--nologo", "--norestore", "--nodefault", "--nolockcheck",
                         "--convert-to", Self.filter, "--outdir", outdir] + documents
        let limit = timeout.base + timeout.perDocument * Double(documents.count)
        let status = Self.run(arguments, log: log, timeout: limit)
        return documents.map { docx in
            let name = ((docx as NSString).lastPathComponent as NSString).deletingPathExtension + ".pdf"
            let pdf = outdir + "/" + name
            if let bytes = FileManager.default.contents(atPath: pdf).map([UInt8].init), Self.isPDF(bytes) {
                return .success(bytes)
            }
            let detail: String
            switch status {
            case .timedOut: detail = "LibreOffice did not finish within \(String(format: "%g", limit)) s (set REDLINE_PDF_TIMEOUT to allow more)"
            case .failedToStart(let e): detail = "cannot start \(executable): \(e)"
            case .exited(let code):
                let tail = (try? String(contentsOfFile: log, encoding: .utf8))?
                    .split(separator: "\n").last { $0.contains("rror") }.map { ": \($0)" } ?? ""
                detail = "LibreOffice (exit status \(code)) wrote no valid PDF\(tail)"
            }
            return .failure(.io("PDF rendering failed: \(detail)"))
        }
    }

    /// True for a complete PDF: starts with `%PDF-` and has an `%%EOF` marker near its end.
    public static func isPDF(_ bytes: [UInt8]) -> Bool {
        guard bytes.count > 64, bytes.starts(with: Array("%PDF-".utf8)) else { return false }
        let tail = String(decoding: bytes.suffix(1024), as: UTF8.self)
        return tail.contains("%%EOF")
    }

    enum RunStatus { case exited(Int32), timedOut, failedToStart(String) }

    /// Starts `arguments` in a process group of its own, standard input from /dev/null, standard output and
    /// error into `log`, and `channel` (when given) as descriptors 3 and 4 (closed in the child after).
    /// Returns the process and `posix_spawn`'s result (0 when started).
    static func spawn(_ arguments: [String], log: String, channel: Int32? = nil) -> (pid: pid_t, rc: Int32) {
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attr, 0)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        if let channel {
            posix_spawn_file_actions_adddup2(&actions, channel, 3)
            posix_spawn_file_actions_adddup2(&actions, channel, 4)
            posix_spawn_file_actions_addclose(&actions, channel)
        }
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, arguments[0], &actions, &attr, &argv, environ)
        return (pid, rc)
    }

    /// Runs `arguments` in a process group of its own, standard input from /dev/null and output to
    /// `log`; kills the group after `timeout` seconds.
    static func run(_ arguments: [String], log: String, timeout: Double) -> RunStatus {
        let (pid, rc) = spawn(arguments, log: log)
        guard rc == 0 else { return .failedToStart(String(cString: strerror(rc))) }
        let deadline = Date().addingTimeInterval(timeout)
        var status: Int32 = 0
        while true {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid { break }
            if r < 0 && errno != EINTR { return .exited(-1) }
            if Date() > deadline {
                kill(-pid, SIGKILL)
                _ = waitpid(pid, &status, 0)
                return .timedOut
            }
            usleep(20_000)
        }
        // soffice (oosplash) waits for soffice.bin; anything left in the group is stopped.
        kill(-pid, SIGKILL)
        let exited = status & 0x7f == 0
        return .exited(exited ? (status >> 8) & 0xff : 128 + (status & 0x7f))
    }

    /// A new private directory under the system's temporary directory.
    static func temporaryDirectory(_ prefix: String) throws -> String {
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(base)/\(prefix)-XXXXXX".utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw RedlineError.io("cannot create a temporary directory in \(base): \(String(cString: strerror(errno)))")
        }
        return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
