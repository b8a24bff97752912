// Claims of docs/rendering.md that only a measurement proves: an `auto` page ignores content at
// negative coordinates; highlighters sit under the pen strokes of their own ink layer and
// deepen where two overlap; the frames' and the shadow's figures in pixels; the image caches'
// bound and their least-recently-used eviction.

import Foundation
import TechoModel
import TechoRaster
import Testing

@testable import TechoRender

@Suite struct RenderClaimsTests {
    // MARK: auto pages

    /// "content at negative coordinates does not extend the page": a sticker wholly above the
    /// page and one straddling its top edge add nothing to an `auto` height, which is the lowest
    /// content's bottom plus the margin, in `resolvedSize` and in the render.
    @Test func contentAtNegativeCoordinatesDoesNotExtendAnAutoPage() throws {
        let f = try RenderFixture()
        let asset = try f.addPNG(solid(40, 40, (0, 0, 0, 255)))
        let above = try imageElement("above", asset, 40, 40, at: Point(100, -300))  // y −320 … −280
        let straddling = try imageElement("straddling", asset, 40, 40, at: Point(150, 0))  // y −20 … 20
        let below = try imageElement("below", asset, 40, 40, at: Point(50, 50))  // y 30 … 70
        let left = try imageElement("left", asset, 40, 40, at: Point(-400, 10))  // x −420 … −380
        let r = f.renderer()
        // Auto height: 70 + 10.
        let tall = try page(200, nil, margin: 10, [above, straddling, below])
        #expect(try r.resolvedSize(of: tall).height == 80)
        let out = try r.render(tall)
        #expect(out.pixmap.width == 200 && out.pixmap.height == 80)
        #expect(near(px(out.pixmap, 50, 50), (0, 0, 0), tol: 0))  // the lowest sticker is drawn
        #expect(near(px(out.pixmap, 150, 10), (0, 0, 0), tol: 0))  // the straddling one's visible half too
        // Only negative content: the page is its margin.
        #expect(try r.resolvedSize(of: try page(200, nil, margin: 10, [above])).height == 10)
        // Auto width: the sticker far to the left adds nothing; the straddling one reaches x = 170.
        let wide = try page(nil, 100, margin: 5, [left, straddling])
        #expect(try r.resolvedSize(of: wide).width == 175)
    }

    // MARK: highlighters

    let red = RGBA(r: 200, g: 30, b: 40)
    let yellow = RGBA(r: 255, g: 230, b: 80)

    /// A pen line across a highlighter stroke, in either order within one ink layer: the pen
    /// keeps its own colour where they cross (the highlighter is under it), and both orders give
    /// the same pixels. Over white, the marker alone shows its own colour.
    @Test func highlighterSitsUnderThePenOfItsLayerWhateverTheOrder() throws {
        let f = try RenderFixture()
        let pen = try Stroke(tool: .line, color: red, width: 10, from: Point(100, 20), to: Point(100, 180))
        let marker = try Stroke(tool: .highlighter, color: yellow, width: 30, points: points([(20, 100), (180, 100)]))
        let r = f.renderer()
        let penFirst = try r.render(page(200, 200, [inkElement("ink-1", [pen, marker])])).pixmap
        let markerFirst = try r.render(page(200, 200, [inkElement("ink-1", [marker, pen])])).pixmap
        // Where they cross: the pen's red, not red × yellow (200, 27, 13).
        for p in [penFirst, markerFirst] {
            #expect(near(px(p, 100, 100), (200, 30, 40), tol: 1), "crossing: \(px(p, 100, 100))")
            #expect(near(px(p, 100, 40), (200, 30, 40), tol: 1))  // the pen alone
            #expect(near(px(p, 40, 100), (255, 230, 80), tol: 1))  // the marker alone, over white
        }
        #expect(penFirst.data == markerFirst.data, "the stroke order changed the page")
    }

    /// Two highlighter strokes of one layer overlap deeper: at the CLI's default opacity (0.5)
    /// each alone over white is white × (1 − ½) + yellow × ½, and where they cross the layer
    /// holds ¾ of the marker, so the overlap is white × ¼ + yellow × ¾; a stroke crossing
    /// itself stays ½. (At opacity 1 the overlap is the marker's colour: nothing deeper.)
    @Test func twoHighlightersOverlapDeeper() throws {
        let f = try RenderFixture()
        func marker(_ pts: [(Double, Double)]) throws -> Stroke { try Stroke(tool: .highlighter, color: yellow, width: 30, opacity: 0.5, points: points(pts)) }
        let across = try marker([(20, 100), (180, 100)]), down = try marker([(100, 20), (100, 180)])
        let p = try f.renderer().render(page(200, 200, [inkElement("ink-1", [across, down])])).pixmap
        let half = (255, (255 + 230) / 2, (255 + 80) / 2), threeQuarters = (255, (255 + 3 * 230) / 4, (255 + 3 * 80) / 4)
        #expect(near(px(p, 40, 100), half, tol: 2), "\(px(p, 40, 100))")
        #expect(near(px(p, 100, 40), half, tol: 2))
        #expect(near(px(p, 100, 100), threeQuarters, tol: 2), "overlap: \(px(p, 100, 100))")
        // One stroke crossing itself is not deeper.
        let loop = try marker([(20, 160), (180, 40), (180, 160), (20, 40)])
        let q = try f.renderer().render(page(200, 200, [inkElement("ink-1", [loop])])).pixmap
        #expect(near(px(q, 100, 100), half, tol: 2), "self-crossing: \(px(q, 100, 100))")
        // Pen ink over the crossing still wins (it is above both highlighters).
        let pen = try Stroke(tool: .line, color: red, width: 6, from: Point(60, 60), to: Point(140, 140))
        let r = try f.renderer().render(page(200, 200, [inkElement("ink-1", [pen, across, down])])).pixmap
        #expect(near(px(r, 100, 100), (200, 30, 40), tol: 1), "\(px(r, 100, 100))")
    }

