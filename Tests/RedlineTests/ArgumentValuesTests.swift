import ArgumentParser
import Redline
@testable import RedlineCLI
import RedlineCompare
import RedlineCore
import XCTest

/// The enums read from the command line give ArgumentParser's lists from their raw values
/// (`ArgumentValues`, PERFORMANCE.md "Start-up"): the same lists as its defaults, which describe each case
/// with `"\(case)"`; this test keeps those defaults' formulas as its oracle.
final class ArgumentValuesTests: XCTestCase {
    private func check<E: ExpressibleByArgument & CaseIterable & RawRepresentable>(_ type: E.Type, file: StaticString = #filePath,
                                                                                   line: UInt = #line) where E.RawValue == String {
        // ArgumentParser 1.x: `allCases.map(\.rawValue.defaultValueDescription)`, where a String's is "\(self)".
        XCTAssertEqual(E.allValueStrings, E.allCases.map { "\($0.rawValue)" }, "\(E.self)", file: file, line: line)
        // Its descriptions: a case whose "\(case)" differs from its raw value is described by it.
        var descriptions: [String: String] = [:]
        for value in E.allCases where "\(value.rawValue)" != "\(value)" { descriptions["\(value.rawValue)"] = "\(value)" }
        XCTAssertEqual(E.allValueDescriptions, descriptions, "\(E.self)", file: file, line: line)
    }

    func testListsEqualArgumentParsersDefaults() {
        check(ChangeMode.self)
        check(CommentPolicy.self)
        check(PDFEngineChoice.self)
        check(TrackChanges.self)
        check(ParagraphPreset.self)
        check(IsolationMode.self)
        check(CompareGranularity.self)
        check(ScrivenerMigrationOptions.Layout.self)
        check(CheckOutputFormat.self)
    }
}
