// HEIC / HEIF and AVIF through libheif: the primary image, decoded with the file's own
// transformations (clean aperture, `irot` rotation, `imir` mirror) applied by libheif exactly
// once. The EXIF orientation tag of a HEIF file is never applied on top: ISO/IEC 23008-12 makes
// the transformation properties authoritative, and phones that write both keep them in step,
// so applying both would turn a photo twice. 10- and 12-bit sources are reduced to 8 bits by
// libheif; alpha comes from the file's auxiliary alpha image.
//
// Limits are checked on the header (the primary image's displayed size) before anything is
// decoded, and libheif's own limit is set too, so a grid or a tile cannot run past it either.
//
// libheif 1.15 has no reduced-size decode. When the caller needs less than the whole image (a
// photo drawn smaller than its pixels, the import's probe) and the file is what phones write
// (8-bit HEVC 4:2:0 tiles, opaque), the tiles are decoded here instead, straight through
// libde265, on every core, and each is reduced into the output as soon as it is decoded
// (HEIFTiles.swift); everything else, and anything that path does not like, goes to libheif.
import CLibHeif
import CTechoLazy
import Foundation
import TechoRaster

enum HEIFDecoding {
    /// Tiles of one grid decoded at once: the cores there are, at most 8.
    static let tileThreads = max(1, min(8, Cores.available))

    /// Size and alpha of the primary image, after its transformations, checked against `limits`.
    static func info(_ bytes: [UInt8], format: ImageFormat, file: String, limits: ImageLimits) throws -> ImageInfo {
        try session(bytes, format: format, file: file, limits: limits) { _, info in info }
    }

    /// Straight-alpha RGBA of the primary image in its displayed orientation, reduced by the
    /// returned power of two (1, 2, 4 or 8; the largest whose result still covers `minimumSize`,
    /// as for WebP) when the image allows a reduced decode (8 bits, opaque, YCbCr 4:2:0).
    ///
    /// The last value says whether this decode stands for `ImageProbe.check` (a decode at 1/8):
    /// whether the check would have passed, given that this decode did. Both run the same
    /// session (the reference check, the limits, the primary image), and then:
    /// - libheif's whole decode (every tile, and an alpha image's): the check takes the tile
    ///   path or, where that path declines or fails, this same libheif decode. It stands.
    /// - the tile path at 1/8, or at any reduction for a single coded image, or for tiles whose
    ///   sides are multiples of 8: the check takes the tile path too, over the same tiles with
    ///   the same libde265 calls (only the in-loop filters and the box size differ, and those
    ///   never fail). It stands.
    /// - the tile path at 1/2 or 1/4 for tiles whose sides are not multiples of 8: the check
    ///   would leave those tiles to libheif, which may judge them otherwise. It does not.
    static func decode(
        _ bytes: [UInt8], format: ImageFormat, file: String, limits: ImageLimits,
        minimumSize: (width: Int, height: Int)?
    ) throws -> (RGBAImage, ImageInfo, Int, standsForCheck: Bool) {
        try session(bytes, format: format, file: file, limits: limits) { handle, info in
            let d = WebPDecoding.denominator(width: info.width, height: info.height, minimumSize: minimumSize)
            if d > 1, format == .heif, info.hasAlpha != true, heif_image_handle_get_luma_bits_per_pixel(handle) == 8,
                heif_image_handle_get_chroma_bits_per_pixel(handle) == 8,
                let layout = HEIFTileLayout.read(bytes), layout.width == info.width || layout.width == info.height,
                let reduced = HEIFTileDecoding.decode(bytes, layout: layout, by: d, threads: tileThreads),
                reduced.width == (info.width + d - 1) / d, reduced.height == (info.height + d - 1) / d
            {
                let asTheCheck = d == 8 || layout.tiles.count == 1 || (layout.tileWidth % 8 == 0 && layout.tileHeight % 8 == 0)
                return (reduced, info, d, asTheCheck)
            }
            return (try fullDecode(handle, info: info, format: format, file: file, limits: limits), info, 1, true)
        }
    }

    /// Straight-alpha RGBA of the primary image in its displayed orientation, whole.
    static func decode(_ bytes: [UInt8], format: ImageFormat, file: String, limits: ImageLimits) throws -> (RGBAImage, ImageInfo) {
        let (image, info, _, _) = try decode(bytes, format: format, file: file, limits: limits, minimumSize: nil)
        return (image, info)
    }

