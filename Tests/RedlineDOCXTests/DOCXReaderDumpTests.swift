import Foundation
import RedlineCore
import XCTest

/// Prints the model of the DOCX named by REDLINE_DUMP (a debugging aid; does nothing otherwise).
final class DOCXReaderDumpTests: XCTestCase {
    func testDump() throws {
        guard let path = ProcessInfo.processInfo.environment["REDLINE_DUMP"] else { return }
        let d = Diagnostics()
        let doc = try Fixtures.read(path, diagnostics: d)
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys]
        print(String(decoding: try e.encode(doc), as: UTF8.self))
        for x in d.all { print(x) }
    }
}
