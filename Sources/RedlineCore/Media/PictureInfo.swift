/// The kind of a picture, from its first bytes (never from a file name).
public enum MediaKind: String, Hashable, Sendable, Codable, CaseIterable {
    case png, jpeg, gif, bmp, tiff, emf, wmf, svg, other

    /// File extension used for extracted and embedded copies.
    public var fileExtension: String {
        switch self {
        case .jpeg: return "jpg"
        case .other: return "bin"
        default: return rawValue
        }
    }

    /// MIME type (`image/png`, ...).
    public var mimeType: String {
        switch self {
        case .png, .jpeg, .gif, .bmp, .tiff: return "image/" + rawValue
        case .emf: return "image/x-emf"
        case .wmf: return "image/x-wmf"
        case .svg: return "image/svg+xml"
        case .other: return "application/octet-stream"
        }
    }

    /// Whether a browser shows it (EMF, WMF and TIFF are extracted as they are, with a warning).
    public var isWebViewable: Bool { [.png, .jpeg, .gif, .bmp, .svg].contains(self) }

    /// The kind of the picture whose first bytes are `b`.
    public static func sniff<C: Collection>(_ b: C) -> MediaKind where C.Element == UInt8, C.Index == Int {
        let h = Array(b.prefix(64))
        func starts(_ p: [UInt8]) -> Bool { h.count >= p.count && Array(h[0..<p.count]) == p }
        if starts([0x89, 0x50, 0x4E, 0x47]) { return .png }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts(Array("GIF8".utf8)) { return .gif }
        if starts(Array("BM".utf8)) { return .bmp }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        if h.count >= 44, starts([1, 0, 0, 0]), Array(h[40..<44]) == [0x20, 0x45, 0x4D, 0x46] { return .emf }
        if starts([0xD7, 0xCD, 0xC6, 0x9A]) || starts([1, 0, 9, 0]) || starts([2, 0, 9, 0]) { return .wmf }
        let text = String(decoding: h, as: UTF8.self)
        if text.contains("<svg") || (text.hasPrefix("<?xml") && text.contains("svg")) { return .svg }
        return .other
    }
}

/// What a picture's header says: pixel size and resolution (PNG IHDR/pHYs, JPEG SOF/JFIF, GIF, BMP).
public struct PictureInfo: Hashable, Sendable, Codable {
    public var pixelWidth: Int
    public var pixelHeight: Int
    /// Dots per inch when the file records it (PNG pHYs in metres, JPEG JFIF density, BMP).
    public var dpiX: Double?
    public var dpiY: Double?

    public init(pixelWidth: Int, pixelHeight: Int, dpiX: Double? = nil, dpiY: Double? = nil) {
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.dpiX = dpiX
        self.dpiY = dpiY
    }

    /// Natural size in points: pixels at the recorded resolution, else 96 dpi.
    public var pointSize: (width: Double, height: Double) {
        (Double(pixelWidth) * 72 / (dpiX ?? 96), Double(pixelHeight) * 72 / (dpiY ?? dpiX ?? 96))
    }

    /// Reads the header of `b` (of kind `kind`); nil when it is not a readable picture of a size.
    public static func read(_ b: [UInt8], kind: MediaKind) -> PictureInfo? {
        func be16(_ i: Int) -> Int { Int(b[i]) << 8 | Int(b[i + 1]) }
        func be32(_ i: Int) -> Int { be16(i) << 16 | be16(i + 2) }
        func le16(_ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 }
        func le32(_ i: Int) -> Int { le16(i) | le16(i + 2) << 16 }
        var info: PictureInfo?
        switch kind {
        case .png:
            guard b.count >= 24, Array(b[12..<16]) == Array("IHDR".utf8) else { return nil }
            info = PictureInfo(pixelWidth: be32(16), pixelHeight: be32(20))
            var i = 8
            while i + 8 <= b.count {
                let length = be32(i)
                let type = String(decoding: b[(i + 4)..<(i + 8)], as: UTF8.self)
                if type == "pHYs", i + 17 <= b.count, b[i + 16] == 1 {
                    info?.dpiX = Double(be32(i + 8)) * 0.0254
                    info?.dpiY = Double(be32(i + 12)) * 0.0254
                }
                if type == "IDAT" || type == "IEND" || length < 0 { break }
                i += 12 + length
            }
        case .gif:
            guard b.count >= 10 else { return nil }
            info = PictureInfo(pixelWidth: le16(6), pixelHeight: le16(8))
        case .bmp:
            guard b.count >= 46 else { return nil }
            info = PictureInfo(pixelWidth: le32(18), pixelHeight: abs(Int(Int32(truncatingIfNeeded: le32(22)))))
            let ppm = le32(38)
            if ppm > 0 { info?.dpiX = Double(ppm) * 0.0254; info?.dpiY = Double(le32(42)) * 0.0254 }
        case .jpeg:
            var i = 2
            var density: (Double, Double)?
            while i + 9 < b.count, b[i] == 0xFF {
                let marker = b[i + 1]
                if marker == 0xFF { i += 1; continue }
                if marker == 0xE0, i + 18 <= b.count, Array(b[(i + 4)..<(i + 9)]) == [0x4A, 0x46, 0x49, 0x46, 0] {
                    let unit = b[i + 11], dx = Double(be16(i + 12)), dy = Double(be16(i + 14))
                    if dx > 0, dy > 0 {
                        if unit == 1 { density = (dx, dy) } else if unit == 2 { density = (dx * 2.54, dy * 2.54) }
                    }
                }
                if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                    info = PictureInfo(pixelWidth: be16(i + 7), pixelHeight: be16(i + 5), dpiX: density?.0, dpiY: density?.1)
                    break
                }
                i += 2 + be16(i + 2)
            }
        case .tiff, .emf, .wmf, .svg, .other:
            return nil
        }
        guard let found = info, found.pixelWidth > 0, found.pixelHeight > 0,
              found.pixelWidth < 1 << 20, found.pixelHeight < 1 << 20 else { return nil }
        return found
    }
}
