import Foundation
import RedlineCore
import RedlineZip

/// `redline apply` onto a DOCX: the plan's steps written into ORIGINAL's own package as tracked changes.
/// Every part but `word/document.xml` (and the comments part, its relationship and content type when
/// comments are added) is copied as stored; in the body, paragraphs no step names keep their bytes.
public enum DOCXApply {
    public static func apply(_ plan: ApplyPlan, original: DocumentInput, accept: Bool, limits: Limits,
                             diagnostics: Diagnostics, into output: any ByteOutput) throws {
        if plan.isEmpty {
            // Nothing to write: ORIGINAL as it is, byte for byte.
            let bytes: [UInt8]
            switch original {
            case .bytes(let b): bytes = b
            case .file(let path):
                guard let d = FileManager.default.contents(atPath: path) else { throw RedlineError.io("cannot read \(path)") }
                bytes = [UInt8](d)
            }
            try bytes.withUnsafeBytes { try output.write($0) }
            return
        }
        let package = try DOCXPackage(original, limits: limits)
        let parts = try DOCXInPlaceReview.Parts(package)
        let archive = package.archive
        guard let docEntry = archive.entry(named: package.documentPart) else {
            throw RedlineError.malformed("the package has no main document part")
        }
        let doc = try archive.read(docEntry)
        var largest = ApplyIDs.largest(in: doc)
        var largestDocPr = ApplyPictures.largestDocPr(in: doc)
        for (name, _) in parts.ordered where name != docEntry.name {
            if let e = archive.entry(named: name) {
                let bytes = try archive.read(e)
                largest = max(largest, ApplyIDs.largest(in: bytes))
                largestDocPr = max(largestDocPr, ApplyPictures.largestDocPr(in: bytes))
            }
        }
        let ids = ApplyIDs(after: largest)
        let strict = DOCXLayoutTransfer.isStrict(documentPart: doc, name: docEntry.name, limits: limits)
        ids.pictures = ApplyPictures(package: package, largestDocPr: largestDocPr, strict: strict)
        var writer = try ApplyDocument(scan: ApplyXMLScan(doc), plan: plan, accept: accept, ids: ids,
                                       existingComments: try ReviewComments(package, parts: parts).all,
                                       styles: try package.part("styles", fallback: "word/styles.xml").map { try archive.read($0) } ?? [],
                                       numbering: try package.part("numbering", fallback: "word/numbering.xml").map { try archive.read($0) } ?? [])
        let newDoc = try writer.render()
        if writer.properties.outlineFallbacks > 0 {
            diagnostics.report(.docxApplyHeadingOutline, "\(writer.properties.outlineFallbacks) paragraphs made headings of a level ORIGINAL has no heading style for were given an outline level instead",
                               count: writer.properties.outlineFallbacks)
        }
        if writer.properties.missingStyles > 0 {
            diagnostics.report(.docxApplyStyleMissing, "\(writer.properties.missingStyles) paragraph styles EDITED gave are not among ORIGINAL's styles: those paragraphs keep theirs",
                               count: writer.properties.missingStyles)
        }
        if writer.keptInside > 0 {
            diagnostics.report(.docxApplyKept, "\(writer.keptInside) bytes of text inside equations or moves an edit covered were kept as they were")
        }
        var replaced: [String: [UInt8]] = [docEntry.name: newDoc]
        var added: [(String, [UInt8])] = []
        if !writer.newComments.isEmpty {
            try ApplyComments.add(writer.newComments, package: package, parts: parts, replaced: &replaced, added: &added)
        }
        try ids.pictures?.finish(package: package, replaced: &replaced, added: &added)
        let zip = try ZipWriter(compressionLevel: 1)
        for entry in archive.entries where !entry.isDirectory {
            if let bytes = replaced[entry.name] {
                try zip.add(entry.name, bytes: bytes)
            } else {
                try zip.copy(entry, from: archive)
            }
        }
        for (name, bytes) in added { try zip.add(name, bytes: bytes) }
        try zip.finish { try output.write($0) }
    }
}
