import Foundation
import RedlineCore
import RedlineConversion
import RedlineBatch

/// The forms `check` writes its results in.
public enum CheckOutputFormat: String, Sendable, CaseIterable {
    /// For people: one block per file.
    case text
    /// `{"files": [CheckResult...], "summary": {...}}`.
    case json
    /// GitHub Actions workflow commands (`::error file=...::...`), which annotate the files in a pull request.
    case github
    /// JUnit XML: a test suite per file, a test case per category, failures for what `--fail-on` names.
    case junit
}

/// Renders check results.
public enum CheckReport {
    /// Counts over all files.
    public struct Summary: Codable, Sendable, Hashable {
        /// Files checked.
        public var files: Int
        /// Files that failed the check.
        public var failed: Int
        /// Files that could not be read.
        public var unreadable: Int
        /// Findings in all files.
        public var findings: Int
    }

    /// The counts over `results`.
    public static func summary(_ results: [CheckResult]) -> Summary {
        Summary(files: results.count, failed: results.filter(\.failed).count,
                unreadable: results.filter { $0.error != nil }.count,
                findings: results.reduce(0) { $0 + $1.findings.count })
    }

    /// The results in `format`.
    public static func render(_ results: [CheckResult], as format: CheckOutputFormat) throws -> String {
        switch format {
        case .text: return text(results)
        case .json: return try json(results)
        case .github: return github(results)
        case .junit: return junit(results)
        }
    }

    /// "paragraph 3: ", "line 7: ", or both with the column: "paragraph 3 (line 12, column 5): ".
    static func where_(_ l: SourceLocation?, column: Int? = nil) -> String {
        guard let l, l.line != nil || l.paragraph != nil else { return "" }
        guard let line = l.line else { return "\(l): " }
        let place = "line \(line)" + (column.map { ", column \($0)" } ?? "")
        guard let p = l.paragraph else { return place + ": " }
        return "paragraph \(p) (\(place)): "
    }

    static func where_(_ f: CheckFinding) -> String { where_(f.location, column: f.column) }

    /// JUnit: where every mark of a counted finding is, after its message.
    static func marks(_ f: CheckFinding) -> String {
        guard let m = f.marks, m.count > 1 else { return "" }
        return " (marks at " + m.map { "\($0.line):\($0.column)" }.joined(separator: ", ") + ")"
    }

    static func count(_ f: CheckFinding) -> String { f.count > 1 && f.category.hasPrefix("lossy") ? " (×\(f.count))" : "" }

    // MARK: text

    static func text(_ results: [CheckResult]) -> String {
        var out = ""
        for r in results {
            if let e = r.error {
                out += "\(r.input): FAILED: cannot read: \(e.message)\n"
                continue
            }
            let verdict = r.failed ? "FAILED" : (r.findings.isEmpty ? "clean" : "ok")
            let failing = Array(Set(r.findings.filter(\.failing).map(\.category))).sorted()
            out += "\(r.input): \(verdict)" + (failing.isEmpty ? "" : " (\(failing.joined(separator: ", ")))") + "\n"
            for f in r.findings {
                out += "  \(f.failing ? "✗" : "·") \(f.category): \(where_(f))\(f.message)\(count(f))\n"
            }
        }
        out += summaryLine(summary(results))
        return out
    }

    // MARK: JSON

    static func json(_ results: [CheckResult]) throws -> String {
        struct Output: Encodable {
            var files: [CheckResult]
            var summary: Summary
        }
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try e.encode(Output(files: results, summary: summary(results))), as: UTF8.self) + "\n"
    }

    // MARK: GitHub Actions

    /// One workflow command per finding: `error` for what fails the check, `notice` for resolved
    /// comments, `warning` for the rest.
    static func github(_ results: [CheckResult]) -> String {
        var out = ""
        for r in results {
            let file = githubProperty(r.input)
            if let e = r.error {
                out += "::error file=\(file),title=\(githubProperty("redline: cannot read"))::\(githubData(e.message))\n"
                continue
            }
            for f in r.findings {
                let level = f.failing ? "error" : (f.category == "resolved" ? "notice" : "warning")
                // A finding counting several marks of a Markdown source: one annotation on each mark's line.
                var each = [f]
                if let marks = f.marks, marks.count > 1 {
                    each = marks.enumerated().map { k, m in
                        var one = f
                        one.location = SourceLocation(line: m.line, paragraph: k == 0 ? f.location?.paragraph : nil)
                        one.column = m.column
                        one.message = f.message + " (mark \(k + 1) of \(marks.count))"
                        return one
                    }
                }
                for f in each {
                    var props = "file=\(file)"
                    if let line = f.location?.line { props += ",line=\(line)" }
                    if let column = f.column, f.location?.line != nil { props += ",col=\(column)" }
                    props += ",title=" + githubProperty("redline \(f.category)")
                    out += "::\(level) \(props)::\(githubData(where_(f) + f.message + count(f)))\n"
                }
            }
        }
        let s = summary(results)
        out += summaryLine(s)
        return out
    }

    static func summaryLine(_ s: Summary) -> String {
        "\(s.files) file\(s.files == 1 ? "" : "s") checked, \(s.failed) failed, \(s.findings) finding\(s.findings == 1 ? "" : "s")\n"
    }

    static func githubData(_ s: String) -> String {
        s.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    static func githubProperty(_ s: String) -> String {
        githubData(s).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }

    // MARK: JUnit

    /// `<testsuites>` with one `<testsuite>` per file and one `<testcase>` per category checked: a
    /// `<failure>` when the category fails the check, `<system-out>` listing findings that do not.
    static func junit(_ results: [CheckResult]) -> String {
        let s = summary(results)
        var cases = 0
        var body = ""
        for r in results {
            var suite = ""
            var tests = 0, failures = 0, errors = 0
            if let e = r.error {
                tests = 1; errors = 1
                suite += "    <testcase classname=\"\(xml(r.input))\" name=\"read\">\n"
                suite += "      <error type=\"\(xml(e.kind.rawValue))\" message=\"\(xml(e.message))\"/>\n    </testcase>\n"
            } else {
                for category in r.checked {
                    tests += 1
                    let found = r.findings.filter { $0.category == category }
                    let lines = found.map { where_($0) + $0.message + count($0) + marks($0) }.joined(separator: "\n")
                    suite += "    <testcase classname=\"\(xml(r.input))\" name=\"\(xml(category))\""
                    if found.contains(where: \.failing) {
                        failures += 1
                        let first = found[0].message + (found.count > 1 ? " (and \(found.count - 1) more)" : "")
                        suite += ">\n      <failure type=\"\(xml(category))\" message=\"\(xml(first))\">\(xml(lines))</failure>\n    </testcase>\n"
                    } else if !found.isEmpty {
                        suite += ">\n      <system-out>\(xml(lines))</system-out>\n    </testcase>\n"
                    } else {
                        suite += "/>\n"
                    }
                }
            }
            cases += tests
            body += "  <testsuite name=\"\(xml(r.input))\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(errors)\">\n"
            body += suite + "  </testsuite>\n"
        }
        let failures = results.reduce(0) { n, r in
            n + (r.error == nil ? Set(r.findings.filter(\.failing).map(\.category)).count : 0)
        }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<testsuites name=\"redline check\" tests=\"\(cases)\" failures=\"\(failures)\" errors=\"\(s.unreadable)\">\n"
            + body + "</testsuites>\n"
    }

    /// Text escaped for XML content and attributes (characters XML 1.0 forbids are dropped).
    static func xml(_ s: String) -> String { MarkupEscaper.xmlReport.escaped(s) }
}
