// The page compositor: walks a page's model (background, then elements bottom to top) and draws
// it with TechoRaster and TechoText, as resvg walks its tree. Anything made of more than one
// drawing call, or with an eraser or blend mode, is drawn into its own bounding-box layer and
// composited once.

import Foundation
import TechoCodecs
import TechoModel
import TechoRaster
import TechoText

/// Renders pages to pixels. Thread-safe: one renderer may render several pages at once, sharing
/// its caches of decoded images and laid-out text.
public final class PageRenderer: @unchecked Sendable {
    /// The largest side of a rendered page, device pixels (docs/contract.md §10).
    public static let maxSide = 16384
    /// The largest rendered page area, device pixels (docs/contract.md §10).
    public static let maxPixels = 100_000_000

    /// Renders of at most this many device pixels are previews: the renderer keeps their
    /// background and element drawings (within `previewBudget`), so a re-render after one
    /// element changed remakes only that element. Larger renders (prints) keep nothing but the
    /// decoded pictures.
    public static let previewPixels = 4_000_000
    /// Bytes of preview drawings kept, least recently used dropped first. 64 MiB.
    public static let previewBudget = 64 << 20

    /// Threads that make one page's element drawings while the page thread draws the
    /// background and blends (1: the page thread alone does everything). Default: one per
    /// core. The page is byte-identical for any value.
    public let composeThreads: Int

    let images: ImageCache
    let previews = PreviewCache(budget: PageRenderer.previewBudget)
    private let textLock = NSLock()
    private var layouts: [TextContent: LaidOutText] = [:]

    /// A renderer that finds each asset's file with `assetURL` (usually `JournalStore.assetURL`)
    /// and composes each page on `composeThreads` threads (at least 1).
    ///
    /// - Parameter decoded: told, on the decoding thread, of each asset whose file a render
    ///   decoded without an error by a decode that stands for its check
    ///   (`DecodedImage.standsForCheck`: a JPEG's every scanline and a PNG's every row and chunk
    ///   to IEND, at whatever scale; a HEIF's or AVIF's every tile), with the format its bytes
    ///   are. `techo build` lets that decode stand for the picture's check. Default nil.
    public init(
        assetURL: @escaping (AssetRef) throws -> URL,
        composeThreads: Int = Cores.available,
        decoded: ((AssetRef, ImageFormat) -> Void)? = nil
    ) {
        images = ImageCache(assetURL: assetURL, decoded: decoded)
        self.composeThreads = max(1, composeThreads)
    }

    /// Renders `page` at `scale` × its pixel size (`RenderedPage.dpi` is `page.dpi × scale`).
    ///
    /// - Parameters:
    ///   - keepDrawings: keep a preview's drawings for the next render of the page (see
    ///     `previewPixels`). Default true. An export passes false: it renders each page once,
    ///     and kept drawings would only hold memory (up to `previewBudget`) for nothing.
    ///   - threads: threads composing this page, at most `composeThreads`. Default
    ///     `composeThreads`. An export rendering several pages at once gives each page its
    ///     share of the cores. The page is byte-identical for any value.
    /// - Throws: `RenderError` naming the page and element: a page over the limits at this
    ///   scale (checked before any pixel is allocated), an asset that is missing or corrupt,
    ///   text that cannot be laid out, SVG path data that does not parse.
    public func render(_ page: Page, scale: Double = 1, keepDrawings: Bool = true, threads: Int? = nil) throws -> RenderedPage {
        precondition(scale.isFinite && scale > 0, "render scale must be positive and finite, got \(scale)")
        let size = try resolvedSize(of: page)
        let (w, h) = try deviceSize(page: page, size: size, scale: scale)
        return try compose(
            page, canvas: Canvas(page: page, scale: scale, width: w, height: h), keepDrawings: keepDrawings,
            threads: max(1, min(composeThreads, threads ?? composeThreads)))
    }

    /// Bytes of preview drawings the renderer holds now (at most `previewBudget`).
    var keptDrawingBytes: Int { previews.bytes }

    /// Bytes of decoded and derived pictures the renderer holds now.
    var keptPictureBytes: Int { images.bytes }

    /// Texts the renderer holds laid out now.
    var keptLayoutCount: Int {
        textLock.lock()
        defer { textLock.unlock() }
        return layouts.count
    }

    /// Drops the pictures decoded, derived or rendered from `assets` and the layouts of
    /// `texts`: an export calls it for what no page still to render shows, so a long journal
    /// of distinct photos and texts holds those of the pages in flight, not hundreds of
    /// megabytes of pages done. A later render that shows one makes it again.
    public func forget(pictures assets: Set<AssetRef>, texts: Set<TextContent> = []) {
        images.forget(assets)
        guard !texts.isEmpty else { return }
        textLock.lock()
        for t in texts { layouts[t] = nil }
        textLock.unlock()
    }

