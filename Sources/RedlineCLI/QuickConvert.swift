import Foundation
import Redline

/// One document converted, as `convert IN [-o OUT]` resolved its flags: what `Convert.run` does for a single
/// input, whichever way the command line was read.
struct SingleConversion {
    var input: String
    var output: String
    var options: ConversionOptions
    var quiet: Bool
    var warningsJSON: String?
    var verbose: Bool

    /// Converts `input` into `output` (`-`: standard input or output) and reports the warnings.
    func run() throws {
        let diagnostics = Diagnostics()
        let source: DocumentInput
        if input == "-" {
            source = .bytes(try DocumentInput.standardInput())
        } else {
            guard FileManager.default.fileExists(atPath: input) else {
                throw RedlineError.io("\(input): no such file")
            }
            source = .file(input)
        }
        do {
            if output == "-" && options.strictFilters && options.review.hasFilters {
                // Nothing written when a filter selects nothing: the output is held until the conversion is done.
                let held = MemoryOutput()
                try Converter.convert(source, to: held, options: options, diagnostics: diagnostics)
                let out = FileDescriptorOutput(fd: 1, name: "standard output")
                try held.bytes.withUnsafeBytes { try out.write($0) }
                try out.flush()
            } else if output == "-" {
                let out = FileDescriptorOutput(fd: 1, name: "standard output")
                try Converter.convert(source, to: out, options: options, diagnostics: diagnostics)
            } else {
                try Converter.convert(source, toFile: output, options: options, diagnostics: diagnostics)
            }
        } catch let e as RedlineError {
            throw RedlineError(e.kind, "\(source.displayName): \(e.message)")
        }
        try WarningReport.emit(diagnostics.all, for: source.displayName, quiet: quiet, json: warningsJSON,
                               target: options.to.name, verbose: verbose)
    }
}

/// The command line of the most common run, `redline convert IN -o OUT [--to FMT] [--from FMT] [--changes MODE]
/// [-q]`, read without ArgumentParser: building ArgumentParser's argument sets is about 70 % of the instructions
/// of converting a small file (PERFORMANCE.md, "Start-up"). Anything else (another flag, a repeated one, a batch,
/// standard input, a format name with pandoc extensions, help) is left to ArgumentParser, which also reports
/// every usage error. `QuickConvertTests` checks that both readings give the same conversion.
enum QuickConvert {
    /// The conversion `arguments` (without the program name) ask for, or nil to parse them with ArgumentParser.
    static func conversion(_ arguments: [String]) throws -> SingleConversion? {
        guard arguments.first == "convert" else { return nil }
        var input: String?
        var output: String?, from: String?, to: String?, changes: ChangeMode?
        var quiet = false
        var i = 1
        /// The value of the option in `arg`: after its `=` (`--to=md`), else the next argument. Nil when there is none.
        func value(_ arg: String) -> String? {
            if let eq = arg.firstIndex(of: "=") { return String(arg[arg.index(after: eq)...]) }
            guard i + 1 < arguments.count, !arguments[i + 1].hasPrefix("-") else { return nil }
            i += 1
            return arguments[i]
        }
        while i < arguments.count {
            let arg = arguments[i]
            // `--name=value` is matched by its name; a short option takes no `=`.
            let key = arg.hasPrefix("--") ? String(arg.prefix { $0 != "=" }) : arg
            switch key {
            case "-q", "--quiet":
                guard !quiet, key == arg else { return nil }
                quiet = true
            case "-o", "--output":
                guard output == nil, let v = value(arg), !v.isEmpty else { return nil }
                output = v
            case "-t", "--to":
                guard to == nil, let v = value(arg), !v.isEmpty else { return nil }
                to = v
            case "-f", "--from":
                guard from == nil, let v = value(arg), !v.isEmpty else { return nil }
                from = v
            case "--changes":
                guard changes == nil, let v = value(arg), let mode = ChangeMode(rawValue: v) else { return nil }
                changes = mode
            default:
                guard !arg.hasPrefix("-"), input == nil else { return nil }
                input = arg
            }
            i += 1
        }
        let out = output ?? "-"
        // One existing file in, one file (or standard output) out: anything else is a batch or standard input.
        guard let input, !out.hasSuffix("/"), !BatchFlags.isDirectory(out),
              FileManager.default.fileExists(atPath: input), !BatchFlags.isDirectory(input) else { return nil }
        // pandoc's format extensions (`markdown+smart`) are warned about by `ConversionFlags`.
        for name in [from, to].compactMap({ $0 }) where !FormatRegistry.extensions(of: name).isEmpty { return nil }
        let options = ConversionOptions(from: try ConversionFlags.format(named: from, path: input, fallback: nil),
                                        to: try ConversionFlags.outputFormat(named: to, path: out),
                                        review: ReviewOptions(changes: changes ?? .marked, accept: [], reject: [],
                                                              comments: nil, dropComments: []),
                                        read: ReadOptions(), write: WriteOptions())
        return SingleConversion(input: input, output: out, options: options, quiet: quiet, warningsJSON: nil,
                                verbose: false)
    }
}
