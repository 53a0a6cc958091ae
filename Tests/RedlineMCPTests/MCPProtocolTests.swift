import Foundation
import XCTest
import Redline

/// `redline mcp` over standard input and output, driven by a scripted client (`MCPClient`).
final class MCPProtocolTests: XCTestCase {
    var base = ""   // a scratch directory: `root` inside it, and files outside the root beside it
    var root = ""

    override func setUpWithError() throws {
        base = NSTemporaryDirectory() + "redline-mcp-\(UUID().uuidString)"
        root = base + "/root"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try "Outside the root.\n".write(toFile: base + "/secret.md", atomically: true, encoding: .utf8)
        try """
        # Draft

        The quick brown fox jumps over the lazy dog.

        A second paragraph with {++an insertion++} and {--a deletion--} and {==a note==}{>>Check this.<<}.

        The end.

        """.write(toFile: root + "/draft.md", atomically: true, encoding: .utf8)
        try """
        # Report

        The committee met on Monday and approved the budget.

        Further discussion was postponed until next week.

        """.write(toFile: root + "/plain.md", atomically: true, encoding: .utf8)
        // DOCX inputs made by the converter from the Markdown ones.
        for name in ["draft", "plain"] {
            try Converter.convert(.file(root + "/\(name).md"), toFile: root + "/\(name).docx",
                                  options: ConversionOptions(from: FormatRegistry.markdown, to: FormatRegistry.docx),
                                  diagnostics: Diagnostics())
        }
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: base)
    }

    private func started() throws -> MCPClient {
        let c = try MCPClient(root: root)
        _ = try c.initialize()
        return c
    }

    private func contents(_ dir: String) -> [String] {
        (FileManager.default.enumerator(atPath: dir)?.allObjects as? [String] ?? []).sorted()
    }

    private func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    // MARK: - Protocol

    func testInitializeListsToolsAndExitsAtEndOfInput() throws {
        let c = try MCPClient(root: root)
        let initialized = try c.initialize()
        let result = try XCTUnwrap(initialized["result"] as? [String: Any], "\(initialized)")
        XCTAssertEqual((result["serverInfo"] as? [String: Any])?["name"] as? String, "redline")
        XCTAssertNotNil((result["capabilities"] as? [String: Any])?["tools"])

        let list = try c.call("tools/list")
        let tools = try XCTUnwrap((list["result"] as? [String: Any])?["tools"] as? [[String: Any]])
        XCTAssertEqual(Set(tools.compactMap { $0["name"] as? String }),
                       ["read_document", "list_changes", "review", "add_comment", "apply_edits", "apply_markdown", "compare"])
        for t in tools {
            let schema = try XCTUnwrap(t["inputSchema"] as? [String: Any])
            XCTAssertEqual(schema["type"] as? String, "object")
            XCTAssertFalse((schema["required"] as? [String] ?? []).isEmpty)
            XCTAssertGreaterThan((t["description"] as? String ?? "").count, 80)
        }
        let ping = try c.call("ping")
        XCTAssertNotNil(ping["result"])
        XCTAssertEqual(c.finish(), 0)
    }

    func testUnknownMethodAndToolAndBadArguments() throws {
        let c = try started()
        let unknownMethod = try c.call("no/such/method")
        XCTAssertEqual((unknownMethod["error"] as? [String: Any])?["code"] as? Int, -32601)

        let unknownTool = try c.tool("no_such_tool", [:])
        XCTAssertTrue(unknownTool.isError)
        XCTAssertTrue(unknownTool.text.contains("unknown tool"), unknownTool.text)

        let missing = try c.tool("read_document", [:])
        XCTAssertTrue(missing.isError)
        XCTAssertTrue(missing.text.contains("path"), missing.text)

        let wrongType = try c.tool("read_document", ["path": 42])
        XCTAssertTrue(wrongType.isError)

        let extra = try c.tool("list_changes", ["path": "draft.md", "bogus": true])
        XCTAssertTrue(extra.isError)
        XCTAssertTrue(extra.text.contains("bogus"), extra.text)

        let badChoice = try c.tool("read_document", ["path": "draft.md", "changes": "maybe"])
        XCTAssertTrue(badChoice.isError)

        let badFilter = try c.tool("review", ["path": "draft.md", "output": "out.md", "accept": ["colour=red"]])
        XCTAssertTrue(badFilter.isError, badFilter.text)

        let missingFile = try c.tool("read_document", ["path": "nothere.docx"])
        XCTAssertTrue(missingFile.isError)

        let notADocument = try c.tool("apply_edits", ["path": "draft.md", "output": "x.md", "edits": "not an array", "author": "A"])
        XCTAssertTrue(notADocument.isError)

        // A document Redline cannot parse is an error result, not a crash.
        try Data("PK\u{3}\u{4}not a zip at all".utf8).write(to: URL(fileURLWithPath: root + "/broken.docx"))
        let broken = try c.tool("read_document", ["path": "broken.docx"])
        XCTAssertTrue(broken.isError)

        XCTAssertNotNil(try c.call("ping")["result"])
        XCTAssertEqual(c.finish(), 0)
    }

    func testMalformedLinesGetParseErrorsAndTheServerGoesOn() throws {
        let c = try started()
        c.sendLine("{not json")
        c.sendLine("[]")
        c.sendLine("\"just a string\"")
        c.sendLine(#"{"jsonrpc":"2.0","id":77,"method":42}"#)
        c.sendLine(String(repeating: "\u{0}", count: 10))
        c.sendLine("   ")
        let ping = try c.call("ping")
        XCTAssertNotNil(ping["result"])
        // Every malformed message was answered with an error (JSON-RPC parse error or invalid request).
        let errors = c.all.filter { $0["error"] != nil }
        XCTAssertGreaterThanOrEqual(errors.count, 4, "\(c.all)")
        XCTAssertTrue(errors.contains { ($0["error"] as? [String: Any])?["code"] as? Int == -32700 }, "\(errors)")
        XCTAssertEqual(c.finish(), 0)
    }

    func testHugeArguments() throws {
        let c = try started()
        let huge = String(repeating: "lorem ipsum ", count: 400_000)  // 4.8 MB
        let notFound = try c.tool("add_comment", ["path": "plain.md", "output": "huge.md", "quote": huge,
                                                  "text": "x", "author": "A"])
        XCTAssertTrue(notFound.isError)
        XCTAssertTrue(notFound.text.contains("not found"), String(notFound.text.prefix(200)))
        XCTAssertLessThan(notFound.text.count, 2000)

        // A megabyte-long comment is written.
        let long = String(repeating: "lorem ipsum ", count: 100_000)
        let big = try c.tool("add_comment", ["path": "plain.md", "output": "big.md", "quote": "approved the budget",
                                             "text": long, "author": "A"], timeout: 300)
        XCTAssertFalse(big.isError, String(big.text.prefix(300)))
        XCTAssertGreaterThan(bytes(root + "/big.md")?.count ?? 0, 1_000_000)

        let hugePath = try c.tool("read_document", ["path": huge])
        XCTAssertTrue(hugePath.isError)
        XCTAssertLessThan(hugePath.text.count, 2000, "the error quotes the path shortened")
        XCTAssertNotNil(try c.call("ping")["result"])
        XCTAssertEqual(c.finish(), 0)
    }

    func testConcurrentCalls() throws {
        let c = try started()
        var ids: [Int] = []
        for i in 0..<3 {
            ids.append(try c.request("tools/call", ["name": "read_document", "arguments": ["path": "draft.docx"]]))
            ids.append(try c.request("tools/call", ["name": "list_changes", "arguments": ["path": "draft.md"]]))
            ids.append(try c.request("tools/call", ["name": "apply_edits", "arguments": [
                "path": "plain.docx", "output": "concurrent\(i).docx", "author": "Bot \(i)",
                "edits": [["find": "Monday", "replace": "Tuesday"]]]]))
            ids.append(try c.request("ping"))
        }
        for id in ids {
            let a = try XCTUnwrap(c.answer(id), "no answer to \(id)")
            if let r = a["result"] as? [String: Any], let isError = r["isError"] as? Bool {
                XCTAssertFalse(isError, "\(r)")
            }
        }
        XCTAssertEqual(Set(c.all.compactMap { $0["id"] as? Int }).intersection(ids).count, ids.count)
        for i in 0..<3 { XCTAssertNotNil(bytes(root + "/concurrent\(i).docx")) }
        XCTAssertEqual(c.finish(), 0)
    }

    func testEndOfInputWaitsForCallsInProgress() throws {
        let c = try MCPClient(root: root)
        let id = try c.request("initialize", ["protocolVersion": "2025-06-18", "capabilities": [String: Any](),
                                             "clientInfo": ["name": "t", "version": "1"]])
        c.notify("notifications/initialized")
        let call = try c.request("tools/call", ["name": "apply_edits", "arguments": [
            "path": "plain.docx", "output": "late.docx", "author": "A", "edits": [["find": "budget", "replace": "plan"]]]])
        XCTAssertEqual(c.finish(timeout: 120), 0)
        XCTAssertNotNil(c.answer(id, timeout: 1))
        XCTAssertNotNil(c.answer(call, timeout: 1), "the call in progress at end of input was answered")
        XCTAssertNotNil(bytes(root + "/late.docx"))
    }

    // MARK: - The root

    func testPathsOutsideTheRootAreRefused() throws {
        try FileManager.default.createSymbolicLink(atPath: root + "/link-out.md", withDestinationPath: base + "/secret.md")
        try FileManager.default.createSymbolicLink(atPath: root + "/dir-out", withDestinationPath: base)
        try FileManager.default.createSymbolicLink(atPath: root + "/dangling.md", withDestinationPath: base + "/new-file.md")
        let before = contents(base).filter { !$0.hasPrefix("root") }
        let secret = bytes(base + "/secret.md")
        let c = try started()
        let attempts: [(String, [String: Any])] = [
            ("read_document", ["path": "../secret.md"]),
            ("read_document", ["path": base + "/secret.md"]),
            ("read_document", ["path": "link-out.md"]),
            ("read_document", ["path": "dir-out/secret.md"]),
            ("read_document", ["path": "/etc/passwd"]),
            ("list_changes", ["path": "sub/../../secret.md"]),
            ("review", ["path": "draft.md", "output": "../escaped.md", "changes": "accept"]),
            ("review", ["path": "draft.md", "output": base + "/escaped.md", "changes": "accept"]),
            ("review", ["path": "draft.md", "output": "link-out.md", "changes": "accept"]),
            ("review", ["path": "draft.md", "output": "dir-out/escaped.md", "changes": "accept"]),
            ("review", ["path": "draft.md", "output": "dangling.md", "changes": "accept"]),
            ("add_comment", ["path": "draft.md", "output": "../c.md", "quote": "quick", "text": "t", "author": "A"]),
            ("apply_edits", ["path": "draft.md", "output": "dir-out/e.md", "author": "A", "edits": [["find": "quick", "replace": "slow"]]]),
            ("apply_markdown", ["path": "../secret.md", "output": "m.md", "author": "A", "markdown": "x"]),
            ("compare", ["old": "draft.md", "new": "../secret.md", "output": "cmp.md"]),
            ("compare", ["old": "draft.md", "new": "plain.md", "output": "../cmp.md"]),
        ]
        for (name, args) in attempts {
            let r = try c.tool(name, args)
            XCTAssertTrue(r.isError, "\(name) \(args) was not refused: \(r.text)")
            XCTAssertFalse(r.text.contains("Outside the root"), "\(name) leaked the file: \(r.text)")
        }
        XCTAssertEqual(c.finish(), 0)
        XCTAssertEqual(contents(base).filter { !$0.hasPrefix("root") }, before, "something was written outside the root")
        XCTAssertEqual(bytes(base + "/secret.md"), secret)
    }

    /// Pictures a Markdown text or file links to are embedded only from inside the root.
    func testLinkedPicturesOutsideTheRootAreNotEmbedded() throws {
        let png = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")!
        try png.write(to: URL(fileURLWithPath: base + "/secret.png"))
        try png.write(to: URL(fileURLWithPath: root + "/inside.png"))
        try "Text.\n\n![leak](../secret.png)\n".write(toFile: root + "/links-out.md", atomically: true, encoding: .utf8)
        let c = try started()
        func embedsPicture(_ path: String) -> Bool {
            String(decoding: bytes(root + "/" + path) ?? Data(), as: UTF8.self).contains("word/media/")
        }
        for (n, link) in ["../secret.png", base + "/secret.png", "file://" + base + "/secret.png"].enumerated() {
            let r = try c.tool("apply_markdown", ["path": "plain.docx", "output": "pic\(n).docx", "author": "A",
                                                  "markdown": "# Report\n\n![leak](\(link))\n"])
            XCTAssertFalse(r.isError, r.text)
            XCTAssertFalse(embedsPicture("pic\(n).docx"), "a picture outside the root was embedded from \(link)")
        }
        let inside = try c.tool("apply_markdown", ["path": "plain.docx", "output": "pic-inside.docx", "author": "A",
                                                   "markdown": "# Report\n\n![ok](inside.png)\n"])
        XCTAssertFalse(inside.isError, inside.text)
        XCTAssertTrue(embedsPicture("pic-inside.docx"), "a picture inside the root is embedded")
        let review = try c.tool("review", ["path": "links-out.md", "output": "links-out.docx", "changes": "accept"])
        XCTAssertFalse(review.isError, review.text)
        XCTAssertFalse(embedsPicture("links-out.docx"))
        XCTAssertEqual(c.finish(), 0)
    }

    func testInputsAreNotOverwrittenUnlessAsked() throws {
        let original = bytes(root + "/draft.docx")
        let c = try started()
        let r = try c.tool("review", ["path": "draft.docx", "output": "draft.docx", "changes": "accept"])
        XCTAssertTrue(r.isError, r.text)
        let e = try c.tool("apply_edits", ["path": "draft.docx", "output": "./draft.docx", "author": "A",
                                           "edits": [["find": "quick", "replace": "slow"]]])
        XCTAssertTrue(e.isError, e.text)
        XCTAssertEqual(bytes(root + "/draft.docx"), original)
        let ok = try c.tool("review", ["path": "draft.docx", "output": "draft.docx", "changes": "accept", "overwrite": true])
        XCTAssertFalse(ok.isError, ok.text)
        XCTAssertNotEqual(bytes(root + "/draft.docx"), original)
        // A failed edit writes nothing.
        let failed = try c.tool("apply_edits", ["path": "plain.md", "output": "never.md", "author": "A",
                                                "edits": [["find": "Monday", "replace": "Friday"], ["find": "nowhere", "replace": "x"]]])
        XCTAssertTrue(failed.isError)
        XCTAssertTrue(failed.text.contains("edit 2"), failed.text)
        XCTAssertNil(bytes(root + "/never.md"))
        XCTAssertEqual(contents(root).filter { $0.contains("redline-") }, [], "a temporary file was left")
        XCTAssertEqual(c.finish(), 0)
    }

    // MARK: - Each tool

    func testReadDocumentAndListChanges() throws {
        let c = try started()
        for path in ["draft.md", "draft.docx"] {
            let marked = try c.tool("read_document", ["path": path])
            XCTAssertFalse(marked.isError, marked.text)
            XCTAssertTrue(marked.text.contains("{++an insertion++}"), marked.text)
            XCTAssertTrue(marked.text.contains("{--a deletion--}"), marked.text)
            XCTAssertTrue(marked.text.contains("Check this."), marked.text)
            XCTAssertTrue(marked.text.contains("Changes and comments"), marked.text)
            let structured = try XCTUnwrap(marked.result["structuredContent"] as? [String: Any])
            XCTAssertEqual((structured["changes"] as? [Any])?.count, 3, "\(structured)")

            let accepted = try c.tool("read_document", ["path": path, "changes": "accept"])
            XCTAssertTrue(accepted.text.contains("with an insertion and  and a note"), accepted.text)
            let rejected = try c.tool("read_document", ["path": path, "changes": "reject"])
            XCTAssertTrue(rejected.text.contains("a deletion"), rejected.text)
            XCTAssertFalse(rejected.text.contains("an insertion"), rejected.text)

            let list = try c.tool("list_changes", ["path": path])
            XCTAssertFalse(list.isError, list.text)
            let items = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(list.text.utf8)) as? [[String: Any]])
            XCTAssertEqual(items.compactMap { $0["kind"] as? String }.sorted(), ["comment", "deletion", "insertion"])
        }
        XCTAssertEqual(c.finish(), 0)
    }

    func testReview() throws {
        let c = try started()
        // DOCX to DOCX: in place; accept the insertion only, by id.
        let list = try c.tool("list_changes", ["path": "draft.docx"])
        let items = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(list.text.utf8)) as? [[String: Any]])
        let insertion = try XCTUnwrap(items.first { $0["kind"] as? String == "insertion" }?["id"] as? String)
        let r = try c.tool("review", ["path": "draft.docx", "output": "reviewed.docx", "accept": ["id=\(insertion)"]])
        XCTAssertFalse(r.isError, r.text)
        XCTAssertTrue(r.text.contains("in place"), r.text)
        XCTAssertTrue(r.text.contains("1 tracked change(s) and 1 comment(s)"), r.text)
        let after = try c.tool("read_document", ["path": "reviewed.docx"])
        XCTAssertTrue(after.text.contains("with an insertion and {--a deletion--}"), after.text)

        // Markdown: everything accepted, to a new format.
        let all = try c.tool("review", ["path": "draft.md", "output": "clean.docx", "changes": "accept"])
        XCTAssertFalse(all.isError, all.text)
        XCTAssertTrue(all.text.contains("0 tracked change(s) and 0 comment(s)"), all.text)
        let rejectByKind = try c.tool("review", ["path": "draft.md", "output": "nodeletions.md", "reject": ["kind=deletion"],
                                                 "comments": "drop"])
        XCTAssertFalse(rejectByKind.isError, rejectByKind.text)
        let md = try String(contentsOfFile: root + "/nodeletions.md", encoding: .utf8)
        XCTAssertTrue(md.contains("{++an insertion++} and a deletion and"), md)  // the deletion rejected: its text stays
        XCTAssertFalse(md.contains("{--"), md)
        XCTAssertFalse(md.contains("Check this"), md)
        XCTAssertEqual(c.finish(), 0)
    }

    func testAddComment() throws {
        let c = try started()
        for ext in ["md", "docx"] {
            let r = try c.tool("add_comment", ["path": "plain.\(ext)", "output": "commented.\(ext)", "quote": "approved the budget",
                                               "text": "Which budget?", "author": "Reviewer Bot"])
            XCTAssertFalse(r.isError, r.text)
            let list = try c.tool("list_changes", ["path": "commented.\(ext)"])
            let items = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(list.text.utf8)) as? [[String: Any]])
            let comment = try XCTUnwrap(items.first { $0["kind"] as? String == "comment" }, list.text)
            XCTAssertEqual(comment["author"] as? String, "Reviewer Bot")
            XCTAssertEqual(comment["anchor"] as? String, "approved the budget", "\(comment)")
            XCTAssertTrue((comment["body"] as? String ?? "").contains("Which budget?"), "\(comment)")
        }
        let md = try String(contentsOfFile: root + "/commented.md", encoding: .utf8)
        XCTAssertTrue(md.contains("{==approved the budget==}{>>"), md)
        // Existing comments keep theirs; the new one gets a fresh id.
        let second = try c.tool("add_comment", ["path": "draft.docx", "output": "draft2.docx", "quote": "lazy dog",
                                                "text": "Tired, rather?", "author": "A"])
        XCTAssertFalse(second.isError, second.text)
        let l2 = try c.tool("list_changes", ["path": "draft2.docx"])
        let rows = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(l2.text.utf8)) as? [[String: Any]])
        XCTAssertEqual(rows.filter { $0["kind"] as? String == "comment" }.count, 2, l2.text)
        // Not found, ambiguous, occurrence.
        XCTAssertTrue(try c.tool("add_comment", ["path": "plain.md", "output": "x.md", "quote": "absent words", "text": "t", "author": "A"]).isError)
        let ambiguous = try c.tool("add_comment", ["path": "plain.md", "output": "x.md", "quote": "e", "text": "t", "author": "A"])
        XCTAssertTrue(ambiguous.isError)
        XCTAssertTrue(ambiguous.text.contains("ambiguous"), ambiguous.text)
        let nth = try c.tool("add_comment", ["path": "plain.md", "output": "x.md", "quote": "the", "text": "t", "author": "A", "occurrence": 2])
        XCTAssertFalse(nth.isError, nth.text)
        XCTAssertEqual(c.finish(), 0)
    }

    func testApplyEditsAsTrackedChanges() throws {
        let c = try started()
        for ext in ["docx", "md", "rtf"] {
            let input = ext == "rtf" ? "plain.docx" : "plain.\(ext)"
            let r = try c.tool("apply_edits", ["path": input, "output": "edited.\(ext)", "author": "Editor Bot", "edits": [
                ["find": "Monday", "replace": "Tuesday"],
                ["find": "was postponed", "replace": "is postponed", "context": "Further discussion was postponed"],
                ["find": "the budget", "replace": "the revised budget"],
            ]])
            XCTAssertFalse(r.isError, r.text)
            XCTAssertTrue(r.text.contains("Editor Bot"), r.text)
            let accepted = try c.tool("read_document", ["path": "edited.\(ext)", "changes": "accept"])
            XCTAssertTrue(accepted.text.contains("The committee met on Tuesday and approved the revised budget."), accepted.text)
            XCTAssertTrue(accepted.text.contains("Further discussion is postponed until next week."), accepted.text)
            let rejected = try c.tool("read_document", ["path": "edited.\(ext)", "changes": "reject"])
            XCTAssertTrue(rejected.text.contains("The committee met on Monday and approved the budget."), rejected.text)
            let list = try c.tool("list_changes", ["path": "edited.\(ext)"])
            let items = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(list.text.utf8)) as? [[String: Any]])
            XCTAssertFalse(items.isEmpty)
            if ext != "md" {  // CriticMarkup carries no authors
                XCTAssertTrue(items.allSatisfy { $0["author"] as? String == "Editor Bot" }, list.text)
            }
        }
        XCTAssertEqual(c.finish(), 0)
    }

    /// Comparing accepts what the inputs already mark: a document with tracked changes is refused unless the
    /// call says accept_existing (its comments are kept either way).
    func testEditsOnADocumentWithTrackedChanges() throws {
        let c = try started()
        let edits: [[String: Any]] = [["find": "quick brown", "replace": "slow red"]]
        for tool in ["apply_edits", "apply_markdown"] {
            var args: [String: Any] = ["path": "draft.docx", "output": "\(tool).docx", "author": "Bot"]
            if tool == "apply_edits" { args["edits"] = edits } else { args["markdown"] = "# Draft\n\nThe slow red fox.\n" }
            let refused = try c.tool(tool, args)
            XCTAssertTrue(refused.isError, refused.text)
            XCTAssertTrue(refused.text.contains("already has 2 tracked change(s)"), refused.text)
            XCTAssertNil(bytes(root + "/\(tool).docx"))
            args["accept_existing"] = true
            let done = try c.tool(tool, args)
            XCTAssertFalse(done.isError, done.text)
        }
        let read = try c.tool("read_document", ["path": "apply_edits.docx"])
        XCTAssertTrue(read.text.contains("{~~quick brown~>slow red~~}"), read.text)
        XCTAssertTrue(read.text.contains("with an insertion and  and"), read.text)  // the old changes accepted
        XCTAssertTrue(read.text.contains("Check this."), read.text)
        XCTAssertEqual(c.finish(), 0)
    }

    func testApplyMarkdownAndCompare() throws {
        let c = try started()
        let edited = """
        # Report

        The committee met on Monday and rejected the budget.

        A new paragraph.

        Further discussion was postponed until next week.

        """
        let r = try c.tool("apply_markdown", ["path": "plain.docx", "output": "from-md.docx", "markdown": edited, "author": "Bot"])
        XCTAssertFalse(r.isError, r.text)
        let accepted = try c.tool("read_document", ["path": "from-md.docx", "changes": "accept"])
        XCTAssertTrue(accepted.text.contains("rejected the budget"), accepted.text)
        XCTAssertTrue(accepted.text.contains("A new paragraph."), accepted.text)
        let rejected = try c.tool("read_document", ["path": "from-md.docx", "changes": "reject"])
        XCTAssertTrue(rejected.text.contains("approved the budget"), rejected.text)
        XCTAssertFalse(rejected.text.contains("A new paragraph"), rejected.text)

        try edited.write(toFile: root + "/plain-v2.md", atomically: true, encoding: .utf8)
        let cmp = try c.tool("compare", ["old": "plain.md", "new": "plain-v2.md", "output": "cmp.md", "author": "Cmp"])
        XCTAssertFalse(cmp.isError, cmp.text)
        let md = try String(contentsOfFile: root + "/cmp.md", encoding: .utf8)
        XCTAssertTrue(md.contains("rejected"), md)
        XCTAssertTrue(md.contains("{++") || md.contains("{~~"), md)
        XCTAssertEqual(c.finish(), 0)
    }
}
