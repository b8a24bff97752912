// WebP through libwebp: lossy (VP8), lossless (VP8L) and alpha (ALPH), still or animated. An
// animation gives its first frame, placed on the canvas the file declares (WebPDemux). The
// header (VP8X or the bitstream's frame header) is read and checked against the limits before
// any pixel memory exists; libwebp then decodes straight into our buffer, scaled by its own
// area-averaging rescaler when a smaller size is asked for.
//
// EXIF orientation in a WebP is ignored, as browsers and Android ignore it: WebP pixels are
// stored upright.
import CLibWebP
import CTechoLazy

enum WebPDecoding {
    /// Size, alpha and animation from the header, checked against `limits`.
    static func info(_ bytes: [UInt8], file: String, limits: ImageLimits) throws -> (ImageInfo, animated: Bool) {
        try LazyLibraries.require([TECHO_LAZY_WEBP], file: file, format: .webp)
        var features = WebPBitstreamFeatures()
        let status = bytes.withUnsafeBufferPointer { WebPGetFeatures($0.baseAddress, $0.count, &features) }
        try WebPStatus.check(status, file: file, during: "reading the header")
        let (w, h) = (Int(features.width), Int(features.height))
        guard limits.allows(width: w, height: h) else {
            throw ImageError(file: file, format: .webp, reason: .tooLarge(width: w, height: h, limits: limits))
        }
        var info = ImageInfo(format: .webp, width: w, height: h)
        info.hasAlpha = features.has_alpha != 0
        return (info, features.has_animation != 0)
    }

    /// The power-of-two reduction (1, 2, 4 or 8) whose output still covers `minimumSize`, as for
    /// JPEG's DCT scales, so the image cache treats every format alike.
    static func denominator(width: Int, height: Int, minimumSize: (width: Int, height: Int)?) -> Int {
        guard let need = minimumSize else { return 1 }
        precondition(need.width > 0 && need.height > 0, "minimumSize must be positive, got \(need)")
        for d in [8, 4, 2] where (width + d - 1) / d >= need.width && (height + d - 1) / d >= need.height { return d }
        return 1
    }

    /// Straight-alpha RGBA of the still image or the first frame, reduced by the returned
    /// denominator when `minimumSize` allows.
    static func decode(
        _ bytes: [UInt8], file: String, limits: ImageLimits,
        minimumSize: (width: Int, height: Int)?
    ) throws -> (RGBAImage, ImageInfo, Int) {
        let (info, animated) = try info(bytes, file: file, limits: limits)
        if animated { return try decodeFirstFrame(bytes, info: info, file: file, limits: limits) }
        let d = denominator(width: info.width, height: info.height, minimumSize: minimumSize)
        let image = try decodeStill(bytes[...], file: file, width: info.width, height: info.height, denominator: d)
        return (image, info, d)
    }

    /// Decodes one WebP bitstream (a whole still file, or a frame's fragment) to RGBA.
    private static func decodeStill(
        _ bytes: ArraySlice<UInt8>, file: String, width: Int, height: Int,
        denominator d: Int
    ) throws -> RGBAImage {
        let ow = (width + d - 1) / d, oh = (height + d - 1) / d
        var out = [UInt8](repeating: 0, count: ow * oh * 4)
        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfig(&config) != 0 else {
            throw ImageError(file: file, format: .webp, reason: .unsupported("libwebp's decoder ABI does not match its header"))
        }
        if d > 1 {
            config.options.use_scaling = 1
            config.options.scaled_width = Int32(ow)
            config.options.scaled_height = Int32(oh)
        }
        let status: VP8StatusCode = bytes.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                config.output.colorspace = MODE_RGBA
                config.output.is_external_memory = 1
                config.output.u.RGBA.rgba = dst.baseAddress
                config.output.u.RGBA.stride = Int32(ow * 4)
                config.output.u.RGBA.size = dst.count
                let s = WebPDecode(src.baseAddress, src.count, &config)
                WebPFreeDecBuffer(&config.output)
                return s
            }
        }
        try WebPStatus.check(status, file: file, during: "decoding")
        // A frame whose own size differs from what its header promised is corrupt, not ours to crop.
        guard Int(config.output.width) == ow, Int(config.output.height) == oh else {
            throw ImageError(file: file, format: .webp, reason: .corrupt("decoded \(config.output.width)x\(config.output.height), expected \(ow)x\(oh)"))
        }
        return RGBAImage(width: ow, height: oh, bytes: out)
    }

    /// The first frame of an animation, composited onto a transparent canvas of the declared
    /// size (the background colour is a hint browsers ignore, and so do we). Decoded full size:
    /// frames are usually small, and a fragment's offset must stay exact.
    private static func decodeFirstFrame(
        _ bytes: [UInt8], info: ImageInfo, file: String,
        limits: ImageLimits
    ) throws -> (RGBAImage, ImageInfo, Int) {
        try LazyLibraries.require([TECHO_LAZY_WEBPDEMUX], file: file, format: .webp)
        return try bytes.withUnsafeBufferPointer { src in
            var data = WebPData(bytes: src.baseAddress, size: src.count)
            guard let demux = WebPDemux(&data) else {
                throw ImageError(file: file, format: .webp, reason: .corrupt("the animation's chunks cannot be read"))
            }
            defer { WebPDemuxDelete(demux) }
            let cw = Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_WIDTH)), ch = Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_HEIGHT))
            guard cw == info.width, ch == info.height else {
                throw ImageError(file: file, format: .webp, reason: .corrupt("canvas \(cw)x\(ch) differs from the header's \(info.width)x\(info.height)"))
            }
            var iter = WebPIterator()
            guard WebPDemuxGetFrame(demux, 1, &iter) != 0 else {
                throw ImageError(file: file, format: .webp, reason: .corrupt("the animation has no frames"))
            }
            defer { WebPDemuxReleaseIterator(&iter) }
            let fx = Int(iter.x_offset), fy = Int(iter.y_offset), fw = Int(iter.width), fh = Int(iter.height)
            guard fw > 0, fh > 0, fx >= 0, fy >= 0, fx + fw <= cw, fy + fh <= ch, let fragment = iter.fragment.bytes else {
                throw ImageError(
                    file: file, format: .webp, reason: .corrupt("the first frame (\(fw)x\(fh) at \(fx),\(fy)) lies outside the \(cw)x\(ch) canvas"))
            }
            let start = fragment - src.baseAddress!
            let frame = try decodeStill(bytes[start..<(start + iter.fragment.size)], file: file, width: fw, height: fh, denominator: 1)
            var canvas = [UInt8](repeating: 0, count: cw * ch * 4)
            for y in 0..<fh {
                canvas.replaceSubrange(((fy + y) * cw + fx) * 4..<((fy + y) * cw + fx + fw) * 4, with: frame.bytes[(y * fw * 4)..<((y + 1) * fw * 4)])
            }
            return (RGBAImage(width: cw, height: ch, bytes: canvas), info, 1)
        }
    }
}
