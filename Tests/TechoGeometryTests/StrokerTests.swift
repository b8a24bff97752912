import Testing

@testable import TechoGeometry

/// Every contour closed, finite, with positive area; the fill never has a winding of the
/// opposite sign (so pieces only add).
func expectWellFormedStroke(_ stroke: Path, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(stroke.isFinite, sourceLocation: sourceLocation)
    stroke.checkInvariants()
    for c in contours(stroke) {
        #expect(c.isClosed, sourceLocation: sourceLocation)
        #expect(c.signedArea > 0, "contour \(c.points) has area \(c.signedArea)", sourceLocation: sourceLocation)
    }
}

@Suite struct StrokerTests {
    let segment = Path.polyline([Point(10, 20), Point(50, 20)])

    @Test func buttSegmentIsExactlyTheRectangle() {
        let s = segment.stroked(StrokeStyle(width: 4, cap: .butt))
        let cs = contours(s)
        #expect(cs.count == 1)
        #expect(Set(cs[0].points) == [Point(10, 18), Point(50, 18), Point(50, 22), Point(10, 22)])
        #expect(cs[0].signedArea == 160)
    }

    @Test func squareCapsExtendByHalfTheWidth() {
        let s = segment.stroked(StrokeStyle(width: 4, cap: .square))
        let b = s.controlBounds
        #expect(b == Rect(minX: 8, minY: 18, maxX: 52, maxY: 22))
        let m = ScanMeasure(s, rows: 400)
        #expect(approx(m.area, 44 * 4, 1e-6))
        expectWellFormedStroke(s)
    }

    @Test func roundCapsAddTwoHalfDiscs() {
        let s = segment.stroked(StrokeStyle(width: 4, cap: .round), tolerance: 0.001)
        let b = s.controlBounds
        #expect(approx(b.minX, 8, 1e-9) && approx(b.maxX, 52, 1e-9))
        #expect(approx(b.minY, 18, 1e-3) && approx(b.maxY, 22, 1e-3))
        let m = ScanMeasure(s, rows: 2000)
        #expect(approx(m.area, 40 * 4 + Double.pi * 4, 0.01))
        expectWellFormedStroke(s)
    }

    /// Miter length / width = 1 / sin(θ/2): for a limit of 2 the switch is at θ = 60°.
    @Test(arguments: [(61.0, true), (59.0, false), (90.0, true), (10.0, false)])
    func miterLimitSwitchesToBevel(angleDegrees: Double, expectMiter: Bool) {
        let theta = angleDegrees * Double.pi / 180
        // Arrive along +x at the origin, leave at angle θ back from the incoming segment.
        let v = Point(100, 100)
        let a = v - Point(50, 0)
        let c = v + Point(-cosPrecise(theta), sinPrecise(theta)) * 50
        let style = StrokeStyle(width: 10, cap: .butt, join: .miter, miterLimit: 2)
        let s = Path.polyline([a, v, c]).stroked(style)
        expectWellFormedStroke(s)
        let tipDistance = 5 / sinPrecise(theta / 2)
        let hasTip = contours(s).flatMap(\.points).contains { approx($0.distance(to: v), tipDistance, 1e-9) }
        #expect(hasTip == expectMiter)
        // One piece per segment plus the join.
        #expect(contours(s).count == 3)
    }

    @Test func miterJoinAreaOfRightAngle() {
        // An L of two 40-long arms, width 10: the arms' quads overlap in a 5×5 square on the
        // inside; the join fills the outer 5×5 corner (miter), half of it (bevel) or a quarter
        // disc (round). Rows every 0.05 line up with every horizontal edge.
        let p = Path.polyline([Point(0, 0), Point(40, 0), Point(40, 40)])
        let s = p.stroked(StrokeStyle(width: 10, cap: .butt, join: .miter))
        #expect(approx(ScanMeasure(s, rows: 900).area, 800 - 25 + 25, 1e-6))
        let bevel = p.stroked(StrokeStyle(width: 10, cap: .butt, join: .bevel))
        #expect(approx(ScanMeasure(bevel, rows: 900).area, 800 - 25 + 12.5, 1e-6))
        let round = p.stroked(StrokeStyle(width: 10, cap: .butt, join: .round), tolerance: 0.001)
        #expect(approx(ScanMeasure(round, rows: 900).area, 800 - 25 + Double.pi * 25 / 4, 0.01))
    }

