import Foundation
import XCTest
import RedlineCore
@testable import RedlineRTF

/// Every RTF file of the shared corpus reads without error.
final class RTFCorpusTests: XCTestCase {
    func testCorpusFilesRead() throws {
        let files = RTFTestSupport.corpusRTFs()
        XCTAssertGreaterThan(files.count, 20)
        for f in files {
            let diags = Diagnostics()
            let doc = try RTFTestSupport.readFile(f, diagnostics: diags)
            XCTAssertFalse(doc.blocks.isEmpty, f)
            // Every code page in the corpus decodes: no replacement characters anywhere.
            var all = RTFTestSupport.text(doc)
            for n in doc.notes { all += n.blocks.map(\.plainText).joined() }
            for c in doc.comments { all += c.body.map(\.plainText).joined() }
            XCTAssertFalse(all.contains("\u{FFFD}"), "\(f) has undecodable text")
            if let dump = ProcessInfo.processInfo.environment["RTF_DUMP"] {
                let h = FileHandle(forWritingAtPath: dump) ?? { FileManager.default.createFile(atPath: dump, contents: nil); return FileHandle(forWritingAtPath: dump)! }()
                h.seekToEndOfFile()
                h.write(Data("=== \(f) \(diags.all.map(\.description))\n\(doc.metadata)\n\(RTFTestSupport.text(doc))\n\(doc.blocks.map { "\($0)" }.joined(separator: "\n"))\n".utf8))
            }
        }
    }
}
