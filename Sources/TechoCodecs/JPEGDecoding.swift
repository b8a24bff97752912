// JPEG decoding through libjpeg-turbo, one C session per call, with DCT-domain downscaling.
import CTechoShims

enum JPEGDecoding {
    static func info(
        _ bytes: [UInt8], file: String, limits: ImageLimits,
        scaleDenominator: Int
    ) throws -> (ImageInfo, techo_jpeg_info) {
        var raw = techo_jpeg_info()
        try ShimStatus.check(file: file, format: .jpeg, limits: limits, size: { (Int(raw.width), Int(raw.height)) }) { msg, cap in
            bytes.withUnsafeBufferPointer {
                techo_jpeg_read_info($0.baseAddress, $0.count, ShimStatus.cLimits(limits), Int32(scaleDenominator), &raw, msg, cap)
            }
        }
        let info = ImageInfo(
            format: .jpeg, width: Int(raw.width), height: Int(raw.height),
            orientation: JPEGMetadata.orientation(in: bytes))
        return (info, raw)
    }

    /// The largest denominator d in 8, 4, 2 whose output ⌈w/d⌉ × ⌈h/d⌉ is still at least the
    /// needed size (given in the displayed orientation); else 1.
    static func scaleDenominator(
        width: Int, height: Int, orientation: ImageOrientation,
        minimumSize: (width: Int, height: Int)?
    ) -> Int {
        guard let need = minimumSize else { return 1 }
        precondition(need.width > 0 && need.height > 0, "minimumSize must be positive, got \(need)")
        let (needW, needH) = orientation.swapsAxes ? (need.height, need.width) : (need.width, need.height)
        for d in [8, 4, 2] where (width + d - 1) / d >= needW && (height + d - 1) / d >= needH {
            return d
        }
        return 1
    }

    static func decode(
        _ bytes: [UInt8], file: String, limits: ImageLimits,
        minimumSize: (width: Int, height: Int)?
    ) throws -> (RGBAImage, ImageInfo, Int, [String]) {
        var (info, raw) = try info(bytes, file: file, limits: limits, scaleDenominator: 1)
        let denom = scaleDenominator(
            width: info.width, height: info.height, orientation: info.orientation,
            minimumSize: minimumSize)
        if denom != 1 { (info, raw) = try self.info(bytes, file: file, limits: limits, scaleDenominator: denom) }
        let w = Int(raw.output_width), h = Int(raw.output_height)
        // Every byte is written by the shim before we return; on failure the buffer is dropped.
        var out = [UInt8](unsafeUninitializedCapacity: w * h * 4) { _, n in n = w * h * 4 }
        var notes = [CChar](repeating: 0, count: ShimStatus.notesCapacity)
        try ShimStatus.check(file: file, format: .jpeg, limits: limits, size: { (info.width, info.height) }) { msg, cap in
            bytes.withUnsafeBufferPointer { src in
                out.withUnsafeMutableBufferPointer { dst in
                    notes.withUnsafeMutableBufferPointer { n in
                        techo_jpeg_decode_rgba(
                            src.baseAddress, src.count, ShimStatus.cLimits(limits), Int32(denom),
                            dst.baseAddress, dst.count, n.baseAddress, n.count, msg, cap)
                    }
                }
            }
        }
        return (RGBAImage(width: w, height: h, bytes: out), info, denom, ShimStatus.notes(notes))
    }
}
