// A whole page composed band by band, so a band of rows can be encoded while the rows below it
// are still being drawn (docs/performance.md, "Compose and encode overlapped").
//
// Compositing is per pixel and in stacking order, so a band's rows are final once every element
// that reaches them has been applied to them, in stacking order, whatever has been applied to the
// rows below. So the page thread takes the bands top to bottom and, in each, applies the part of
// each element's drawing that falls in it; a drawing is let go after its last band. Which
// elements reach a band is told ahead from their drawn bounds (`rows(reachedBy:)`, the rule the
// exact-rows render uses), and checked against each drawing once it is made: a drawing that
// changes a row outside the rows told ahead ends the band render (`BandsUnreliable`), and the
// caller renders the page whole instead.

import TechoModel
import TechoRaster

/// A drawing reached rows its element's drawn bounds did not say it would: the bands already
/// handed on may lack it. The page must be rendered whole (`render(_:scale:keepDrawings:threads:)`).
public struct BandsUnreliable: Error, CustomStringConvertible {
    public let pageID: String, elementID: String
    public var description: String { "page \(pageID): element \(elementID) draws outside the rows its bounds reach" }
}

extension PageRenderer {
    /// `page` rendered whole at `scale`, as `render(page, scale:, keepDrawings: false, threads:)`
    /// renders it, pixel for pixel and with the same warnings, composed band by band:
    /// `bandDone(k, pixmap)` is called on this thread, in order, as soon as the rows `bands[k]`
    /// of `pixmap` are final (the rows of later bands are not). `bands` must cover the page's
    /// device rows from 0 in order, without gaps.
    ///
    /// - Throws: as `render`; `BandsUnreliable` when a drawing changes rows its element was not
    ///   told to reach (the caller then renders the page whole); what `bandDone` throws.
    public func render(
        _ page: Page, scale: Double, threads: Int? = nil, bands: [Range<Int>], bandDone: (Int, Pixmap) throws -> Void
    ) throws -> RenderedPage {
        try render(page, scale: scale, threads: threads, bands: bands, reach: nil, bandDone: bandDone)
    }

    /// The same, with the rows each element is told to reach given by `reach` (nil: from its
    /// drawn bounds; for the tests).
    func render(
        _ page: Page, scale: Double, threads: Int?, bands: [Range<Int>], reach told: ((Element) -> Range<Int>)?,
        bandDone: (Int, Pixmap) throws -> Void
    ) throws -> RenderedPage {
        precondition(scale.isFinite && scale > 0, "render scale must be positive and finite, got \(scale)")
        let size = try resolvedSize(of: page)
        let (w, h) = try deviceSize(page: page, size: size, scale: scale)
        precondition(
            bands.first?.lowerBound == 0 && bands.last?.upperBound == h && zip(bands, bands.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound },
            "bands must cover rows 0..<\(h) in order")
        let canvas = Canvas(page: page, scale: scale, width: w, height: h)
        let elements = page.elements.filter(\.drawsAnything)
        // An element whose bounds cannot be told (text that cannot be laid out) reaches every
        // row; making its drawing then reports why.
        let reach = elements.map { e in told?(e) ?? (try? pageBounds(of: e)).map { rows(reachedBy: $0, scale: scale, height: h) } ?? 0..<h }
        func band(of y: Int) -> Int { bands.firstIndex { $0.contains(y) } ?? bands.count - 1 }
        let first = reach.map { $0.isEmpty ? bands.count : band(of: $0.lowerBound) }
        let last = reach.map { $0.isEmpty ? -1 : band(of: $0.upperBound - 1) }
        // The elements of the top bands first, so they are done first; within a band, those
        // that take longest first.
        let order = elements.indices.sorted { a, b in
            (first[a], PageRenderer.workRank(elements[a]), a) < (first[b], PageRenderer.workRank(elements[b]), b)
        }
        let threads = threads ?? composeThreads
        let jobs = ComposeJobs(count: elements.count, order: order, budget: PageRenderer.aheadBudget) { [self] i in
            try drawing(of: elements[i], canvas: canvas, keep: false)
        }
        jobs.start(workers: threads > 1 ? threads : 0)
        defer { jobs.finish() }
        var pixmap = try background(of: page, canvas: canvas, keep: false)
        var taken = [Bool](repeating: false, count: elements.count)
        var warnings = [[String]](repeating: [], count: elements.count)
        var held: [Int: ElementDrawing] = [:]

        /// Element `i`'s drawing, made or waited for. On an error, the first element in stacking
        /// order that fails is the one reported, as a whole render reports it.
        func take(_ i: Int, holding: Bool) throws -> ElementDrawing {
            do {
                let d = try jobs.drawing(i, holding: holding)
                taken[i] = true
                warnings[i] = d.warnings
                if let drawn = d.rows(height: h), !(reach[i].contains(drawn.lowerBound) && drawn.upperBound <= reach[i].upperBound) {
                    throw BandsUnreliable(pageID: page.id, elementID: elements[i].id)
                }
                return d
            } catch let failure where !(failure is BandsUnreliable) {
                for j in 0..<i where !taken[j] { _ = try take(j, holding: false) }
                throw failure
            }
        }

        for (k, rows) in bands.enumerated() {
            for i in elements.indices where first[i] <= k && k <= last[i] {
                let d = try held[i] ?? take(i, holding: true)
                d.apply(to: &pixmap, rows: rows)
                if k == last[i] {
                    held[i] = nil
                    jobs.release(d)
                } else {
                    held[i] = d
                }
            }
            try bandDone(k, pixmap)
        }
        // What reaches no row is still made, for its warnings (and errors), as a whole render does.
        for i in elements.indices where !taken[i] { _ = try take(i, holding: false) }
        return RenderedPage(pixmap: pixmap, dpi: page.dpi * canvas.scale, warnings: warnings.flatMap { $0 })
    }
}
