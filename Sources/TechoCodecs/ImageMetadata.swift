// Location privacy on import, for every format that carries it.

/// Metadata edits that apply to whichever format a file is.
public enum ImageMetadata {
    /// `bytes` (already sniffed as `format`) with any GPS position removed: JPEG through
    /// `JPEGMetadata`, HEIF and AVIF through `HEIFMetadata`; PNG, WebP and SVG are returned as
    /// they are (techo reads no location from them, and their EXIF, if any, is never shown).
    /// - Throws: `ImageError` naming `file` when a HEIF's GPS cannot be removed in place.
    public static func removingGPS(_ bytes: [UInt8], format: ImageFormat, file: String) throws -> [UInt8] {
        switch format {
        case .jpeg: return JPEGMetadata.removingGPS(bytes)
        case .heif, .avif: return try HEIFMetadata.removingGPS(bytes, file: file)
        case .png, .webp, .svg: return bytes
        }
    }

    /// True when `bytes` (sniffed as `format`) carry a GPS position techo would remove.
    public static func containsGPS(_ bytes: [UInt8], format: ImageFormat) -> Bool {
        switch format {
        case .jpeg: return JPEGMetadata.containsGPS(bytes)
        case .heif, .avif: return HEIFMetadata.containsGPS(bytes)
        case .png, .webp, .svg: return false
        }
    }
}
