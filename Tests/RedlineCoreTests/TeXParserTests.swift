import RedlineCore
import RedlineTestSupport
import XCTest

/// `TeXParser` and `TeXWriter`: what the supported set parses to, that the writer's TeX parses back to the same
/// TeX (a fixpoint), that anything else is refused with a reason, and that hostile nesting costs linear time.
final class TeXParserTests: XCTestCase {
    static var formulas: [String] { MathFormulas.typical }

    func testFormulasParseAndWriteAFixpoint() throws {
        XCTAssertGreaterThanOrEqual(Self.formulas.count, 40)
        for tex in Self.formulas {
            let node = try TeXParser.parse(tex)
            let written = TeXWriter.tex(node)
            let again = try TeXParser.parse(written)
            XCTAssertEqual(TeXWriter.tex(again), written, "\(tex): not a fixpoint")
        }
    }

    /// Random TeX from the supported commands and stray characters (seeded): whatever parses, `TeXWriter` writes
    /// TeX that parses to the same TeX again (what fuzz-tex checks on mutated input).
    func testWriterIsAFixpointOnRandomTeX() throws {
        let pieces = ["\\frac", "\\sqrt", "[", "]", "{", "}", "(", ")", "^", "_", "'", "x", "2", "+", "=", " ", "\\sum", "\\int",
                      "\\left(", "\\right)", "\\alpha", "\\sin", "\\lim", "\\hat", "\\text{a b}", "\\mathbf", "\\{", "\\}",
                      "|", "\\|", "&", "\\\\", "\\begin{matrix}", "\\end{matrix}", "\\begin{cases}", "\\end{cases}", "\\,",
                      "\\overline", "\\underbrace", "\\binom", "\\not", "<", "\\le", "\\infty", "\\mathbb", "~", ",", "\\prod"]
        var rng = SeededRandom(seed: 0x7E7)
        var parsed = 0
        for _ in 0..<20_000 {
            let tex = (0..<Int.random(in: 1...12, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            guard let node = try? TeXParser.parse(tex) else { continue }
            parsed += 1
            let written = TeXWriter.tex(node)
            guard let again = try? TeXParser.parse(written) else { return XCTFail("\(tex) → \(written): refused") }
            XCTAssertEqual(TeXWriter.tex(again), written, tex)
        }
        XCTAssertGreaterThan(parsed, 1_000)
    }

    func testStructures() throws {
        XCTAssertEqual(try TeXParser.parse("\\frac{a}{b}"), .fraction(.run("a", .normal), .run("b", .normal), .bar))
        XCTAssertEqual(try TeXParser.parse("x^2"), .scripts(.run("x", .normal), sub: nil, sup: .run("2", .normal)))
        XCTAssertEqual(try TeXParser.parse("x_i^2"),
                       .scripts(.run("x", .normal), sub: .run("i", .normal), sup: .run("2", .normal)))
        XCTAssertEqual(try TeXParser.parse("\\alpha+1"), .run("α+1", .normal))
        XCTAssertEqual(try TeXParser.parse("\\sqrt[n]{x}"), .radical(degree: .run("n", .normal), .run("x", .normal)))
        XCTAssertEqual(try TeXParser.parse("\\sum_{i}^{n} x"),
                       .nary("∑", sub: .run("i", .normal), sup: .run("n", .normal), .run("x", .normal)))
        XCTAssertEqual(try TeXParser.parse("\\sin x"), .function(.run("sin", .function), .run("x", .normal)))
        XCTAssertEqual(try TeXParser.parse("\\lim_{n} a"),
                       .function(.limit(lower: true, .run("lim", .function), .run("n", .normal)), .run("a", .normal)))
        XCTAssertEqual(try TeXParser.parse("(a)"), .delimited(open: "(", close: ")", separator: nil, [.run("a", .normal)], grow: false))
        XCTAssertEqual(try TeXParser.parse("\\left(a\\right."),
                       .delimited(open: "(", close: "", separator: nil, [.run("a", .normal)], grow: true))
        XCTAssertEqual(try TeXParser.parse("\\text{a b}"), .run("a b", .text))
        XCTAssertEqual(try TeXParser.parse("\\mathbf{x}"), .run("x", .bold))
        XCTAssertEqual(try TeXParser.parse("[0,1)"), .run("[0,1)", .normal), "unpaired brackets are characters")
    }

    func testUnsupportedIsRefused() {
        for tex in ["\\foo{x}", "{a", "a}", "\\frac{a}", "\\begin{tabular}x\\end{tabular}", "a & b", "\\left( a", "x^", "\\text{\\alpha}"] {
            XCTAssertThrowsError(try TeXParser.parse(tex), tex)
        }
    }

    /// Nesting past `Limits.maxMathNesting` is refused, not recursed into; long hostile inputs stay fast.
    func testHostileNestingIsBoundedAndLinear() throws {
        XCTAssertThrowsError(try TeXParser.parse(String(repeating: "{", count: 100_000) + String(repeating: "}", count: 100_000)))
        XCTAssertThrowsError(try TeXParser.parse(String(repeating: "\\sqrt{", count: 10_000)))
        let clock = ContinuousClock()
        let elapsed = try clock.measure {
            _ = try TeXParser.parse(String(repeating: "(", count: 200_000))
            _ = try TeXParser.parse(String(repeating: "(a)", count: 100_000))
            _ = try TeXParser.parse(String(repeating: "\\sum ", count: 50_000) + "x")
            _ = try TeXParser.parse(String(repeating: "x^2_3 ", count: 50_000))
        }
        XCTAssertLessThan(elapsed, .seconds(20), "hostile TeX took \(elapsed)")
    }
}
