import XCTest
@testable import RedlineCompare
import RedlineCore

/// Guards for the diff engine's speed tricks and readability rules (PERFORMANCE.md names them).
final class CompareBasicTests: XCTestCase {
    static func para(_ text: String) -> Block { .paragraph(Paragraph([.text(text)])) }
    static func doc(_ texts: [String]) -> Document { Document(blocks: texts.map(para)) }

    static func compared(_ old: [String], _ new: [String], options: CompareOptions = CompareOptions(date: "2024-01-01T00:00:00Z"))
        -> (Document, CompareStats) {
        let a = doc(old), b = doc(new)
        let (r, s) = DocumentComparer.compare(old: a, new: b, options: options)
        XCTAssertEqual(Normalize.document(DocumentComparer.accepted(r)), Normalize.document(b), "accept")
        XCTAssertEqual(Normalize.document(DocumentComparer.rejected(r)), Normalize.document(a), "reject")
        return (r, s)
    }

    /// One long paragraph against nothing, and against itself edited: one insertion holding the whole text
    /// (built in place: it was quadratic in the words, `InlineBuilder.appendMerging`), and exact both ways.
    func testOneLongParagraphAgainstNothingAndEdited() {
        let words = (0..<30_000).map { "w\($0 % 97)" }
        let text = words.joined(separator: " ")
        let (r, _) = Self.compared([], [text])
        guard case .paragraph(let p)? = r.blocks.first, case .insertion(_, let inserted)? = p.content.first else {
            return XCTFail("\(r.blocks.first.map { "\($0)" } ?? "nothing")")
        }
        XCTAssertEqual(p.content.count, 1)
        XCTAssertEqual(inserted, [.text(text)])
        let edited = words.enumerated().map { $0.offset % 50 == 0 ? "changed" : $0.element }.joined(separator: " ")
        let (_, s) = Self.compared([text], [edited])
        XCTAssertEqual(s.substitutions, 600)
    }

    /// Edit-script ops are token indices and tokens are a few integers: 600,000 words stay within memory.
    func testOpsAndTokensStaySmall() {
        XCTAssertEqual(MemoryLayout<Op>.stride, 16)
        XCTAssertLessThanOrEqual(MemoryLayout<Token>.stride, 24)
    }

    /// pairCuts' word hashes: the same words give the same sorted, duplicate-free hashes; shared words count.
    func testWordHashesAndCommonCount() {
        let x = StoryComparer.wordHashes(Self.para("the cat sat on the mat, café"))
        let y = StoryComparer.wordHashes(Self.para("a café cat sat on a mat"))
        XCTAssertEqual(x, x.sorted())
        XCTAssertEqual(Set(x).count, x.count)
        XCTAssertEqual(x.count, 6)     // the, cat, sat, on, mat, café
        XCTAssertEqual(StoryComparer.commonCount(x, y), 5)
        XCTAssertEqual(StoryComparer.commonCount(x, []), 0)
    }

    /// A long run of edited paragraphs is cut at each pair of paragraphs that agree, so each piece is small.
    func testPairCutsCutAtEveryAgreeingPair() {
        let old = (0..<50).map { Self.para("paragraph \($0) says something about topic \($0) at length") }
        let new = (0..<50).map { Self.para("paragraph \($0) says nothing about topic \($0) at length") }
        let cuts = StoryComparer.pairCuts(old, new)
        XCTAssertEqual(cuts.count, 50)
        XCTAssertEqual(cuts.last!.0, 50)
        XCTAssertEqual(cuts.last!.1, 50)
    }

    /// Each whitespace character is its own token: a removed word's double space is a deletion, not a substitution.
    func testDoubleSpaceLeftByARemovedWordIsADeletion() {
        let (_, s) = Self.compared(["keep the copies with section copies here"], ["keep the copies with  copies here"])
        XCTAssertEqual(s.substitutions, 0)
        XCTAssertEqual(s.deletions, 1)
        XCTAssertEqual(s.wordsDeleted, 1)
    }

