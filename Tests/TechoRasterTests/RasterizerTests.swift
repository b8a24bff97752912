import Foundation
import TechoGeometry
import TechoTestSupport
import Testing

@testable import TechoRaster

/// Analytic checks of the coverage rasterizer: areas, edges, fill rules, hostile input.
@Suite struct RasterizerTests {
    func coverage(_ path: Path, size: Int = 128, rule: FillRule = .nonZero, transform: Transform = .identity) -> [UInt8] {
        Pixmap(width: size, height: size).coverageRows(path, rule: rule, transform: transform)
    }

    func sum(_ c: [UInt8]) -> Double { c.reduce(0.0) { $0 + Double($1) } / 255 }

    @Test(arguments: [25.0, 50.0, 63.0])
    func discCoverageSumsToItsArea(radius: Double) {
        let c = coverage(.circle(center: Point(64.3, 63.8), radius: radius), size: 128)
        #expect(c.contains(255))
        let area = Double.pi * radius * radius
        // Kappa cubics overshoot the true circle by at most 2.7e-4 of r; flattening at
        // `rasterTolerance` loses under 0.1% of a disc of radius ≥ 25; 8-bit rounding is
        // unbiased.
        #expect(abs(sum(c) - area) / area < 0.001, "sum \(sum(c)) vs \(area)")
    }

    @Test(arguments: [LineJoin.round, .miter, .bevel])
    func strokedCircleCoversItsAnnulus(join: LineJoin) {
        // Stroke pieces must add up to the union: 2πRw, no coverage counted twice where pieces
        // meet at an edge pixel.
        var px = Pixmap(width: 128, height: 128)
        px.stroke(.circle(center: Point(64.2, 63.7), radius: 40), style: StrokeStyle(width: 6, join: join), paint: Paint(color: .black))
        let s = stride(from: 3, to: px.data.count, by: 4).reduce(0.0) { $0 + Double(px.data[$1]) } / 255
        let area = 2 * Double.pi * 40 * 6
        #expect(abs(s - area) / area < 0.001, "\(s) vs \(area)")
        // A straight line with round caps: w·L + π·w²/4.
        var line = Pixmap(width: 128, height: 64)
        line.stroke(.polyline([Point(20.3, 30.1), Point(100.6, 35.4)]), style: StrokeStyle(width: 9), paint: Paint(color: .black))
        let ls = stride(from: 3, to: line.data.count, by: 4).reduce(0.0) { $0 + Double(line.data[$1]) } / 255
        let la = 9 * Point(80.3, 5.3).length + Double.pi * 81 / 4
        #expect(abs(ls - la) / la < 0.001, "\(ls) vs \(la)")
    }

    @Test func halfCoveredEdgePixelIsHalf() {
        let c = coverage(.rect(Rect(x: 10.5, y: 10, width: 20, height: 20)), size: 64)
        #expect(c[15 * 64 + 10] == 128 || c[15 * 64 + 10] == 127)
        #expect(c[15 * 64 + 11] == 255)
        #expect(c[15 * 64 + 9] == 0)
        #expect(c[15 * 64 + 30] == 128 || c[15 * 64 + 30] == 127)
        #expect(c[15 * 64 + 31] == 0)
    }

    @Test func aliasedFillsTakeWholePixelsFromHalfCoverage() {
        var p = Pixmap(width: 16, height: 4)
        p.fill(.rect(Rect(x: 2.5, y: 0, width: 8.1, height: 4)), paint: Paint(color: .black, antiAlias: false))
        p.fill(.rect(Rect(x: 12.6, y: 0, width: 0.8, height: 4)), paint: Paint(color: .black, antiAlias: false))
        let row = (0..<16).map { p.pixel($0, 1).a }
        // Pixel 2 is half covered (in), pixel 10 is 0.6 covered (in); pixels 12 and 13 are 0.4
        // covered each (out), so the thin rect vanishes.
        #expect(row == [0, 0, 255, 255, 255, 255, 255, 255, 255, 255, 255, 0, 0, 0, 0, 0])
    }

    @Test func pixelAlignedRectIsExact() {
        let c = coverage(.rect(Rect(x: 4, y: 5, width: 10, height: 7)), size: 32)
        for y in 0..<32 {
            for x in 0..<32 {
                let inside = x >= 4 && x < 14 && y >= 5 && y < 12
                #expect(c[y * 32 + x] == (inside ? 255 : 0), "(\(x), \(y))")
            }
        }
    }

