import Foundation
import MCP
import Redline

/// Redline's MCP tools: every call works on files under `root`, reports failures as tool results with
/// `isError` (never a protocol error, never a crash), writes each output whole or not at all, and never
/// writes over one of its inputs unless the call says `overwrite: true`.
public struct DocumentTools: Sendable {
    public let root: ToolRoot

    public init(root: ToolRoot) { self.root = root }

    /// The tools' names, descriptions and input schemas.
    public static let tools: [Tool] = [
        Tool(name: "read_document",
             description: """
             Read a document (DOCX, RTF or Markdown/CriticMarkup) under the root as Markdown. With changes=marked (the \
             default) tracked changes appear as CriticMarkup ({++inserted++}, {--deleted--}, {~~old~>new~~}, \
             {==commented text==}{>>comment<<}), followed by a list of every change and comment with its id, kind, \
             author, date, paragraph and text (the ids are what `review` filters select with id=N). changes=accept \
             gives the text with every change accepted, changes=reject the original text. Returns the Markdown as \
             text (and, in structuredContent, {markdown, changes}).
             """,
             inputSchema: Schema.object([
                "path": Schema.string("The document, relative to the root (or absolute inside it)."),
                "changes": Schema.choice(["marked", "accept", "reject"], "How tracked changes appear (default marked)."),
             ], required: ["path"]),
             annotations: .init(readOnlyHint: true)),
        Tool(name: "list_changes",
             description: """
             List the tracked changes and comments of a document under the root as JSON: an array of objects with \
             id, kind (insertion, deletion, move, formatting, paragraph, table, comment), element, author, date, \
             story, paragraph, heading, before, after, thread (the comment a reply answers) and resolved. DOCX ids \
             are the document's own w:id; RTF and Markdown changes are numbered in reading order.
             """,
             inputSchema: Schema.object([
                "path": Schema.string("The document, relative to the root."),
             ], required: ["path"]),
             annotations: .init(readOnlyHint: true)),
        Tool(name: "review",
             description: """
             Accept or reject tracked changes and write the result to `output`. `accept` and `reject` are filters \
             (author=NAME, kind=insertion|deletion|move|formatting|paragraph|table|comment, before=DATE, \
             after=DATE, id=N[,M...]; conditions separated by commas must all hold; reject wins over accept); \
             `changes` decides the changes no filter selects (marked keeps them, the default). When the output has \
             the input's format (DOCX, RTF) the file is rewritten in place, everything else kept byte for byte. \
             Returns what was written and how many changes and comments remain.
             """,
             inputSchema: Schema.object([
                "path": Schema.string("The document to review, relative to the root."),
                "output": Schema.string("Where to write the result (its extension names the format: .docx, .rtf, .md, .html)."),
                "accept": Schema.strings("Filters selecting changes to accept, e.g. [\"author=Ann\", \"id=3,7\"]."),
                "reject": Schema.strings("Filters selecting changes to reject, e.g. [\"kind=deletion\"]."),
                "changes": Schema.choice(["marked", "accept", "reject"], "What happens to the changes no filter selects (default marked)."),
                "comments": Schema.choice(["keep", "drop", "drop-resolved"], "Comments (default: keep when changes=marked, else drop)."),
                "overwrite": Schema.bool("Allow output to be the input file itself (default false)."),
             ], required: ["path", "output"]),
             annotations: .init(destructiveHint: false, idempotentHint: true)),
        Tool(name: "add_comment",
             description: """
             Add a comment by `author` on a quoted passage of a document and write the result to `output` in the \
             output's format. `quote` must occur exactly once in the document's current text, within one paragraph \
             (or give `occurrence`, 1-based). The document is rewritten from Redline's document model: for DOCX the \
             original's styles, headers, footers, sections and settings are kept around the rewritten body, but \
             features Redline does not model may be lost; use review or compare to keep a DOCX byte for byte. \
             Returns the new comment's id.
             """,
             inputSchema: Schema.object([
                "path": Schema.string("The document, relative to the root."),
                "output": Schema.string("Where to write the commented document (may not be the input unless overwrite is true)."),
                "quote": Schema.string("The exact passage to comment on, as it reads in read_document with changes=accept."),
                "text": Schema.string("The comment's text (blank lines separate paragraphs)."),
                "author": Schema.string("The comment's author."),
                "occurrence": Schema.integer("Which occurrence of quote, when it occurs more than once (1 = the first)."),
                "overwrite": Schema.bool("Allow output to be the input file itself (default false)."),
             ], required: ["path", "output", "quote", "text", "author"])),
        Tool(name: "apply_edits",
             description: """
             Apply a list of text edits to a document as tracked changes by `author`, written to `output` in the \
             output's format. Each edit replaces `find` with `replace`; `find` must occur exactly once in the \
             current text (within one paragraph), or once inside `context` (a longer passage around it that occurs \
             once). Edits apply in order, each to the result of the previous. The original and the edited version \
             are then compared word by word, so the output shows the edits as insertions and deletions Word, \
             LibreOffice and Redline can accept or reject. For a structural edit (new paragraphs, headings, lists) \
             use apply_markdown. A document that already has tracked changes is refused unless accept_existing is \
             true (accept or reject them first with review). Returns the counts of insertions and deletions.
             """,
             inputSchema: Schema.object([
                "path": Schema.string("The original document, relative to the root."),
                "output": Schema.string("Where to write the document with tracked changes."),
                "edits": .object([
                    "type": "array", "minItems": 1,
                    "description": "The edits, applied in order.",
                    "items": Schema.object([
                        "find": Schema.string("The exact text to replace (as in read_document with changes=accept)."),
                        "replace": Schema.string("The new text (empty to delete); no line breaks."),
                        "context": Schema.string("Optional: a longer passage around find that occurs once, to say which find is meant."),
                        "occurrence": Schema.integer("Optional: which occurrence of find (or of context) is meant, 1 = the first."),
                    ], required: ["find", "replace"]),
                ]),
                "author": Schema.string("The author the tracked changes are attributed to."),
                "accept_existing": Schema.bool(Self.acceptExistingHelp),
                "overwrite": Schema.bool("Allow output to be the input file itself (default false)."),
             ], required: ["path", "output", "edits", "author"])),
        Tool(name: "apply_markdown",
             description: """
             Make a document match an edited Markdown version, as tracked changes by `author`: the Markdown (for \
             example read_document's output with changes=accept, edited) is read, compared with the original word \
             by word, and the original with the differences as insertions and deletions is written to `output` \
             in the output's format. A document that already has tracked changes is refused unless accept_existing \
             is true. Returns the counts of what changed.
             """,
             inputSchema: Schema.object([
                "path": Schema.string("The original document, relative to the root."),
                "output": Schema.string("Where to write the document with tracked changes."),
                "markdown": Schema.string("The whole edited document as Markdown."),
                "author": Schema.string("The author the tracked changes are attributed to."),
                "accept_existing": Schema.bool(Self.acceptExistingHelp),
                "overwrite": Schema.bool("Allow output to be the input file itself (default false)."),
             ], required: ["path", "output", "markdown", "author"])),
        Tool(name: "compare",
             description: """
             Compare two versions of a document and write `new` with the differences from `old` as tracked changes \
             to `output` (when new and output are DOCX, in new's own package: its headers, footers and settings \
             kept). Returns the counts of what changed.
             """,
             inputSchema: Schema.object([
                "old": Schema.string("The earlier version, relative to the root."),
                "new": Schema.string("The later version, relative to the root."),
                "output": Schema.string("Where to write the comparison (.docx, .rtf, .md, .html)."),
                "author": Schema.string("The author the changes are attributed to (default Redline)."),
             ], required: ["old", "new", "output"]),
             annotations: .init(destructiveHint: false, idempotentHint: true)),
    ]