    /// The fold rule: a kept word between two one-word replacements stays; a rewritten sentence is one mark.
    func testFoldRule() {
        // (characters deleted, inserted, words changed) on each side.
        XCTAssertFalse(StoryComparer.folds(length: 6, words: 1, spaceOnly: false, left: (5, 8, 1), right: (6, 8, 1)))
        XCTAssertTrue(StoryComparer.folds(length: 2, words: 1, spaceOnly: false, left: (40, 30, 7), right: (8, 7, 1)))
        XCTAssertTrue(StoryComparer.folds(length: 1, words: 0, spaceOnly: true, left: (1, 1, 1), right: (1, 1, 1)))
        let (_, dense) = Self.compared(["deliver to the buyer within thirty days"], ["deliver to the customer within fourteen days"])
        XCTAssertEqual(dense.substitutions, 2)
        let (_, rewrite) = Self.compared(["It decided, after a long and often heated debate, to postpone the vote until spring."],
                                         ["After a short discussion it voted to approve the budget at once."])
        XCTAssertEqual(rewrite.substitutions, 1)
    }

    /// A paragraph moved with a word changed inside is one move, the changed words plain marks within it.
    func testMoveWithInnerEdits() {
        let old = ["The treasurer presented the accounts for the past year and answered every question.", "The chair thanked the volunteers.",
                   "The secretary read the letters.", "The end."]
        let new = ["The chair thanked the volunteers.", "The secretary read the letters.",
                   "The treasurer presented the audited accounts for the past year and answered each question.", "The end."]
        let (r, s) = Self.compared(old, new)
        XCTAssertEqual(s.moves, 1)
        var from = "", to = ""
        for b in r.blocks {
            for run in b.paragraph?.content.runs ?? [] {
                guard case .move(let m) = run.change, case .text(let t) = run.content else { continue }
                if m.side == .from { from += t } else { to += t }
            }
        }
        XCTAssertTrue(from.hasPrefix("The treasurer presented the accounts"), from)
        XCTAssertFalse(to.contains("audited"), to)     // inserted inside the move, not moved
        XCTAssertTrue(to.contains("for the past year and answered"), to)
        let (_, off) = Self.compared(old, new, options: CompareOptions(detectMoves: false))
        XCTAssertEqual(off.moves, 0)
    }

    /// An unchanged paragraph moved past an edited neighbour is the move; the neighbour is edited in place.
    func testUnchangedParagraphMovedPastAnEditedNeighbourIsTheMove() {
        let (r, s) = Self.compared(["Alpha one two three four five six seven.", "Bravo eight nine ten eleven twelve thirteen.",
                                    "The unchanged paragraph that moves down.", "Charlie fourteen fifteen sixteen seventeen."],
                                   ["Alpha one two three four five six seven eight.", "The unchanged paragraph that moves down.",
                                    "Bravo eight nine TEN eleven twelve thirteen.", "Charlie fourteen fifteen sixteen seventeen!"])
        XCTAssertEqual(s.moves, 1)
        var moved = ""
        for b in r.blocks {
            for run in b.paragraph?.content.runs ?? [] {
                if case .move(let m) = run.change, m.side == .to, case .text(let t) = run.content { moved += t }
            }
        }
        XCTAssertEqual(moved, "The unchanged paragraph that moves down.")
    }

    /// A sentence rewritten in place is not a move, however similar: the deletion and insertion are neighbours.
    func testInPlaceRewriteIsNotAMove() {
        let (_, s) = Self.compared(["Intro.", "one two three four five six seven eight", "End."],
                                   ["Intro.", "one two three four five six seven nine", "End."])
        XCTAssertEqual(s.moves, 0)
    }

    /// Spans too different are not paired as moves.
    func testDissimilarSpansAreNotMoves() {
        let (_, s) = Self.compared(["alpha beta gamma delta epsilon zeta.", "Middle stays here.", "End."],
                                   ["Middle stays here.", "alpha omega sigma tau upsilon phi.", "End."])
        XCTAssertEqual(s.moves, 0)
    }

    /// A deleted list item leaves no empty item on accept; an inserted one none on reject.
    func testListItemsLeaveNoShells() {
        func list(_ items: [String]) -> Block { .list(List(kind: .bullet, items: items.map { [Self.para($0)] })) }
        let a = Document(blocks: [Self.para("Intro."), list(["one", "two", "three"]), .blockQuote([Self.para("gone")])])
        let b = Document(blocks: [Self.para("Intro."), list(["one", "three", "four"])])
        let (r, _) = DocumentComparer.compare(old: a, new: b)
        XCTAssertEqual(DocumentComparer.accepted(r).blocks, b.blocks)
        XCTAssertEqual(DocumentComparer.rejected(r).blocks, a.blocks)
    }
}
