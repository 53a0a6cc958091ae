import Foundation
import RedlineCore

/// Headless Chromium as the PDF renderer of the HTML review page: comments in the right margin level
/// with their anchors (the page's print layout, `ReviewPage`), which LibreOffice 7.4 cannot do. One
/// browser renders many pages: it is driven over the DevTools protocol on a pipe
/// (`--remote-debugging-pipe`: JSON messages ending in a NUL byte, read from fd 3 and written to fd 4),
/// with a private profile (removed afterwards) and a time limit (the process group is killed when it
/// passes); every PDF is checked before it is handed back.
public struct ChromiumEngine: PDFRenderer {
    /// The Chromium executable.
    public var executable: String
    /// Seconds one run may take before it is killed: `base` plus `perDocument` for each page.
    public var timeout: (base: Double, perDocument: Double)

    /// What to install when Chromium is missing.
    public static let installHint = "PDF output with comments in the margin needs Chromium: apt-get install chromium (or set REDLINE_CHROMIUM to its executable)"

    var identity: String { "chromium:" + executable }

    /// The engine on this machine: `REDLINE_CHROMIUM`, else `chromium`, `chromium-browser`,
    /// `google-chrome` on `PATH`. Throws one error naming what to install when there is none.
    public static func locate(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> ChromiumEngine {
        let (executable, timeout) = try PDFEngine.find(variable: "REDLINE_CHROMIUM",
                                                       names: ["chromium", "chromium-browser", "google-chrome"],
                                                       timeout: (base: 60, perDocument: 10), installHint: installHint,
                                                       environment: environment)
        return ChromiumEngine(executable: executable, timeout: timeout)
    }

    /// Prints each HTML page in `pages` (paths) to PDF with one browser. Returns, per page, the PDF
    /// bytes or the error for that page alone.
    func render(_ pages: [String]) -> [Result<[UInt8], RedlineError>] {
        guard !pages.isEmpty else { return [] }
        let work: String
        do { work = try PDFEngine.temporaryDirectory("redline-chromium") } catch {
            return pages.map { _ in .failure(error as? RedlineError ?? .io("\(error)")) }
        }
        defer { try? FileManager.default.removeItem(atPath: work) }
        let limit = timeout.base + timeout.perDocument * Double(pages.count)
        let arguments = [executable, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                         "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
                         "--disable-sync", "--mute-audio", "--remote-debugging-pipe",
                         "--user-data-dir=\(work)/profile", "about:blank"]
        let browser: DevToolsPipe
        do {
            browser = try DevToolsPipe(launching: arguments, log: work + "/chromium.log",
                                       deadline: Date().addingTimeInterval(limit), limit: limit)
        } catch {
            return pages.map { _ in .failure(Self.failed(error)) }
        }
        defer { browser.stop() }
        let session: String
        do {
            let target = try browser.call("Target.createTarget", ["url": "about:blank"])["targetId"] as? String ?? ""
            session = try browser.call("Target.attachToTarget", ["targetId": target, "flatten": true])["sessionId"] as? String ?? ""
            _ = try browser.call("Page.enable", [:], session: session)
            // The page loads nothing from the network (its pictures are embedded): block it all the same.
            _ = try browser.call("Network.enable", [:], session: session)
            _ = try browser.call("Network.setBlockedURLs", ["urls": ["http://*", "https://*", "ws://*", "wss://*", "ftp://*"]],
                                 session: session)
        } catch {
            return pages.map { _ in .failure(Self.failed(error)) }
        }
        var results: [Result<[UInt8], RedlineError>] = []
        for page in pages {
            if browser.dead {
                results.append(.failure(.io("PDF rendering failed: Chromium stopped before this page")))
                continue
            }
            do {
                browser.dropEvents()
                // `#print`: the review page lays itself out for paper (comments floated at their anchors).
                let url = URL(fileURLWithPath: page).absoluteString + "#print"
                let nav = try browser.call("Page.navigate", ["url": url], session: session)
                if let e = nav["errorText"] as? String { throw RedlineError.io("Chromium could not open the page: \(e)") }
                try browser.waitForEvent("Page.loadEventFired", session: session)
                let printed = try browser.call("Page.printToPDF", ["printBackground": true, "preferCSSPageSize": true],
                                               session: session)
                guard let b64 = printed["data"] as? String, let data = Data(base64Encoded: b64) else {
                    throw RedlineError.io("Chromium returned no PDF")
                }
                let bytes = [UInt8](data)
                guard PDFEngine.isPDF(bytes) else { throw RedlineError.io("Chromium returned an incomplete PDF") }
                results.append(.success(bytes))
            } catch {
                results.append(.failure(Self.failed(error)))
            }
        }
        return results
    }

    private static func failed(_ error: any Error) -> RedlineError {
        let detail = (error as? RedlineError).map { "\($0.message)" } ?? "\(error)"
        return .io("PDF rendering failed: \(detail)")
    }
}

/// A browser started with `--remote-debugging-pipe`, and the DevTools protocol over it: commands
/// (`call`) and the events that arrive meanwhile (`waitForEvent`). Both directions share one socket
/// pair, so a browser that has died makes writes fail (no SIGPIPE) instead of stopping Redline.
final class DevToolsPipe {
    private let pid: pid_t
    private let socket: Int32
    private let deadline: Date
    private let limit: Double
    private var buffer: [UInt8] = []
    /// How much of `buffer` is known to hold no NUL (a message of many megabytes is scanned once).
    private var scanned = 0
    private var nextID = 0
    private var events: [[String: Any]] = []
    /// The browser has stopped answering (exited, or the time ran out).
    private(set) var dead = false

