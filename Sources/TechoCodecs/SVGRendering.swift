// SVG stickers through librsvg, rendered by cairo at exactly the pixel size a draw needs.
//
// Safety: the document is loaded from bytes with no base file or URL and without
// RSVG_HANDLE_FLAG_UNLIMITED, so
// - librsvg resolves no reference to another file or URL (`<image href>`, `<use href>` to
//   another document, CSS `@import`, `url()` to a file): with no base location there is
//   nothing a relative or absolute reference may resolve against, and those parts render as
//   nothing; `data:` URLs inside the document still work, since they are the sticker itself;
// - libxml2 keeps its default limits on document size, text nodes and nesting depth, and
//   librsvg's own limits on loaded elements and on entity and `<use>` references refuse XML
//   bombs (billion laughs, exponential `<use>` chains) with an error instead of memory;
// - `<use>` chains that would instance more than 100 000 elements are refused before librsvg
//   sees them (SVGReferenceBudget), since librsvg's own limit takes tens of seconds to reach;
// - the file itself is at most `SVGRendering.maxFileBytes`, and its declared size must pass
//   the image limits, like any picture's header.
// `<text>` is drawn with the system's fonts through Pango and fontconfig, as any other text in
// techo; an SVG cannot load a font file of its own (librsvg has no `@font-face`).
import CRsvg
import CTechoLazy
import Foundation
import TechoRaster

/// Natural size and rasterisation of SVG documents.
public enum SVGRendering {
    /// The largest SVG file read, in bytes: 16 MiB. A sticker is a few kilobytes to a few
    /// megabytes; more is a bomb or not a sticker.
    public static let maxFileBytes = 16 << 20
    /// CSS pixels per inch, used for lengths in `mm`, `in`, `pt` and the like: 96.
    public static let dpi = 96.0

    /// librsvg is used from several rendering threads; Pango's font map and GLib's type
    /// system behind it are safest driven by one thread at a time.
    private static let lock = NSLock()

    /// The natural size, from the root's `width` and `height` (any absolute unit, at 96 dpi) or,
    /// when they are missing or in percent, from its `viewBox`; checked against `limits`.
    static func info(_ bytes: [UInt8], file: String, limits: ImageLimits) throws -> ImageInfo {
        try session(bytes, file: file, limits: limits) { _, info in info }
    }

