import Foundation
import XCTest

/// The picture flags of `redline convert`: the default media folder, `--extract-media`, `--embed-media`,
/// `--resource-path`, standard output, and a batch.
final class MediaCommandTests: XCTestCase {
    let media = RepositoryPaths.root + "/Corpus/media"

    private func temporary() throws -> String {
        let dir = NSTemporaryDirectory() + "redline-media-cli-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: dir) }
        return dir
    }

    func testConvertFlags() throws {
        let dir = try temporary()
        let plain = try RedlineBinary.run(["convert", media + "/from-word.docx", "-o", dir + "/a.md", "--keep-formatting"])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertTrue(try String(contentsOfFile: dir + "/a.md", encoding: .utf8).contains("](a.media/image1.png){width=1in height=0.6667in}"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/a.media/image2.jpg"))

        let extract = try RedlineBinary.run(["convert", media + "/from-rtf.rtf", "-o", dir + "/b.md", "--extract-media", dir + "/figs"])
        XCTAssertEqual(extract.status, 0, extract.stderr)
        XCTAssertTrue(try String(contentsOfFile: dir + "/b.md", encoding: .utf8).contains("](figs/image1.png)"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/figs/image2.jpg"))

        let embed = try RedlineBinary.run(["convert", media + "/from-word.docx", "-o", dir + "/c.html", "--embed-media"])
        XCTAssertEqual(embed.status, 0, embed.stderr)
        XCTAssertTrue(try String(contentsOfFile: dir + "/c.html", encoding: .utf8).contains("<img src=\"data:image/jpeg;base64,"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/c.media"))

        let stdout = try RedlineBinary.run(["convert", media + "/from-word.docx", "--to", "md"])
        XCTAssertEqual(stdout.status, 0)
        XCTAssertTrue(stdout.stderr.contains("warning[media.not-extracted]"), stdout.stderr)

        try FileManager.default.createDirectory(atPath: dir + "/text", withIntermediateDirectories: true)
        try "![a](../art/red-square.png)\n".write(toFile: dir + "/text/t.md", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: dir + "/art", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: media + "/pictures/red-square.png", toPath: dir + "/art/red-square.png")
        let refused = try RedlineBinary.run(["convert", dir + "/text/t.md", "-o", dir + "/t1.docx"])
        XCTAssertEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains("warning[media.outside-resources]"), refused.stderr)
        let allowed = try RedlineBinary.run(["convert", dir + "/text/t.md", "-o", dir + "/t2.docx", "--resource-path", dir + "/art"])
        XCTAssertFalse(allowed.stderr.contains("media.outside-resources"), allowed.stderr)
        XCTAssertGreaterThan(try FileManager.default.attributesOfItem(atPath: dir + "/t2.docx")[.size] as? Int ?? 0,
                             try FileManager.default.attributesOfItem(atPath: dir + "/t1.docx")[.size] as? Int ?? 0)
    }

    func testBatchWithExtractMedia() throws {
        let dir = try temporary()
        try FileManager.default.createDirectory(atPath: dir + "/in/sub", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: media + "/from-word.docx", toPath: dir + "/in/sub/w.docx")
        try FileManager.default.copyItem(atPath: media + "/from-rtf.rtf", toPath: dir + "/in/r.rtf")
        let r = try RedlineBinary.run(["convert", dir + "/in", "-o", dir + "/out/", "--to", "md", "--extract-media", dir + "/pics"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/pics/sub/w.media/image2.jpg"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/pics/r.media/image1.png"))
        XCTAssertTrue(try String(contentsOfFile: dir + "/out/sub/w.md", encoding: .utf8).contains("](../../pics/sub/w.media/image1.png)"))
    }
}
