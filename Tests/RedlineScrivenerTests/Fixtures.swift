import Foundation
import XCTest
@testable import RedlineScrivener
import RedlineCore

/// Paths to the hand-built projects in `Corpus/scrivener` and helpers for throwaway projects.
enum Fixtures {
    /// The repository root (three levels above this file).
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let corpus = repo + "/Corpus/scrivener"
    static let lighthouse = corpus + "/Lighthouse.scriv"
    static let garden = corpus + "/Garden.scriv"
    static let golden = repo + "/Golden/scrivener"

    /// A fresh temporary folder, removed at the end of the test.
    static func temporaryFolder(_ test: XCTestCase) throws -> String {
        let dir = NSTemporaryDirectory() + "redline-scrivener-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        test.addTeardownBlock { try? FileManager.default.removeItem(atPath: dir) }
        return dir
    }

    /// Writes `files` (relative path → text) under `root`.
    static func write(_ files: [String: String], under root: String) throws {
        for (path, text) in files {
            let full = root + "/" + path
            try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: full))
        }
    }

    /// A minimal Scrivener 3 RTF text.
    static func rtf(_ body: String) -> String {
        "{\\rtf1\\ansi\\ansicpg1252\\cocoartf2761\n{\\fonttbl\\f0\\fnil\\fcharset0 Palatino-Roman;}\n"
            + "\\pard\\fi720\\sl288\\slmult1\\pardirnatural\n\n\\f0\\fs26 \\cf0 " + body + "}"
    }

    /// A binder with the given Draft children (XML of `BinderItem`s).
    static func binder(_ draftChildren: String, version: String = "2.0") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <ScrivenerProject Version="\(version)">
            <Binder>
                <BinderItem UUID="00000000-0000-4000-8000-000000000001" Type="DraftFolder">
                    <Title>Draft</Title>
                    <Children>\(draftChildren)</Children>
                </BinderItem>
            </Binder>
        </ScrivenerProject>
        """
    }
}