    static let acceptExistingHelp = "The document's own tracked changes are accepted in the output (the comparison starts from the text with them accepted). Default false: a document with tracked changes is refused."

    /// Refuses a document with tracked changes unless `accept` (comparing would accept them silently).
    private func requireNoChanges(_ path: String, _ format: Format, accept: Bool) throws {
        guard !accept else { return }
        let changes = try ChangeListing.list(.file(path), format: format).filter { $0.kind != .comment }.count
        guard changes == 0 else {
            throw ToolError("\(root.display(path)) already has \(changes) tracked change(s), which the edits' comparison would accept: accept or reject them first with review, or pass accept_existing: true")
        }
    }

    /// Runs one tool call; every failure becomes a result with `isError`.
    public func call(_ name: String, arguments: [String: Value]?) -> CallTool.Result {
        do {
            return try LargeStack.run { try dispatch(name, arguments) }
        } catch let e as ToolError {
            return Self.failure(e.message)
        } catch let e as RedlineError {
            return Self.failure(e.message)
        } catch {
            return Self.failure("\(error)")
        }
    }

    static func failure(_ message: String) -> CallTool.Result {
        CallTool.Result(content: [.text(text: message, annotations: nil, _meta: nil)], isError: true)
    }

    static func success(_ text: String, structured: Value? = nil) -> CallTool.Result {
        CallTool.Result(content: [.text(text: text, annotations: nil, _meta: nil)], structuredContent: structured, isError: false)
    }

