import Testing

@testable import TechoGeometry

@Suite struct FlattenAndBoundsTests {
    func cubicPoint(_ p0: Point, _ c1: Point, _ c2: Point, _ p3: Point, _ t: Double) -> Point {
        let u = 1 - t
        return p0 * (u * u * u) + c1 * (3 * u * u * t) + c2 * (3 * u * t * t) + p3 * (t * t * t)
    }

    func distance(_ q: Point, toSegment a: Point, _ b: Point) -> Double {
        let ab = b - a
        let l2 = ab.lengthSquared
        guard l2 > 0 else { return q.distance(to: a) }
        let t = Swift.min(1, Swift.max(0, (q - a).dot(ab) / l2))
        return q.distance(to: a + ab * t)
    }

    /// Every point of the true curve is within tolerance of its chord (the split is uniform in
    /// t, so the k-th chord covers t in [k/n, (k+1)/n]).
    @Test(arguments: [0.05, 0.1, 0.5])
    func flatteningErrorIsBelowTolerance(tolerance: Double) {
        var rng = SplitMix64(seed: 99)
        for _ in 0..<100 {
            let s = rng.double(in: 1...1000)
            let p = (0..<4).map { _ in Point(rng.double(in: -s...s), rng.double(in: -s...s)) }
            var path = Path()
            path.move(to: p[0])
            path.cubic(to: p[3], control1: p[1], control2: p[2])
            let pts = path.flattened(tolerance: tolerance)[0].points
            let n = pts.count - 1
            #expect(n >= 1 && n <= Path.maxSegmentsPerCurve)
            var worst = 0.0
            for k in 0..<n {
                for j in 0...16 {
                    let t = (Double(k) + Double(j) / 16) / Double(n)
                    worst = Swift.max(worst, distance(cubicPoint(p[0], p[1], p[2], p[3], t), toSegment: pts[k], pts[k + 1]))
                }
            }
            #expect(worst <= tolerance * (1 + 1e-9), "worst \(worst)")
        }
    }

    @Test func boundsIncludeCurveExtremaOnly() {
        var p = Path()
        p.move(to: Point(0, 0))
        p.cubic(to: Point(100, 0), control1: Point(0, 100), control2: Point(100, 100))
        // The cubic peaks at y = 75 (t = ½), well inside its control box.
        let b = p.bounds
        #expect(b.minX == 0 && b.maxX == 100 && b.minY == 0)
        #expect(approx(b.maxY, 75, 1e-12))
        #expect(p.controlBounds.maxY == 100)
        var q = Path()
        q.move(to: Point(0, 0))
        q.quad(to: Point(10, 0), control: Point(5, -10))
        #expect(approx(q.bounds.minY, -5, 1e-12))
        let circle = Path.circle(center: Point(50, 50), radius: 20).bounds
        #expect(approx(circle.minX, 30, 1e-12) && approx(circle.maxY, 70, 1e-12))
        #expect(Path().bounds.isNull)
    }

    @Test func boundsContainEveryFlattenedPointOverRandomCurves() {
        var rng = SplitMix64(seed: 3)
        for _ in 0..<100 {
            var p = Path()
            p.move(to: Point(rng.double(in: -50...50), rng.double(in: -50...50)))
            p.cubic(
                to: Point(rng.double(in: -50...50), rng.double(in: -50...50)), control1: Point(rng.double(in: -90...90), rng.double(in: -90...90)),
                control2: Point(rng.double(in: -90...90), rng.double(in: -90...90)))
            p.quad(to: Point(rng.double(in: -50...50), rng.double(in: -50...50)), control: Point(rng.double(in: -90...90), rng.double(in: -90...90)))
            let b = p.bounds
            let pts = p.flattened(tolerance: 0.001)[0].points
            let fb = Rect.bounding(pts)
            // Tight: the flattened points reach (within the flattening tolerance) every side.
            #expect(b.minX <= fb.minX + 1e-9 && b.maxX >= fb.maxX - 1e-9 && b.minY <= fb.minY + 1e-9 && b.maxY >= fb.maxY - 1e-9)
            #expect(fb.minX - b.minX < 0.002 && b.maxX - fb.maxX < 0.002 && fb.minY - b.minY < 0.002 && b.maxY - fb.maxY < 0.002)
        }
    }

