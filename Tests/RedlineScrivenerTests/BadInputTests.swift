import Foundation
import XCTest
@testable import RedlineScrivener
import Redline
import RedlineCore

final class BadInputTests: XCTestCase {
    private func open(_ root: String) throws -> (ScrivenerProject, Diagnostics) {
        let d = Diagnostics()
        return (try ScrivenerProject(path: root, diagnostics: d), d)
    }

    private func assertError(_ kind: RedlineError.Kind, _ contains: String, _ body: () throws -> Void,
                             file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try body(), file: file, line: line) { e in
            guard let r = e as? RedlineError else { return XCTFail("not a RedlineError: \(e)", file: file, line: line) }
            XCTAssertEqual(r.kind, kind, r.message, file: file, line: line)
            XCTAssertTrue(r.message.contains(contains), r.message, file: file, line: line)
        }
    }

    func testFolderWithoutBinder() throws {
        let dir = try Fixtures.temporaryFolder(self) + "/Empty.scriv"
        try Fixtures.write(["Files/Data/x.txt": "x"], under: dir)
        assertError(.malformedInput, "no .scrivx") { _ = try open(dir) }
    }

    func testMissingFolderAndPlainFile() throws {
        let dir = try Fixtures.temporaryFolder(self)
        assertError(.io, "no such project folder") { _ = try open(dir + "/Nope.scriv") }
        try Fixtures.write(["file.scriv": "x"], under: dir)
        assertError(.unsupportedInput, "a .scriv project is a folder") { _ = try open(dir + "/file.scriv") }
    }

    func testMalformedBinderXML() throws {
        let dir = try Fixtures.temporaryFolder(self) + "/Bad.scriv"
        try Fixtures.write(["Bad.scrivx": "<ScrivenerProject><Binder><BinderItem></Binder>"], under: dir)
        assertError(.malformedInput, "Bad.scrivx") { _ = try open(dir) }
    }

    func testBinderWithEntitiesIsRefused() throws {
        let dir = try Fixtures.temporaryFolder(self) + "/Evil.scriv"
        let xml = """
        <?xml version="1.0"?>
        <!DOCTYPE ScrivenerProject [<!ENTITY x SYSTEM "file:///etc/passwd">]>
        <ScrivenerProject Version="2.0"><Binder><BinderItem UUID="A" Type="DraftFolder"><Title>&x;</Title></BinderItem></Binder></ScrivenerProject>
        """
        try Fixtures.write(["Evil.scrivx": xml], under: dir)
        assertError(.unsupportedInput, "DTD") { _ = try open(dir) }
    }

    func testBinderWithoutDraftFolder() throws {
        let dir = try Fixtures.temporaryFolder(self) + "/NoDraft.scriv"
        try Fixtures.write(["NoDraft.scrivx": "<ScrivenerProject Version=\"2.0\"><Binder/></ScrivenerProject>"], under: dir)
        assertError(.malformedInput, "no Draft") { _ = try open(dir) }
    }

    func testWrongRootElement() throws {
        let dir = try Fixtures.temporaryFolder(self) + "/Other.scriv"
        try Fixtures.write(["Other.scrivx": "<html><body/></html>"], under: dir)
        assertError(.malformedInput, "not <ScrivenerProject>") { _ = try open(dir) }
    }

    func testUnsafeIDsBuildNoPaths() throws {
        let dir = try Fixtures.temporaryFolder(self) + "/Hostile.scriv"
        let items = """
        <BinderItem UUID="../../../secret" Type="Text"><Title>Up</Title><MetaData><IncludeInCompile>Yes</IncludeInCompile></MetaData></BinderItem>
        <BinderItem UUID="a/b" Type="Text"><Title>Slash</Title><MetaData><IncludeInCompile>Yes</IncludeInCompile></MetaData></BinderItem>
        <BinderItem ID="1_notes" Type="Text"><Title>Underscore</Title><MetaData><IncludeInCompile>Yes</IncludeInCompile></MetaData></BinderItem>
        """
        try Fixtures.write(["Hostile.scrivx": Fixtures.binder(items)], under: dir)
        // A file the traversal would reach if ids were used as they are.
        try Fixtures.write(["secret/content.rtf": Fixtures.rtf("SECRET")], under: dir + "/..")
        let (p, d) = try open(dir)
        for n in p.manuscript(diagnostics: d) {
            XCTAssertNil(p.relativePath(of: .text, for: n.item, diagnostics: d))
            let text = try p.readText(of: n.item, diagnostics: d) { _ in nil }
            XCTAssertTrue(text.document.blocks.isEmpty)
        }
        XCTAssertEqual(d.count(of: .scrivenerUnsafeID), 15, "each of 3 items × 5 lookups is refused")
    }

    func testSymlinkOutOfTheProjectIsNotRead() throws {
        let tmp = try Fixtures.temporaryFolder(self)
        let dir = tmp + "/Links.scriv"
        let id = "00000000-0000-4000-8000-0000000000AA"
        try Fixtures.write([
            "Links.scrivx": Fixtures.binder("<BinderItem UUID=\"\(id)\" Type=\"Text\"><Title>T</Title><MetaData><IncludeInCompile>Yes</IncludeInCompile></MetaData></BinderItem>"),
        ], under: dir)
        try Fixtures.write(["outside.txt": "secret synopsis"], under: tmp)
        try FileManager.default.createDirectory(atPath: dir + "/Files/Data/\(id)", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir + "/Files/Data/\(id)/synopsis.txt", withDestinationPath: tmp + "/outside.txt")
        let (p, d) = try open(dir)
        let item = try XCTUnwrap(p.manuscript(diagnostics: d).first?.item)
        XCTAssertNil(p.path(of: .synopsis, for: item, diagnostics: d))
        XCTAssertEqual(d.count(of: .scrivenerOutsideProject), 1)
    }

    func testDuplicateIDsGetFilesOnce() throws {
        let dir = try Fixtures.temporaryFolder(self) + "/Dup.scriv"
        let item = "<BinderItem UUID=\"00000000-0000-4000-8000-0000000000BB\" Type=\"Text\"><Title>T</Title><MetaData><IncludeInCompile>Yes</IncludeInCompile></MetaData></BinderItem>"
        try Fixtures.write(["Dup.scrivx": Fixtures.binder(item + item)], under: dir)
        let (p, d) = try open(dir)
        XCTAssertEqual(p.manuscript(diagnostics: d).map(\.item.id), ["00000000-0000-4000-8000-0000000000BB", ""])
        XCTAssertEqual(d.count(of: .scrivenerDuplicateID), 1)
    }

    func testDeepBinderIsALimit() throws {
        let dir = try Fixtures.temporaryFolder(self) + "/Deep.scriv"
        var xml = ""
        for i in 0..<110 { xml += "<BinderItem UUID=\"D\(i)\" Type=\"Folder\"><Children>" }
        for _ in 0..<110 { xml += "</Children></BinderItem>" }
        try Fixtures.write(["Deep.scrivx": Fixtures.binder(xml)], under: dir)
        assertError(.limitExceeded, "deeper") { _ = try open(dir) }
    }

    func testSafeIDs() {
        XCTAssertTrue(ProjectFolder.isSafeID("8A5C2E10-3B7D-4F21-9E6A-0C1D2E3F4A04"))
        XCTAssertTrue(ProjectFolder.isSafeID("12"))
        for bad in ["", "..", "../x", "a/b", "a\\b", "1_notes", "a b", "x\0y", "é"] {
            XCTAssertFalse(ProjectFolder.isSafeID(bad), bad)
        }
    }
}
