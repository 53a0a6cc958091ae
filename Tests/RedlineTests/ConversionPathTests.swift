import Foundation
import XCTest
@testable import Redline
@testable import RedlineBatch
@testable import RedlineCheck
@testable import RedlineMigration
@testable import RedlineConversion

/// Every conversion is built by `ConversionOptions.branch`: a single-file conversion and a batch of the
/// same input give the same output bytes and the same warnings (codes, counts, messages, locations,
/// severities, order), in every review mode and for every writer, `gfm` included.
final class ConversionPathTests: XCTestCase {
    var dir: String!

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "redline-paths-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: dir) }

    func testSingleFileAndBatchGiveTheSameOutputAndWarnings() throws {
        let inputs = try RepositoryPaths.corpusInputs().filter {
            ["markdown/edge-cases.md", "docx/comments.docx", "docx/libreoffice-tracked-changes.docx", "rtf/"]
                .contains(where: $0.contains)
        }
        XCTAssertGreaterThanOrEqual(inputs.count, 4)
        let reviews = [ReviewOptions(), ReviewOptions(changes: .accept), ReviewOptions(changes: .reject),
                       ReviewOptions(accept: [try ChangeFilter(parsing: "kind=insertion")], comments: .dropResolved)]
        var compared = 0, withLocation = 0
        for name in ["md", "gfm", "docx", "rtf", "html"] {
            guard let to = FormatRegistry.named(name), to.writer != nil else { throw FormatMissing(name) }
            for input in inputs {
                guard let from = FormatRegistry.inferred(fromPath: input) else { throw FormatMissing(input) }
                for (k, review) in reviews.enumerated() {
                    let label = "\(input) → \(name) review \(k)"
                    let single = Diagnostics()
                    let out = MemoryOutput()
                    try Converter.convert(.file(input), to: out,
                                          options: ConversionOptions(from: from, to: to, review: review), diagnostics: single)
                    let outDir = dir + "/\(name)-\(k)-\(compared)"
                    let batchInput = BatchInput(path: input, relativePath: (input as NSString).lastPathComponent)
                    let options = BatchOptions(from: from, to: to, variants: [.converting(review)], outputDirectory: outDir,
                                               jobs: 1, toolVersion: "test")
                    let (records, _) = try Batch.run([batchInput], options: options)
                    let record = try XCTUnwrap(records.first, label)
                    XCTAssertEqual(record.status, .converted, label)
                    let written = try XCTUnwrap(record.outputs.first?.path, label)
                    XCTAssertEqual(FileManager.default.contents(atPath: written), Data(out.bytes), label)
                    XCTAssertEqual(record.warnings.map(\.diagnostic), single.all, label)
                    withLocation += single.all.filter { $0.location != nil }.count
                    compared += 1
                }
            }
        }
        XCTAssertGreaterThan(withLocation, 0, "no warning had a location: the comparison checked too little")
        XCTAssertEqual(compared, 5 * inputs.count * reviews.count)
    }
}