    init(launching arguments: [String], log: String, deadline: Date, limit: Double) throws {
        self.deadline = deadline
        self.limit = limit
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0 else {
            throw RedlineError.io("cannot create a socket pair: \(String(cString: strerror(errno)))")
        }
        // Keep both ends away from 3 and 4, which the child's dup2s write.
        let ours = fcntl(pair[0], F_DUPFD_CLOEXEC, 10), theirs = fcntl(pair[1], F_DUPFD, 10)
        close(pair[0]); close(pair[1])
        let (pid, rc) = PDFEngine.spawn(arguments, log: log, channel: theirs)
        close(theirs)
        guard rc == 0 else {
            close(ours)
            throw RedlineError.io("cannot start \(arguments[0]): \(String(cString: strerror(rc)))")
        }
        self.pid = pid
        socket = ours
    }

    deinit { stop() }

    /// Closes the browser (politely, then its whole process group) and waits for it.
    func stop() {
        guard socket >= 0, !stopped else { return }
        stopped = true
        if !dead { _ = try? send("Browser.close", [:], session: nil) }
        var status: Int32 = 0
        let until = Date().addingTimeInterval(3)
        while waitpid(pid, &status, WNOHANG) == 0 && Date() < until { usleep(20_000) }
        kill(-pid, SIGKILL)
        _ = waitpid(pid, &status, WNOHANG)
        close(socket)
    }
    private var stopped = false

    /// Sends a command and returns its result; throws its error, or when the browser stops answering.
    func call(_ method: String, _ params: [String: Any], session: String? = nil) throws -> [String: Any] {
        let id = try send(method, params, session: session)
        while true {
            let message = try receive()
            if let got = message["id"] as? Int, got == id {
                if let error = message["error"] as? [String: Any] {
                    throw RedlineError.io("Chromium: \(method): \(error["message"] as? String ?? "failed")")
                }
                return message["result"] as? [String: Any] ?? [:]
            }
            if message["method"] != nil { events.append(message) }
        }
    }

    /// Waits for the event `method` of `session` (it may have come while a command was answered).
    func waitForEvent(_ method: String, session: String) throws {
        func matches(_ m: [String: Any]) -> Bool { m["method"] as? String == method && m["sessionId"] as? String == session }
        if let k = events.firstIndex(where: matches) { events.remove(at: k); return }
        while true {
            if matches(try receive()) { return }
        }
    }

    /// Forgets the events received so far.
    func dropEvents() { events = [] }

    private func send(_ method: String, _ params: [String: Any], session: String?) throws -> Int {
        nextID += 1
        var message: [String: Any] = ["id": nextID, "method": method, "params": params]
        if let session { message["sessionId"] = session }
        var bytes = [UInt8](try JSONSerialization.data(withJSONObject: message))
        bytes.append(0)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                dead = true
                let e = errno
                throw RedlineError.io(e == EPIPE || e == ECONNRESET ? "Chromium exited before answering"
                                                                   : "Chromium stopped (\(String(cString: strerror(e))))")
            }
            sent += n
        }
        return nextID
    }

    /// The next whole message.
    private func receive() throws -> [String: Any] {
        while true {
            if let end = buffer[scanned...].firstIndex(of: 0) {
                let data = Data(buffer[..<end])
                buffer.removeSubrange(...end)
                scanned = 0
                guard let m = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { continue }
                return m
            }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else {
                dead = true
                throw RedlineError.io("Chromium did not finish within \(String(format: "%g", limit)) s (set REDLINE_PDF_TIMEOUT to allow more)")
            }
            var fds = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            let ready = poll(&fds, 1, Int32(min(left, 1) * 1000) + 1)
            if ready < 0 && errno != EINTR { dead = true; throw RedlineError.io("Chromium: poll failed") }
            guard ready > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let n = chunk.withUnsafeMutableBytes { read(socket, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                dead = true
                throw RedlineError.io("Chromium exited before answering")
            }
            scanned = buffer.count
            buffer.append(contentsOf: chunk[..<n])
        }
    }
}