    /// The document rendered at `width` × `height` pixels (its aspect kept, centred, as the
    /// root's `preserveAspectRatio` says), premultiplied.
    /// - Precondition: `width` and `height` are positive.
    /// - Throws: `ImageError` when the document is refused or `width` × `height` is over `limits`.
    public static func render(
        _ bytes: [UInt8], name: String, width: Int, height: Int,
        limits: ImageLimits = .default
    ) throws -> Pixmap {
        precondition(width > 0 && height > 0, "SVG render size must be positive, got \(width)x\(height)")
        guard limits.allows(width: width, height: height) else {
            throw ImageError(file: name, format: .svg, reason: .tooLarge(width: width, height: height, limits: limits))
        }
        return try session(bytes, file: name, limits: limits) { handle, _ in
            guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)) else {
                throw ImageError(file: name, format: .svg, reason: .corrupt("out of memory"))
            }
            defer { cairo_surface_destroy(surface) }
            try SVGStatus.check(cairo_surface_status(surface), file: name, during: "making the surface")
            guard let cr = cairo_create(surface) else { throw ImageError(file: name, format: .svg, reason: .corrupt("out of memory")) }
            defer { cairo_destroy(cr) }
            var viewport = RsvgRectangle(x: 0, y: 0, width: Double(width), height: Double(height))
            var error: UnsafeMutablePointer<GError>?
            guard rsvg_handle_render_document(handle, cr, &viewport, &error) != 0 else {
                throw SVGStatus.fail(error, file: name, during: "rendering")
            }
            try SVGStatus.check(cairo_status(cr), file: name, during: "rendering")
            cairo_surface_flush(surface)
            guard let data = cairo_image_surface_get_data(surface) else {
                throw ImageError(file: name, format: .svg, reason: .corrupt("rendering gave no pixels"))
            }
            let stride = Int(cairo_image_surface_get_stride(surface))
            // cairo's ARGB32 is premultiplied, one native-endian 32-bit word a pixel: B, G, R, A
            // in memory on little-endian machines. Pixmap is premultiplied R, G, B, A.
            var out = [UInt8](repeating: 0, count: width * height * 4)
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<height {
                    let row = UnsafeRawPointer(data + y * stride)
                    for x in 0..<width {
                        let p = row.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self)
                        let o = (y * width + x) * 4
                        dst[o] = UInt8(truncatingIfNeeded: p >> 16)
                        dst[o + 1] = UInt8(truncatingIfNeeded: p >> 8)
                        dst[o + 2] = UInt8(truncatingIfNeeded: p)
                        dst[o + 3] = UInt8(truncatingIfNeeded: p >> 24)
                    }
                }
            }
            return Pixmap(width: width, height: height, premultiplied: out)
        }
    }

    /// Draws the document as vectors onto `cr` (a `cairo_t`, of any surface: the PDF writer's)
    /// into the box 0…width × 0…height of its current user space, its aspect kept and centred
    /// as in `render`.
    /// - Throws: `ImageError` when the document is refused or librsvg cannot draw it.
    public static func draw(_ bytes: [UInt8], name: String, onto cr: OpaquePointer, width: Double, height: Double) throws {
        try session(bytes, file: name, limits: .default) { handle, _ in
            var viewport = RsvgRectangle(x: 0, y: 0, width: width, height: height)
            var error: UnsafeMutablePointer<GError>?
            guard rsvg_handle_render_document(handle, cr, &viewport, &error) != 0 else {
                throw SVGStatus.fail(error, file: name, during: "rendering")
            }
            try SVGStatus.check(cairo_status(cr), file: name, during: "rendering")
        }
    }

    /// Parses the document (under the lock), works out its natural size and runs `body` with
    /// the handle. The handle is released before this returns.
    private static func session<R>(
        _ bytes: [UInt8], file: String, limits: ImageLimits,
        _ body: (UnsafeMutablePointer<RsvgHandle>, ImageInfo) throws -> R
    ) throws -> R {
        try LazyLibraries.require([TECHO_LAZY_RSVG, TECHO_LAZY_CAIRO, TECHO_LAZY_GOBJECT, TECHO_LAZY_GLIB], file: file, format: .svg)
        guard bytes.count <= maxFileBytes else {
            throw ImageError(file: file, format: .svg, reason: .fileTooLarge(bytes: bytes.count, limit: maxFileBytes))
        }
        let instanced = SVGReferenceBudget.instancedElements(bytes)
        guard instanced <= SVGReferenceBudget.limit else {
            throw ImageError(
                file: file, format: .svg,
                reason: .unsupported(
                    "its <use> references instance more than \(SVGReferenceBudget.limit) elements (an SVG bomb?)"))
        }
        lock.lock()
        defer { lock.unlock() }
        var error: UnsafeMutablePointer<GError>?
        // No base file and default flags: see the top of this file.
        guard let handle = bytes.withUnsafeBufferPointer({ rsvg_handle_new_from_data($0.baseAddress, gsize($0.count), &error) }) else {
            throw SVGStatus.fail(error, file: file, during: "reading the document")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(handle)) }
        rsvg_handle_set_dpi(handle, dpi)
        let (w, h) = try naturalSize(handle, file: file)
        guard w.isFinite, h.isFinite, w > 0, h > 0 else {
            throw ImageError(file: file, format: .svg, reason: .corrupt("the declared size \(w)x\(h) is not a positive size"))
        }
        // Round to whole pixels; a size far past the limits is reported as the limit's excess.
        let iw = w < 1e9 ? max(1, Int(w.rounded())) : Int(1e9), ih = h < 1e9 ? max(1, Int(h.rounded())) : Int(1e9)
        guard limits.allows(width: iw, height: ih) else {
            throw ImageError(file: file, format: .svg, reason: .tooLarge(width: iw, height: ih, limits: limits))
        }
        var info = ImageInfo(format: .svg, width: iw, height: ih)
        info.hasAlpha = true
        return try body(handle, info)
    }

    /// Width and height in pixels: the root's absolute `width`/`height`, else its `viewBox`.
    private static func naturalSize(_ handle: UnsafeMutablePointer<RsvgHandle>, file: String) throws -> (Double, Double) {
        var w = 0.0, h = 0.0
        if rsvg_handle_get_intrinsic_size_in_pixels(handle, &w, &h) != 0 { return (w, h) }
        var hasW: gboolean = 0, hasH: gboolean = 0, hasViewBox: gboolean = 0
        var lw = RsvgLength(), lh = RsvgLength(), viewBox = RsvgRectangle()
        rsvg_handle_get_intrinsic_dimensions(handle, &hasW, &lw, &hasH, &lh, &hasViewBox, &viewBox)
        guard hasViewBox != 0 else {
            throw ImageError(
                file: file, format: .svg, reason: .unsupported("the document declares no size: give the root <svg> a width and height or a viewBox"))
        }
        // A width or height in percent has no size of its own outside a page: the viewBox's
        // user units count as pixels, as when an SVG without a size is opened on its own.
        return (viewBox.width, viewBox.height)
    }
}
