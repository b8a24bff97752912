// Format sniffing from magic bytes; the file name is never consulted.

/// An image format techo decodes.
public enum ImageFormat: String, Equatable, Sendable, CaseIterable {
    case png
    case jpeg
    /// HEIC / HEIF (an ISO media file whose brand is HEVC-coded or generic `mif1`).
    case heif
    /// AVIF (an ISO media file whose brand is `avif` or `avis`), decoded through libheif.
    case avif
    /// WebP, lossy or lossless, still or animated (RIFF `WEBP`).
    case webp
    /// SVG, a vector image rendered by librsvg at the size each draw needs.
    case svg

    /// Human name for messages: "PNG", "JPEG", "HEIF", "AVIF", "WebP", "SVG".
    public var name: String {
        switch self {
        case .png: return "PNG"
        case .jpeg: return "JPEG"
        case .heif: return "HEIF"
        case .avif: return "AVIF"
        case .webp: return "WebP"
        case .svg: return "SVG"
        }
    }

    /// The extension an asset of this format is stored under in a journal (`png`, `jpg`, `heic`,
    /// `avif`, `webp`, `svg`).
    public var fileExtension: String {
        switch self {
        case .png: return "png"
        case .jpeg: return "jpg"
        case .heif: return "heic"
        case .avif: return "avif"
        case .webp: return "webp"
        case .svg: return "svg"
        }
    }

    /// True for formats drawn from vectors at any size rather than decoded to fixed pixels.
    public var isVector: Bool { self == .svg }

    /// The names of every format, for messages: "PNG, JPEG, HEIF, AVIF, WebP or SVG".
    static var supportedNames: String {
        let names = allCases.map(\.name)
        return names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
    }

    /// The format the bytes start with, or nil when they are none techo reads.
    ///
    /// - PNG: the 8-byte signature `89 50 4E 47 0D 0A 1A 0A`. JPEG: SOI `FF D8` then `FF`.
    /// - WebP: `RIFF`, a length, `WEBP`.
    /// - HEIF / AVIF: a leading `ftyp` box whose major or compatible brands name them (`avif`,
    ///   `avis` → AVIF; `heic`, `heix`, `heim`, `heis`, `hevc`, `hevx`, `mif1`, `msf1` → HEIF).
    ///   An AVIF brand wins over `mif1`, which both kinds carry.
    /// - SVG: text (after an optional UTF-8 byte-order mark and white space) that starts with
    ///   `<` and opens an `<svg` element within its first 4 KiB (after an XML declaration,
    ///   comments or a doctype).
    public static func sniff<C: Collection>(_ bytes: C) -> ImageFormat? where C.Element == UInt8 {
        let head = Array(bytes.prefix(4096))
        if head.count >= 8, Array(head[0..<8]) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] { return .png }
        if head.count >= 3, head[0] == 0xFF, head[1] == 0xD8, head[2] == 0xFF { return .jpeg }
        if head.count >= 12, Array(head[0..<4]) == Array("RIFF".utf8), Array(head[8..<12]) == Array("WEBP".utf8) { return .webp }
        if let brands = isoBrands(head) {
            if brands.contains("avif") || brands.contains("avis") { return .avif }
            let heif: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"]
            if !heif.isDisjoint(with: brands) { return .heif }
        }
        if looksLikeSVG(head) { return .svg }
        return nil
    }

    /// The major and compatible brands of a leading `ftyp` box, or nil when there is none.
    static func isoBrands(_ head: [UInt8]) -> Set<String>? {
        guard head.count >= 16, Array(head[4..<8]) == Array("ftyp".utf8) else { return nil }
        let size = Int(head[0]) << 24 | Int(head[1]) << 16 | Int(head[2]) << 8 | Int(head[3])
        guard size >= 16 else { return nil }
        let end = min(size, head.count)
        var brands: Set<String> = [String(decoding: head[8..<12], as: UTF8.self)]
        var i = 16
        while i + 4 <= end {
            brands.insert(String(decoding: head[i..<(i + 4)], as: UTF8.self))
            i += 4
        }
        return brands
    }

    /// True when `head` is markup whose first element is `<svg`.
    static func looksLikeSVG(_ head: [UInt8]) -> Bool {
        var i = 0
        if head.count >= 3, head[0] == 0xEF, head[1] == 0xBB, head[2] == 0xBF { i = 3 }
        func skipSpace() { while i < head.count, [0x20, 0x09, 0x0A, 0x0D].contains(head[i]) { i += 1 } }
        func at(_ s: String) -> Bool {
            let u = Array(s.utf8)
            return i + u.count <= head.count && Array(head[i..<(i + u.count)]) == u
        }
        func skip(past s: String) -> Bool {
            let u = Array(s.utf8)
            while i + u.count <= head.count {
                if Array(head[i..<(i + u.count)]) == u { i += u.count; return true }
                i += 1
            }
            return false
        }
        // Prologue: an XML declaration, comments, processing instructions and a doctype, in
        // any order, then the root element.
        while true {
            skipSpace()
            guard i < head.count, head[i] == UInt8(ascii: "<") else { return false }
            if at("<?") { guard skip(past: "?>") else { return false }; continue }
            if at("<!--") { guard skip(past: "-->") else { return false }; continue }
            if at("<!DOCTYPE") || at("<!doctype") {
                // An internal subset may hold '>' inside brackets: skip to "]>" when there is one.
                let start = i
                if skip(past: "["), skip(past: "]") { _ = skip(past: ">"); continue }
                i = start
                guard skip(past: ">") else { return false }
                continue
            }
            guard at("<svg") || at("<svg:svg") else { return false }
            return true
        }
    }

    /// What unknown bytes seem to be, for error messages ("GIF", "TIFF", ...), or nil.
    static func describeUnknown<C: Collection>(_ bytes: C) -> String? where C.Element == UInt8 {
        let head = Array(bytes.prefix(16))
        func starts(_ s: [UInt8]) -> Bool { head.count >= s.count && Array(head.prefix(s.count)) == s }
        func ascii(_ s: String) -> [UInt8] { Array(s.utf8) }
        if starts(ascii("GIF87a")) || starts(ascii("GIF89a")) { return "GIF" }
        if starts(ascii("BM")) { return "BMP" }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return "TIFF" }
        if head.count >= 12, Array(head[4..<8]) == ascii("ftyp") {
            let brand = String(decoding: head[8..<12], as: UTF8.self)
            return "an ISO media file of brand '\(brand)', not HEIF or AVIF"
        }
        if starts(ascii("RIFF")) { return "a RIFF file that is not WebP" }
        if starts(ascii("%PDF")) { return "PDF" }
        if starts([0x89, 0x50, 0x4E, 0x47]) { return "a damaged PNG signature" }
        if starts([0xFF, 0xD8]) { return "a truncated JPEG" }
        if starts(ascii("<?xml")) || starts(ascii("<")) { return "XML that is not SVG" }
        return nil
    }
}
