// The print-true PDF (docs/decisions/pdf.md): each page's vector items (TechoRender's
// `vectorPage`) drawn onto cairo's PDF surface, which writes the file. cairo does what a PDF
// writer must get right and we would otherwise write ourselves: the page tree and cross
// reference, transparency groups and soft masks for alpha, DCT pass-through of JPEG bytes
// (`CAIRO_MIME_TYPE_JPEG`), one image object per `CAIRO_MIME_TYPE_UNIQUE_ID` across the whole
// document, and librsvg draws SVG stickers onto the same context as vectors.

import CCairo
import CTechoLazy
import Foundation
import TechoCodecs
import TechoGeometry
import TechoRaster
import TechoRender
import TechoText

/// Writes vector pages as one PDF.
public enum VectorPDF {
    /// One page of the document.
    public struct PageSpec: Sendable {
        public var page: VectorPage
        /// The page label viewers show instead of the page number (the page's id).
        public var label: String

        public init(page: VectorPage, label: String) {
            self.page = page
            self.label = label
        }
    }

    /// The whole PDF: pages exactly their size in points (page pixels × 72 / dpi), the title
    /// in the document information.
    /// - Throws: `ExportError` when cairo cannot be opened or fails to write.
    public static func document(_ pages: [PageSpec], title: String) throws -> [UInt8] {
        if let why = LazyLibraries.missing([TECHO_LAZY_CAIRO]) { throw ExportError(cannotCreate: false, "PDF export: \(why)") }
        let sink = ByteSink()
        let write: cairo_write_func_t = { closure, data, length in
            guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
            Unmanaged<ByteSink>.fromOpaque(closure).takeUnretainedValue().bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
            return CAIRO_STATUS_SUCCESS
        }
        let first = pages.first.map { points($0.page) } ?? (595, 842)
        guard let surface = cairo_pdf_surface_create_for_stream(write, Unmanaged.passUnretained(sink).toOpaque(), first.0, first.1) else {
            throw ExportError(cannotCreate: false, "PDF export: cairo could not make a PDF surface")
        }
        defer { cairo_surface_destroy(surface) }
        try check(cairo_surface_status(surface))
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, title)
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "techo")
        guard let cr = cairo_create(surface) else { throw ExportError(cannotCreate: false, "PDF export: cairo could not make a context") }
        defer { cairo_destroy(cr) }
        let painter = Painter(cr: cr, glyphs: glyphsByFont(pages.map(\.page.items)))
        defer { painter.release() }
        for spec in pages {
            let (w, h) = points(spec.page)
            cairo_pdf_surface_set_size(surface, w, h)
            cairo_pdf_surface_set_page_label(surface, spec.label)
            cairo_save(cr)
            cairo_scale(cr, 72 / spec.page.dpi, 72 / spec.page.dpi)
            cairo_translate(cr, spec.page.bleed, spec.page.bleed)
            try painter.draw(spec.page.items)
            cairo_restore(cr)
            cairo_show_page(cr)
            try check(cairo_status(cr))
        }
        cairo_surface_finish(surface)
        try check(cairo_surface_status(surface))
        let pdf = PDFDuplicateResources.blanked(PDFTextClip.rewritten(sink.bytes) ?? sink.bytes)
        guard let bleed = pages.first.map({ $0.page.bleed * 72 / $0.page.dpi }), bleed > 0 else { return pdf }
        guard let trimmed = PDFTrimBox.inserted(pdf, bleed: bleed) else {
            throw ExportError(cannotCreate: false, "PDF export: cairo's file is not laid out as expected, so no TrimBox could be added for --bleed")
        }
        return trimmed
    }

    /// Every glyph id the document draws, by font file and face: cairo embeds one subset of
    /// each font for the whole document, so each font is cut down once, to all its pages' glyphs.
    static func glyphsByFont(_ pages: [[VectorItem]]) -> [FontFile: Set<UInt32>] {
        var out: [FontFile: Set<UInt32>] = [:]
        func visit(_ items: [VectorItem]) {
            for item in items {
                switch item {
                case .glyphs(let run): out[FontFile(run.face), default: []].formUnion(run.glyphs.map { UInt32($0.id) })
                case .group(let inner, _, _, _), .masked(let inner, _, _): visit(inner)
                case .fill, .dots, .picture, .tiles, .svg: break
                }
            }
        }
        for items in pages { visit(items) }
        return out
    }

    /// A font file and the face in it, whatever the synthetic bold or italic drawn from it.
    struct FontFile: Hashable {
        var path: String
        var index: Int

        init(_ key: FaceKey) {
            path = key.path
            index = key.index
        }
    }

    /// The page's size in points, bleed included.
    static func points(_ p: VectorPage) -> (Double, Double) { ((p.width + 2 * p.bleed) * 72 / p.dpi, (p.height + 2 * p.bleed) * 72 / p.dpi) }

    /// A cairo status as an export error (the one place cairo's codes become Swift errors).
    static func check(_ status: cairo_status_t) throws {
        guard status != CAIRO_STATUS_SUCCESS else { return }
        throw ExportError(cannotCreate: false, "PDF export: cairo: \(String(cString: cairo_status_to_string(status)))")
    }
}

