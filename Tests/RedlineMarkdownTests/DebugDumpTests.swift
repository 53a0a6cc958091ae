import XCTest
import Foundation
@testable import RedlineMarkdown
import RedlineCore

/// Prints the model of the file named by REDLINE_DUMP (a development aid; does nothing otherwise).
final class DebugDumpTests: XCTestCase {
    func testDump() throws {
        guard let path = ProcessInfo.processInfo.environment["REDLINE_DUMP"] else { return }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let d = Diagnostics()
        let doc = try MarkdownReader.document(text, diagnostics: d)
        dump(doc)
        print(d.all)
    }
}
