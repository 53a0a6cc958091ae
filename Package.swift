// swift-tools-version: 6.0
import PackageDescription

/// Redline: a streaming document-conversion pipeline (parse → transform → emit)
/// for Markdown, CriticMarkup, HTML, RTF and DOCX around one document model.
let package = Package(
    name: "Redline",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "Redline", targets: ["Redline"]),
        .executable(name: "redline", targets: ["redline"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
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

        // The library product: format registry, conversion, batch, export, check.
        .target(name: "Redline", dependencies: [
            "RedlineCore", "RedlineMarkdown", "RedlineHTML", "RedlineDOCX", "RedlineRTF", "RedlineScrivener",
            "RedlineCompare",
        ]),

        // The command line: commands live in a library so tests can call them without a process.
        .target(name: "RedlineCLI", dependencies: [
            "Redline", .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .executableTarget(name: "redline", dependencies: ["RedlineCLI"]),

        // What several test targets share: the repository and corpus paths, FormatMissing, SeededRandom,
        // DOCXPackageDump (a DOCX package's XML parts as canonical text, for goldens).
        .target(name: "RedlineTestSupport", dependencies: ["RedlineCore", "RedlineZip", "RedlineXML"],
                path: "Tests/RedlineTestSupport"),
        .testTarget(name: "RedlineCoreTests", dependencies: ["RedlineCore"]),
        .testTarget(name: "RedlineMarkdownTests", dependencies: ["RedlineMarkdown", "RedlineHTML", "RedlineCore", "RedlineDOCX", "RedlineRTF", "RedlineTestSupport"]),
        .testTarget(name: "RedlineDOCXTests", dependencies: ["RedlineDOCX", "RedlineZip", "RedlineXML", "Redline", "RedlineTestSupport"]),
        .testTarget(name: "RedlineZipTests", dependencies: ["RedlineZip", "RedlineCore"]),
        .testTarget(name: "RedlineXMLTests", dependencies: ["RedlineXML", "RedlineCore"]),
        .testTarget(name: "RedlineRTFTests", dependencies: ["RedlineRTF", "Redline", "RedlineTestSupport"]),
        .testTarget(name: "RedlineScrivenerTests", dependencies: ["RedlineScrivener", "Redline", "RedlineTestSupport"]),
        .testTarget(name: "RedlineTests", dependencies: ["Redline", "RedlineCLI", "RedlineDOCX", "RedlineTestSupport"]),
        .testTarget(name: "RedlineCompareTests", dependencies: ["RedlineCompare", "Redline", "RedlineCLI", "RedlineTestSupport"]),
    ]
)