/// The bytes cairo writes, collected in memory (the file is staged by the caller).
private final class ByteSink {
    var bytes: [UInt8] = []
}

/// Draws vector items on one cairo context, keeping one image surface per picture key so each
/// picture is converted once and embedded once.
private final class Painter {
    let cr: OpaquePointer
    private var surfaces: [String: OpaquePointer] = [:]
    private var fonts: [FaceKey: (face: OpaquePointer, unitsPerEm: Double)] = [:]
    /// The glyphs the whole document draws from each font (`VectorPDF.glyphsByFont`).
    private let glyphs: [VectorPDF.FontFile: Set<UInt32>]
    /// Each font's subset, made once for all the faces drawn from it; nil where the font is used
    /// whole (a colour font, or one HarfBuzz could not subset).
    private var subsets: [VectorPDF.FontFile: [UInt8]?] = [:]

    init(cr: OpaquePointer, glyphs: [VectorPDF.FontFile: Set<UInt32>]) {
        self.cr = cr
        self.glyphs = glyphs
        // Outlines as the font draws them, at positions the layout chose: no hinting.
        if let options = cairo_font_options_create() {
            cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
            cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
            cairo_set_font_options(cr, options)
            cairo_font_options_destroy(options)
        }
    }

    func release() {
        for s in surfaces.values { cairo_surface_destroy(s) }
        surfaces = [:]
        for f in fonts.values { cairo_font_face_destroy(f.face) }
        fonts = [:]
    }

    func draw(_ items: [VectorItem]) throws {
        for item in items { try draw(item) }
    }

