import XCTest
@testable import RedlineCore

/// The content hash behind picture ids: known vectors, and pieces of any size giving the same digest.
final class SHA256Tests: XCTestCase {
    func testPiecesAcrossBlockBoundariesGiveTheWholeDigest() {
        let message = (0..<1_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let whole = ContentHash.sha256(message)
        for size in [1, 7, 63, 64, 65, 200] {
            var h = SHA256()
            var i = 0
            while i < message.count {
                let end = min(i + size, message.count)
                message[i..<end].withUnsafeBytes { h.update($0) }
                i = end
            }
            XCTAssertEqual(h.hexDigest(), whole, "pieces of \(size)")
        }
        // FIPS 180-4 two-block message.
        XCTAssertEqual(ContentHash.sha256(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)),
                       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }
}