    // MARK: frames and shadow

    let grey = Background(color: RGBA(r: 128, g: 128, b: 128))

    func photo(_ asset: AssetRef, _ w: Double, _ h: Double, at c: Point, _ configure: (inout PhotoContent) -> Void) throws -> Element {
        var p = PhotoContent(image: try ImageContent(asset: asset, naturalWidth: w, naturalHeight: h))
        configure(&p)
        try p.validate()
        return try Element(id: "photo-1", content: .photo(p), placement: Placement(center: c))
    }

    /// How many pixels of the card show beyond the picture's edge, walking from the picture's
    /// edge pixel `from` outwards by (`dx`, `dy`) until the grey page.
    func cardWidth(_ p: Pixmap, from: (Int, Int), step: (Int, Int)) -> Int {
        var (x, y) = (from.0 + step.0, from.1 + step.1)
        var n = 0
        while x >= 0, y >= 0, x < p.width, y < p.height, !near(px(p, x, y), (128, 128, 128), tol: 0) {
            n += 1
            x += step.0
            y += step.1
        }
        return n
    }

    /// `border`: an even margin of 4.5 % of the picture's shorter side (200 px → 9 px on every
    /// side); `polaroid`: 6.5 % on the sides and top (13 px) and a 27 % chin (54 px). Measured
    /// on a 400×200 picture: a square one could not tell the shorter side from the longer.
    @Test func frameMarginsAreTheirPercentagesOfTheShorterSide() throws {
        let f = try RenderFixture()
        let asset = try f.addPNG(solid(400, 200, (20, 60, 20, 255)))
        // The picture covers x 100 … 499, y 100 … 299.
        let edges = (left: (100, 200), right: (499, 200), top: (300, 100), bottom: (300, 299))
        let r = f.renderer()
        let border = try r.render(page(600, 400, background: grey, [photo(asset, 400, 200, at: Point(300, 200)) { $0.frame = .border }])).pixmap
        #expect(near(px(border, 300, 200), (20, 60, 20), tol: 1))
        #expect(near(px(border, 100, 200), (20, 60, 20), tol: 1) && near(px(border, 499, 299), (20, 60, 20), tol: 1))
        let b = (
            cardWidth(border, from: edges.left, step: (-1, 0)), cardWidth(border, from: edges.right, step: (1, 0)),
            cardWidth(border, from: edges.top, step: (0, -1)), cardWidth(border, from: edges.bottom, step: (0, 1))
        )
        #expect(b == (9, 9, 9, 9), "border margins left, right, top, bottom: \(b)")
        #expect(near(px(border, 95, 200), (0xFD, 0xFC, 0xF9), tol: 1))

        let polaroid = try r.render(page(600, 400, background: grey, [photo(asset, 400, 200, at: Point(300, 200)) { $0.frame = .polaroid }])).pixmap
        let q = (
            cardWidth(polaroid, from: edges.left, step: (-1, 0)), cardWidth(polaroid, from: edges.right, step: (1, 0)),
            cardWidth(polaroid, from: edges.top, step: (0, -1)), cardWidth(polaroid, from: edges.bottom, step: (0, 1))
        )
        #expect(q == (13, 13, 13, 54), "polaroid margins left, right, top, chin: \(q)")
        #expect(near(px(polaroid, 300, 330), (0xFA, 0xF7, 0xF0), tol: 1))
    }

    /// The standard normal CDF.
    static func phi(_ z: Double) -> Double { 0.5 * erfc(-z / 2.squareRoot()) }