    private static func fullDecode(
        _ handle: OpaquePointer, info: ImageInfo, format: ImageFormat, file: String, limits: ImageLimits
    ) throws -> RGBAImage {
        let options = heif_decoding_options_alloc()
        defer { heif_decoding_options_free(options) }
        options?.pointee.convert_hdr_to_8bit = 1
        var image: OpaquePointer?
        try HEIFStatus.check(
            heif_decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, options),
            file: file, format: format, limits: limits, during: "decoding", size: (info.width, info.height))
        guard let image else { throw ImageError(file: file, format: format, reason: .corrupt("decoding gave no image")) }
        defer { heif_image_release(image) }
        let w = Int(heif_image_get_width(image, heif_channel_interleaved))
        let h = Int(heif_image_get_height(image, heif_channel_interleaved))
        guard w == info.width, h == info.height else {
            throw ImageError(file: file, format: format, reason: .corrupt("decoded \(w)x\(h), the header says \(info.width)x\(info.height)"))
        }
        guard heif_image_get_bits_per_pixel_range(image, heif_channel_interleaved) == 8 else {
            throw ImageError(file: file, format: format, reason: .unsupported("libheif did not reduce the image to 8 bits"))
        }
        var stride: Int32 = 0
        guard let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride), Int(stride) >= w * 4 else {
            throw ImageError(file: file, format: format, reason: .corrupt("decoding gave no pixels"))
        }
        var out = [UInt8](repeating: 0, count: w * h * 4)
        out.withUnsafeMutableBytes { dst in
            for y in 0..<h {
                (dst.baseAddress! + y * w * 4).copyMemory(from: plane + y * Int(stride), byteCount: w * 4)
            }
        }
        if info.hasAlpha == true && heif_image_handle_is_premultiplied_alpha(handle) != 0 { unpremultiply(&out) }
        return RGBAImage(width: w, height: h, bytes: out)
    }

    /// The primary image's EXIF blocks as libheif reads them (each: 4-byte TIFF offset, then
    /// TIFF), for checking the metadata editor against an independent parser.
    static func exifBlocks(_ bytes: [UInt8], file: String) throws -> [[UInt8]] {
        let format = ImageFormat.sniff(bytes) ?? .heif
        return try session(bytes, format: format, file: file, limits: .default) { handle, _ in
            var ids = [heif_item_id](repeating: 0, count: 16)
            let n = Int(heif_image_handle_get_list_of_metadata_block_IDs(handle, "Exif", &ids, Int32(ids.count)))
            return try ids.prefix(n).map { id in
                var block = [UInt8](repeating: 0, count: heif_image_handle_get_metadata_size(handle, id))
                try HEIFStatus.check(
                    heif_image_handle_get_metadata(handle, id, &block), file: file, format: format,
                    limits: .default, during: "reading EXIF")
                return block
            }
        }
    }

    /// Opens the file, finds its primary image and checks its size, then runs `body` with the
    /// image handle. Every libheif object is released before this returns.
    private static func session<R>(
        _ bytes: [UInt8], format: ImageFormat, file: String, limits: ImageLimits,
        _ body: (OpaquePointer, ImageInfo) throws -> R
    ) throws -> R {
        let depth = try HEIFReferenceCheck.check(bytes, format: format, file: file)
        try LazyLibraries.require([TECHO_LAZY_HEIF], file: file, format: format)
        guard let context = heif_context_alloc() else {
            throw ImageError(file: file, format: format, reason: .corrupt("out of memory"))
        }
        defer { heif_context_free(context) }
        // libheif checks coded sizes (padded to whole coding blocks, grid tiles overhanging
        // the image) while it reads the boxes; our own check below is on the displayed size.
        // Twice the side keeps its guard against absurd files without refusing an image that
        // our limits allow.
        heif_context_set_maximum_image_size_limit(context, Int32(clamping: limits.maxSide * 2))
        // A phone's photo is a grid of coded tiles (one level of derived images): its tiles are
        // decoded on `tileThreads` threads at once. libheif 1.15 starts a std::thread per tile,
        // at most that many alive, for every grid it decodes, recursively; a thread it cannot
        // start aborts the process (an uncaught std::system_error). So only a grid of coded
        // tiles gets threads, never a grid of grids (whose threads would multiply level by
        // level): those, and everything the reference check has not seen as one level, are
        // decoded on this thread.
        heif_context_set_max_decoding_threads(context, depth == 1 ? Int32(tileThreads) : 0)
        return try bytes.withUnsafeBytes { raw in
            // The context reads the bytes in place; they outlive it, since it is freed first.
            try HEIFStatus.check(
                heif_context_read_from_memory_without_copy(context, raw.baseAddress, raw.count, nil),
                file: file, format: format, limits: limits, during: "reading the file")
            var handle: OpaquePointer?
            try HEIFStatus.check(
                heif_context_get_primary_image_handle(context, &handle),
                file: file, format: format, limits: limits, during: "finding the primary image")
            guard let handle else { throw ImageError(file: file, format: format, reason: .corrupt("no primary image")) }
            defer { heif_image_handle_release(handle) }
            let w = Int(heif_image_handle_get_width(handle)), h = Int(heif_image_handle_get_height(handle))
            let sw = Int(heif_image_handle_get_ispe_width(handle)), sh = Int(heif_image_handle_get_ispe_height(handle))
            guard limits.allows(width: w, height: h), sw <= 0 || sh <= 0 || limits.allows(width: sw, height: sh) else {
                throw ImageError(file: file, format: format, reason: .tooLarge(width: max(w, sw), height: max(h, sh), limits: limits))
            }
            var info = ImageInfo(format: format, width: w, height: h)
            info.hasAlpha = heif_image_handle_has_alpha_channel(handle) != 0
            return try body(handle, info)
        }
    }

    /// Straight alpha from premultiplied RGBA, in place.
    private static func unpremultiply(_ px: inout [UInt8]) {
        var i = 0
        while i < px.count {
            let a = Int(px[i + 3])
            if a > 0 && a < 255 {
                for c in 0..<3 { px[i + c] = UInt8(min(255, (Int(px[i + c]) * 255 + a / 2) / a)) }
            }
            i += 4
        }
    }
}