    private func dispatch(_ name: String, _ arguments: [String: Value]?) throws -> CallTool.Result {
        switch name {
        case "read_document": return try readDocument(Arguments(arguments, allowed: ["path", "changes"]))
        case "list_changes": return try listChanges(Arguments(arguments, allowed: ["path"]))
        case "review":
            return try review(Arguments(arguments, allowed: ["path", "output", "accept", "reject", "changes", "comments", "overwrite"]))
        case "add_comment":
            return try addComment(Arguments(arguments, allowed: ["path", "output", "quote", "text", "author", "occurrence", "overwrite"]))
        case "apply_edits":
            return try applyEdits(Arguments(arguments, allowed: ["path", "output", "edits", "author", "accept_existing", "overwrite"]))
        case "apply_markdown":
            return try applyMarkdown(Arguments(arguments, allowed: ["path", "output", "markdown", "author", "accept_existing", "overwrite"]))
        case "compare": return try compare(Arguments(arguments, allowed: ["old", "new", "output", "author"]))
        default:
            throw ToolError("unknown tool '\(name)'; the tools are " + Self.tools.map(\.name).joined(separator: ", "))
        }
    }

    // MARK: - Formats and outputs

    private func inputFormat(_ path: String) throws -> Format {
        guard let f = FormatRegistry.inferred(fromPath: path), f.reader != nil else {
            throw ToolError("\(root.display(path)): Redline reads .docx, .rtf and Markdown (.md, .markdown, .txt) files")
        }
        return f
    }

    private func outputFormat(_ path: String) throws -> Format {
        do {
            let f = try RedlineCLIFormats.output(path)
            guard f.name != "pdf" else { throw ToolError("\(root.display(path)): PDF output is not offered by these tools") }
            return f
        } catch let e as RedlineError {
            throw ToolError(e.message)
        }
    }

    /// Writes `output` whole or not at all; the inputs are protected unless `overwrite`.
    private func writeFile(_ output: String, inputs: [String], overwrite: Bool,
                           _ body: (any ByteOutput) throws -> Void) throws {
        if !overwrite, let same = inputs.first(where: { isSameFile($0, output) }) {
            throw ToolError("\(root.display(output)) is the input \(root.display(same)); choose another output or pass overwrite: true")
        }
        try AtomicFile.write(to: output, protecting: overwrite ? [] : inputs, body)
    }

    private func warnings(_ d: Diagnostics) -> String {
        let all = d.all
        guard !all.isEmpty else { return "" }
        return "\nWarnings:\n" + all.prefix(20).map { "- \($0.message) [\($0.code)]" }.joined(separator: "\n")
            + (all.count > 20 ? "\n- (\(all.count - 20) more)" : "")
    }

    /// What an output holds after writing: its changes and comments, counted (when Redline reads it).
    private func remaining(_ output: String, _ format: Format) -> String {
        guard format.reader != nil, let items = try? ChangeListing.list(.file(output), format: format) else { return "" }
        let comments = items.filter { $0.kind == .comment }.count
        return " It now has \(items.count - comments) tracked change(s) and \(comments) comment(s)."
    }

    // MARK: - Tools

