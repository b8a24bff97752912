import Foundation
import TechoModel
import TechoRaster
import Testing

@testable import TechoRender

@Suite struct BackgroundTests {
    @Test func colourFillsThePage() throws {
        let f = try RenderFixture()
        let r = try f.renderer().render(page(120, 80, background: Background(color: RGBA(r: 0x33, g: 0x66, b: 0x99)), []))
        #expect(r.pixmap.width == 120 && r.pixmap.height == 80)
        for (x, y) in [(0, 0), (60, 40), (119, 79)] { #expect(near(px(r.pixmap, x, y), (0x33, 0x66, 0x99), tol: 0)) }
        #expect(r.dpi == 72)
    }

    @Test func transparentBackgroundStaysTransparent() throws {
        let f = try RenderFixture()
        let r = try f.renderer().render(page(40, 40, background: Background(color: nil), []))
        #expect(r.pixmap.pixel(20, 20).a == 0)
    }

    @Test func dotsRepeatAtTheSpacingCentredInTheMargin() throws {
        let f = try RenderFixture()
        // 200 px, margin 10 → area 180 → 9 spacings of 20 → dots at 10, 30, …, 190 (pixel corners).
        let paper = try Paper(pattern: .dots, spacing: 20, color: .black, margin: 10)
        let p = try f.renderer().render(page(200, 200, background: Background(color: .white, paper: paper), [])).pixmap
        func darkness(_ cx: Int, _ cy: Int) -> Int {
            var d = 0
            for y in (cy - 1)...cy { for x in (cx - 1)...cx { d += 255 - px(p, x, y).r } }
            return d
        }
        let dot = darkness(30, 30)
        #expect(dot > 200)
        for k in 0..<9 { #expect(abs(darkness(10 + 20 * k, 30) - dot) <= 8, "dot \(k) differs") }
        #expect(darkness(40, 40) == 0)  // between dots
        #expect(darkness(5, 5) == 0)  // inside the margin
    }

    /// On an endless page the rows start at the top margin, so those already written on stay
    /// where they are as the page grows (centred in the height, they slid by up to half a
    /// spacing at each growth). A fixed page keeps its centred rows.
    @Test func anEndlessPagesRowsStayPutAsItGrows() throws {
        let f = try RenderFixture()
        let paper = try Paper(pattern: .lines, spacing: 20, color: .black, margin: 10)
        let bg = Background(color: .white, paper: paper)
        let blue = RGBA(r: 0x3d, g: 0x85, b: 0xc6)
        func grown(to y: Double) throws -> Pixmap {
            let ink = try inkElement(
                "ink",
                [
                    try Stroke(tool: .pencil, color: blue, width: 4, points: points([(20, 50), (180, 50)])),
                    try Stroke(tool: .pencil, color: blue, width: 2, opacity: 0, points: points([(100, y), (101, y)])),
                ])
            return try f.renderer().render(page(200, nil, background: bg, margin: 0, [ink])).pixmap
        }
        // Grown to about 301 px and to about 338 px (not a whole number of spacings apart).
        let a = try grown(to: 300), b = try grown(to: 337)
        #expect(b.height - a.height >= 30 && (b.height - a.height) % 20 != 0, "\(a.height) → \(b.height)")
        var differing = 0
        for y in 0..<(a.height - 12) { for x in 0..<200 where a.pixel(x, y) != b.pixel(x, y) { differing += 1 } }
        #expect(differing == 0, "\(differing) pixels of the first page moved when it grew")
        // The first row lies on the margin.
        #expect(px(a, 100, 10).r < 128 || px(a, 100, 9).r < 128, "the first row at the top margin")
    }

    /// On an endless page the ruling runs on to the page's foot, where the paper below goes on
    /// in the editor and the page goes on once it grows: a grid's upright lines reach the bottom
    /// edge (they stopped at the last row, leaving an unruled strip up to a spacing tall), and
    /// a row in the strip is drawn as far as it reaches into the page. A fixed page's grid
    /// still closes on its outermost rulings within its margin.
    @Test func anEndlessGridRunsOnToThePagesFoot() throws {
        let f = try RenderFixture()
        let paper = try Paper(pattern: .grid, spacing: 20, color: .black, margin: 10)
        let bg = Background(color: .white, paper: paper)
        // Grown to 247 px by an invisible dot: rows at 10, 30, …, 230 and 250, the last one
        // half a hairline from the foot (outside it); upright lines at 10, 30, …, 190.
        let ink = try inkElement("ink", [try Stroke(tool: .pencil, color: .black, width: 2, opacity: 0, points: points([(100, 244), (101, 244)]))])
        let endless = try f.renderer().render(page(200, nil, background: bg, margin: 0, [ink])).pixmap
        #expect(endless.height == 247, "\(endless.height)")
        // The column of the upright line at x 30 (a 1 px hairline on the pixel edge at 29.5 → 30).
        let column = (0..<endless.height).map { px(endless, 30, $0).r < 128 }
        let lastRow = (0..<endless.height).last { y in px(endless, 100, y).r < 128 && px(endless, 40, y).r < 128 } ?? -1
        #expect(lastRow == 230, "the last row of the endless grid is at \(lastRow)")
        let gap = (10..<endless.height).filter { !column[$0] }
        #expect(gap.isEmpty, "the upright line at x 30 pauses at rows \(gap.first ?? -1)…\(gap.last ?? -1) of \(endless.height)")
        // Between the uprights the foot's strip stays paper.
        #expect(px(endless, 20, 240).r == 255)
        // A fixed page as tall: its grid is centred and closed within its margin, as before.
        let fixed = try f.renderer().render(page(200, 247, background: bg, [])).pixmap
        let rows = (0..<fixed.height).filter { y in px(fixed, 100, y).r < 128 && px(fixed, 40, y).r < 128 }
        // Area 227 px: 11 spacings, the 7 px left over split: rows from 13.5 (on 13) to 233.5 (on 233).
        #expect(rows.first == 13 && rows.last == 233, "\(rows)")
        let fixedColumn = (0..<fixed.height).filter { px(fixed, 30, $0).r < 128 }
        #expect(
            fixedColumn.first == 13 && fixedColumn.last == 233, "the fixed grid's upright at x 30 runs \(fixedColumn.first ?? -1)…\(fixedColumn.last ?? -1)")
    }

    /// A row whose hairline straddles an endless page's foot is drawn in the part that is on
    /// the page (the editor's paper below draws the rest), so the rows go on with no gap; the
    /// paper's margin does not stop them before the foot.
    @Test func anEndlessPagesRowAtItsFootIsDrawnOnThePage() throws {
        let f = try RenderFixture()
        // Spacing 100 and margin 10: hairlines 2 px (100 × 0.022 rounded), rows at 10, 110, 210.
        let paper = try Paper(pattern: .lines, spacing: 100, color: .black, margin: 10)
        let ink = try inkElement("ink", [try Stroke(tool: .pencil, color: .black, width: 2, opacity: 0, points: points([(100, 207), (101, 207)]))])
        let r = try f.renderer().render(page(200, nil, background: Background(color: .white, paper: paper), margin: 0, [ink])).pixmap
        // 210 px tall: the row at 210 has its hairline on 209…210, the upper half the page's
        // last pixel row (it stopped at the row at 110, a spacing and the margin above the foot).
        #expect(r.height == 210, "\(r.height)")
        #expect(px(r, 100, 110).r < 128 && px(r, 100, 208).r == 255)
        #expect(px(r, 100, 209).r < 128, "the row at the foot is not drawn on the page")
    }

    @Test func gridLinesAreCrispWholePixels() throws {
        let f = try RenderFixture()
        let paper = try Paper(pattern: .grid, spacing: 20, color: .black, margin: 0)
        let p = try f.renderer().render(page(100, 100, background: Background(color: .white, paper: paper), [])).pixmap
        // Lines at 0, 20, …, 100, one pixel wide, fully dark, their neighbours untouched.
        #expect(near(px(p, 20, 50), (0, 0, 0), tol: 0) || near(px(p, 19, 50), (0, 0, 0), tol: 0))
        #expect(near(px(p, 30, 50), (255, 255, 255), tol: 0))
        var darkColumns = 0
        for x in 15..<25 where px(p, x, 50).r < 128 { darkColumns += 1 }
        #expect(darkColumns == 1)
    }

    @Test(arguments: BackgroundImage.Mode.allCases)
    func imageModes(mode: BackgroundImage.Mode) throws {
        let f = try RenderFixture()
        let asset = try f.addPNG(quadrants(20))
        let bg = Background(color: .white, image: try BackgroundImage(asset: asset, mode: mode))
        let p = try f.renderer().render(page(80, 40, background: bg, [])).pixmap
        switch mode {
        case .tile:
            // Exact copies every 20 px.
            for (x, y) in [(5, 5), (25, 5), (45, 25), (65, 35)] {
                #expect(p.pixel(x, y) == p.pixel(x % 20, y % 20))
            }
            #expect(near(px(p, 45, 5), (255, 0, 0), tol: 0))
        case .stretch:
            #expect(near(px(p, 10, 5), (255, 0, 0)))
            #expect(near(px(p, 70, 35), (255, 255, 0)))
        case .cover:
            // 80x80 centred: y −20…60, so the quadrants meet at y = 20.
            #expect(near(px(p, 10, 5), (255, 0, 0)))
            #expect(near(px(p, 70, 15), (0, 255, 0)))
            #expect(near(px(p, 70, 35), (255, 255, 0)))
        case .contain:
            // 40x40 centred: white on both sides.
            #expect(near(px(p, 5, 20), (255, 255, 255)))
            #expect(near(px(p, 25, 5), (255, 0, 0)))
        case .center:
            #expect(near(px(p, 5, 20), (255, 255, 255)))
            #expect(near(px(p, 35, 15), (255, 0, 0), tol: 0))
            #expect(near(px(p, 45, 25), (255, 255, 0), tol: 0))
        }
    }

    /// A tiled picture drawn at another size than its own is the tiled plane resampled: at
    /// scale 1.5 a 12x12 noise tile's copies are, pixel for pixel (within 2 levels), a 36x36
    /// picture of 3x3 copies drawn centred on the page, across the tiles' edges too (where the
    /// tile resampled alone had only its own pixels to filter with: a seam every 18 pixels).
    @Test func aResampledTileIsTheTiledPlaneResampled() throws {
        let f = try RenderFixture()
        var tile = Pixmap(width: 12, height: 12), mosaic = Pixmap(width: 36, height: 36)
        var state: UInt32 = 7
        for y in 0..<12 {
            for x in 0..<12 {
                state = state &* 1_664_525 &+ 1_013_904_223
                let v = UInt8(truncatingIfNeeded: state >> 24)
                tile.setPixel(x, y, (v, 255 &- v, v / 2, 255))
                for j in 0..<3 { for i in 0..<3 { mosaic.setPixel(x + 12 * i, y + 12 * j, (v, 255 &- v, v / 2, 255)) } }
            }
        }
        let tileAsset = try f.addPNG(tile), mosaicAsset = try f.addPNG(mosaic)
        let r = f.renderer()
        let tiled = try r.render(page(36, 36, background: Background(color: .white, image: try BackgroundImage(asset: tileAsset, mode: .tile)), []), scale: 1.5)
            .pixmap
        let whole = try r.render(
            page(36, 36, background: Background(color: .white, image: try BackgroundImage(asset: mosaicAsset, mode: .center)), []), scale: 1.5
        )
        .pixmap
        var worst = 0, worstAt = (0, 0)
        // The middle copy and a few pixels of its neighbours: both of its edges each way.
        for y in 14..<40 {
            for x in 14..<40 {
                let a = px(tiled, x, y), b = px(whole, x, y)
                let d = max(abs(a.r - b.r), abs(a.g - b.g), abs(a.b - b.b))
                if d > worst { (worst, worstAt) = (d, (x, y)) }
            }
        }
        #expect(worst <= 2, "the tiled page differs from the tiled plane by \(worst) at \(worstAt)")
    }

    @Test func imageOpacityBlendsWithTheColour() throws {
        let f = try RenderFixture()
        let asset = try f.addPNG(solid(10, 10, (0, 0, 0, 255)))
        let bg = Background(color: .white, image: try BackgroundImage(asset: asset, mode: .tile, opacity: 0.5))
        let p = try f.renderer().render(page(30, 30, background: bg, [])).pixmap
        #expect(abs(px(p, 15, 15).r - 128) <= 1)
    }
}

@Suite struct PaperLimitTests {
    @Test func tooManyDotsBecomeAnEvenTint() throws {
        let f = try RenderFixture()
        let paper = try Paper(pattern: .dots, spacing: 1, color: .black, margin: 0)
        let p = try f.renderer().render(page(1200, 1000, background: Background(color: .white, paper: paper), [])).pixmap
        // 1.2 million dots: a flat grey, the same everywhere.
        #expect(p.pixel(10, 10) == p.pixel(900, 700))
        #expect(px(p, 10, 10).r < 255)
    }
}
