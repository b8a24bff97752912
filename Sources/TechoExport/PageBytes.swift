// One page as the bytes `techo export` writes for it, for callers that keep them in memory (the
// editor's renders and downloads, the library).
import Foundation
import TechoCodecs
import TechoModel
import TechoRender

public enum PageBytes {
    /// The page as `techo export --scale S` writes it: the same renderer call and PNG settings,
    /// and the same render stamp (whose key names the running program: the bytes are the file's
    /// when this program is the `techo` that exports).
    public static func png(of page: Page, scale: Double, renderer: PageRenderer) throws -> [UInt8] {
        var seconds = (render: 0.0, encode: 0.0)
        return try png(of: page, scale: scale, renderer: renderer, seconds: &seconds)
    }

    /// The same, adding the seconds spent rendering and encoding to `seconds`; with
    /// `forScreen`, the same pixels compressed for speed (zlib level 1, the Up filter), for a
    /// picture that goes to a screen, not to a file: on the demo's first page at the editor's
    /// laptop scale that encodes in about half the time for 4 % more bytes (docs/editor.md).
    public static func png(
        of page: Page, scale: Double, renderer: PageRenderer, forScreen: Bool = false, seconds: inout (render: Double, encode: Double)
    ) throws -> [UInt8] {
        let t0 = ContinuousClock.now
        let rendered = try renderer.render(page, scale: scale)
        let t1 = ContinuousClock.now
        let bytes =
            forScreen
            ? try PNGEncoder.encode(rendered.pixmap, dpi: rendered.dpi, level: 1, filter: .up, name: "page \(page.id)")
            : RenderStamp.stampPNG(
                try PNGEncoder.encode(rendered.pixmap, dpi: rendered.dpi, level: ExportSettings().level, name: "page \(page.id)"),
                key: RenderKey.of(page, scale: scale, settings: ExportSettings(), renderer: renderer))
        let t2 = ContinuousClock.now
        func s(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18 }
        seconds.render += s(t1 - t0)
        seconds.encode += s(t2 - t1)
        return bytes
    }

    /// The rectangle `region` (device pixels at `scale`) of that PNG's pixels, drawn alone: what
    /// the editor shows over a zoomed-in page. Compressed for speed (zlib level 1, the Up filter):
    /// it goes to a screen, not to a file.
    public static func png(
        of page: Page, scale: Double, region: (x: Int, y: Int, width: Int, height: Int), renderer: PageRenderer,
        seconds: inout (render: Double, encode: Double)
    ) throws -> [UInt8] {
        let t0 = ContinuousClock.now
        let rendered = try renderer.render(page, scale: scale, region: region)
        let t1 = ContinuousClock.now
        let bytes = try PNGEncoder.encode(rendered.pixmap, dpi: rendered.dpi, level: 1, filter: .up, name: "page \(page.id)")
        let t2 = ContinuousClock.now
        func s(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18 }
        seconds.render += s(t1 - t0)
        seconds.encode += s(t2 - t1)
        return bytes
    }

    /// The pages as one print-true PDF, as `techo export --format pdf` writes it: vectors, text in
    /// subset fonts, pictures at their own resolution (docs/decisions/pdf.md); what has no vector
    /// form at each page's own dpi.
    public static func vectorPDF(of pages: [Page], title: String, renderer: PageRenderer) throws -> [UInt8] {
        let specs = try pages.map { VectorPDF.PageSpec(page: try renderer.vectorPage($0, rasterScale: 1), label: $0.id) }
        return try VectorPDF.document(specs, title: title)
    }

    /// The pages as one PDF of page pictures, as `techo export --format pdf --raster` writes it
    /// (each page at its own size).
    public static func pdf(of pages: [Page], title: String, renderer: PageRenderer) throws -> [UInt8] {
        var images: [PDFWriter.PageImage] = []
        for page in pages {
            let rendered = try renderer.render(page, scale: 1)
            images.append(try PDFWriter.pageImage(rendered.pixmap, dpi: rendered.dpi, name: "page \(page.id)"))
        }
        return PDFWriter.document(images, title: title)
    }
}