    private func readDocument(_ a: Arguments) throws -> CallTool.Result {
        let path = try root.input(a.string("path"))
        let f = try inputFormat(path)
        let mode = ChangeMode(rawValue: try a.oneOf("changes", ["marked", "accept", "reject"]) ?? "marked")!
        let options = ConversionOptions(from: f, to: FormatRegistry.markdown, changes: mode)
        let out = MemoryOutput()
        let d = Diagnostics()
        try Converter.convert(.file(path), to: out, options: options, diagnostics: d)
        var text = out.string
        var structured: [String: Value] = ["markdown": .string(text)]
        if mode == .marked {
            let items = try ChangeListing.list(.file(path), format: f)
            structured["changes"] = try Value(items)
            if !items.isEmpty {
                text += "\n\n---\nChanges and comments (id, kind, author, date, place, text):\n"
                    + (try ChangeListing.render(items, as: "text"))
            }
        }
        return Self.success(text + warnings(d), structured: .object(structured))
    }

    private func listChanges(_ a: Arguments) throws -> CallTool.Result {
        let path = try root.input(a.string("path"))
        let f = try inputFormat(path)
        let items = try ChangeListing.list(.file(path), format: f)
        return Self.success(try ChangeListing.render(items, as: "json"), structured: .object(["changes": try Value(items)]))
    }

    private func review(_ a: Arguments) throws -> CallTool.Result {
        let path = try root.input(a.string("path"))
        let output = try root.output(a.string("output"))
        let from = try inputFormat(path), to = try outputFormat(output)
        let accept = try a.strings("accept").map { try ChangeFilter(parsing: $0) }
        let reject = try a.strings("reject").map { try ChangeFilter(parsing: $0) }
        let mode = ChangeMode(rawValue: try a.oneOf("changes", ["marked", "accept", "reject"]) ?? "marked")!
        let comments = try a.oneOf("comments", ["keep", "drop", "drop-resolved"]).flatMap(CommentPolicy.init(rawValue:))
        var options = ConversionOptions(from: from, to: to,
                                        review: ReviewOptions(changes: mode, accept: accept, reject: reject, comments: comments))
        options.write.mediaOutput = .beside(output)
        let d = Diagnostics()
        try writeFile(output, inputs: [path], overwrite: try a.optionalBool("overwrite") ?? false) { out in
            try Converter.convert(.file(path), to: out, options: options, diagnostics: d)
        }
        let how = options.reviewsInPlace ? "reviewed in place" : "written through the document model"
        return Self.success("Wrote \(root.display(output)) (\(to.name), \(how))." + remaining(output, to) + warnings(d))
    }

    /// Reads a document into the model with the read options writing `to` needs.
    private func readModel(_ path: String, _ format: Format, for to: Format, diagnostics: Diagnostics) throws -> Document {
        let options = ConversionOptions(from: format, to: to)
        return try Converter.read(.file(path), format: format, options: options.readOptions, diagnostics: diagnostics)
    }

    /// Writes a document made from `original` (read from it and changed) to `output` in `to`: when the
    /// original has that format and it has a finisher (DOCX), with the original's styles and laid into its
    /// package (headers, footers, sections, settings), as `Comparison` lays a result into NEW's.
    private func writeModel(_ doc: Document, original: String, originalFormat: Format, to: Format, output: String,
                            overwrite: Bool, diagnostics: Diagnostics) throws {
        var write = WriteOptions()
        write.mediaOutput = .beside(output)
        let plan = ConversionPlan(comparing: .file(original), newFormat: originalFormat, to: to, write: write, limits: Limits())
        try writeFile(output, inputs: [original], overwrite: overwrite) { out in
            if let finisher = plan.finisher {
                write.referenceDocument = original
                let generated = MemoryOutput()
                // The original's page is laid in by the finisher from its own parts.
                try Converter.write(doc.removingSections(), format: to, to: generated, options: write, diagnostics: diagnostics)
                try finisher.finish(generated: generated.bytes, new: .file(original), limits: Limits(), generatedStories: [],
                                    diagnostics: diagnostics, into: out)
            } else {
                try Converter.write(doc, format: to, to: out, options: write, diagnostics: diagnostics)
            }
        }
    }

