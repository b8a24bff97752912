// Format sniffing from magic bytes; the file name is never consulted.

/// An image format techo decodes.
public enum ImageFormat: String, Equatable, Sendable, CaseIterable {
    case png
    case jpeg

    /// Human name for messages: "PNG", "JPEG".
    public var name: String { self == .png ? "PNG" : "JPEG" }

    /// The format the bytes start with, or nil when they are neither PNG nor JPEG.
    /// PNG: the 8-byte signature `89 50 4E 47 0D 0A 1A 0A`. JPEG: SOI `FF D8` then `FF`.
    public static func sniff<C: Collection>(_ bytes: C) -> ImageFormat? where C.Element == UInt8 {
        let head = Array(bytes.prefix(8))
        if head == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] { return .png }
        if head.count >= 3, head[0] == 0xFF, head[1] == 0xD8, head[2] == 0xFF { return .jpeg }
        return nil
    }

    /// What unknown bytes seem to be, for error messages ("GIF", "WebP", ...), or nil.
    static func describeUnknown<C: Collection>(_ bytes: C) -> String? where C.Element == UInt8 {
        let head = Array(bytes.prefix(16))
        func starts(_ s: [UInt8]) -> Bool { head.count >= s.count && Array(head.prefix(s.count)) == s }
        func ascii(_ s: String) -> [UInt8] { Array(s.utf8) }
        if starts(ascii("GIF87a")) || starts(ascii("GIF89a")) { return "GIF" }
        if starts(ascii("RIFF")), head.count >= 12, Array(head[8..<12]) == ascii("WEBP") { return "WebP" }
        if starts(ascii("BM")) { return "BMP" }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return "TIFF" }
        if head.count >= 12, Array(head[4..<8]) == ascii("ftyp") { return "HEIF/AVIF or another ISO media file" }
        if starts(ascii("%PDF")) { return "PDF" }
        if starts([0x89, 0x50, 0x4E, 0x47]) { return "a damaged PNG signature" }
        if starts([0xFF, 0xD8]) { return "a truncated JPEG" }
        if starts(ascii("<?xml")) || starts(ascii("<svg")) { return "XML/SVG" }
        return nil
    }
}