    /// Pieces tile a stroke that does not cross itself: no point is covered twice (so edge
    /// antialiasing is counted once), and every edge from the join centre is shared exactly,
    /// in reverse, by the neighbouring piece (no hairline seam).
    @Test(arguments: LineJoin.allCases)
    func piecesTileTheStrokeWithExactSeams(join: LineJoin) {
        let v = Point(40, 0)
        let p = Path.polyline([Point(0, 0), v, Point(70, 30)])
        for cap in LineCap.allCases {
            let s = p.stroked(StrokeStyle(width: 10, cap: cap, join: join), tolerance: 0.05)
            let m = ScanMeasure(s, rows: 700)
            #expect(m.maxWinding == 1 && m.minWinding == 0, "\(join) \(cap)")
            var edges: [Point: [Point]] = [:]
            for c in contours(s) {
                for i in 0..<c.points.count { edges[c.points[i], default: []].append(c.points[(i + 1) % c.points.count]) }
            }
            for (from, tos) in edges {
                for to in tos where from == v || to == v {
                    #expect(edges[to]?.contains(from) == true, "edge \(from) → \(to) unmatched (\(join) \(cap))")
                }
            }
        }
        // The tiling makes the pieces' areas add up to the stroke's area.
        let s = p.stroked(StrokeStyle(width: 10, cap: .butt, join: join))
        let sum = contours(s).reduce(0) { $0 + $1.signedArea }
        #expect(Swift.abs(sum - ScanMeasure(s, rows: 2000).area) < 0.05)
    }

    @Test func smoothCurvesTileToo() {
        let s = Path.circle(center: Point(60, 60), radius: 50).stroked(StrokeStyle(width: 6), tolerance: 0.05)
        #expect(ScanMeasure(s, rows: 800).maxWinding == 1)
        var open = Path()
        open.move(to: Point(0, 0))
        open.cubic(to: Point(100, 0), control1: Point(30, 80), control2: Point(70, -80))
        for join in LineJoin.allCases {
            #expect(ScanMeasure(open.stroked(StrokeStyle(width: 8, join: join), tolerance: 0.05), rows: 800).maxWinding == 1)
        }
    }

    @Test func strokedCircleAreaIsTwoPiRW() {
        let r = 50.0, w = 6.0
        for join in LineJoin.allCases {
            let s = Path.circle(center: Point(100, 100), radius: r).stroked(StrokeStyle(width: w, join: join), tolerance: 0.01)
            let area = ScanMeasure(s, rows: 2000).area
            #expect(Swift.abs(area - 2 * Double.pi * r * w) < 0.005 * 2 * Double.pi * r * w, "join \(join): \(area)")
            expectWellFormedStroke(s)
        }
    }

    @Test func closedSubpathHasNoCapsButAJoin() {
        let square = Path.rect(Rect(x: 0, y: 0, width: 20, height: 20))
        let s = square.stroked(StrokeStyle(width: 4, cap: .square, join: .miter))
        // The outline is exactly the ring between 24×24 and 16×16 squares.
        #expect(approx(ScanMeasure(s, rows: 480).area, 24 * 24 - 16 * 16, 1e-6))
        #expect(s.controlBounds == Rect(minX: -2, minY: -2, maxX: 22, maxY: 22))
    }

    /// A self-crossing stroke is covered once where it crosses: pieces all wind the same way.
    @Test func selfCrossingStrokeNeverCancels() {
        let p = Path.polyline([Point(0, 0), Point(100, 100), Point(100, 0), Point(0, 100)], closed: true)
        let s = p.stroked(StrokeStyle(width: 12, join: .round), tolerance: 0.05)
        let m = ScanMeasure(s, rows: 500)
        #expect(m.minWinding == 0 && m.maxWinding > 1)
        // The crossing point of the two diagonals is inside.
        #expect(ScanMeasure.winding(of: s, at: Point(50, 50)) > 0)
    }

