import Foundation
import XCTest

/// The HTML review page in a real browser (headless Chromium): its script runs, lists every change and
/// comment, and the view switch hides what the clean version does not have.
final class HTMLReviewPageTests: XCTestCase {
    func dom(_ url: String) throws -> String {
        let profile = NSTemporaryDirectory() + "redline-chromium-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let r = try RedlineBinary.run(["/usr/bin/timeout", "90", "chromium", "--headless", "--no-sandbox", "--disable-gpu",
                                       "--user-data-dir=\(profile)", "--dump-dom", url], raw: true)
        XCTAssertEqual(r.status, 0, r.stderr)
        return r.stdout
    }

    func testReviewPanelListsEveryChangeAndCommentInChromium() throws {
        guard (try? RedlineBinary.run(["/usr/bin/which", "chromium"], raw: true))?.status == 0 else {
            if ProcessInfo.processInfo.environment["CI"] != nil { XCTFail("chromium is required under CI (make test installs it)") }
            throw XCTSkip("chromium is not installed; run `bash scripts/setup.sh test`")
        }
        let page = NSTemporaryDirectory() + "redline-review-\(UUID().uuidString).html"
        defer { unlink(page) }
        let r = try RedlineBinary.run(["convert", RepositoryPaths.root + "/docs/samples/contract-review.md", "-o", page])
        XCTAssertEqual(r.status, 0, r.stderr)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        XCTAssertFalse(html.contains("src=") || html.contains("<link"), "self-contained")
        // 10 changes, as `redline changes` lists them (a substitution is one, a move one; a paragraph break and a
        // paragraph format change too) and 2 comment threads.
        let marked = try dom("file://" + page)
        XCTAssertTrue(marked.contains("12 of 12 changes and comments"), marked)
        XCTAssertEqual(marked.components(separatedBy: "<li class=\"a").count - 1, 12, marked)
        for author in ["Ann Editor", "Bob Counsel", "Chen Partner"] {
            XCTAssertTrue(marked.contains("<option value=\"\(author)\">\(author)</option>"), author)
        }
        XCTAssertTrue(marked.contains("<body class=\"marked\">"), marked)
        // The script moved each comment level with its anchor in the margin.
        XCTAssertEqual(marked.components(separatedBy: "placed\" id=\"comment-").count - 1, 2, marked)
        let clean = try dom("file://" + page + "#clean")
        XCTAssertTrue(clean.contains("<body class=\"clean\">"), clean)
    }
}
