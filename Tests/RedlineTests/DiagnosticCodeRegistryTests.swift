import Foundation
import XCTest

/// The warnings registry: every diagnostic code is declared in its module's `<Module>DiagnosticCodes.swift`
/// (the general `lossy.*` family in RedlineCore's), no two declarations share a value, no source reports a
/// code spelled as a string, and the warnings section of docs/warnings.md (the user manual's list) lists every code.
final class DiagnosticCodeRegistryTests: XCTestCase {
    struct Declaration { var file: String; var name: String; var code: String }

    static func sources() throws -> [(path: String, text: String)] {
        let base = RepositoryPaths.root + "/Sources"
        guard let walker = FileManager.default.enumerator(atPath: base) else { return [] }
        var out: [(String, String)] = []
        while let rel = walker.nextObject() as? String {
            guard rel.hasSuffix(".swift") else { continue }
            out.append((rel, try String(contentsOfFile: base + "/" + rel, encoding: .utf8)))
        }
        return out.sorted { $0.0 < $1.0 }
    }

    static func declarations() throws -> [Declaration] {
        let pattern = try NSRegularExpression(pattern: #"static let (\w+): DiagnosticCode = "([^"]+)""#)
        var out: [Declaration] = []
        for (path, text) in try sources() {
            let ns = text as NSString
            for m in pattern.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
                out.append(Declaration(file: path, name: ns.substring(with: m.range(at: 1)), code: ns.substring(with: m.range(at: 2))))
            }
        }
        return out
    }

    func testEveryCodeIsDeclaredOnceInItsModulesRegistry() throws {
        let decls = try Self.declarations()
        XCTAssertGreaterThan(decls.count, 80, "the declarations were not found")
        var modules: [String: String] = [:]
        for d in decls {
            let module = String(d.file.split(separator: "/")[0])
            let file = (d.file as NSString).lastPathComponent
            XCTAssertTrue(file.hasSuffix("DiagnosticCodes.swift"), "\(d.code) is declared in \(d.file)")
            if let other = modules[module] { XCTAssertEqual(other, d.file, "\(module) declares codes in two files") }
            modules[module] = d.file
            if d.code.hasPrefix("lossy.") { XCTAssertEqual(module, "RedlineCore", "\(d.code) belongs to the general lossy family") }
        }
        let byCode = Dictionary(grouping: decls, by: \.code).filter { $0.value.count > 1 }
        XCTAssertTrue(byCode.isEmpty, "codes declared more than once: \(byCode.keys.sorted())")
        let byName = Dictionary(grouping: decls, by: \.name).filter { $0.value.count > 1 }
        XCTAssertTrue(byName.isEmpty, "names declared more than once: \(byName.keys.sorted())")
    }

    func testNoCodeIsSpelledAsAStringWhereItIsReported() throws {
        let literal = try NSRegularExpression(pattern: #"\.report\(\s*"|DiagnosticCode\(\s*(rawValue:\s*)?""#)
        for (path, text) in try Self.sources() {
            let n = literal.numberOfMatches(in: text, range: NSRange(location: 0, length: (text as NSString).length))
            XCTAssertEqual(n, 0, "\(path) reports a code spelled as a string: declare it in its module's registry")
        }
    }

    func testTheWarningsPageListsEveryCode() throws {
        let page = try String(contentsOfFile: RepositoryPaths.root + "/docs/warnings.md", encoding: .utf8)
        let start = try XCTUnwrap(page.range(of: "## Warnings"), "docs/warnings.md has no warnings section")
        let rest = page[start.upperBound...]
        let section = rest.range(of: "\n## ").map { rest[..<$0.lowerBound] } ?? rest
        for d in try Self.declarations() {
            XCTAssertTrue(section.contains("`\(d.code)`"), "docs/warnings.md's warnings section does not list `\(d.code)`")
        }
    }
}
