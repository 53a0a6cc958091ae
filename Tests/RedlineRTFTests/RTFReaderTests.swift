import Foundation
import XCTest
import RedlineCore
@testable import RedlineRTF

/// The RTF reader on small hand-written inputs: formatting, Unicode, code pages, review marks, notes, fields.
final class RTFReaderTests: XCTestCase {
    private func paragraphs(_ d: Document) -> [Paragraph] { d.blocks.compactMap(\.paragraph) }

    func testCharacterFormatting() throws {
        let d = try RTFTestSupport.read(#"{\rtf1\ansi\deff0{\fonttbl{\f0 Times;}{\f1 Palatino;}}{\colortbl;\red255\green0\blue0;\red255\green255\blue0;}"#
            + #"\pard plain {\b bold} {\i it} {\ul u} {\strike s} {\super 2} {\sub x} {\scaps sc} {\f1\fs26 pal} {\cf1 red} {\highlight2 hi}\par}"#)
        let p = try XCTUnwrap(paragraphs(d).first)
        XCTAssertEqual(p.content.plainText, "plain bold it u s 2 x sc pal red hi")
        let runs = p.content.runs
        func format(of text: String) -> TextFormat? {
            runs.first { if case .text(let t) = $0.content { return t == text }; return false }?.format
        }
        XCTAssertEqual(format(of: "bold")?.bold, true)
        XCTAssertEqual(format(of: "it")?.italic, true)
        XCTAssertEqual(format(of: "u")?.underline, true)
        XCTAssertEqual(format(of: "s")?.strikethrough, true)
        XCTAssertEqual(format(of: "2")?.superscript, true)
        XCTAssertEqual(format(of: "x")?.subscript, true)
        XCTAssertEqual(format(of: "sc")?.smallCaps, true)
        XCTAssertEqual(format(of: "pal")?.style.fontFamily, "Palatino")
        XCTAssertEqual(format(of: "pal")?.style.fontSize, 13)
        XCTAssertEqual(format(of: "red")?.style.color, RGBColor(red: 255, green: 0, blue: 0))
        XCTAssertEqual(format(of: "hi")?.highlight, true)
    }

    func testScrivenerParagraphFormatting() throws {
        let rtf = #"""
        {\rtf1\ansi\ansicpg1252\cocoartf2639
        {\fonttbl\f0\fnil\fcharset0 Palatino-Roman;}
        {\colortbl;\red255\green255\blue255;}
        \pard\tx360\tx720\tqr\tldot\tx8640\fi720\sl288\slmult1\sb120\sa240\li36\ri72\qj\partightenfactor0
        \f0\fs26 \cf0 It was a dark night.\line Second line.\par
        \pard\sl-300\slmult0\qc Exactly.\par
        \pard\sl300\slmult0\qr At least.\par
        }
        """#
        let d = try RTFTestSupport.read(rtf)
        let ps = paragraphs(d)
        XCTAssertEqual(ps.count, 3)
        let s = ps[0].style
        XCTAssertEqual(s.firstLineIndent, 36)
        XCTAssertEqual(s.lineSpacing, .multiple(1.2))
        XCTAssertEqual(s.spaceBefore, 6)
        XCTAssertEqual(s.spaceAfter, 12)
        XCTAssertEqual(s.leftIndent, 1.8)
        XCTAssertEqual(s.rightIndent, 3.6)
        XCTAssertEqual(s.alignment, .justified)
        XCTAssertEqual(s.tabStops, [TabStop(position: 18), TabStop(position: 36), TabStop(position: 432, alignment: .right, leader: .dot)])
        XCTAssertEqual(ps[0].content.runs.first?.format.style.fontFamily, "Palatino-Roman")
        XCTAssertEqual(ps[0].content.runs.first?.format.style.fontSize, 13)
        XCTAssertEqual(ps[0].content.plainText, "It was a dark night.\nSecond line.")
        XCTAssertEqual(ps[1].style.lineSpacing, .exactly(15))
        XCTAssertEqual(ps[1].style.alignment, .center)
        XCTAssertEqual(ps[2].style.lineSpacing, .atLeast(15))
        XCTAssertEqual(ps[2].style.alignment, .right)
    }

    func testUnicodeFallbackSkipping() throws {
        // \uc1 skips one fallback character, \uc2 two (a \'hh counts as one), \uc0 none; a group ends skipping.
        let d = try RTFTestSupport.read(#"{\rtf1\ansi\uc1 a\u233?b{\uc2\u8212\'97-c}{\uc0\u8220}\u-10179?\u-8704?d\u960 {\'70}e}"#)
        XCTAssertEqual(RTFTestSupport.text(d), "aéb\u{2014}c“😀d\u{3c0}pe")
    }

    func testCodePages() throws {
        let cases: [(String, String, String)] = [
            ("1250", #"\'8a\'e8\'f9"#, "Ščů"),
            ("1251", #"\'cf\'f0\'e8\'e2\'e5\'f2"#, "Привет"),
            ("1252", #"caf\'e9 \'93q\'94"#, "café “q”"),
            ("10000", #"\'8e\'d2\'d3"#, "é“”"),
            ("10007", #"\'8f\'f0\'e8\'e2\'e5\'f2"#, "Привет"),
            ("932", #"\'82\'a0\'82\'a2"#, "あい"),
            ("936", #"\'d6\'d0\'ce\'c4"#, "中文"),
        ]
        for (cp, body, expected) in cases {
            let d = try RTFTestSupport.read(#"{\rtf1\ansi\ansicpg"# + cp + " " + body + "}")
            XCTAssertEqual(RTFTestSupport.text(d), expected, "code page \(cp)")
        }
        // A font's \fcharset wins over \ansicpg.
        let d = try RTFTestSupport.read(#"{\rtf1\ansi\ansicpg1252{\fonttbl{\f0\fcharset204 Arial;}{\f1\fcharset238 Arial CE;}}\f0 \'e4\'e0 \f1 \'b9}"#)
        XCTAssertEqual(RTFTestSupport.text(d), "да ą")
    }

    func testPlainTextEndsAtEveryPositionOfAWord() throws {
        // The tokenizer scans text eight bytes at a time: braces, escapes, line ends, NULs and raw 8-bit bytes at
        // every offset, and text longer than its 64 KiB pieces, must read as a byte at a time would.
        let pieces: [([UInt8], String)] = [
            (Array("a".utf8), "a"), (Array("xyz".utf8), "xyz"), ([0x20], " "), ([0xE9], "é"), (Array(#"\{"#.utf8), "{"),
            (Array(#"\}"#.utf8), "}"), (Array(#"\\"#.utf8), "\\"), ([0x0A], ""), ([0x0D, 0x0A], ""), ([0], ""),
            (Array("|~".utf8), "|~"), (Array("{z}".utf8), "z"), (Array("{{}ab}".utf8), "ab"),
        ]
        var rng = SystemRandomNumberGenerator()
        for length in Array(0..<40) + [200, 70_000] {
            var body: [UInt8] = Array("w".utf8)
            var expected = "w"
            for _ in 0..<length {
                let (bytes, text) = pieces.randomElement(using: &rng)!
                body += bytes
                expected += text
            }
            let rtf = Array(#"{\rtf1\ansi\ansicpg1252 "#.utf8) + body + Array(#"\par}"#.utf8)
            let d = try RTFReader().read(.bytes(rtf))
            let text = RTFTestSupport.text(d)
            XCTAssert(text == expected, "length \(length): " + RTFTestSupport.difference(text, expected))
        }
    }

    func testCorpusCodePagesDecode() throws {
        let expectations: [(String, String)] = [
            ("rtfparserkit/test10007Encoding.rtf", "Комманда разработчиков"),
            ("striprtf-kota7/europe.rtf", "Les Misérables"),
            ("striprtf-kota7/europe.rtf", "München"),
            ("striprtf-kota7/europe.rtf", "スペイン語"),
            ("striprtf-kota7/chinese-sas.rtf", "阿尔弗雷德"),
            ("striprtf-kota7/mac.rtf", "此文件是由“Office for Mac”创建的。"),
            ("striprtf-kota7/table-word.rtf", "Blah"),
            ("striprtf-kota7/libre.rtf", "リブレオフィスで作ったＲＴＦファイルです。"),
            ("rtfparserkit/testUnicode.rtf", "Česká republika"),
            ("pandoc/accent.rtf", "le café où on ne fume pas"),
        ]
        for (file, text) in expectations {
            let d = try RTFTestSupport.readFile(RTFTestSupport.corpusFile(file))
            XCTAssertTrue(RTFTestSupport.text(d).contains(text), "\(file) should contain \(text)")
            XCTAssertFalse(RTFTestSupport.text(d).contains("\u{FFFD}"), file)
        }
        let sas = try RTFTestSupport.readFile(RTFTestSupport.corpusFile("striprtf-kota7/chinese-sas.rtf"))
        XCTAssertEqual(sas.metadata.title, "版本 9.4 SAS 系统输出")
    }

    func testRevisions() throws {
        let rtf = #"{\rtf1\ansi{\*\revtbl {Unknown;}{Ann;}{Bob;}}Keep {\revised\revauth1\revdttm"# + "\(dttm(fromISO: "2024-01-15T14:30:00Z")!)"
            + #" new}{\deleted\revauthdel2\revdttmdel"# + "\(dttm(fromISO: "2024-02-01T09:05:00Z")!)" + #" old} end.\par}"#
        let d = try RTFTestSupport.read(rtf)
        let p = try XCTUnwrap(paragraphs(d).first)
        XCTAssertEqual(p.content, [
            .text("Keep "),
            .insertion(Change(author: "Ann", date: "2024-01-15T14:30:00Z"), [.text("new")]),
            .deletion(Change(author: "Bob", date: "2024-02-01T09:05:00Z"), [.text("old")]),
            .text(" end."),
        ])
    }

    func testParagraphMarkRevision() throws {
        let d = try RTFTestSupport.read(#"{\rtf1\ansi{\*\revtbl {Unknown;}{Ann;}}One{\revised\revauth1 \par}Two\par}"#)
        XCTAssertEqual(paragraphs(d).first?.markChange, .inserted(Change(author: "Ann")))
    }

    /// A mark one reviewer inserted and another deleted (Word's `\revised` with `\deleted`) is a break in
    /// neither version: its paragraph joins the next, as the DOCX reader reads `w:ins` with `w:del` on a mark.
    func testParagraphMarkInsertedAndDeletedJoinsTheNext() throws {
        let d = try RTFTestSupport.read(#"{\rtf1\ansi{\*\revtbl {Unknown;}{Ann;}{Bob;}}One{\revised\revauth1\deleted\revauthdel2 \par}Two\par Three\par}"#)
        XCTAssertEqual(paragraphs(d).map(\.markChange), [nil, nil])
        XCTAssertEqual(d.blocks.map(\.plainText), ["OneTwo", "Three"])
        for mode in [ChangeMode.accept, .reject] {
            XCTAssertEqual(try d.applying([ReviewTransform(mode)]).blocks.map(\.plainText), ["OneTwo", "Three"])
        }
    }

    func testAnnotationsAsComments() throws {
        let rtf = #"{\rtf1\ansi A {\*\atrfstart 7}commented{\*\atrfend 7}{\*\atnid AB}{\*\atnauthor Ann Bee}\chatn{\*\annotation{\*\atnref 7}{\*\atndate 1180187342}\pard Nice.\par} text{\*\atnid C}{\*\atnauthor Cy}\chatn{\*\annotation Point.}.\par}"#
        let d = try RTFTestSupport.read(rtf)
        let p = try XCTUnwrap(paragraphs(d).first)
        XCTAssertEqual(p.content, [.text("A "), .commentStart("7"), .text("commented"), .commentEnd("7"), .text(" text"),
                                   .commentPoint("rtf-annotation-2"), .text(".")])
        XCTAssertEqual(d.comments.count, 2)
        XCTAssertEqual(d.comments[0].id, "7")
        XCTAssertEqual(d.comments[0].author, "Ann Bee")
        XCTAssertEqual(d.comments[0].initials, "AB")
        XCTAssertNotNil(d.comments[0].date)
        XCTAssertEqual(d.comments[0].body, [.paragraph(Paragraph([.text("Nice.")]))])
        XCTAssertEqual(d.comments[1].body.first?.plainText, "Point.")
    }

    func testCommentRangeAcrossParagraphsTravelsWithFirstChunk() throws {
        let rtf = #"{\rtf1\ansi {\*\atrfstart 1}One\par Two{\*\atrfend 1}{\*\atnauthor Ann}\chatn{\*\annotation{\*\atnref 1}Body}\par}"#
        var source = try RTFReader().open(.bytes(Array(rtf.utf8)), options: ReadOptions(), diagnostics: Diagnostics())
        let first = try XCTUnwrap(source.next())
        XCTAssertEqual(first.comments.map(\.id), ["1"])
        let second = try XCTUnwrap(source.next())
        XCTAssertTrue(second.comments.isEmpty)
        XCTAssertNil(try source.next())
    }

    /// `ChunkAttacher`'s rule: a comment anchored in a footnote travels with the chunk of the paragraph that
    /// references the note (it used to wait for the last chunk).
    func testCommentInANoteTravelsWithTheNote() throws {
        let rtf = #"{\rtf1\ansi One{\footnote\pard Note{\*\atnid N}\chatn{\*\annotation In note.}.\par}.\par Two{\*\atnid T}\chatn{\*\annotation In body.}.\par}"#
        var source = try RTFReader().open(.bytes(Array(rtf.utf8)), options: ReadOptions(), diagnostics: Diagnostics())
        let first = try XCTUnwrap(source.next())
        XCTAssertEqual(first.notes.count, 1)
        XCTAssertEqual(first.comments.map { $0.body.first?.plainText }, ["In note."])
        let second = try XCTUnwrap(source.next())
        XCTAssertEqual(second.comments.map { $0.body.first?.plainText }, ["In body."])
        XCTAssertTrue(second.notes.isEmpty)
        XCTAssertNil(try source.next())
    }

    func testFootnotes() throws {
        let d = try RTFTestSupport.readFile(RTFTestSupport.corpusFile("pandoc/footnote.rtf"))
        XCTAssertEqual(d.notes.count, 2)
        XCTAssertEqual(d.notes[0].blocks.first?.plainText, "See Sahlins, Bateson, and Geertz for a complete bibliography.")
        var refs: [String] = []
        d.blocks[0].forEachInline { if case .noteReference(let id) = $0 { refs.append(id) } }
        XCTAssertEqual(refs, d.notes.map(\.id))
        let e = try RTFTestSupport.read(#"{\rtf1\ansi End{\footnote\ftnalt An endnote.}.\par}"#)
        XCTAssertEqual(e.notes.first?.kind, .endnote)
    }

    func testHyperlinksAndScrivenerLinks() throws {
        let comment = Comment(id: "X", author: "Me", body: [.paragraph(Paragraph([.text("A remark")]))])
        let note = Note(id: "N", blocks: [.paragraph(Paragraph([.text("A note")]))])
        let reader = RTFReader(scrivenerAnnotations: ["C1": .comment(comment), "F1": .footnote(note)],
                               scrivenerLinkTarget: { "#doc-" + $0 })
        let rtf = #"{\rtf1\ansi {\field{\*\fldinst{HYPERLINK "https://example.com/"}}{\fldrslt web}} "#
            + #"{\field{\*\fldinst{HYPERLINK "scrivcmt://C1"}}{\fldrslt commented}} "#
            + #"{\field{\*\fldinst{HYPERLINK "scrivcmt://F1"}}{\fldrslt noted}} "#
            + #"{\field{\*\fldinst{HYPERLINK "scrivlnk://ABC-123"}}{\fldrslt Chapter}}\par}"#
        let d = try reader.read(.bytes(Array(rtf.utf8)))
        let p = try XCTUnwrap(paragraphs(d).first)
        XCTAssertEqual(p.content, [
            .link(Link(url: "https://example.com/"), [.text("web")]), .text(" "),
            .commentStart("C1"), .text("commented"), .commentEnd("C1"), .text(" noted"), .noteReference("F1"), .text(" "),
            .link(Link(url: "#doc-ABC-123"), [.text("Chapter")]),
        ])
        XCTAssertEqual(d.comments, [Comment(id: "C1", author: "Me", body: comment.body)])
        XCTAssertEqual(d.notes, [Note(id: "F1", blocks: note.blocks)])
    }

    func testMetadata() throws {
        let d = try RTFTestSupport.read(#"{\rtf1\ansi{\info{\title The Book}{\author Ann; Bob}{\subject S}{\keywords k1}{\creatim\yr2024\mo3\dy9\hr8\min5}{\*\userprops {\propname date}\proptype30{\staticval 2024}}}Text\par}"#)
        XCTAssertEqual(d.metadata.title, "The Book")
        XCTAssertEqual(d.metadata.authors, ["Ann", "Bob"])
        XCTAssertEqual(d.metadata["subject"], .text("S"))
        XCTAssertEqual(d.metadata["created"], .text("2024-03-09T08:05:00Z"))
        XCTAssertEqual(d.metadata["date"], .text("2024"))
    }

    func testPictureKeptInTheMediaStore() throws {
        let d = try RTFTestSupport.readFile(RTFTestSupport.corpusFile("pandoc/image.rtf"))
        var images: [Image] = []
        d.blocks.forEach { $0.forEachInline { if case .image(let i) = $0 { images.append(i) } } }
        XCTAssertEqual(images.count, 1)
        XCTAssertEqual(images.first?.media?.kind, .jpeg)
        XCTAssertEqual(try images.first?.media?.bytes().prefix(3).map { $0 }, [0xFF, 0xD8, 0xFF])
        XCTAssertEqual(images.first?.width ?? 0, 144, accuracy: 0.01, "2 inches, as pandoc reads it")
    }
}
