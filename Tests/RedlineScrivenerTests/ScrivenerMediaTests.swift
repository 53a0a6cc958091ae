import Foundation
import XCTest
import Redline
import RedlineCore
import RedlineScrivener

/// Pictures in a Scrivener migration: a `\pict` in an item's RTF and a picture item in the Draft come
/// along into the Markdown output's media folder (single layout) or as files (tree layout).
final class ScrivenerMediaTests: XCTestCase {
    let png = FileManager.default.contents(atPath: Fixtures.repo + "/Corpus/media/pictures/red-square.png")!
    let jpg = FileManager.default.contents(atPath: Fixtures.repo + "/Corpus/media/pictures/two-greys.jpg")!

    /// A small Scrivener 3 project: a text with an embedded JPEG, then a PNG picture item.
    func makeProject(in folder: String) throws -> String {
        let project = folder + "/Pictures.scriv"
        let fm = FileManager.default
        try fm.createDirectory(atPath: project + "/Files/Data/B2", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: project + "/Files/Data/B3", withIntermediateDirectories: true)
        let item = { (id: String, type: String, title: String, ext: String) in
            "<BinderItem UUID=\"\(id)\" Type=\"\(type)\"><Title>\(title)</Title><MetaData><IncludeInCompile>Yes</IncludeInCompile>"
                + (ext.isEmpty ? "" : "<FileExtension>\(ext)</FileExtension>") + "</MetaData></BinderItem>"
        }
        let scrivx = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<ScrivenerProject Version=\"2.0\"><Binder>"
            + "<BinderItem UUID=\"B1\" Type=\"DraftFolder\"><Title>Draft</Title><Children>"
            + item("B2", "Text", "Scene", "") + item("B3", "Image", "Map", "png")
            + "</Children></BinderItem></Binder></ScrivenerProject>\n"
        try scrivx.write(toFile: project + "/Pictures.scrivx", atomically: true, encoding: .utf8)
        let hex = jpg.map { String(format: "%02x", $0) }.joined()
        try "{\\rtf1\\ansi Before {\\pict\\jpegblip\\picwgoal240\\pichgoal120 \(hex)} after.\\par}"
            .write(toFile: project + "/Files/Data/B2/content.rtf", atomically: true, encoding: .utf8)
        fm.createFile(atPath: project + "/Files/Data/B3/content.png", contents: png)
        return project
    }

    func testSingleLayoutBringsEmbeddedAndBinderPictures() throws {
        let dir = try Fixtures.temporaryFolder(self)
        let project = try makeProject(in: dir)
        let out = dir + "/out/book.md"
        let report = try ScrivenerMigration.run(project: project, output: out,
                                                options: ScrivenerMigrationOptions(format: FormatRegistry.named("md")!))
        let text = try String(contentsOfFile: out, encoding: .utf8)
        XCTAssertTrue(text.contains("Before ![](book.media/image1.jpg) after."), text)
        XCTAssertTrue(text.contains("![Map](book.media/image2.png)"), text)
        XCTAssertEqual(FileManager.default.contents(atPath: dir + "/out/book.media/image1.jpg"), jpg)
        XCTAssertEqual(FileManager.default.contents(atPath: dir + "/out/book.media/image2.png"), png)
        XCTAssertFalse(report.project.contains { $0.code == .scrivenerMediaSkipped })
    }

    func testSingleLayoutToDOCXEmbedsThem() throws {
        let dir = try Fixtures.temporaryFolder(self)
        let project = try makeProject(in: dir)
        let out = dir + "/book.docx"
        _ = try ScrivenerMigration.run(project: project, output: out,
                                       options: ScrivenerMigrationOptions(format: FormatRegistry.named("docx")!))
        let doc = try Converter.read(.file(out), format: FormatRegistry.named("docx")!)
        var bytes: [[UInt8]] = []
        doc.blocks.forEach { $0.forEachInline { if case .image(let i) = $0, let b = try? i.media?.bytes() { bytes.append(b) } } }
        XCTAssertEqual(bytes, [[UInt8](jpg), [UInt8](png)])
    }

    func testTreeLayoutCopiesPictureItemsAndExtractsEmbeddedOnes() throws {
        let dir = try Fixtures.temporaryFolder(self)
        let project = try makeProject(in: dir)
        let out = dir + "/tree"
        _ = try ScrivenerMigration.run(project: project, output: out,
                                       options: ScrivenerMigrationOptions(format: FormatRegistry.named("md")!, layout: .tree))
        let files = try FileManager.default.subpathsOfDirectory(atPath: out).sorted()
        let copied = try XCTUnwrap(files.first { $0.hasSuffix(".png") && !$0.contains(".media/") }, "\(files)")
        XCTAssertEqual(FileManager.default.contents(atPath: out + "/" + copied), png)
        let extracted = try XCTUnwrap(files.first { $0.hasSuffix(".media/image1.jpg") }, "\(files)")
        XCTAssertEqual(FileManager.default.contents(atPath: out + "/" + extracted), jpg)
    }
}
