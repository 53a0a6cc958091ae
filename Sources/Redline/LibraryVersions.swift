import RedlineMarkdown
import RedlineXML
import RedlineZip

/// The C libraries Redline runs with, as each reports its version at run time (not the headers it was
/// built against): what `redline --version` prints.
public enum LibraryVersions {
    /// Name and version of libxml2, libzip and cmark-gfm.
    public static var all: [(name: String, version: String)] {
        [("libxml2", XMLLibrary.version), ("libzip", ZipLibrary.version), ("cmark-gfm", CmarkLibrary.version)]
    }
}