    private func draw(_ item: VectorItem) throws {
        switch item {
        case .fill(let path, let color, let rule):
            guard color.a > 0 else { return }
            append(path)
            cairo_set_fill_rule(cr, rule == .evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
            cairo_set_source_rgba(cr, color.r, color.g, color.b, color.a)
            cairo_fill(cr)
        case .dots(let centres, let radius, let color):
            guard color.a > 0, radius > 0, !centres.isEmpty else { return }
            // Each dot a stroke of no length with round caps: PDF draws it as a disc of the
            // line width.
            cairo_save(cr)
            cairo_new_path(cr)
            for c in centres {
                cairo_move_to(cr, c.x, c.y)
                cairo_line_to(cr, c.x, c.y)
            }
            cairo_set_line_width(cr, 2 * radius)
            cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
            cairo_set_source_rgba(cr, color.r, color.g, color.b, color.a)
            cairo_stroke(cr)
            cairo_restore(cr)
        case .picture(let picture, let transform, let opacity):
            guard transform.isInvertible, opacity > 0 else { return }
            let s = try surface(picture)
            defer { if picture.key == nil { cairo_surface_destroy(s) } }
            cairo_save(cr)
            var m = matrix(picture.stored.concatenating(transform))
            cairo_transform(cr, &m)
            cairo_set_source_surface(cr, s, 0, 0)
            cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
            paint(opacity)
            cairo_restore(cr)
        case .tiles(let picture, let transform, let opacity):
            guard let inverse = picture.stored.concatenating(transform).inverted(), opacity > 0 else { return }
            let s = try surface(picture)
            defer { if picture.key == nil { cairo_surface_destroy(s) } }
            guard let pattern = cairo_pattern_create_for_surface(s) else { throw ExportError(cannotCreate: false, "PDF export: cairo: out of memory") }
            defer { cairo_pattern_destroy(pattern) }
            cairo_pattern_set_extend(pattern, CAIRO_EXTEND_REPEAT)
            var m = matrix(inverse)
            cairo_pattern_set_matrix(pattern, &m)
            cairo_save(cr)
            cairo_set_source(cr, pattern)
            paint(opacity)
            cairo_restore(cr)
        case .svg(let bytes, let name, let width, let height, let transform, let opacity):
            guard transform.isInvertible, opacity > 0 else { return }
            cairo_save(cr)
            defer { cairo_restore(cr) }
            var m = matrix(transform)
            cairo_transform(cr, &m)
            if opacity < 1 { cairo_push_group(cr) }
            do { try SVGRendering.draw(bytes, name: name, onto: cr, width: width, height: height) } catch {
                if opacity < 1 { cairo_pattern_destroy(cairo_pop_group(cr)) }
                throw error
            }
            if opacity < 1 {
                cairo_pop_group_to_source(cr)
                cairo_paint_with_alpha(cr, opacity)
            }
        case .glyphs(let run):
            try show(run)
        case .masked(let items, let mask, let transform):
            guard transform.isInvertible else { return }
            cairo_push_group(cr)
            do { try draw(items) } catch {
                cairo_pattern_destroy(cairo_pop_group(cr))
                throw error
            }
            cairo_pop_group_to_source(cr)
            let s = try surface(mask)
            defer { if mask.key == nil { cairo_surface_destroy(s) } }
            cairo_save(cr)
            var m = matrix(transform)
            cairo_transform(cr, &m)
            cairo_mask_surface(cr, s, 0, 0)
            cairo_restore(cr)
        case .group(let items, let opacity, let blendMode, let clip):
            guard opacity > 0 else { return }
            if opacity >= 1 && blendMode == .sourceOver {
                // Nothing to composite as a whole: a clip is enough.
                cairo_save(cr)
                defer { cairo_restore(cr) }
                if let clip { clipTo(clip) }
                try draw(items)
                return
            }
            cairo_push_group(cr)
            do { try draw(items) } catch {
                cairo_pattern_destroy(cairo_pop_group(cr))
                throw error
            }
            cairo_pop_group_to_source(cr)
            cairo_save(cr)
            if let clip { clipTo(clip) }
            cairo_set_operator(cr, Self.operator(blendMode))
            paint(opacity)
            cairo_restore(cr)
        }
    }

    /// The run as text: its glyphs at their positions in a font made from its face, mapped to
    /// the run's text cluster by cluster (cairo writes the ToUnicode map from them).
    private func show(_ run: GlyphRun) throws {
        guard run.color.a > 0, !run.glyphs.isEmpty else { return }
        let font: (face: OpaquePointer, unitsPerEm: Double)
        if let f = fonts[run.face] {
            font = f
        } else {
            font = try PDFFonts.face(run.face, subset: subset(of: VectorPDF.FontFile(run.face)))
            fonts[run.face] = font
        }
        let m = run.fontMatrix, u = font.unitsPerEm
        // cairo's font space is one em a unit, y down; the run's matrix takes font units, y up.
        var fm = matrix(Transform(a: m.a * u, b: m.b * u, c: -m.c * u, d: -m.d * u, tx: 0, ty: 0))
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_set_font_face(cr, font.face)
        cairo_set_font_matrix(cr, &fm)
        cairo_set_source_rgba(cr, run.color.r, run.color.g, run.color.b, run.color.a)
        let glyphs = run.glyphs.map { cairo_glyph_t(index: UInt($0.id), x: $0.origin.x, y: $0.origin.y) }
        let clusters = run.clusters.map { cairo_text_cluster_t(num_bytes: Int32($0.bytes), num_glyphs: Int32($0.glyphs)) }
        let utf8 = Array(run.text.utf8)
        utf8.withUnsafeBufferPointer { text in
            text.withMemoryRebound(to: CChar.self) { chars in
                cairo_show_text_glyphs(
                    cr, chars.baseAddress, Int32(chars.count), glyphs, Int32(glyphs.count), clusters, Int32(clusters.count), cairo_text_cluster_flags_t(0))
            }
        }
        try VectorPDF.check(cairo_status(cr))
    }

    /// The subset of `file` that holds every glyph the document draws from it, or nil to embed
    /// from the file itself, which cairo then subsets on its own: a larger PDF, still a right one.
    private func subset(of file: VectorPDF.FontFile) -> [UInt8]? {
        if let made = subsets[file] { return made }
        let made = try? PDFFontSubset.subset(path: file.path, index: file.index, glyphs: glyphs[file] ?? [])
        subsets[file] = .some(made ?? nil)
        return made ?? nil
    }

    private func paint(_ opacity: Double) {
        if opacity >= 1 { cairo_paint(cr) } else { cairo_paint_with_alpha(cr, opacity) }
    }

    private func clipTo(_ path: Path) {
        append(path)
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
        cairo_clip(cr)
    }

    /// The PDF blend mode of a raster blend mode (the ones a vector page uses).
    private static func `operator`(_ mode: BlendMode) -> cairo_operator_t {
        switch mode {
        case .multiply: return CAIRO_OPERATOR_MULTIPLY
        default: return CAIRO_OPERATOR_OVER
        }
    }

    /// `path` as cairo's current path (quadratic curves raised to cubics).
    private func append(_ path: Path) {
        cairo_new_path(cr)
        var current = Point.zero, start = Point.zero
        for e in path.elements {
            switch e {
            case .move(let p):
                cairo_move_to(cr, p.x, p.y)
                current = p
                start = p
            case .line(let p):
                cairo_line_to(cr, p.x, p.y)
                current = p
            case .quad(let c, let p):
                let c1 = Point(current.x + 2 / 3 * (c.x - current.x), current.y + 2 / 3 * (c.y - current.y))
                let c2 = Point(p.x + 2 / 3 * (c.x - p.x), p.y + 2 / 3 * (c.y - p.y))
                cairo_curve_to(cr, c1.x, c1.y, c2.x, c2.y, p.x, p.y)
                current = p
            case .cubic(let c1, let c2, let p):
                cairo_curve_to(cr, c1.x, c1.y, c2.x, c2.y, p.x, p.y)
                current = p
            case .close:
                cairo_close_path(cr)
                current = start
            }
        }
    }

    private func matrix(_ t: Transform) -> cairo_matrix_t { cairo_matrix_t(xx: t.a, yx: t.b, xy: t.c, yy: t.d, x0: t.tx, y0: t.ty) }

    /// The picture as a cairo image surface: cached by key, and carrying its key as the unique
    /// id (one image object per document) and its JPEG bytes when it has them. The surface's
    /// grid is the one those bytes store (`picture.stored` turns it onto the pixmap's), so the
    /// image cairo writes and the pixels behind it agree.
    private func surface(_ picture: VectorPicture) throws -> OpaquePointer {
        if let key = picture.key, let s = surfaces[key] { return s }
        let p = picture.stored.isIdentity ? picture.pixmap : Self.unturned(picture.pixmap, by: picture.stored)
        let opaque = p.isOpaque
        guard let s = cairo_image_surface_create(opaque ? CAIRO_FORMAT_RGB24 : CAIRO_FORMAT_ARGB32, Int32(p.width), Int32(p.height)) else {
            throw ExportError(cannotCreate: false, "PDF export: cairo: out of memory")
        }
        do { try VectorPDF.check(cairo_surface_status(s)) } catch {
            cairo_surface_destroy(s)
            throw error
        }
        cairo_surface_flush(s)
        if let data = cairo_image_surface_get_data(s) {
            let stride = Int(cairo_image_surface_get_stride(s))
            // cairo's pixels are premultiplied native-endian words, A R G B from the top bit.
            p.data.withUnsafeBufferPointer { src in
                for y in 0..<p.height {
                    let row = UnsafeMutableRawPointer(data + y * stride)
                    for x in 0..<p.width {
                        let i = (y * p.width + x) * 4
                        let word = UInt32(src[i + 3]) << 24 | UInt32(src[i]) << 16 | UInt32(src[i + 1]) << 8 | UInt32(src[i + 2])
                        row.storeBytes(of: word, toByteOffset: x * 4, as: UInt32.self)
                    }
                }
            }
        }
        cairo_surface_mark_dirty(s)
        if let key = picture.key {
            attach(Array(key.utf8), CAIRO_MIME_TYPE_UNIQUE_ID, to: s)
            if let jpeg = picture.jpeg { attach(jpeg, CAIRO_MIME_TYPE_JPEG, to: s) }
            surfaces[key] = s
        }
        return s
    }

    /// `displayed` taken back to the grid `turn` maps onto it (a quarter turn and/or a mirror,
    /// so each stored pixel's centre lands on one displayed pixel's centre).
    static func unturned(_ displayed: Pixmap, by turn: Transform) -> Pixmap {
        let swaps = turn.a == 0
        let w = swaps ? displayed.height : displayed.width, h = swaps ? displayed.width : displayed.height
        var out = [UInt8](repeating: 0, count: w * h * 4)
        displayed.data.withUnsafeBufferPointer { src in
            for y in 0..<h {
                for x in 0..<w {
                    let c = turn.apply(Point(Double(x) + 0.5, Double(y) + 0.5))
                    let dx = min(displayed.width - 1, max(0, Int(c.x.rounded(.down))))
                    let dy = min(displayed.height - 1, max(0, Int(c.y.rounded(.down))))
                    let i = (dy * displayed.width + dx) * 4, o = (y * w + x) * 4
                    for k in 0..<4 { out[o + k] = src[i + k] }
                }
            }
        }
        return Pixmap(width: w, height: h, premultiplied: out)
    }

    /// Hands cairo a copy of `bytes` as the surface's `mime` data (cairo frees it).
    private func attach(_ bytes: [UInt8], _ mime: String, to s: OpaquePointer) {
        guard !bytes.isEmpty, let copy = malloc(bytes.count) else { return }
        bytes.withUnsafeBytes { src in if let base = src.baseAddress { copy.copyMemory(from: base, byteCount: bytes.count) } }
        let status = cairo_surface_set_mime_data(s, mime, copy.assumingMemoryBound(to: UInt8.self), UInt(bytes.count), { free($0) }, copy)
        if status != CAIRO_STATUS_SUCCESS { free(copy) }
    }
}
