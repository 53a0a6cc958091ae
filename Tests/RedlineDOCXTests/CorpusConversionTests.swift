import Foundation
import Redline
import RedlineCore
import XCTest

/// Every DOCX in the shared corpus and in Corpus/docx converts to Markdown (CriticMarkup, clean and
/// original) without error. Skipped until the Markdown writer is registered.
final class CorpusConversionTests: XCTestCase {
    func testEveryDOCXConvertsToMarkdown() throws {
        guard let md = FormatRegistry.named("md"), md.writer != nil, let docx = FormatRegistry.named("docx") else {
            throw FormatMissing("the Markdown writer is not registered yet")
        }
        let own = ((try? FileManager.default.contentsOfDirectory(atPath: Fixtures.repo.appendingPathComponent("Corpus/docx").path)) ?? [])
            .filter { $0.hasSuffix(".docx") }.map { Fixtures.repo.appendingPathComponent("Corpus/docx/\($0)").path }
        let paths = Fixtures.sharedDOCX().map(Fixtures.shared) + own
        XCTAssertGreaterThan(paths.count, 4)
        for path in paths {
            for mode in ChangeMode.allCases {
                let out = MemoryOutput()
                do {
                    try Converter.convert(.file(path), to: out, options: ConversionOptions(from: docx, to: md, changes: mode),
                                          diagnostics: Diagnostics())
                } catch {
                    XCTFail("\(path) \(mode): \(error)")
                }
                if mode == .marked {
                    let text = try Fixtures.read(path).blocks.map(\.plainText).joined()
                    if !text.isEmpty { XCTAssertFalse(out.string.isEmpty, "\(path): empty Markdown") }
                }
            }
        }
    }
}
