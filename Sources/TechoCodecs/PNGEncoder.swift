// PNG encoding: RGB when opaque, RGBA (straight alpha) otherwise, sRGB + pHYs. techo's own
// writer (PNGWriter: libdeflate, bands in parallel) by default; libpng's stays as the reference.
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
        /// Per row, the one of the five with the least sum of absolute residuals (libpng's
        /// heuristic), or no filter for a band of rows where a trial compresses that smaller
        /// (flat colour, ruled paper, repeated textures). The default.
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
    ///   Compression is libdeflate's at `level` (0…9 on zlib's scale), in bands of rows
    ///   compressed on every core and joined into one zlib stream; the bytes depend only on the
    ///   pixels and the arguments, never on the number of cores.
    public static func encode(
        _ pixmap: Pixmap, dpi: Double? = nil, level: Int = 6,
        filter: Filter = .adaptive, name: String = "image"
    ) throws -> [UInt8] {
        let opaque = pixmap.isOpaque
        let w = pixmap.width
        return pixmap.data.withUnsafeBufferPointer { px in
            let src = px.baseAddress!
            return PNGWriter.encode(
                width: w, height: pixmap.height, channels: opaque ? 3 : 4, level: checked(level),
                filter: filter, ppm: pixelsPerMetre(dpi)
            ) { y, out in
                let row = src + y * w * 4
                if opaque {
                    for x in 0..<w { out[3 * x] = row[4 * x]; out[3 * x + 1] = row[4 * x + 1]; out[3 * x + 2] = row[4 * x + 2] }
                } else {
                    for x in 0..<w {
                        let a = row[4 * x + 3]
                        out[4 * x] = unpremultiply(row[4 * x], a)
                        out[4 * x + 1] = unpremultiply(row[4 * x + 1], a)
                        out[4 * x + 2] = unpremultiply(row[4 * x + 2], a)
                        out[4 * x + 3] = a
                    }
                }
            }
        }
    }

    /// Encodes straight-alpha RGBA pixels. Same parameters as `encode(_:dpi:level:filter:name:)`.
    public static func encode(
        _ image: RGBAImage, dpi: Double? = nil, level: Int = 6,
        filter: Filter = .adaptive, name: String = "image"
    ) throws -> [UInt8] {
        let opaque = image.isOpaque
        let w = image.width
        return image.bytes.withUnsafeBufferPointer { px in
            let src = px.baseAddress!
            return PNGWriter.encode(
                width: w, height: image.height, channels: opaque ? 3 : 4, level: checked(level),
                filter: filter, ppm: pixelsPerMetre(dpi)
            ) { y, out in
                let row = src + y * w * 4
                if opaque {
                    for x in 0..<w { out[3 * x] = row[4 * x]; out[3 * x + 1] = row[4 * x + 1]; out[3 * x + 2] = row[4 * x + 2] }
                } else {
                    out.update(from: row, count: w * 4)
                }
            }
        }
    }

    /// The rows of each band an opaque (or, with `opaque` false, a translucent) image
    /// `width` × `height` is compressed in: the parts of a file `patched` can keep or remake.
    public static func bands(width: Int, height: Int, opaque: Bool = true) -> [Range<Int>] {
        let rows = PNGWriter.bandRows(width: width, channels: opaque ? 3 : 4)
        return stride(from: 0, to: height, by: rows).map { $0..<min(height, $0 + rows) }
    }

    /// The file `encode(_:dpi:level:)` (the adaptive filter) writes for a new opaque image of
    /// `width` × `height`, made from `old`, that file for an earlier image of the same size,
    /// dpi and level, when only the rows of bands `changed` (indices into `bands`) differ: those
    /// bands are encoded again from `rows`, which holds, full width, the new image's rows from
    /// `firstRow` on (at least every row of those bands and the row just above the first); the
    /// other bands are kept as they are in `old`. Nil when `old` is not such a file (chunks it
    /// has besides the encoder's are passed over), or `rows` is not opaque or lacks those rows.
    public static func patched(
        _ old: [UInt8], width: Int, height: Int, changed: Range<Int>, rows: Pixmap?, firstRow: Int, dpi: Double?, level: Int = 6
    ) -> [UInt8]? {
        let all = bands(width: width, height: height)
        guard changed.lowerBound >= 0, changed.upperBound <= all.count else { return nil }
        var need = 0..<0
        if !changed.isEmpty {
            need = max(0, all[changed.lowerBound].lowerBound - 1)..<all[changed.upperBound - 1].upperBound
            guard let rows, rows.width == width, firstRow <= need.lowerBound, firstRow + rows.height >= need.upperBound, rows.isOpaque else { return nil }
        }
        let ppm = pixelsPerMetre(dpi)
        guard let old = PNGWriter.keptBands(of: old, width: width, height: height, channels: 3, level: checked(level), ppm: ppm) else { return nil }
        var kept: [Int: PNGWriter.KeptBand] = [:]
        for b in old.indices where !changed.contains(b) { kept[b] = old[b] }
        let empty = Pixmap(width: 1, height: 1)
        return (rows ?? empty).data.withUnsafeBufferPointer { px in
            let src = px.baseAddress!
            return PNGWriter.encode(width: width, height: height, channels: 3, level: level, filter: .adaptive, ppm: ppm, kept: kept) { y, out in
                precondition(need.contains(y), "patched: row \(y) of a kept band asked for")
                let row = src + (y - firstRow) * width * 4
                for x in 0..<width { out[3 * x] = row[4 * x]; out[3 * x + 1] = row[4 * x + 1]; out[3 * x + 2] = row[4 * x + 2] }
            }
        }
    }

    /// The same file through libpng (zlib at `level`): the reference the writer is tested
    /// against, and the baseline of the benchmarks. Same parameters as `encode(_:dpi:level:filter:name:)`.
    public static func encodeWithLibPNG(
        _ pixmap: Pixmap, dpi: Double? = nil, level: Int = 6,
        filter: Filter = .adaptive, name: String = "image"
    ) throws -> [UInt8] {
        let opaque = pixmap.isOpaque
        return try encode(
            straightRGBA: opaque ? pixmap.data : pixmap.straightRGBA(),
            width: pixmap.width, height: pixmap.height, opaque: opaque,
            dpi: dpi, level: level, filter: filter, name: name)
    }

    /// Straight-alpha RGBA pixels through libpng. Same parameters as `encode(_:dpi:level:filter:name:)`.
    public static func encodeWithLibPNG(
        _ image: RGBAImage, dpi: Double? = nil, level: Int = 6,
        filter: Filter = .adaptive, name: String = "image"
    ) throws -> [UInt8] {
        try encode(
            straightRGBA: image.bytes, width: image.width, height: image.height, opaque: image.isOpaque,
            dpi: dpi, level: level, filter: filter, name: name)
    }

    private static func checked(_ level: Int) -> Int {
        precondition((0...9).contains(level), "PNG zlib level must be 0...9, got \(level)")
        return level
    }

    private static func pixelsPerMetre(_ dpi: Double?) -> UInt32 {
        guard let dpi else { return 0 }
        precondition(dpi.isFinite && dpi > 0 && dpi < 1_000_000, "dpi must be positive and finite, got \(dpi)")
        return UInt32((dpi / 0.0254).rounded())
    }

    private static func encode(
        straightRGBA: [UInt8], width: Int, height: Int, opaque: Bool,
        dpi: Double?, level: Int, filter: Filter, name: String
    ) throws -> [UInt8] {
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
                techo_png_encode_rgba(
                    px.baseAddress, UInt32(width), UInt32(height), opaque ? 3 : 4,
                    Int32(level), filter.mask, ppm, 1, &buffer, msg, cap)
            }
        }
        return Array(UnsafeBufferPointer(start: buffer.data, count: buffer.size))
    }
}
