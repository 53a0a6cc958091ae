import Foundation
import RedlineCore
import RedlineZip

/// `redline apply` onto a DOCX: the plan's steps written into ORIGINAL's own package as tracked changes.
/// Every part but `word/document.xml` (and the comments part, its relationship and content type when
/// comments are added) is copied as stored; in the body, paragraphs no step names keep their bytes.
public enum DOCXApply {
    /// ORIGINAL's package as the applier reads it whatever the plan: its main part scanned and its body's
    /// paragraphs with their texts, the largest change and drawing ids, comments, styles and numbering. Made
    /// ahead, on a second thread while the plan is being worked out (`prepare`).
    public struct Prepared: @unchecked Sendable {
        // (@unchecked: the package's archive is read by one thread at a time: `prepare`'s, then `apply`'s.)
        fileprivate let package: DOCXPackage
        fileprivate let parts: DOCXInPlaceReview.Parts
        fileprivate let documentPart: String
        fileprivate let body: ApplyBody
        fileprivate let largest: Int, largestDocPr: Int
        fileprivate let strict: Bool
        fileprivate let existingComments: [ReviewComments.Entry]
        fileprivate let styles: [UInt8], numbering: [UInt8]
    }

    /// Reads what `apply(_:prepared:…)` needs of `original` whatever the plan.
    public static func prepare(original: DocumentInput, limits: Limits) throws -> Prepared {
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
        return Prepared(package: package, parts: parts, documentPart: docEntry.name, body: try ApplyBody(ApplyXMLScan(doc)),
                        largest: largest, largestDocPr: largestDocPr,
                        strict: DOCXLayoutTransfer.isStrict(documentPart: doc, name: docEntry.name, limits: limits),
                        existingComments: try ReviewComments(package, parts: parts).all,
                        styles: try package.part("styles", fallback: "word/styles.xml").map { try archive.read($0) } ?? [],
                        numbering: try package.part("numbering", fallback: "word/numbering.xml").map { try archive.read($0) } ?? [])
    }

    /// Writes `plan` into ORIGINAL's package.
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
        try apply(plan, prepared: try prepare(original: original, limits: limits), accept: accept,
                  diagnostics: diagnostics, into: output)
    }

    /// Writes `plan` into the package `prepared` read (an empty plan too: `apply(_:original:…)` copies
    /// ORIGINAL's bytes for one without reading them).
    public static func apply(_ plan: ApplyPlan, prepared: Prepared, accept: Bool, diagnostics: Diagnostics,
                             into output: any ByteOutput) throws {
        let package = prepared.package, parts = prepared.parts
        let ids = ApplyIDs(after: prepared.largest)
        ids.pictures = ApplyPictures(package: package, largestDocPr: prepared.largestDocPr, strict: prepared.strict)
        if !plan.newNotes.isEmpty { ids.notes = ApplyNewNotes(plan.newNotes, ids: ids, styles: prepared.styles) }
        var writer = ApplyDocument(body: prepared.body, plan: plan, accept: accept, ids: ids,
                                   existingComments: prepared.existingComments, styles: prepared.styles,
                                   numbering: prepared.numbering)
        let newDoc = try writer.render()
        if writer.properties.outlineFallbacks > 0 {
            diagnostics.report(.docxApplyHeadingOutline, "\(writer.properties.outlineFallbacks) paragraphs made headings of a level ORIGINAL has no heading style for were given an outline level instead",
                               count: writer.properties.outlineFallbacks)
        }
        if writer.properties.missingStyles > 0 {
            diagnostics.report(.docxApplyStyleMissing, "\(writer.properties.missingStyles) paragraph styles EDITED gave are not among ORIGINAL's styles: those paragraphs keep theirs",
                               count: writer.properties.missingStyles)
        }
        var edits = ApplyPackageEdits(package: package)
        edits.store(prepared.documentPart, newDoc)
        // Notes after the body: its inserted references name the new notes. Pictures inserted in notes, headers
        // and footers are written as their alt text (their relationships would belong to those parts).
        let pictures = ids.pictures
        ids.pictures = nil
        let notes = try ApplyNotes.write(plan, newNotes: ids.notes, package: package, accept: accept, ids: ids,
                                         existingComments: prepared.existingComments, styles: prepared.styles,
                                         numbering: prepared.numbering, into: &edits)
        let keptInStories = try ApplyHeadersFooters.write(plan, scan: prepared.body.scan, package: package, accept: accept,
                                                          ids: ids, styles: prepared.styles, numbering: prepared.numbering,
                                                          into: &edits)
        ids.pictures = pictures
        let kept = writer.keptInside + notes.keptInside + keptInStories
        if kept > 0 {
            diagnostics.report(.docxApplyKept, "\(kept) bytes of text inside equations or moves an edit covered were kept as they were")
        }
        let newComments = writer.newComments + notes.newComments
        if !newComments.isEmpty {
            try ApplyComments.add(newComments, parts: parts, into: &edits)
        }
        for (kind, xml) in notes.newParts {
            try ApplyNotes.addPart(kind, notes: xml, into: &edits)
        }
        try ids.pictures?.finish(into: &edits)
        let zip = try ZipWriter(compressionLevel: 1)
        let archive = package.archive
        for entry in archive.entries where !entry.isDirectory {
            if let bytes = edits.replaced[entry.name] {
                try zip.add(entry.name, bytes: bytes)
            } else {
                try zip.copy(entry, from: archive)
            }
        }
        for (name, bytes) in edits.added { try zip.add(name, bytes: bytes) }
        try zip.finish { try output.write($0) }
    }
}