    /// The offset `d`, the blur `sigma` and the darkness `k` of a blurred band from `e0` to `e1`
    /// moved by `d`, fitted by least squares to `samples` (position, darkness): the darkness at
    /// `t` is k·(Φ((t − e0 − d)/σ) − Φ((t − e1 − d)/σ)).
    static func fitBand(_ samples: [(Double, Double)], e0: Double, e1: Double) -> (d: Double, sigma: Double) {
        var best = (err: Double.infinity, d: 0.0, sigma: 0.0)
        func tryFit(_ d: Double, _ s: Double) {
            let g = samples.map { phi(($0.0 - e0 - d) / s) - phi(($0.0 - e1 - d) / s) }
            var gg = 0.0, gy = 0.0
            for (gi, sample) in zip(g, samples) { gg += gi * gi; gy += gi * sample.1 }
            guard gg > 0 else { return }
            let k = gy / gg
            var err = 0.0
            for (gi, sample) in zip(g, samples) { err += (k * gi - sample.1) * (k * gi - sample.1) }
            if err < best.err { best = (err, d, s) }
        }
        // Coarse over a wide range, then fine around the best.
        for di in -40...80 { for si in 4...120 { tryFit(Double(di) / 2, Double(si) / 2) } }
        let (d0, s0) = (best.d, best.sigma)
        for di in -10...10 { for si in -10...10 where s0 + Double(si) / 10 > 0 { tryFit(d0 + Double(di) / 10, s0 + Double(si) / 10) } }
        return (best.d, best.sigma)
    }

    /// The shadow falls 1.5 % of the card's longer side down and right and is blurred with a
    /// Gaussian σ of 2.2 %: for a 1000×16 picture, 15 px and 22 px. The blur is three box
    /// blurs at a fifth of the resolution, scaled up: its σ measures about 23.5 px, so σ is
    /// held to 10 % (an offset or blur of another percentage is off by more). The card hides the middle
    /// of its shadow, so the profile seen beyond the card is fitted, across (rows above and
    /// below, through the middle column) and along (columns beyond each end, through the middle
    /// row), with the darkness of the blue channel over a white page.
    @Test func shadowIsOffsetAndBlurredByItsPercentagesOfTheLongerSide() throws {
        let f = try RenderFixture()
        let asset = try f.addPNG(solid(1000, 16, (255, 255, 255, 255)))
        let e = try photo(asset, 1000, 16, at: Point(600, 150)) { $0.shadow = true }
        let p = try f.renderer().render(page(1200, 300, [e])).pixmap
        // The picture covers x 100 … 1100, y 142 … 158 (edges at those coordinates).
        func darkness(_ x: Int, _ y: Int) -> Double { Double(255 - px(p, x, y).b) }
        let rows: [Int] = Array(0..<142) + Array(158..<300)
        let across: [(Double, Double)] = rows.map { (Double($0) + 0.5, darkness(600, $0)) }
        let v = Self.fitBand(across, e0: 142, e1: 158)
        let columns: [Int] = Array(0..<100) + Array(1100..<1200)
        let along: [(Double, Double)] = columns.map { (Double($0) + 0.5, darkness($0, 150)) }
        let h = Self.fitBand(along, e0: 100, e1: 1100)
        let offsets = (down: v.d, right: h.d), sigmas = (across: v.sigma, along: h.sigma)
        #expect(abs(offsets.down - 15) <= 1 && abs(offsets.right - 15) <= 1, "offsets \(offsets); expected 15")
        #expect(abs(sigmas.across - 22) <= 2.2 && abs(sigmas.along - 22) <= 2.2, "sigmas \(sigmas); expected 22")
        // Nothing falls up-left beyond the blur's reach.
        let farUp = darkness(600, 82), farLeft = darkness(40, 150)
        #expect(farUp == 0 && farLeft == 0)
    }

    // MARK: caches

    /// The image caches hold at most 512 MiB: the bound a renderer's cache is made with.
    @Test func imageCachesAreBoundedAt512MiB() throws {
        let r = try RenderFixture().renderer()
        #expect(r.images.budget == 512 * 1024 * 1024)
    }

    /// Past its bound the cache drops the least recently used entries: with room for three
    /// 100×100 pictures, a fourth evicts the one used longest ago (not the oldest made), and an
    /// evicted entry is made again when asked for.
    @Test func theCacheDropsTheLeastRecentlyUsedPastItsBound() throws {
        let cache = ImageCache(assetURL: { _ in throw RenderError(pageID: "-", message: "no files") }, budget: 3 * 100 * 100 * 4)
        var made: [String] = []
        func get(_ key: String) throws {
            _ = try cache.cached(key) {
                made.append(key)
                return solid(100, 100, (1, 2, 3, 255))
            }
        }
        try get("a"); try get("b"); try get("c")
        try get("a")  // used again: now "b" is the least recently used
        #expect(made == ["a", "b", "c"])
        try get("d")  // over the bound: "b" goes
        try get("a"); try get("c"); try get("d")
        #expect(made == ["a", "b", "c", "d"], "\(made)")
        try get("b")  // made again (and "a", now least recently used, goes)
        #expect(made == ["a", "b", "c", "d", "b"], "\(made)")
        try get("c"); try get("d")
        try get("a")
        #expect(made == ["a", "b", "c", "d", "b", "a"], "\(made)")
    }
}
