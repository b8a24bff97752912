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

    /// True when `cleaned` (what `removingGPS` made of `original`) differs from `original` only
    /// in metadata no decoder reads, so that a check or a decode of one gives what it gives of
    /// the other: for JPEG, the two are the same bytes once every APP1 segment (EXIF, XMP) is
    /// left out, and libjpeg skips APP1 segments by their length without reading them; for HEIF
    /// and AVIF, every byte that differs lies in an `Exif` item or a plain XMP item that sits in
    /// `mdat` apart from every other item. Anything else (another format, or edits elsewhere)
    /// is false: the caller then checks the original.
    /// - Complexity: O(file size).
    public static func changesOnlyMetadata(_ original: [UInt8], _ cleaned: [UInt8], format: ImageFormat) -> Bool {
        switch format {
        case .jpeg: return JPEGMetadata.changesOnlyMetadata(original, cleaned)
        case .heif, .avif: return HEIFMetadata.changesOnlyMetadata(original, cleaned)
        case .png, .webp, .svg: return original == cleaned
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