    @Test func signedAreaAndLength() {
        let r = Contour(points: [Point(0, 0), Point(4, 0), Point(4, 3), Point(0, 3)], isClosed: true)
        #expect(r.signedArea == 12 && r.length == 14)
        let rev = Contour(points: r.points.reversed(), isClosed: false)
        #expect(rev.signedArea == -12 && rev.length == 11)
        let far = Contour(points: r.points.map { $0 + Point(1e12, 1e12) }, isClosed: true)
        #expect(far.signedArea == 12)
    }
}

@Suite struct ReversedAndTransformTests {
    @Test func reversedFlipsAreaAndRoundTrips() {
        var p = Path.rect(Rect(x: 0, y: 0, width: 10, height: 5))
        p.move(to: Point(20, 20))
        p.quad(to: Point(30, 20), control: Point(25, 10))
        p.cubic(to: Point(40, 30), control1: Point(31, 25), control2: Point(35, 35))
        let r = p.reversed()
        #expect(r.reversed() == p)
        #expect(contours(r)[0].signedArea == -50)
        #expect(r.elements[5] == .move(Point(40, 30)))
        #expect(r.elements[6] == .cubic(Point(35, 35), Point(31, 25), Point(30, 20)))
        #expect(r.elements[7] == .quad(Point(25, 10), Point(20, 20)))
        #expect(approx(r.bounds.maxY, p.bounds.maxY, 1e-12) && r.bounds.minX == p.bounds.minX)
    }

    @Test func strokeUnderMirrorStaysPositive() {
        let p = Path.polyline([Point(0, 0), Point(40, 10), Point(10, 30)])
        let mirror = Transform.scale(-3, 3).translatedBy(5, 5)
        let s = p.stroked(StrokeStyle(width: 4, join: .miter), transform: mirror)
        expectWellFormedStroke(s)
        // Same shape as stroking the transformed path with the scaled width.
        let direct = p.applying(mirror).stroked(StrokeStyle(width: 12, join: .miter))
        let a = ScanMeasure(s, rows: 800).area, b = ScanMeasure(direct, rows: 800).area
        #expect(Swift.abs(a - b) < 0.002 * b)
        #expect(p.stroked(StrokeStyle(width: 4), transform: .scale(0, 1)).isEmpty)
    }
}

@Suite struct FlatteningBudgetTests {
    func wildCurves(_ count: Int) -> Path {
        var rng = SplitMix64(seed: 11)
        var p = Path()
        p.move(to: .zero)
        for _ in 0..<count {
            p.cubic(
                to: Point(rng.double(in: -1e6...1e6), rng.double(in: -1e6...1e6)),
                control1: Point(rng.double(in: -1e6...1e6), rng.double(in: -1e6...1e6)),
                control2: Point(rng.double(in: -1e6...1e6), rng.double(in: -1e6...1e6)))
        }
        return p
    }

    func points(_ p: Path, tolerance: Double) -> Int {
        var last = Point.zero, n = 1
        for e in p.elements {
            if case .cubic(let c1, let c2, let q) = e {
                n += Path.segmentCount(p0: last, p1: c1, p2: c2, p3: q, tolerance: tolerance)
                last = q
            } else if case .move(let q) = e {
                last = q
            }
        }
        return n
    }

    @Test func hostileCurvesAreCoarsenedToTheBudget() {
        let p = wildCurves(100)
        #expect(points(p, tolerance: 0.1) > 100_000)
        let tol = p.budgetedTolerance(0.1, maxPoints: 5000)
        #expect(tol > 0.1)
        let n = points(p, tolerance: tol)
        #expect(n <= 5000 && n > 2500)
        // Too small a budget still leaves one segment per curve.
        #expect(points(p, tolerance: p.budgetedTolerance(0.1, maxPoints: 50)) == 101)
        // A path within budget keeps its tolerance.
        #expect(Path.circle(center: .zero, radius: 10).budgetedTolerance(0.1) == 0.1)
    }

    @Test func flattenedUsesTheBudget() {
        // 2000 curves of up to 4096 segments each would be about 8M points.
        let p = wildCurves(2000)
        let n = p.flattened(tolerance: 0.1).reduce(0) { $0 + $1.points.count }
        #expect(n <= Path.maxFlattenedPoints)
    }
}
