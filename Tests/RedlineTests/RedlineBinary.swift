import Foundation

/// Runs the built `redline` (`.build/<config>/redline`, beside the test bundle) with output in files.
enum RedlineBinary {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static var executable: String {
        let bundle = Bundle.main.bundleURL.path
        let candidates = [(bundle as NSString).deletingLastPathComponent + "/redline", bundle + "/redline",
                          RepositoryPaths.root + "/.build/debug/redline"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[2]
    }

    /// Runs `redline ARGS` (or, with `raw`, the program ARGS[0]) with `stdin` as its standard input;
    /// `asNobody` drops to uid 65534 first.
    static func run(_ arguments: [String], stdin: String? = nil, raw: Bool = false,
                    asNobody: Bool = false) throws -> Result {
        let out = NSTemporaryDirectory() + "redline-cli-\(UUID().uuidString)"
        FileManager.default.createFile(atPath: out + ".out", contents: nil)
        FileManager.default.createFile(atPath: out + ".err", contents: nil)
        FileManager.default.createFile(atPath: out + ".in", contents: Data((stdin ?? "").utf8))
        defer { unlink(out + ".out"); unlink(out + ".err"); unlink(out + ".in") }
        let p = process(raw ? arguments : [executable] + arguments, asNobody: asNobody)
        if stdin != nil { p.standardInput = FileHandle(forReadingAtPath: out + ".in") }
        p.standardOutput = FileHandle(forWritingAtPath: out + ".out")
        p.standardError = FileHandle(forWritingAtPath: out + ".err")
        try p.run()
        p.waitUntilExit()
        func read(_ path: String) -> String { String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self) }
        return Result(status: p.terminationStatus, stdout: read(out + ".out"), stderr: read(out + ".err"))
    }

    /// Starts `redline ARGS` with its output discarded (to be killed), `environment` added to this one's.
    static func start(_ arguments: [String], environment: [String: String] = [:]) throws -> Process {
        let p = process([executable] + arguments, asNobody: false)
        if !environment.isEmpty { p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        return p
    }

    private static func process(_ command: [String], asNobody: Bool) -> Process {
        let p = Process()
        let full = asNobody ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + command : command
        p.executableURL = URL(fileURLWithPath: full[0])
        p.arguments = Array(full.dropFirst())
        p.standardInput = FileHandle.nullDevice
        return p
    }

    /// Python that writes N small, different DOCX files (with tracked changes and a comment) into a directory.
    static let makeDocxScript = #"""
import os, sys, zipfile
out, n = sys.argv[1], int(sys.argv[2])
W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main'
CT = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
      '<Default Extension="xml" ContentType="application/xml"/>'
      '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>')
RELS = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>')
for i in range(n):
    d = os.path.join(out, 'batch%d' % (i % 10))
    os.makedirs(d, exist_ok=True)
    body = ''.join('<w:p><w:r><w:t xml:space="preserve">Paragraph %d of document %d </w:t></w:r>'
                   '<w:ins w:id="%d" w:author="Ann" w:date="2024-01-15T14:30:00Z"><w:r><w:t>added</w:t></w:r></w:ins>'
                   '<w:del w:id="%d" w:author="Bob"><w:r><w:delText>removed</w:delText></w:r></w:del></w:p>' % (p, i, 2 * p + 1, 2 * p + 2)
                   for p in range(5))
    doc = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="%s"><w:body>%s</w:body></w:document>' % (W, body)
    with zipfile.ZipFile(os.path.join(d, 'doc%04d.docx' % i), 'w', zipfile.ZIP_DEFLATED) as z:
        z.writestr('[Content_Types].xml', CT)
        z.writestr('_rels/.rels', RELS)
        z.writestr('word/document.xml', doc)
"""#
}