    /// The formats of the pictures `page` draws (background, photos, stickers, tape patterns;
    /// not a text's font file), as their decodes will sniff them from the files' first bytes,
    /// whatever their extensions; each asset is read once per renderer. What an export's render
    /// key names the decoding libraries by.
    public func pictureFormats(of page: Page) -> Set<ImageFormat> {
        var pictures = Set<AssetRef>()
        if let b = page.background.image { pictures.insert(b.asset) }
        for e in page.elements {
            if case .text = e.content { continue }
            pictures.formUnion(e.assets)
        }
        return Set(pictures.compactMap { images.format($0) })
    }

    /// The part `region` (device pixels of the whole render at `scale`, clipped to it) of what
    /// `render(page, scale:)` draws, pixel for pixel, at the cost of that part: the editor asks
    /// for what is on screen when zoomed in.
    ///
    /// - Throws: as `render`, and when the region misses the page.
    public func render(_ page: Page, scale: Double, region: (x: Int, y: Int, width: Int, height: Int)) throws -> RenderedPage {
        precondition(scale.isFinite && scale > 0, "render scale must be positive and finite, got \(scale)")
        let size = try resolvedSize(of: page)
        let (w, h) = try deviceSize(page: page, size: size, scale: scale)
        let r = IntRect(x0: region.x, y0: region.y, x1: region.x + region.width, y1: region.y + region.height)
            .intersection(IntRect(x0: 0, y0: 0, x1: w, y1: h))
        guard !r.isEmpty else {
            throw RenderError(
                pageID: page.id, message: "the region \(region.width)x\(region.height) at \(region.x),\(region.y) is outside the page (\(w)x\(h) px)")
        }
        return try compose(page, canvas: Canvas(page: page, scale: scale, pageWidth: w, pageHeight: h, region: r))
    }

    /// The page's size in page pixels, with an `auto` side grown to the content's bounds plus
    /// `page.margin` (content at negative coordinates does not extend the page).
    /// - Throws: `RenderError` when a text element cannot be laid out.
    public func resolvedSize(of page: Page) throws -> (width: Double, height: Double) {
        if let w = page.size.width, let h = page.size.height { return (w, h) }
        var content = Rect.null
        for e in page.elements where !e.hidden {
            do { content = content.union(try pageBounds(of: e)) } catch {
                throw RenderError(pageID: page.id, elementID: e.id, message: "\(error)")
            }
        }
        func side(_ fixed: Double?, _ extent: Double) -> Double {
            if let fixed { return fixed }
            let end = content.isNull ? 0 : extent
            return max(1, (max(0, end) + page.margin).rounded(.up))
        }
        return (side(page.size.width, content.maxX), side(page.size.height, content.maxY))
    }

    /// A text element's natural size: its laid-out box, page pixels.
    /// - Throws: `TextError` when the text cannot be laid out (bad font file, too long).
    public func naturalSize(of text: TextContent) throws -> (width: Double, height: Double) {
        let l = try layout(text)
        return (l.width, l.height)
    }

    /// The device size of a page at `scale`, refused over the limits before allocating.
    func deviceSize(page: Page, size: (width: Double, height: Double), scale: Double) throws -> (Int, Int) {
        let w = (size.width * scale).rounded(), h = (size.height * scale).rounded()
        let limit = "the limit is \(PageRenderer.maxSide) px a side and \(PageRenderer.maxPixels / 1_000_000) megapixels"
        let shown = "\(formatted(w))x\(formatted(h)) px"
        guard w <= Double(PageRenderer.maxSide), h <= Double(PageRenderer.maxSide) else {
            throw RenderError(pageID: page.id, message: "at scale \(formatted(scale)) the page is \(shown); \(limit)")
        }
        guard w * h <= Double(PageRenderer.maxPixels) else {
            throw RenderError(
                pageID: page.id,
                message: "at scale \(formatted(scale)) the page is \(shown) (\(formatted((w * h / 1e6 * 10).rounded() / 10)) megapixels); \(limit)")
        }
        return (max(1, Int(w)), max(1, Int(h)))
    }

    /// The laid-out text of a text element, cached (layout is the expensive part of text).
    func layout(_ text: TextContent) throws -> LaidOutText {
        textLock.lock()
        if let l = layouts[text] { textLock.unlock(); return l }
        textLock.unlock()
        var style = TextStyle(text)
        // A family is never read as a path (the model refuses such names; this is the second
        // guard): a font file is read only when it was imported into the journal.
        if FontNames.looksLikeFilePath(style.font) { style.font = "sans-serif" }
        if let f = text.fontFile { style.fontFile = try images.assetURL(f).path }
        let l = try TextLayout.layout(text.text, style: style)
        textLock.lock()
        layouts[text] = l
        textLock.unlock()
        return l
    }
}

/// A number without a trailing `.0`.
func formatted(_ v: Double) -> String {
    v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
}
