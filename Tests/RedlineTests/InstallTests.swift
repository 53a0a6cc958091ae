import Foundation
import XCTest

/// `make install`'s script into a temporary prefix: the binary, a man page that `man -l` renders, bash,
/// zsh and fish completions (the bash one loads and completes), and `uninstall` removes them all.
final class InstallTests: XCTestCase {
    func testInstallIntoATemporaryPrefixAndUninstall() throws {
        let generator = RepositoryPaths.root + "/.build/debug/generate-manual"
        guard FileManager.default.isExecutableFile(atPath: generator),
              (try? RedlineBinary.run(["/usr/bin/which", "man"], raw: true))?.status == 0 else {
            if ProcessInfo.processInfo.environment["CI"] != nil { XCTFail("make test builds generate-manual and installs man-db") }
            throw XCTSkip("needs `swift build --product generate-manual` and man-db (make test does both)")
        }
        let prefix = NSTemporaryDirectory() + "redline-prefix-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: prefix) }
        let install = try RedlineBinary.run(["/usr/bin/env", "GENERATE_MANUAL=\(generator)", "bash",
                                             RepositoryPaths.root + "/scripts/install.sh", "install",
                                             RedlineBinary.executable, prefix], raw: true)
        XCTAssertEqual(install.status, 0, install.stderr)
        let files = ["bin/redline", "share/man/man1/redline.1", "share/bash-completion/completions/redline",
                     "share/zsh/site-functions/_redline", "share/fish/vendor_completions.d/redline.fish"]
        for f in files { XCTAssertTrue(FileManager.default.fileExists(atPath: prefix + "/" + f), f) }

        let version = try RedlineBinary.run([prefix + "/bin/redline", "--version"], raw: true)
        XCTAssertTrue(version.stdout.hasPrefix("redline 0."), version.stdout)
        for lib in ["libxml2 2.", "libzip 1.", "cmark-gfm 0."] { XCTAssertTrue(version.stdout.contains(lib), version.stdout) }

        let man = try RedlineBinary.run(["/usr/bin/env", "MANWIDTH=100", "man", "-l", prefix + "/share/man/man1/redline.1"], raw: true)
        XCTAssertEqual(man.status, 0, man.stderr)
        XCTAssertTrue(man.stdout.contains("REDLINE(1)") && man.stdout.contains("--changes"), man.stdout)
        XCTAssertTrue(man.stdout.contains("convert") && man.stdout.contains("check"), man.stdout)

        let script = "source '\(prefix)/share/bash-completion/completions/redline' && COMP_WORDS=(redline con) && COMP_CWORD=1 && _redline redline con redline && echo \"${COMPREPLY[*]}\""
        let bash = try RedlineBinary.run(["/bin/bash", "-c", script], raw: true)
        XCTAssertEqual(bash.status, 0, bash.stderr)
        XCTAssertEqual(bash.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "convert", bash.stdout + bash.stderr)

        let uninstall = try RedlineBinary.run(["/bin/bash", RepositoryPaths.root + "/scripts/install.sh", "uninstall", prefix], raw: true)
        XCTAssertEqual(uninstall.status, 0, uninstall.stderr)
        for f in files { XCTAssertFalse(FileManager.default.fileExists(atPath: prefix + "/" + f), f) }
    }
}
