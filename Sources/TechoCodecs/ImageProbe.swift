// Whether an image file can be used, without decoding it into an image: the format from its
// bytes, the header within the limits, then a probe of the whole stream in memory of one row
// (PNG: every row inflated and unfiltered, every chunk's CRC to IEND; JPEG: every scanline's
// entropy-coded data decoded at 1/8 scale; HEIF, AVIF, WebP and SVG: a decode at the smallest
// size each library makes). Import and `techo check` both call `check`, so they
// agree on what a usable image is; a new format adds one case to its switch.
import CTechoShims

/// The one place that decides whether image bytes are usable.
public enum ImageProbe {
    /// Checks `bytes` end to end and returns its header. Nothing proportional to the image's
    /// pixel count is allocated, and nothing at all before the header passes `limits`.
    /// - Throws: `ImageError` naming `name`: not an image techo reads, over the limits,
    ///   truncated or corrupt.
    /// - Complexity: one pass over the compressed data; memory of one row.
    public static func check(_ bytes: [UInt8], name: String, limits: ImageLimits = .default) throws -> ImageInfo {
        let format = try ImageDecoder.sniff(bytes, name: name)
        DecodeClock.count(.check, format)
        switch format {
        case .png: return try PNGDecoding.probe(bytes, file: name, limits: limits)
        case .jpeg: return try JPEGDecoding.probe(bytes, file: name, limits: limits)
        case .heif, .avif, .webp, .svg:
            // These libraries offer no streaming probe, so the file is decoded at the smallest
            // size its decoder makes (libwebp scales while it decodes, an SVG is rendered a few
            // pixels wide; libheif 1.15 decodes whole, within `limits` checked on the header
            // first) and the pixels are dropped at once.
            return try ImageDecoder.decodeStraight(bytes, name: name, limits: limits, minimumSize: (1, 1), applyOrientation: false).info
        }
    }

    /// `check` of the file at `path`, read whole (refused over `limits.maxFileBytes`).
    public static func check(contentsOf path: String, name: String? = nil, limits: ImageLimits = .default) throws -> ImageInfo {
        try check(try FileBytes.contents(of: path, name: name, maxBytes: limits.maxFileBytes), name: name ?? path, limits: limits)
    }
}

extension PNGDecoding {
    static func probe(_ bytes: [UInt8], file: String, limits: ImageLimits) throws -> ImageInfo {
        try header(bytes, file: file, limits: limits, techo_png_probe)
    }
}

extension JPEGDecoding {
    static func probe(_ bytes: [UInt8], file: String, limits: ImageLimits) throws -> ImageInfo {
        var raw = techo_jpeg_info()
        try ShimStatus.check(file: file, format: .jpeg, limits: limits, size: { (Int(raw.width), Int(raw.height)) }) { msg, cap in
            bytes.withUnsafeBufferPointer { techo_jpeg_probe($0.baseAddress, $0.count, ShimStatus.cLimits(limits), &raw, msg, cap) }
        }
        return ImageInfo(format: .jpeg, width: Int(raw.width), height: Int(raw.height), orientation: JPEGMetadata.orientation(in: bytes))
    }
}
