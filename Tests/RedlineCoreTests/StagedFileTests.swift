import Foundation
import XCTest
@testable import RedlineCore

/// The one atomic-write mechanism (`StagedFile`, `AtomicFile`): temporaries carry their process, are
/// removed on discard and failure, and clean-up removes only those whose process is gone.
final class StagedFileTests: XCTestCase {
    private var dir = ""

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "/staged-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: dir) }

    private func names() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted() }

    func testTemporaryCarriesThePIDAndCommitReplacesTheTarget() throws {
        try "old".write(toFile: dir + "/out.md", atomically: false, encoding: .utf8)
        let file = try StagedFile(path: dir + "/out.md")
        let name = (file.temporaryPath as NSString).lastPathComponent
        XCTAssertTrue(name.hasPrefix(".out.md.redline-\(getpid())-"), name)
        XCTAssertEqual(Temporaries.parse(name)?.target, "out.md")
        XCTAssertEqual(Temporaries.parse(name)?.pid, getpid())
        try file.output.write("new")
        XCTAssertEqual(try String(contentsOfFile: dir + "/out.md", encoding: .utf8), "old")
        try file.commit()
        XCTAssertEqual(try String(contentsOfFile: dir + "/out.md", encoding: .utf8), "new")
        XCTAssertEqual(names(), ["out.md"])
    }

    /// The temporary is named and registered before it is created (a SIGTERM between `mkstemp` and the
    /// registration left it behind: HostileInputTests.testTerminatedRunLeavesNoTemporary under load).
    func testTemporariesAreCreatedExclusivelyWithModeSixHundred() throws {
        let prefix = dir + "/.t.md" + Temporaries.marker + "\(getpid())-"
        let a = try Temporaries.create(prefix: prefix, in: dir)
        let b = try Temporaries.create(prefix: prefix, in: dir)
        defer { for t in [a, b] { close(t.fd); unlink(t.path); Temporaries.unregister(t.slot) } }
        XCTAssertNotEqual(a.path, b.path)
        XCTAssertGreaterThanOrEqual(a.slot, 0)
        XCTAssertEqual(Temporaries.parse((a.path as NSString).lastPathComponent)?.target, "t.md")
        var info = stat()
        XCTAssertEqual(stat(a.path, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o600)
        XCTAssertThrowsError(try Temporaries.create(prefix: dir + "/missing/x-", in: dir + "/missing")) { error in
            XCTAssertTrue("\(error)".contains("cannot write in \(dir)/missing"), "\(error)")
        }
    }

    func testFailedWriteLeavesTheTargetAndNoTemporary() throws {
        try "old".write(toFile: dir + "/out.md", atomically: false, encoding: .utf8)
        struct Stop: Error {}
        XCTAssertThrowsError(try AtomicFile.write(to: dir + "/out.md") { out in
            try out.write("half")
            throw Stop()
        })
        XCTAssertEqual(try String(contentsOfFile: dir + "/out.md", encoding: .utf8), "old")
        XCTAssertEqual(names(), ["out.md"])
        do { _ = try StagedFile(path: dir + "/dropped.md") }  // released without commit: discarded
        XCTAssertEqual(names(), ["out.md"])
    }

    func testCleanUpRemovesOnlyTemporariesOfGoneProcesses() throws {
        let dead = ".a.md.redline-999999999-AbCdEf", live = ".a.md.redline-1-AbCdEf", mine = ".b.md.redline-\(getpid())-AbCdEf"
        let other = ".c.md.redline-999999999-AbCdEf", unrelated = [".a.md.redline-AbCdEf", ".a.md.redline-x-AbCdEf", "a.md"]
        for n in [dead, live, mine, other] + unrelated { FileManager.default.createFile(atPath: dir + "/" + n, contents: Data()) }
        XCTAssertEqual(StagedFile.removeStaleTemporaries(for: [dir + "/a.md", dir + "/b.md"]), 1)
        XCTAssertEqual(names(), ([live, mine, other] + unrelated).sorted())
        XCTAssertEqual(Temporaries.removeStale(in: dir), 1)
        XCTAssertEqual(names(), ([live, mine] + unrelated).sorted())
    }

    /// `-o /dev/null` (or any device or pipe) is written, never replaced: renaming a temporary over it
    /// turned /dev/null into a plain file when the bench ran as root. A named pipe stands in for the device.
    func testATargetThatIsNotARegularFileIsWrittenDirectly() throws {
        let fifo = dir + "/pipe"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let received = LockedData()
        let reader = Thread {
            if let handle = FileHandle(forReadingAtPath: fifo) { received.set(handle.readDataToEndOfFile()) }
        }
        reader.start()
        try AtomicFile.write(to: fifo) { try $0.write("through the pipe") }
        for _ in 0..<10_000 where !received.isSet { usleep(1000) }
        if !received.isSet {  // the pipe was replaced: release the reader still waiting to open it
            XCTFail("nothing arrived through the pipe")
            let fd = open(fifo, O_WRONLY | O_NONBLOCK)
            if fd >= 0 { close(fd) }
        }
        XCTAssertEqual(String(decoding: received.get(), as: UTF8.self), "through the pipe")
        var info = stat()
        XCTAssertEqual(lstat(fifo, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFIFO, "the pipe is still a pipe")
        XCTAssertEqual(names(), ["pipe"], "no temporary beside it")
        XCTAssertThrowsError(try StagedFile(path: dir)) { XCTAssertTrue("\($0)".contains("directory"), "\($0)") }
    }

    /// A symbolic link is followed: the file it names is replaced whole, the link stays a link.
    func testASymbolicLinkIsFollowedAndKept() throws {
        try FileManager.default.createDirectory(atPath: dir + "/real", withIntermediateDirectories: true)
        try "old".write(toFile: dir + "/real/out.md", atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: dir + "/link.md", withDestinationPath: "real/out.md")
        try AtomicFile.write(to: dir + "/link.md") { try $0.write("new") }
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: dir + "/link.md"), "real/out.md")
        XCTAssertEqual(try String(contentsOfFile: dir + "/real/out.md", encoding: .utf8), "new")
        XCTAssertEqual(names(), ["link.md", "real"])
        // A dangling link gets its target created.
        try FileManager.default.createSymbolicLink(atPath: dir + "/new.md", withDestinationPath: dir + "/real/new.md")
        try AtomicFile.write(to: dir + "/new.md") { try $0.write("made") }
        XCTAssertEqual(try String(contentsOfFile: dir + "/real/new.md", encoding: .utf8), "made")
        XCTAssertNotNil(try? FileManager.default.destinationOfSymbolicLink(atPath: dir + "/new.md"))
    }
}

/// Bytes handed from a reader thread to the test.
private final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data: Data?
    func set(_ d: Data) { lock.lock(); data = d; lock.unlock() }
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return data != nil }
    func get() -> Data { lock.lock(); defer { lock.unlock() }; return data ?? Data() }
}
