// PNG decoding through libpng's full API, one C session per call (see CTechoShims).
import CTechoShims

enum PNGDecoding {
    static func info(_ bytes: [UInt8], file: String, limits: ImageLimits) throws -> ImageInfo {
        try header(bytes, file: file, limits: limits, techo_png_read_info)
    }

    /// A C reader of the PNG's header: `techo_png_read_info`, or `techo_png_probe`, which also
    /// inflates every row and checks every chunk.
    typealias HeaderReader = (
        UnsafePointer<UInt8>?, Int, techo_limits, UnsafeMutablePointer<techo_png_info>?, UnsafeMutablePointer<CChar>?, Int
    ) -> Int32

    /// The size `reader` reads, or its error (a refusal over `limits` names the size claimed).
    static func header(_ bytes: [UInt8], file: String, limits: ImageLimits, _ reader: HeaderReader) throws -> ImageInfo {
        var raw = techo_png_info()
        try ShimStatus.check(file: file, format: .png, limits: limits, size: { (Int(raw.width), Int(raw.height)) }) { msg, cap in
            bytes.withUnsafeBufferPointer { reader($0.baseAddress, $0.count, ShimStatus.cLimits(limits), &raw, msg, cap) }
        }
        return ImageInfo(format: .png, width: Int(raw.width), height: Int(raw.height))
    }

    static func decode(_ bytes: [UInt8], file: String, limits: ImageLimits) throws -> (RGBAImage, ImageInfo, [String]) {
        let info = try info(bytes, file: file, limits: limits)
        // Every byte is written by the shim before we return; on failure the buffer is dropped.
        var out = [UInt8](unsafeUninitializedCapacity: info.width * info.height * 4) { _, n in n = info.width * info.height * 4 }
        var notes = [CChar](repeating: 0, count: ShimStatus.notesCapacity)
        try ShimStatus.check(file: file, format: .png, limits: limits, size: { (info.width, info.height) }) { msg, cap in
            bytes.withUnsafeBufferPointer { src in
                out.withUnsafeMutableBufferPointer { dst in
                    notes.withUnsafeMutableBufferPointer { n in
                        techo_png_decode_rgba(
                            src.baseAddress, src.count, ShimStatus.cLimits(limits),
                            dst.baseAddress, dst.count, n.baseAddress, n.count, msg, cap)
                    }
                }
            }
        }
        return (RGBAImage(width: info.width, height: info.height, bytes: out), info, ShimStatus.notes(notes))
    }
}
