// JPEG encoding through libjpeg-turbo (for `techo export --format jpeg`).
import CTechoShims
import TechoRaster

/// Writes pixmaps as baseline or progressive YCbCr JPEG, with optimised Huffman tables so the
/// output is a pure function of the input.
public enum JPEGEncoder {
    /// Encodes a pixmap. JPEG has no alpha: translucent pixels are composited over `background`.
    ///
    /// - Parameters:
    ///   - quality: 1 (smallest) … 100 (best). Default 90.
    ///   - chromaSubsampling: 4:2:0 when true (smaller, the camera default), 4:4:4 when false
    ///     (sharper colour edges, better for text). Default true.
    ///   - progressive: write a progressive file. Default false.
    ///   - dpi: written (rounded) in the JFIF header; nil writes 1:1 aspect with no unit. Default nil.
    ///   - background: straight RGB under translucent pixels. Default white.
    ///   - name: the file name used in error messages. Default "image".
    public static func encode(
        _ pixmap: Pixmap, quality: Int = 90, chromaSubsampling: Bool = true,
        progressive: Bool = false, dpi: Double? = nil,
        background: (r: UInt8, g: UInt8, b: UInt8) = (255, 255, 255),
        name: String = "image"
    ) throws -> [UInt8] {
        precondition((1...100).contains(quality), "JPEG quality must be 1...100, got \(quality)")
        precondition(pixmap.width <= 65500 && pixmap.height <= 65500, "JPEG sides are at most 65500 px")
        var density: UInt32 = 0
        if let dpi {
            precondition(dpi.isFinite && dpi >= 1 && dpi <= 65535, "dpi must be 1...65535, got \(dpi)")
            density = UInt32(dpi.rounded())
        }
        let pixels = pixmap.isOpaque ? pixmap.data : flatten(pixmap.data, over: background)
        var buffer = techo_buffer()
        defer { techo_free(buffer.data) }
        try ShimStatus.checkEncode(file: name, format: .jpeg) { msg, cap in
            pixels.withUnsafeBufferPointer { px in
                techo_jpeg_encode_rgba(
                    px.baseAddress, UInt32(pixmap.width), UInt32(pixmap.height), Int32(quality),
                    chromaSubsampling ? 1 : 0, progressive ? 1 : 0, density,
                    &buffer, msg, cap)
            }
        }
        return Array(UnsafeBufferPointer(start: buffer.data, count: buffer.size))
    }

    /// Premultiplied source-over: c + bg · (255 − a) / 255, alpha set to 255.
    static func flatten(_ premultiplied: [UInt8], over bg: (r: UInt8, g: UInt8, b: UInt8)) -> [UInt8] {
        var out = premultiplied
        out.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i < p.count {
                let inv = 255 - p[i + 3]
                p[i] = p[i] &+ premultiply(bg.r, inv)
                p[i + 1] = p[i + 1] &+ premultiply(bg.g, inv)
                p[i + 2] = p[i + 2] &+ premultiply(bg.b, inv)
                p[i + 3] = 255
                i += 4
            }
        }
        return out
    }
}
