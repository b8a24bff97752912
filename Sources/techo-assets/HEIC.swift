// HEIC through libheif's encoder (x265): the stored pixels, the orientation that shows them
// upright written as irot/imir boxes, and an EXIF item saying the same orientation (and a GPS
// position when asked), as a phone writes them. What the importer's HEIF path is tested on.
import CLibHeif
import TechoRaster

/// Bytes collected by libheif's writer callback.
private final class Sink {
    var bytes: [UInt8] = []
}

struct HEICEncodeError: Error, CustomStringConvertible {
    var description: String
}

private func check(_ e: heif_error, _ step: String) throws {
    guard e.code != heif_error_Ok else { return }
    throw HEICEncodeError(description: "libheif: \(step): " + (e.message.map { String(cString: $0) } ?? "code \(e.code.rawValue)"))
}

/// Encodes straight RGBA (`width` × `height`, stored orientation) as HEIC.
/// - Parameters:
///   - orientation: the EXIF-style orientation (1…8) that displays the stored pixels upright.
///   - exif: an EXIF block (`Exif\0\0` + TIFF) to attach, or nil.
///   - alpha: keep the alpha channel.
func encodeHEIC(
    rgba: [UInt8], width: Int, height: Int, quality: Int, orientation: Int,
    exif: [UInt8]?, alpha: Bool
) throws -> [UInt8] {
    precondition(rgba.count == width * height * 4 && (1...8).contains(orientation), "bad HEIC input")
    guard let ctx = heif_context_alloc() else { throw HEICEncodeError(description: "libheif: out of memory") }
    defer { heif_context_free(ctx) }
    var encoder: OpaquePointer?
    try check(heif_context_get_encoder_for_format(ctx, heif_compression_HEVC, &encoder), "no HEVC encoder")
    defer { heif_encoder_release(encoder) }
    try check(heif_encoder_set_lossy_quality(encoder, Int32(quality)), "quality")
    var image: OpaquePointer?
    try check(
        heif_image_create(
            Int32(width), Int32(height), heif_colorspace_RGB,
            alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB, &image), "image")
    defer { heif_image_release(image) }
    try check(heif_image_add_plane(image, heif_channel_interleaved, Int32(width), Int32(height), 8), "plane")
    var stride: Int32 = 0
    guard let plane = heif_image_get_plane(image, heif_channel_interleaved, &stride) else {
        throw HEICEncodeError(description: "libheif: no plane")
    }
    let channels = alpha ? 4 : 3
    for y in 0..<height {
        for x in 0..<width {
            for c in 0..<channels { plane[y * Int(stride) + x * channels + c] = rgba[(y * width + x) * 4 + c] }
        }
    }
    let options = heif_encoding_options_alloc()
    defer { heif_encoding_options_free(options) }
    options?.pointee.image_orientation = heif_orientation(rawValue: UInt32(orientation))
    var handle: OpaquePointer?
    try check(heif_context_encode_image(ctx, image, encoder, options, &handle), "encode")
    defer { heif_image_handle_release(handle) }
    if let exif {
        try exif.withUnsafeBytes { try check(heif_context_add_exif_metadata(ctx, handle, $0.baseAddress, Int32($0.count)), "exif") }
    }
    let sink = Sink()
    var writer = heif_writer()
    writer.writer_api_version = 1
    writer.write = { _, data, size, user in
        let sink = Unmanaged<Sink>.fromOpaque(user!).takeUnretainedValue()
        if let data, size > 0 { sink.bytes += UnsafeRawBufferPointer(start: data, count: size) }
        return heif_error(code: heif_error_Ok, subcode: heif_suberror_Unspecified, message: nil)
    }
    try withExtendedLifetime(sink) {
        try check(heif_context_write(ctx, &writer, Unmanaged.passUnretained(sink).toOpaque()), "write")
    }
    return sink.bytes
}

/// The pixels of `p`, turned so that `orientation` (EXIF 1…8) displays them as `p`: the
/// inverse of what a viewer applies.
func stored(_ p: [UInt8], width w: Int, height h: Int, forOrientation o: Int) -> (bytes: [UInt8], width: Int, height: Int) {
    // Map each stored pixel to the displayed pixel the viewer puts it at.
    let swaps = o >= 5
    let sw = swaps ? h : w, sh = swaps ? w : h
    var out = [UInt8](repeating: 0, count: p.count)
    for sy in 0..<sh {
        for sx in 0..<sw {
            let (dx, dy): (Int, Int)
            switch o {
            case 2: (dx, dy) = (w - 1 - sx, sy)
            case 3: (dx, dy) = (w - 1 - sx, h - 1 - sy)
            case 4: (dx, dy) = (sx, h - 1 - sy)
            case 5: (dx, dy) = (sy, sx)
            case 6: (dx, dy) = (w - 1 - sy, sx)
            case 7: (dx, dy) = (w - 1 - sy, h - 1 - sx)
            case 8: (dx, dy) = (sy, h - 1 - sx)
            default: (dx, dy) = (sx, sy)
            }
            for c in 0..<4 { out[(sy * sw + sx) * 4 + c] = p[(dy * w + dx) * 4 + c] }
        }
    }
    return (out, sw, sh)
}
