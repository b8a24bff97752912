// PNG encoding through libpng: RGB when opaque, RGBA (straight alpha) otherwise, sRGB + pHYs.
import CTechoShims
import TechoRaster

/// Writes pixmaps as PNG. Output is a pure function of the input: no time chunk, no text.
public enum PNGEncoder {
    /// The PNG row filter(s) libpng may choose from.
    public enum Filter: Sendable {
        /// No filtering: fastest, largest.
        case none
        /// Each byte minus the byte to its left.
        case sub
        /// Each byte minus the byte above.
        case up
        /// Each byte minus the mean of left and above.
        case average
        /// Paeth predictor.
        case paeth
        /// libpng picks per row among all five (minimum sum of absolute differences). The default.
        case adaptive

        /// libpng's PNG_FILTER_* bits.
        var mask: Int32 {
            switch self {
            case .none: return 0x08
            case .sub: return 0x10
            case .up: return 0x20
            case .average: return 0x40
            case .paeth: return 0x80
            case .adaptive: return 0xF8
            }
        }
    }

    /// Encodes a premultiplied pixmap (converted to straight alpha, as PNG stores it).
    ///
    /// - Parameters:
    ///   - dpi: written as a pHYs chunk in pixels per metre; nil writes none. Default nil.
    ///   - level: zlib level 0 (store) … 9 (smallest). Default 6.
    ///   - filter: row filters. Default `.adaptive`.
    ///   - name: the file name used in error messages. Default "image".
    /// - Returns: the PNG file bytes; RGB when every pixel is opaque, RGBA otherwise, with an
    ///   sRGB chunk.
    public static func encode(_ pixmap: Pixmap, dpi: Double? = nil, level: Int = 6,
                              filter: Filter = .adaptive, name: String = "image") throws -> [UInt8] {
        let opaque = pixmap.isOpaque
        return try encode(straightRGBA: opaque ? pixmap.data : pixmap.straightRGBA(),
                   width: pixmap.width, height: pixmap.height, opaque: opaque,
                   dpi: dpi, level: level, filter: filter, name: name)
    }

    /// Encodes straight-alpha RGBA pixels. Same parameters as `encode(_:dpi:level:filter:name:)`.
    public static func encode(_ image: RGBAImage, dpi: Double? = nil, level: Int = 6,
                              filter: Filter = .adaptive, name: String = "image") throws -> [UInt8] {
        return try encode(straightRGBA: image.bytes, width: image.width, height: image.height, opaque: image.isOpaque,
                          dpi: dpi, level: level, filter: filter, name: name)
    }

    private static func encode(straightRGBA: [UInt8], width: Int, height: Int, opaque: Bool,
                               dpi: Double?, level: Int, filter: Filter, name: String) throws -> [UInt8] {
        precondition((0...9).contains(level), "PNG zlib level must be 0...9, got \(level)")
        precondition(width <= Int(Int32.max) && height <= Int(Int32.max), "PNG size too large")
        var ppm: UInt32 = 0
        if let dpi {
            precondition(dpi.isFinite && dpi > 0 && dpi < 1_000_000, "dpi must be positive and finite, got \(dpi)")
            ppm = UInt32((dpi / 0.0254).rounded())
        }
        var buffer = techo_buffer()
        defer { techo_free(buffer.data) }
        try ShimStatus.checkEncode(file: name, format: .png) { msg, cap in
            straightRGBA.withUnsafeBufferPointer { px in
                techo_png_encode_rgba(px.baseAddress, UInt32(width), UInt32(height), opaque ? 3 : 4,
                                      Int32(level), filter.mask, ppm, 1, &buffer, msg, cap)
            }
        }
        return Array(UnsafeBufferPointer(start: buffer.data, count: buffer.size))
    }
}
