/// The shared test support (corpus paths, FormatMissing, SeededRandom) in every file of this target.
@_exported import RedlineTestSupport