    /// What every tool that writes a document starts with: its input and output under the root, their formats,
    /// and `overwrite`, refusing to write over the input unless the call asks for it.
    private func writeTarget(_ a: Arguments) throws -> (path: String, output: String, from: Format, to: Format, overwrite: Bool) {
        let path = try root.input(a.string("path"))
        let output = try root.output(a.string("output"))
        let from = try inputFormat(path), to = try outputFormat(output)
        let overwrite = try a.optionalBool("overwrite") ?? false
        if !overwrite && isSameFile(path, output) {
            throw ToolError("\(root.display(output)) is the input; choose another output or pass overwrite: true")
        }
        return (path, output, from, to, overwrite)
    }

    private func addComment(_ a: Arguments) throws -> CallTool.Result {
        let (path, output, from, to, overwrite) = try writeTarget(a)
        let quote = try a.string("quote"), text = try a.string("text"), author = try a.string("author")
        let d = Diagnostics()
        let doc = try readModel(path, from, for: to, diagnostics: d)
        let match = try TextEdits.locate(quote, in: doc, occurrence: try a.optionalInt("occurrence"), what: "quote")
        let id = TextEdits.newCommentID(doc)
        let paragraphs = text.components(separatedBy: "\n\n").map { p in
            Block.paragraph(Paragraph(p.isEmpty ? [] : [.text(p.replacingOccurrences(of: "\n", with: " "))]))
        }
        let comment = Comment(id: id, author: author, initials: Self.initials(author), date: Self.now(), body: paragraphs)
        let edited = TextEdits.addComment(to: doc, at: match, comment: comment)
        try writeModel(edited, original: path, originalFormat: from, to: to, output: output, overwrite: overwrite, diagnostics: d)
        return Self.success("Wrote \(root.display(output)) (\(to.name)) with comment \(id) by \(author) on \(TextEdits.quoted(quote))."
                            + remaining(output, to) + warnings(d),
                            structured: .object(["output": .string(root.display(output)), "commentID": .string(id)]))
    }

    private func applyEdits(_ a: Arguments) throws -> CallTool.Result {
        let (path, output, from, to, overwrite) = try writeTarget(a)
        let author = try a.string("author")
        let edits = try a.objects("edits")
        guard !edits.isEmpty else { throw ToolError("edits is empty") }
        try requireNoChanges(path, from, accept: try a.optionalBool("accept_existing") ?? false)
        let d = Diagnostics()
        let original = try readModel(path, from, for: to, diagnostics: d)
        var edited = original
        for (n, e) in edits.enumerated() {
            do {
                let ea = try Arguments(e, allowed: ["find", "replace", "context", "occurrence"])
                let find = try ea.string("find"), replace = try ea.string("replace")
                guard !replace.contains("\n"), !replace.contains("\r") else {
                    throw ToolError("replace contains a line break; edits change text within a paragraph (use apply_markdown for new paragraphs)")
                }
                let match = try TextEdits.locate(find: find, context: try ea.optionalString("context"), in: edited,
                                                 occurrence: try ea.optionalInt("occurrence"))
                edited = TextEdits.replace(in: edited, at: match, with: replace)
            } catch let e as ToolError {
                throw ToolError("edit \(n + 1): \(e.message) (nothing was written)")
            }
        }
        return try compareAndWrite(original: original, edited: edited, path: path, from: from, to: to, output: output,
                                   author: author, overwrite: overwrite, diagnostics: d)
    }

    private func applyMarkdown(_ a: Arguments) throws -> CallTool.Result {
        let (path, output, from, to, overwrite) = try writeTarget(a)
        let author = try a.string("author"), markdown = try a.string("markdown")
        try requireNoChanges(path, from, accept: try a.optionalBool("accept_existing") ?? false)
        let d = Diagnostics()
        let original = try readModel(path, from, for: to, diagnostics: d)
        // Pictures the Markdown links to are loaded (for a format that embeds them) relative to the original's
        // folder and only from inside it, as for a Markdown file there: the text is read from a transient hidden
        // file in that folder (from bytes, the reader's folder would be the working directory, maybe outside the root).
        let read = ConversionOptions(from: FormatRegistry.markdown, to: to).readOptions
        let file = (path as NSString).deletingLastPathComponent + "/.redline-mcp-\(UUID().uuidString).md"
        guard FileManager.default.createFile(atPath: file, contents: Data(markdown.utf8)) else {
            throw ToolError("cannot write a scratch file beside \(root.display(path))")
        }
        defer { unlink(file) }
        let edited = try Converter.read(.file(file), format: FormatRegistry.markdown, options: read,
                                        diagnostics: Diagnostics())
        return try compareAndWrite(original: original, edited: edited, path: path, from: from, to: to, output: output,
                                   author: author, overwrite: overwrite, diagnostics: d)
    }

