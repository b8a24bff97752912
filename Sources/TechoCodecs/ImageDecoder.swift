// The entry point for reading images: sniff the bytes, check limits, decode, orient.
import TechoRaster

/// A decoded image with what the decoder learned on the way.
public struct DecodedImage<Pixels: Sendable>: Sendable {
    /// The pixels, already turned to the displayed orientation.
    public var pixels: Pixels
    /// The header of the file (stored size, format, orientation).
    public var info: ImageInfo
    /// The JPEG scale used: the image was decoded at 1/`scaleDenominator` of its size. Default 1.
    public var scaleDenominator: Int
    /// Warnings the codec library raised while decoding (e.g. "Corrupt JPEG data: ..."). The
    /// decode still succeeded; callers may show them. Default empty.
    public var notes: [String]
    /// Whether this decode stands for `ImageProbe.check` of the same bytes: it went over the
    /// whole stream as the check does, so the check would have passed. JPEG (every scanline, at
    /// any DCT scale) and PNG (every row and chunk to IEND) always; HEIF and AVIF as
    /// `HEIFDecoding.decode` says; WebP and SVG never (their decoders take other paths at other
    /// sizes). Default false.
    public var standsForCheck = false
}

/// Decodes PNG, JPEG, HEIF, AVIF and WebP files, and renders SVG files, into pixmaps. The
/// format is told from the bytes, never the name.
public enum ImageDecoder {
    /// Reads only the header of the file at `path`.
    /// - Throws: `ImageError` naming `path` when the file is unreadable, not a format techo reads, corrupt,
    ///   or over `limits`.
    public static func info(contentsOf path: String, limits: ImageLimits = .default) throws -> ImageInfo {
        try info(of: try FileBytes.contents(of: path, maxBytes: limits.maxFileBytes), name: path, limits: limits)
    }

    /// Reads only the header of `bytes`; `name` is used in error messages.
    public static func info(of bytes: [UInt8], name: String, limits: ImageLimits = .default) throws -> ImageInfo {
        switch try sniff(bytes, name: name) {
        case .png: return try PNGDecoding.info(bytes, file: name, limits: limits)
        case .jpeg: return try JPEGDecoding.info(bytes, file: name, limits: limits, scaleDenominator: 1).0
        case .heif, .avif: return try HEIFDecoding.info(bytes, format: try sniff(bytes, name: name), file: name, limits: limits)
        case .webp: return try WebPDecoding.info(bytes, file: name, limits: limits).0
        case .svg: return try SVGRendering.info(bytes, file: name, limits: limits)
        }
    }

    /// Decodes the file at `path` to a premultiplied pixmap in its displayed orientation.
    ///
    /// - Parameters:
    ///   - limits: refused before allocating when the header claims more. Default `.default`.
    ///   - minimumSize: the displayed size the caller needs, if less than the full image will do.
    ///     A JPEG is then decoded at the smallest DCT scale (1/8, 1/4, 1/2 or 1) whose output is
    ///     still at least this size on both axes. Default nil: full size.
    /// - Throws: `ImageError` naming `path`.
    public static func decode(
        contentsOf path: String, limits: ImageLimits = .default,
        minimumSize: (width: Int, height: Int)? = nil
    ) throws -> DecodedImage<Pixmap> {
        try DecodeClock.measure {
            let bytes = try FileBytes.contents(of: path, maxBytes: limits.maxFileBytes)
            return try decode(bytes, name: path, limits: limits, minimumSize: minimumSize)
        }
    }

