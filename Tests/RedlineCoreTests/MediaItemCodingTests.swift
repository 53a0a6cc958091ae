import Foundation
import XCTest
@testable import RedlineCore

/// `MediaItem` in JSON (model dumps, batch workers): its content facts only, never its temporary file.
final class MediaItemCodingTests: XCTestCase {
    func testEncodesItsFactsAndDecodesWithoutBytes() throws {
        let store = MediaStore()
        let bytes: [UInt8] = Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0, 0x3B]
        let item = try XCTUnwrap(store.add(bytes, name: "a.gif", diagnostics: Diagnostics()))
        XCTAssertEqual(try item.bytes(), bytes)
        let json = try JSONEncoder().encode(item)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        XCTAssertEqual(Set(object.keys), ["id", "kind", "byteCount", "info"])
        XCTAssertEqual(object["id"] as? String, item.id)
        XCTAssertEqual(object["kind"] as? String, "gif")
        XCTAssertEqual(object["byteCount"] as? Int, bytes.count)
        let back = try JSONDecoder().decode(MediaItem.self, from: json)
        XCTAssertEqual(back, item)
        XCTAssertEqual(back.info, item.info)
        XCTAssertNil(back.file)
        XCTAssertThrowsError(try back.bytes())
    }
}