    @Test func everyContourIsPositiveOverRandomPolylines() {
        var rng = SplitMix64(seed: 0x5EED)
        for trial in 0..<300 {
            let n = Int.random(in: 1...12, using: &rng)
            var pts: [Point] = []
            for _ in 0..<n {
                // Repeated points on purpose now and then.
                if let l = pts.last, Bool.random(using: &rng), Int.random(in: 0..<4, using: &rng) == 0 { pts.append(l); continue }
                pts.append(Point(rng.double(in: -100...100), rng.double(in: -100...100)))
            }
            let style = StrokeStyle(
                width: rng.double(in: 0.1...30),
                cap: LineCap.allCases.randomElement(using: &rng) ?? .round,
                join: LineJoin.allCases.randomElement(using: &rng) ?? .round,
                miterLimit: rng.double(in: 0.5...20))
            let closed = Bool.random(using: &rng)
            let s = Path.polyline(pts, closed: closed).stroked(style, tolerance: 0.2)
            for c in contours(s) {
                #expect(c.isClosed)
                #expect(c.signedArea > 0, "trial \(trial) \(c.points) \(style) \(pts) \(closed)")
            }
            if trial % 3 == 0 {
                let m = ScanMeasure(s, rows: 200)
                #expect(m.minWinding == 0, "trial \(trial)")
            }
        }
    }

    /// Regression: a closed two-point subpath turns back 180° at both ends; the bevel there is
    /// a zero-area sliver whose sign was rounding noise, and must not be emitted.
    @Test func uTurnBevelIsNotASliver() {
        let p = Path.polyline([Point(-37.2885514028239, -40.03687913693583), Point(-44.78246718252754, -92.23539006360475)], closed: true)
        for join in LineJoin.allCases {
            let s = p.stroked(StrokeStyle(width: 24, cap: .square, join: join, miterLimit: 0.94))
            for c in contours(s) { #expect(c.signedArea > 1, "\(join): \(c.points)") }
        }
    }

    @Test func onePointStrokeIsADot() {
        let p = Point(30, 40)
        var moveLine = Path()
        moveLine.move(to: p)
        moveLine.line(to: p)
        for path in [moveLine, Path.polyline([p])] {
            let round = path.stroked(StrokeStyle(width: 10, cap: .round), tolerance: 0.001)
            // An inscribed polygon within 0.001 of the circle loses about ⅔·0.001·perimeter.
            #expect(approx(ScanMeasure(round, rows: 1000).area, Double.pi * 25, 0.03))
            let square = path.stroked(StrokeStyle(width: 10, cap: .square))
            #expect(square.controlBounds == Rect(minX: 25, minY: 35, maxX: 35, maxY: 45))
            #expect(path.stroked(StrokeStyle(width: 10, cap: .butt)).isEmpty)
            expectWellFormedStroke(round)
            expectWellFormedStroke(square)
        }
    }

    @Test func nonPositiveOrNonFiniteWidthIsEmpty() {
        for w in [0, -1, Double.nan, Double.infinity] {
            #expect(segment.stroked(StrokeStyle(width: w)).isEmpty)
        }
    }

    @Test func nonFiniteAndHugeCoordinatesNeverTrap() {
        let nan = Double.nan, inf = Double.infinity
        let p = Path.polyline([Point(0, 0), Point(nan, 5), Point(10, 0), Point(inf, -inf), Point(10, 10)])
        let s = p.stroked(StrokeStyle(width: 2, join: .miter))
        expectWellFormedStroke(s)
        // The finite points still form the polyline (0,0)-(10,0)-(10,10).
        #expect(ScanMeasure.winding(of: s, at: Point(5, 0.5)) != 0)
        #expect(ScanMeasure.winding(of: s, at: Point(10.5, 5)) != 0)
        let huge = Path.polyline([Point(-1e308, 0), Point(1e308, 1), Point(1e308, -1e308), Point(1e300, 1e300)])
        for join in LineJoin.allCases {
            expectWellFormedStroke(huge.stroked(StrokeStyle(width: 1e300, join: join)))
        }
        var curve = Path()
        curve.move(to: Point(0, 0))
        curve.cubic(to: Point(nan, 1), control1: Point(1, inf), control2: Point(2, 2))
        curve.quad(to: Point(1e200, 1e-200), control: Point(-1e200, 3))
        expectWellFormedStroke(curve.stroked(StrokeStyle(width: 3)))
    }

    @Test func dashedStyleIsAppliedBeforeStroking() {
        let s = segment.stroked(StrokeStyle(width: 2, cap: .butt, dash: [5, 5]))
        // 40 long: dashes at 0-5, 10-15, 20-25, 30-35.
        #expect(contours(s).count == 4)
        #expect(approx(ScanMeasure(s, rows: 200).area, 4 * 5 * 2, 1e-6))
    }
}