    /// Decodes `bytes` to a premultiplied pixmap; `name` is used in error messages.
    public static func decode(
        _ bytes: [UInt8], name: String, limits: ImageLimits = .default,
        minimumSize: (width: Int, height: Int)? = nil
    ) throws -> DecodedImage<Pixmap> {
        let format = try sniff(bytes, name: name)
        DecodeClock.count(.decode, format)
        if format == .svg {
            // cairo renders premultiplied pixels: keep them, with no round trip through straight alpha.
            let info = try SVGRendering.info(bytes, file: name, limits: limits)
            let (w, h, d) = svgSize(info, minimumSize: minimumSize)
            let pixmap = try SVGRendering.render(bytes, name: name, width: w, height: h, limits: limits)
            return DecodedImage(pixels: pixmap, info: info, scaleDenominator: d, notes: [])
        }
        var d = try decodeStraight(bytes, name: name, limits: limits, minimumSize: minimumSize)
        let (w, h) = (d.pixels.width, d.pixels.height)
        // JPEG output is opaque and opaque pixels are already premultiplied: hand the buffer over
        // instead of copying 4 bytes a pixel.
        let opaque = d.info.format == .jpeg || d.pixels.isOpaque
        let pixmap: Pixmap
        if opaque {
            let bytes = d.pixels.bytes
            d.pixels.bytes = []
            pixmap = Pixmap(width: w, height: h, premultiplied: bytes)
        } else {
            pixmap = d.pixels.premultiplied()
        }
        return DecodedImage(pixels: pixmap, info: d.info, scaleDenominator: d.scaleDenominator, notes: d.notes, standsForCheck: d.standsForCheck)
    }

    /// Decodes `bytes` to straight-alpha RGBA, as stored in the file (for tests and encoders).
    /// - Parameter applyOrientation: turn the pixels to the displayed orientation. Default true.
    public static func decodeStraight(
        _ bytes: [UInt8], name: String, limits: ImageLimits = .default,
        minimumSize: (width: Int, height: Int)? = nil,
        applyOrientation: Bool = true
    ) throws -> DecodedImage<RGBAImage> {
        switch try sniff(bytes, name: name) {
        case .png:
            let (image, info, notes) = try PNGDecoding.decode(bytes, file: name, limits: limits)
            return DecodedImage(pixels: image, info: info, scaleDenominator: 1, notes: notes, standsForCheck: true)
        case .jpeg:
            let (image, info, denom, notes) = try JPEGDecoding.decode(
                bytes, file: name, limits: limits,
                minimumSize: minimumSize)
            let oriented = applyOrientation ? image.applying(info.orientation) : image
            return DecodedImage(pixels: oriented, info: info, scaleDenominator: denom, notes: notes, standsForCheck: true)
        case .heif, .avif:
            // libheif applies the file's own transformations; there is nothing left to orient.
            let (image, info, denom, stands) = try HEIFDecoding.decode(
                bytes, format: try sniff(bytes, name: name), file: name, limits: limits, minimumSize: minimumSize)
            return DecodedImage(pixels: image, info: info, scaleDenominator: denom, notes: [], standsForCheck: stands)
        case .webp:
            let (image, info, denom) = try WebPDecoding.decode(bytes, file: name, limits: limits, minimumSize: minimumSize)
            return DecodedImage(pixels: image, info: info, scaleDenominator: denom, notes: [])
        case .svg:
            // A vector has no stored pixels: it is rendered at its natural size, or at the
            // smallest power-of-two reduction still covering `minimumSize`, like the others.
            let info = try SVGRendering.info(bytes, file: name, limits: limits)
            let (w, h, d) = svgSize(info, minimumSize: minimumSize)
            let pixmap = try SVGRendering.render(bytes, name: name, width: w, height: h, limits: limits)
            let straight = RGBAImage(width: pixmap.width, height: pixmap.height, bytes: pixmap.straightRGBA())
            return DecodedImage(pixels: straight, info: info, scaleDenominator: d, notes: [])
        }
    }

    /// The pixel size an SVG is rendered at when decoded like a picture: its natural size
    /// reduced by the largest power of two that still covers `minimumSize`.
    private static func svgSize(_ info: ImageInfo, minimumSize: (width: Int, height: Int)?) -> (Int, Int, Int) {
        let d = WebPDecoding.denominator(width: info.width, height: info.height, minimumSize: minimumSize)
        return ((info.width + d - 1) / d, (info.height + d - 1) / d, d)
    }

    /// The sniffed format, or an error naming the file and what it looks like.
    static func sniff(_ bytes: [UInt8], name: String) throws -> ImageFormat {
        if bytes.isEmpty { throw ImageError(file: name, format: nil, reason: .empty) }
        if let f = ImageFormat.sniff(bytes) { return f }
        throw ImageError(file: name, format: nil, reason: .unknownFormat(looksLike: ImageFormat.describeUnknown(bytes)))
    }
}