    private func compareAndWrite(original: Document, edited: Document, path: String, from: Format, to: Format,
                                 output: String, author: String, overwrite: Bool,
                                 diagnostics d: Diagnostics) throws -> CallTool.Result {
        let options = CompareOptions(author: author, date: Self.now())
        let (doc, stats) = DocumentComparer.compare(old: original, new: edited, options: options, diagnostics: d)
        try writeModel(doc, original: path, originalFormat: from, to: to, output: output, overwrite: overwrite, diagnostics: d)
        return Self.success("Wrote \(root.display(output)) (\(to.name)) with the edits as tracked changes by \(author): "
                            + Self.describe(stats) + "." + remaining(output, to) + warnings(d),
                            structured: .object(["output": .string(root.display(output)), "stats": try Value(stats)]))
    }

    private func compare(_ a: Arguments) throws -> CallTool.Result {
        let old = try root.input(a.string("old"), argument: "old")
        let new = try root.input(a.string("new"), argument: "new")
        let output = try root.output(a.string("output"))
        _ = try inputFormat(old)
        _ = try inputFormat(new)
        let to = try outputFormat(output)
        var options = ComparisonOptions(to: to)
        if let author = try a.optionalString("author") { options.compare.author = author }
        let d = Diagnostics()
        if isSameFile(old, output) || isSameFile(new, output) {
            throw ToolError("\(root.display(output)) is one of the inputs; choose another output")
        }
        let stats = try Comparison.compare(old: old, new: new, options: options, toFile: output, diagnostics: d)
        return Self.success("Wrote \(root.display(output)) (\(to.name)): " + Self.describe(stats) + "." + warnings(d),
                            structured: .object(["output": .string(root.display(output)), "stats": try Value(stats)]))
    }

    // MARK: - Helpers

    static func describe(_ s: CompareStats) -> String {
        var parts = ["\(s.insertions) insertion(s)", "\(s.deletions) deletion(s)"]
        if s.substitutions > 0 { parts.append("\(s.substitutions) substitution(s)") }
        if s.moves > 0 { parts.append("\(s.moves) move(s)") }
        if s.formatChanges > 0 { parts.append("\(s.formatChanges) formatting change(s)") }
        if s.paragraphMarkChanges > 0 { parts.append("\(s.paragraphMarkChanges) paragraph break change(s)") }
        return parts.joined(separator: ", ") + " (\(s.wordsInserted) word(s) inserted, \(s.wordsDeleted) deleted)"
    }

    static func now() -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        return f.string(from: Date())
    }

    static func initials(_ author: String) -> String? {
        let i = author.split(separator: " ").compactMap(\.first).map(String.init).joined()
        return i.isEmpty ? nil : String(i.prefix(4))
    }
}

/// The output-format rule of the command line (`redline convert -o`): the writer claiming the extension.
enum RedlineCLIFormats {
    static func output(_ path: String) throws -> Format {
        let file = (path as NSString).lastPathComponent
        guard let dot = file.lastIndex(of: "."), dot != file.startIndex, file.index(after: dot) != file.endIndex else {
            throw ToolError("\(file): the output needs an extension naming its format (.docx, .rtf, .md, .html)")
        }
        let ext = file[file.index(after: dot)...].lowercased()
        guard let f = FormatRegistry.all.first(where: { $0.writer != nil && $0.extensions.contains(ext) }) else {
            throw ToolError("\(file): Redline does not write '.\(ext)' files (.docx, .rtf, .md, .html)")
        }
        return f
    }
}
