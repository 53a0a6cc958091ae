// swift-tools-version: 6.1
import PackageDescription

/// Redline: a streaming document-conversion pipeline (parse → transform → emit)
/// for Markdown, CriticMarkup, HTML, RTF and DOCX around one document model.
let package = Package(
    name: "Redline",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "Redline", targets: ["Redline"]),
        .library(name: "RedlineMCP", targets: ["RedlineMCP"]),
        .executable(name: "redline", targets: ["redline"]),
        .executable(name: "redline-mcp", targets: ["redline-mcp"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // `make docs`: the library's API documentation (DocC), built only when asked for.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
        // `redline mcp`: the Model Context Protocol server (its MCP target needs swift-system and swift-log on Linux).
        .package(url: "https://github.com/modelcontextprotocol/swift-sdk", from: "0.12.1"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.5.0"),
    ],
    targets: [
        // C libraries, each behind one system-library target and imported by exactly one Swift module.
        .systemLibrary(name: "CCmarkGFM", pkgConfig: "libcmark-gfm",
                       providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"])]),
        .systemLibrary(name: "CLibZip", pkgConfig: "libzip",
                       providers: [.apt(["libzip-dev"]), .brew(["libzip"])]),
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0",
                       providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]),

        // The hub: document model, stage chain, transforms, diagnostics. Pure Swift.
        .target(name: "RedlineCore"),

        // Thin Swift fronts on the C libraries.
        .target(name: "RedlineZip", dependencies: ["RedlineCore", "CLibZip"]),
        .target(name: "RedlineXML", dependencies: ["RedlineCore", "CLibXML2"]),

        // Format families.
        .target(name: "RedlineMarkdown", dependencies: ["RedlineCore", "CCmarkGFM"]),
        .target(name: "RedlineHTML", dependencies: ["RedlineCore"]),
        .target(name: "RedlineDOCX", dependencies: ["RedlineCore", "RedlineZip", "RedlineXML"]),
        .target(name: "RedlineRTF", dependencies: ["RedlineCore"]),
        .target(name: "RedlineScrivener", dependencies: ["RedlineCore", "RedlineRTF", "RedlineXML"]),

        // Document comparison: two versions in, one with tracked changes out.
        .target(name: "RedlineCompare", dependencies: ["RedlineCore"]),

        // PDF output: the marked, clean or original version laid out by Chromium or LibreOffice.
        .target(name: "RedlinePDF", dependencies: ["RedlineCore", "RedlineDOCX", "RedlineHTML"]),

        // The format registry and the one route decision (ConversionPlan): in place, through the model,
        // or through compare; single conversions, comparisons, in-place review, change listing.
        .target(name: "RedlineConversion", dependencies: [
            "RedlineCore", "RedlineMarkdown", "RedlineHTML", "RedlineDOCX", "RedlineRTF", "RedlinePDF",
            "RedlineCompare",
        ]),

        // Many documents: batch conversion and comparison, export's versions, worker processes, journal.
        .target(name: "RedlineBatch", dependencies: ["RedlineConversion", "RedlineCompare"]),
        // `redline check`: what a document still holds and what converting it would lose.
        .target(name: "RedlineCheck", dependencies: ["RedlineConversion", "RedlineBatch", "RedlineMarkdown", "RedlineDOCX"]),
        // Scrivener projects migrated to one file per binder item or one manuscript.
        .target(name: "RedlineMigration", dependencies: ["RedlineConversion", "RedlineBatch", "RedlineScrivener"]),

        // The library product: the facade that re-exports the modules above, and the AttributedString bridge.
        .target(name: "Redline", dependencies: [
            "RedlineCore", "RedlineMarkdown", "RedlineXML", "RedlineZip", "RedlineConversion", "RedlineBatch",
            "RedlineCheck", "RedlineMigration", "RedlinePDF", "RedlineCompare",
        ]),

        // `redline mcp`: a Model Context Protocol server (stdio) whose tools read, review, comment on, edit
        // (as tracked changes) and compare documents under one root directory.
        .target(name: "RedlineMCP", dependencies: [
            "Redline", .product(name: "MCP", package: "swift-sdk"), .product(name: "Logging", package: "swift-log"),
        ]),

        // The command line: commands live in a library so tests can call them without a process.
        .target(name: "RedlineCLI", dependencies: [
            "Redline", .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .executableTarget(name: "redline", dependencies: ["RedlineCLI"]),
        // `redline mcp` runs this program: the MCP SDK stays out of `redline` itself (start-up cost).
        .executableTarget(name: "redline-mcp", dependencies: ["RedlineMCP"]),

        // What several test targets share: the repository and corpus paths, FormatMissing, SeededRandom,
        // DOCXPackageDump (a DOCX package's XML parts as canonical text, for goldens).
        .target(name: "RedlineTestSupport", dependencies: ["RedlineCore", "RedlineZip", "RedlineXML"],
                path: "Tests/RedlineTestSupport"),
        .testTarget(name: "RedlineCoreTests", dependencies: ["RedlineCore", "RedlineTestSupport"]),
        .testTarget(name: "RedlineMarkdownTests", dependencies: ["RedlineMarkdown", "RedlineHTML", "RedlineCore", "RedlineDOCX", "RedlineRTF", "RedlineTestSupport"]),
        .testTarget(name: "RedlineDOCXTests", dependencies: ["RedlineDOCX", "RedlineZip", "RedlineXML", "Redline", "RedlineTestSupport"]),
        .testTarget(name: "RedlineZipTests", dependencies: ["RedlineZip", "RedlineCore"]),
        .testTarget(name: "RedlineXMLTests", dependencies: ["RedlineXML", "RedlineCore"]),
        .testTarget(name: "RedlineRTFTests", dependencies: ["RedlineRTF", "Redline", "RedlineTestSupport"]),
        .testTarget(name: "RedlineScrivenerTests", dependencies: ["RedlineScrivener", "Redline", "RedlineMigration", "RedlineBatch",
                                                            "RedlineCheck", "RedlineConversion", "RedlineTestSupport"]),
        .testTarget(name: "RedlineTests", dependencies: ["Redline", "RedlineCLI", "RedlineDOCX", "RedlineRTF", "RedlineBatch", "RedlineCheck",
                                                   "RedlineMigration", "RedlineConversion", "RedlineTestSupport"]),
        .testTarget(name: "RedlineMCPTests", dependencies: ["RedlineMCP", "Redline", "RedlineCLI", "RedlineTestSupport"]),
        .testTarget(name: "RedlineCompareTests", dependencies: ["RedlineCompare", "Redline", "RedlineCLI", "RedlineTestSupport"]),
    ]
)