/// YCbCr to RGB for 8-bit samples with an image's nclx matrix and range (ITU-T H.273): the
/// matrices libheif converts with, BT.601 when the file names none.
struct YCbCrMatrix {
    var kr: Float, kb: Float, full: Bool

    /// The matrix of H.273 `matrixCoefficients` with `fullRange`, or nil for one this does not
    /// convert (RGB/GBR, YCgCo, constant luminance, ICtCp, chromaticity-derived).
    init?(matrixCoefficients m: Int, fullRange: Bool) {
        switch m {
        case 1: self.init(kr: 0.2126, kb: 0.0722, full: fullRange)
        case 2, 5, 6: self.init(kr: 0.299, kb: 0.114, full: fullRange)
        case 4: self.init(kr: 0.30, kb: 0.11, full: fullRange)
        case 7: self.init(kr: 0.212, kb: 0.087, full: fullRange)
        case 9: self.init(kr: 0.2627, kb: 0.0593, full: fullRange)
        default: return nil
        }
    }

    /// libheif's own default for an image without an `nclx` colour box: BT.601, full range.
    static let heifDefault = YCbCrMatrix(kr: 0.299, kb: 0.114, full: true)

    init(kr: Float, kb: Float, full: Bool) {
        self.kr = kr
        self.kb = kb
        self.full = full
    }

    /// The rounded, clamped RGB of mean samples `y`, `cb`, `cr` (0...255 scale).
    @inline(__always)
    func rgb(y: Float, cb: Float, cr: Float) -> (UInt8, UInt8, UInt8) {
        let yy = full ? y : (y - 16) * (255 / 219)
        let u = full ? cb - 128 : (cb - 128) * (255 / 224)
        let v = full ? cr - 128 : (cr - 128) * (255 / 224)
        let r = yy + 2 * (1 - kr) * v
        let b = yy + 2 * (1 - kb) * u
        let g = (yy - kr * r - kb * b) / (1 - kr - kb)
        @inline(__always) func byte(_ x: Float) -> UInt8 { UInt8(max(0, min(255, x.rounded()))) }
        return (byte(r), byte(g), byte(b))
    }
}
