// swift-tools-version: 6.0
import PackageDescription

/// libFuzzer targets for Redline's readers and writers, kept out of the main package so a normal
/// `swift build` / `swift test` never sees them. Built by `make fuzz` (see Fuzz/README.md):
/// `swift build -c release -Xswiftc -sanitize=fuzzer,address` (Linux toolchain).
let package = Package(
    name: "RedlineFuzz",
    dependencies: [.package(name: "Redline", path: "..")],
    targets: [
        .target(name: "FuzzSupport", dependencies: [.product(name: "Redline", package: "Redline")]),
        .executableTarget(name: "fuzz-markdown", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "fuzz-rtf", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "fuzz-docx", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "fuzz-docx-xml", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "fuzz-zip", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "fuzz-binder", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "fuzz-roundtrip", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "fuzz-compare", dependencies: ["FuzzSupport"]),
        // TeX math: TeX to OMML to TeX through the DOCX writer and reader, and through Markdown.
        .executableTarget(name: "fuzz-tex", dependencies: ["FuzzSupport"]),
        // OMML equations in a paragraph through the DOCX reader.
        .executableTarget(name: "fuzz-omml", dependencies: ["FuzzSupport"]),
        // `redline apply`: EDITED's differences written into ORIGINAL's own Markdown as CriticMarkup.
        .executableTarget(name: "fuzz-apply", dependencies: ["FuzzSupport"]),
        // `redline mcp`'s request handling: lines of JSON-RPC to a server in the process.
        .executableTarget(name: "fuzz-mcp", dependencies: ["FuzzSupport", .product(name: "RedlineMCP", package: "Redline")]),
    ]
)
