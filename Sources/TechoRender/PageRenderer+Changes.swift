// Which rows of a page's render an edit can change, and a render that is exact on those rows
// only: a rebuild after one sticker moved remakes the bands of its file those rows fall in, and
// draws only what reaches them (docs/decisions/rebuild.md).
//
// Compositing is per pixel: an element changes only the pixels it draws on, and a pixel's value
// depends only on what is drawn on that pixel, in stacking order. So the rows an edit can change
// are those the changed elements reach, before and after; and rows are drawn exactly as the whole
// render draws them by drawing, whole and as always, every element that reaches them.

import TechoModel
import TechoRaster

extension PageRenderer {
    /// Device pixels added around an element's drawn bounds before asking which rows it reaches:
    /// the bounds already hold outlines, frames, shadows (three blur radii) and stroke widths,
    /// and this keeps anti-aliasing and a blur's furthest tail on the safe side.
    static let rowReachMargin = 32.0

    /// The device rows, at `scale`, in which `new` may render differently from `old`: empty
    /// when no pixel can differ; nil when it cannot be told from their elements alone (another
    /// size, dpi, background, margin or slots, or elements whose stacking order changed).
    /// - Throws: when a text element cannot be laid out.
    public func changedRows(from old: Page, to new: Page, scale: Double) throws -> Range<Int>? {
        var a = old, b = new
        a.elements = []
        b.elements = []
        guard a == b else { return nil }
        let sizeA = try resolvedSize(of: old), sizeB = try resolvedSize(of: new)
        guard sizeA == sizeB else { return nil }
        let (_, h) = try deviceSize(page: new, size: sizeB, scale: scale)
        let before = old.elements.filter(\.drawsAnything), after = new.elements.filter(\.drawsAnything)
        let idsBefore = Set(before.map(\.id)), idsAfter = Set(after.map(\.id))
        // What stays keeps its order; the rest came or went.
        guard before.filter({ idsAfter.contains($0.id) }).map(\.id) == after.filter({ idsBefore.contains($0.id) }).map(\.id) else { return nil }
        let was = Dictionary(uniqueKeysWithValues: before.map { ($0.id, $0) })
        let now = Dictionary(uniqueKeysWithValues: after.map { ($0.id, $0) })
        var changed = Rect.null
        for e in before where now[e.id] != e { changed = changed.union(try pageBounds(of: e)) }
        for e in after where was[e.id] != e { changed = changed.union(try pageBounds(of: e)) }
        guard !changed.isNull else { return 0..<0 }
        return rows(reachedBy: changed, scale: scale, height: h)
    }

    /// The device size of `page`'s render at `scale`.
    /// - Throws: as `render`, for a page over the limits or text that cannot be laid out.
    public func deviceSize(of page: Page, scale: Double) throws -> (width: Int, height: Int) {
        try deviceSize(page: page, size: try resolvedSize(of: page), scale: scale)
    }

    /// The rows of a page `height` device pixels tall that page-space `rect` reaches at `scale`,
    /// with `rowReachMargin` to spare.
    func rows(reachedBy rect: Rect, scale: Double, height: Int) -> Range<Int> {
        guard rect.isFinite else { return 0..<height }
        let top = Int(max(0, min(Double(height), (rect.minY * scale - PageRenderer.rowReachMargin).rounded(.down))))
        let bottom = Int(max(0, min(Double(height), (rect.maxY * scale + PageRenderer.rowReachMargin).rounded(.up))))
        return top..<max(top, bottom)
    }

    /// `page` rendered at `scale` exactly as `render(page, scale:)` draws it on the device rows
    /// `rows`; the other rows hold only what reaches them of the elements that reach `rows`
    /// (they are for throwing away). The elements that do not reach those rows are neither drawn
    /// nor their pictures decoded.
    public func render(_ page: Page, scale: Double, exactRows rows: Range<Int>, threads: Int? = nil) throws -> RenderedPage {
        precondition(scale.isFinite && scale > 0, "render scale must be positive and finite, got \(scale)")
        let size = try resolvedSize(of: page)
        let (w, h) = try deviceSize(page: page, size: size, scale: scale)
        var only = page
        only.elements = try page.elements.filter { e in
            guard e.drawsAnything else { return false }
            let reach = self.rows(reachedBy: try pageBounds(of: e), scale: scale, height: h)
            return reach.overlaps(rows)
        }
        return try compose(
            only, canvas: Canvas(page: page, scale: scale, width: w, height: h), keepDrawings: false,
            threads: max(1, min(composeThreads, threads ?? composeThreads)))
    }
}

extension Element {
    /// Whether the renderer draws the element at all (it is shown and not fully transparent).
    var drawsAnything: Bool { !hidden && opacity > 0 }
}
