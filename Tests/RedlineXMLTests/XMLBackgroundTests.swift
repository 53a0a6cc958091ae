import Foundation
import RedlineCore
import Synchronization
import RedlineXML
import XCTest

/// A reader parsing on its own thread gives exactly what an inline one gives: the same events in the
/// same order, the same error after the same events, and it stops cleanly when released early.
final class XMLBackgroundTests: XCTestCase {
    /// Many pieces of input (well over 64 KiB each), with attributes, text and nesting.
    private static let document: [UInt8] = {
        var s = #"<w:document xmlns:w="urn:w"><w:body>"#
        for i in 0..<40_000 {
            s += #"<w:p w:id="\#(i)"><w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve">text &amp; \#(i) </w:t></w:r></w:p>"#
        }
        return Array((s + "</w:body></w:document>").utf8)
    }()

    /// A `read` function over `bytes`, in `piece`-byte reads, that throws at offset `failAt`.
    private static func source(_ bytes: [UInt8], piece: Int = 1 << 16, failAt: Int? = nil)
        -> (UnsafeMutableRawBufferPointer) throws -> Int {
        var offset = 0
        return { buffer in
            if let failAt, offset >= failAt { throw RedlineError.io("the source broke at \(offset)") }
            let n = min(buffer.count, piece, bytes.count - offset)
            bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: n) }
            offset += n
            return n
        }
    }

    /// Every event as text, and the error that ended reading ("" when none).
    private static func trace(_ r: XMLReader) -> (events: [String], error: String) {
        var out: [String] = []
        do {
            while let k = try r.next() {
                switch k {
                case .start: out.append("<\(r.localName):\(r.nameID):\(r.namespace):\(r.attribute("id", in: 1) ?? "")")
                case .end: out.append(">\(r.depth)")
                case .text: out.append(r.text)
                }
            }
            XCTAssertNil(try r.next(), "the end is sticky")
            return (out, "")
        } catch {
            return (out, "\(error)")
        }
    }

    private func both(_ bytes: [UInt8], piece: Int = 1 << 16, failAt: Int? = nil) throws
        -> (inline: (events: [String], error: String), background: (events: [String], error: String)) {
        let names = ["p", "t", "body"]
        let inline = try XMLReader(name: "doc.xml", namespaces: ["urn:w": 1], names: names,
                                   read: Self.source(bytes, piece: piece, failAt: failAt))
        let background = try XMLReader(parsingInBackground: "doc.xml", namespaces: ["urn:w": 1], names: names,
                                       read: Self.source(bytes, piece: piece, failAt: failAt))
        return (Self.trace(inline), Self.trace(background))
    }

    func testSameEventsAsInline() throws {
        let (inline, background) = try both(Self.document)
        XCTAssertEqual(inline.error, "")
        XCTAssertGreaterThan(inline.events.count, 400_000)
        XCTAssertEqual(inline.events, background.events)
        XCTAssertEqual(background.error, "")
    }

    func testSameEventsInSmallPieces() throws {
        let (inline, background) = try both(Array(Self.document.prefix(200_000)) + Array("</w:p></w:body></w:document>".utf8), piece: 777)
        XCTAssertFalse(inline.error.isEmpty, "the cut document is malformed")
        XCTAssertEqual(inline.events, background.events)
        XCTAssertEqual(inline.error, background.error)
    }

    func testMalformedLateInTheInputSameErrorAfterTheSameEvents() throws {
        var bytes = Self.document
        bytes.replaceSubrange((bytes.count - 300)..<(bytes.count - 299), with: Array("<".utf8))
        let (inline, background) = try both(bytes)
        XCTAssertTrue(inline.error.contains("doc.xml"), inline.error)
        XCTAssertGreaterThan(inline.events.count, 100_000)
        XCTAssertEqual(inline.events, background.events)
        XCTAssertEqual(inline.error, background.error)
    }

    func testSourceErrorIsRethrownInOrder() throws {
        let (inline, background) = try both(Self.document, failAt: 5 << 16)
        XCTAssertTrue(inline.error.contains("the source broke"), inline.error)
        XCTAssertEqual(inline.events, background.events)
        XCTAssertEqual(inline.error, background.error)
    }

    func testRefusalIsDelivered() throws {
        let bytes = Array(#"<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x "y">]><d>&x;</d>"#.utf8)
        let (inline, background) = try both(bytes)
        XCTAssertTrue(inline.error.contains("DTD"), inline.error)
        XCTAssertEqual(inline.events, background.events)
        XCTAssertEqual(inline.error, background.error)
    }

    /// Released after a few events (the caller stopped early): the thread stops and is joined, and the
    /// source is released with it.
    func testStopsWhenReleasedEarly() throws {
        for _ in 0..<20 {
            let released = Released()
            do {
                let guardObject = DeinitFlag { released.flag.store(true, ordering: .sequentiallyConsistent) }
                let read = Self.source(Self.document)
                let r = try XMLReader(parsingInBackground: "doc.xml") { buffer in
                    _ = guardObject
                    return try read(buffer)
                }
                for _ in 0..<1000 { _ = try r.next() }
            }
            XCTAssertTrue(released.flag.load(ordering: .sequentiallyConsistent), "the source is released once the reader is")
        }
    }
}

/// Set on another thread (the parsing thread releases the source).
private final class Released: Sendable {
    let flag = Atomic<Bool>(false)
}

/// Calls `action` when released.
private final class DeinitFlag {
    let action: @Sendable () -> Void
    init(_ action: @escaping @Sendable () -> Void) { self.action = action }
    deinit { action() }
}
