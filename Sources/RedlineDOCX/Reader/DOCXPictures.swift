import RedlineCore
import RedlineZip

/// The pictures of a DOCX package: each `word/media` part a drawing names is read once (within the
/// archive's limits) into the document's `MediaStore`; drawings that name it again get the same item.
final class DOCXPictures {
    private let archive: ZipArchive
    let store: MediaStore
    private var byPart: [String: MediaItem?] = [:]

    init(archive: ZipArchive, store: MediaStore) {
        self.archive = archive
        self.store = store
    }

    /// The picture in part `name` (a package path), or nil (reported) when it is missing or too large.
    func item(_ name: String, diagnostics: Diagnostics, at location: SourceLocation?) -> MediaItem? {
        if let known = byPart[name] { return known }
        var item: MediaItem?
        if let entry = archive.entry(named: name) {
            if entry.declaredSize > UInt64(store.limits.maxPictureBytes) {
                diagnostics.report(.mediaTooLarge, "a picture over the size limit (\(store.limits.maxPictureBytes >> 20) MiB) was left out: \(name)", at: location)
            } else {
                do { item = store.add(try archive.read(entry), name: name, diagnostics: diagnostics, at: location) } catch {
                    diagnostics.report(.mediaUnreadable, "a picture part could not be read (\(name)): \(error)", at: location)
                }
            }
        } else {
            diagnostics.report(.mediaMissing, "a picture part the document names is not in the package: \(name)", at: location)
        }
        byPart[name] = item
        return item
    }
}
