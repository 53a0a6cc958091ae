internal import CLibZip

/// The libzip library Redline runs with.
public enum ZipLibrary {
    /// Its version as the library reports it at run time (`zip_libzip_version()`).
    public static var version: String { String(cString: zip_libzip_version()) }
}