    @Test func diagonalEdgeSplitsPixelsInHalf() {
        // A triangle under the diagonal y = x: every diagonal pixel is half covered.
        var p = Path()
        p.move(to: Point(0, 0)); p.line(to: Point(32, 32)); p.line(to: Point(0, 32)); p.close()
        let c = coverage(p, size: 32)
        for i in 0..<32 { #expect(abs(Int(c[i * 32 + i]) - 128) <= 1, "pixel \(i)") }
        #expect(c[10 * 32 + 5] == 255)
        #expect(c[5 * 32 + 10] == 0)
    }

    static func star() -> Path {
        var p = Path()
        let pts = (0..<5).map { i -> Point in
            let a = -Double.pi / 2 + Double(i) * 4 * Double.pi / 5
            return Point(64 + 50 * cos(a), 64 + 50 * sin(a))
        }
        p.move(to: pts[0]); for q in pts.dropFirst() { p.line(to: q) }; p.close()
        return p
    }

    @Test func evenOddStarHasAHoleAndNonZeroDoesNot() {
        let eo = coverage(Self.star(), rule: .evenOdd)
        let nz = coverage(Self.star(), rule: .nonZero)
        #expect(eo[64 * 128 + 64] == 0)
        #expect(nz[64 * 128 + 64] == 255)
        // A point in a tip is inside under both rules.
        #expect(eo[30 * 128 + 64] == 255 && nz[30 * 128 + 64] == 255)
    }

    @Test func overlappingSameDirectionSquaresDoNotDarken() {
        var p = Path.rect(Rect(x: 10, y: 10, width: 30, height: 30))
        p.append(.rect(Rect(x: 20.5, y: 20.5, width: 30, height: 30)))
        let c = coverage(p, size: 64)
        #expect(c[30 * 64 + 30] == 255)
        // The overlap's corner pixel is covered by both squares: still at most full.
        var px = Pixmap(width: 64, height: 64)
        px.fill(p, paint: Paint(color: Color(r: 1, g: 0, b: 0, a: 0.5)))
        #expect(px.pixel(30, 30) == px.pixel(15, 15))
        #expect(px.pixel(30, 30).a == 128)
    }

    @Test func oppositeDirectionSquareCutsAHole() {
        var p = Path.rect(Rect(x: 10, y: 10, width: 40, height: 40))
        var inner = Path()
        inner.move(to: Point(20, 20)); inner.line(to: Point(20, 40)); inner.line(to: Point(40, 40))
        inner.line(to: Point(40, 20)); inner.close()
        p.append(inner)
        let c = coverage(p, size: 64)
        #expect(c[30 * 64 + 30] == 0)
        #expect(c[15 * 64 + 15] == 255)
    }

    @Test func shapesBeyondThePixmapAreClippedNotWrapped() {
        // A rectangle reaching far past every side covers the whole pixmap exactly.
        let c = coverage(.rect(Rect(x: -1000, y: -50, width: 5000, height: 1e6)), size: 16)
        #expect(c.allSatisfy { $0 == 255 })
        // One that ends inside on the right: columns past its edge stay empty.
        let d = coverage(.rect(Rect(x: -1000, y: 2, width: 1008, height: 4)), size: 16)
        #expect(d[3 * 16 + 7] == 255 && d[3 * 16 + 8] == 0 && d[1 * 16 + 3] == 0)
    }

    // How long these take is measured by `make bench`, not here: a wall-clock bound fails when
    // the machine is loaded, not when the code is slow.
    @Test func hugeCoordinatesAreCorrect() {
        // A triangle with vertices at ±1e300 covers the whole pixmap.
        var p = Path()
        p.move(to: Point(-1e300, -1e300)); p.line(to: Point(1e300, -1e300)); p.line(to: Point(0, 1e300)); p.close()
        let c = coverage(p, size: 64)
        #expect(c[32 * 64 + 32] == 255)
        #expect(c.allSatisfy { $0 == 255 })
        var q = Path()
        q.move(to: Point(-1e308, 0)); q.cubic(to: Point(1e308, 10), control1: Point(1e308, -1e308), control2: Point(-1e308, 1e308))
        q.close()
        _ = coverage(q, size: 64)
    }

    @Test func bandsJoinWithoutSeams() {
        // On a 4000 px wide pixmap the accumulator works in bands of 65 rows; a disc crossing
        // band boundaries must match the same disc drawn in one band.
        let disc = Path.circle(center: Point(100.3, 100.6), radius: 90)
        let wide = Pixmap(width: 4000, height: 200).coverageRows(disc)
        let narrow = Pixmap(width: 200, height: 200).coverageRows(disc)
        var worst = 0
        for y in 0..<200 { for x in 0..<200 { worst = max(worst, abs(Int(wide[y * 4000 + x]) - Int(narrow[y * 200 + x]))) } }
        #expect(worst <= 1)
        #expect(wide[130 * 4000 + 100] == 255 && wide[65 * 4000 + 100] == 255)
    }

    @Test func nonFiniteInputDrawsNothing() {
        var p = Path.rect(Rect(x: 10, y: 10, width: 20, height: 20))
        p.line(to: Point(.nan, 5))
        #expect(coverage(p, size: 32).allSatisfy { $0 == 0 })
        var inf = Path.rect(Rect(x: 0, y: 0, width: 10, height: 10))
        inf.line(to: Point(.infinity, 3))
        #expect(coverage(inf, size: 32).allSatisfy { $0 == 0 })
        let bad = Transform(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0)
        #expect(coverage(.rect(Rect(x: 0, y: 0, width: 10, height: 10)), size: 32, transform: bad).allSatisfy { $0 == 0 })
    }

    @Test func hostileStrokesAndImagesDrawAndKeepTheInvariants() {
        var p = Pixmap(width: 64, height: 64)
        let wild = Path.polyline([Point(-1e300, 5), Point(1e300, 40), Point(.nan, 3), Point(30, 1e308)])
        p.stroke(wild, style: StrokeStyle(width: 4), paint: Paint(color: .black))
        p.stroke(.polyline([Point(0, 0), Point(64, 64)]), style: StrokeStyle(width: 1e300), paint: Paint(color: .black))
        p.stroke(.polyline([Point(0, 0), Point(64, 64)]), style: StrokeStyle(width: 3, cap: .butt, dash: [0.05, 0.05]), paint: Paint(color: .black))
        p.stroke(
            .circle(center: Point(32, 32), radius: 10), style: StrokeStyle(width: 2), paint: Paint(color: .black),
            transform: Transform.scale(1e-300))
        p.fill(.circle(center: Point(0, 0), radius: 1e12), paint: Paint(color: .black), transform: .translation(32, 32))
        p.checkInvariants()
        #expect(p.pixel(32, 32) == (0, 0, 0, 255))
    }

    @Test func subnormalEdgeHeightsDoNotTrap() {
        // Regression: an edge rising by 1e-45 px has an infinite slope in Float.
        var p = Path()
        p.move(to: Point(0, 0)); p.line(to: Point(30, 1e-45)); p.line(to: Point(30, 20)); p.line(to: Point(0, 20)); p.close()
        var q = Path()
        q.move(to: Point(3, 7)); q.line(to: Point(29, 7 + 1e-7)); q.line(to: Point(29, 9)); q.close()
        let c = coverage(p, size: 32)
        #expect(c[10 * 32 + 10] == 255)
        _ = coverage(q, size: 32)
    }

    @Test func fuzzExtremeCoordinatesNeverTrap() {
        // Coordinates from a mix of magnitudes that stress clipping and Float conversion.
        var rng = SplitMix64(seed: 99)
        let specials: [Double] = [
            0, 1e-45, -1e-45, 1e-300, 1e-7, 8, 8 + 1e-7, 16, 16 - 1e-9, 15.999999, -3, 1e7, -1e7,
            1e38, -1e38, 3.5e38, 1e300, -1e300, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
        ]
        func coordinate() -> Double {
            rng.int(in: 0...2) == 0 ? rng.double(in: -20...36) : specials[rng.int(in: 0...(specials.count - 1))]
        }
        for i in 0..<1500 {
            var p = Path()
            p.move(to: Point(coordinate(), coordinate()))
            for _ in 0..<rng.int(in: 1...6) {
                if rng.int(in: 0...3) == 0 {
                    p.cubic(
                        to: Point(coordinate(), coordinate()), control1: Point(coordinate(), coordinate()),
                        control2: Point(coordinate(), coordinate()))
                } else {
                    p.line(to: Point(coordinate(), coordinate()))
                }
            }
            p.close()
            var px = Pixmap(width: 16, height: 16)
            px.fill(p, paint: Paint(color: Color(r: 1, g: 0, b: 0, a: 0.5)), rule: i % 2 == 0 ? .nonZero : .evenOdd)
            // Stroking curves with 1e38 controls makes thousands of pieces; a sample suffices.
            if i % 25 == 0 { px.stroke(p, style: StrokeStyle(width: 2), paint: Paint(color: .black)) }
            px.checkInvariants()
        }
    }

    @Test func degenerateShapesDrawNothing() {
        var line = Path()
        line.move(to: Point(3, 3)); line.line(to: Point(30, 30)); line.close()
        #expect(coverage(line, size: 32).allSatisfy { $0 == 0 })
        var point = Path()
        point.move(to: Point(5, 5)); point.close()
        #expect(coverage(point, size: 32).allSatisfy { $0 == 0 })
        #expect(coverage(Path(), size: 32).allSatisfy { $0 == 0 })
    }

    @Test func transformIsAppliedBeforeFlattening() {
        // A unit circle scaled 40x must be as round as a radius-40 circle.
        let a = coverage(
            .circle(center: Point(0, 0), radius: 1), size: 100,
            transform: Transform.scale(40).concatenating(.translation(50, 50)))
        let b = coverage(.circle(center: Point(50, 50), radius: 40), size: 100)
        let maxDiff = zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(maxDiff <= 1)
    }

    @Test func randomPolygonsStayWithinCoverageBounds() {
        // Fuzz: random self-intersecting polygons, partly off-canvas; coverage is in range and
        // the total equals |signed area| when the polygon is simple and inside (checked via a
        // triangle, which is always simple).
        var rng = SplitMix64(seed: 7)
        for _ in 0..<200 {
            var p = Path()
            let pts = (0..<3).map { _ in Point(rng.double(in: 1...63), rng.double(in: 1...63)) }
            p.move(to: pts[0]); p.line(to: pts[1]); p.line(to: pts[2]); p.close()
            let area = abs((pts[1] - pts[0]).cross(pts[2] - pts[0])) / 2
            let s = sum(coverage(p, size: 64))
            #expect(abs(s - area) < 0.5 + area * 0.002, "area \(area) sum \(s)")
        }
    }
}
