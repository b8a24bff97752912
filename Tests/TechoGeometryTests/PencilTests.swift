import Testing

@testable import TechoGeometry

@Suite struct PencilTests {
    @Test func catmullRomPassesThroughEveryPoint() {
        var rng = SplitMix64(seed: 7)
        let pts = (0..<40).map { _ in Point(rng.double(in: 0...500), rng.double(in: 0...500)) }
        let p = Pencil.smoothPath(through: pts)
        #expect(p.elements.count == 40)
        guard case .move(let start) = p.elements[0] else { Issue.record("no move"); return }
        #expect(start == pts[0])
        for (i, e) in p.elements.dropFirst().enumerated() {
            guard case .cubic(let c1, let c2, let end) = e else { Issue.record("not a cubic"); continue }
            #expect(end == pts[i + 1])
            #expect(c1.isFinite && c2.isFinite)
        }
    }

    @Test func tangentsAreContinuousAtInteriorPoints() {
        let pts = [Point(0, 0), Point(10, 5), Point(12, 30), Point(40, 31), Point(41, 32)]
        let p = Pencil.smoothPath(through: pts)
        for i in 1..<(pts.count - 1) {
            guard case .cubic(_, let inC2, _) = p.elements[i], case .cubic(let outC1, _, _) = p.elements[i + 1] else {
                Issue.record("not cubics"); continue
            }
            // The incoming and outgoing handles point in opposite directions (C1 up to scale).
            let a = (pts[i] - inC2).normalized, b = (outC1 - pts[i]).normalized
            #expect(Swift.abs(a.cross(b)) < 1e-9 && a.dot(b) > 0)
        }
    }

    @Test func evenlySpacedCollinearPointsGiveAStraightLine() {
        let p = Pencil.smoothPath(through: [Point(0, 0), Point(10, 0), Point(20, 0), Point(30, 0)])
        for q in p.flattened(tolerance: 0.01)[0].points { #expect(q.y == 0) }
        // Centripetal spacing keeps handles at a third of each segment here.
        guard case .cubic(let c1, let c2, _) = p.elements[2] else { Issue.record("not a cubic"); return }
        #expect(approx(c1.x, 10 + 10.0 / 3, 1e-9) && approx(c2.x, 20 - 10.0 / 3, 1e-9))
    }

    @Test func onePointIsADot() {
        for pressure in [nil, 0.0, 1.0] {
            let pencil = Pencil(width: 10)
            let o = pencil.outline([PencilPoint(x: 20, y: 30, pressure: pressure)], tolerance: 0.001)
            let r = pencil.width(atPressure: pressure) / 2
            #expect(approx(ScanMeasure(o, rows: 1000).area, Double.pi * r * r, 0.03))
            expectWellFormedStroke(o)
        }
        // Repeated samples of one point are still a dot.
        let twice = Pencil(width: 4).outline([PencilPoint(x: 1, y: 1, pressure: 0.2), PencilPoint(x: 1, y: 1, pressure: 0.9)])
        #expect(!twice.isEmpty)
    }

    @Test func pressureMapsToWidth() {
        let pencil = Pencil(width: 10)
        #expect(pencil.width(atPressure: nil) == 10)
        #expect(pencil.width(atPressure: 1) == 10)
        #expect(pencil.width(atPressure: 0) == 3)
        #expect(approx(pencil.width(atPressure: 0.5), 6.5, 1e-12))
        #expect(pencil.width(atPressure: 7) == 10)
        #expect(pencil.width(atPressure: Double.nan) == 10)
    }

    /// The outline is the union of discs whose centre and radius move linearly between
    /// samples: checked against that definition at grid points clear of the boundary.
    @Test func variableWidthOutlineMatchesTheSweptDisc() {
        let pencil = Pencil(width: 40)
        // A straight stroke: the spline is the segment itself, so the oracle is exact.
        let pts = [
            PencilPoint(x: 10, y: 50, pressure: 0), PencilPoint(x: 30, y: 50, pressure: 1),
            PencilPoint(x: 50, y: 50, pressure: 0), PencilPoint(x: 70, y: 50, pressure: 1),
            PencilPoint(x: 90, y: 50, pressure: 0.1),
        ]
        let o = pencil.outline(pts, tolerance: 0.01)
        expectWellFormedStroke(o)
        func inside(_ q: Point) -> Double {
            // Signed distance to the swept shape, by dense sampling of the centre line.
            var best = Double.infinity
            for seg in 0..<(pts.count - 1) {
                for k in 0...400 {
                    let t = Double(k) / 400
                    let c = pts[seg].position.lerp(pts[seg + 1].position, t)
                    let r = pencil.width(atPressure: pts[seg].pressure) / 2 * (1 - t) + pencil.width(atPressure: pts[seg + 1].pressure) / 2 * t
                    best = Swift.min(best, q.distance(to: c) - r)
                }
            }
            return best
        }
        var checked = 0
        for y in stride(from: 25.0, through: 75.0, by: 2.5) {
            for x in stride(from: -15.0, through: 115.0, by: 2.5) {
                let q = Point(x + 0.1, y + 0.1)
                let sd = inside(q)
                guard Swift.abs(sd) > 0.2 else { continue }
                let w = ScanMeasure.winding(of: o, at: q)
                #expect((w > 0) == (sd < 0), "at \(q): distance \(sd), winding \(w)")
                #expect(w >= 0)
                checked += 1
            }
        }
        #expect(checked > 500)
    }

    @Test func constantWidthCurvedStrokeHasTheRightArea() {
        // A smooth quarter-ish curve: area ≈ length · width + the two round ends.
        let pts = (0...8).map { i -> PencilPoint in
            let a = Double(i) / 8 * Double.pi / 2
            return PencilPoint(x: 100 * cosPrecise(a), y: 100 * sinPrecise(a))
        }
        let o = Pencil(width: 6).outline(pts, tolerance: 0.01)
        let length = Pencil.smoothPath(through: pts.map(\.position)).flattened(tolerance: 0.001)[0].length
        let area = ScanMeasure(o, rows: 2000).area
        #expect(Swift.abs(area - (length * 6 + Double.pi * 9)) < 0.005 * area)
        expectWellFormedStroke(o)
    }

    @Test func degenerateInputNeverTraps() {
        let nan = Double.nan
        let pencil = Pencil(width: 5)
        #expect(pencil.outline([]).isEmpty)
        #expect(Pencil(width: 0).outline([PencilPoint(x: 1, y: 1)]).isEmpty)
        #expect(Pencil(width: nan).outline([PencilPoint(x: 1, y: 1)]).isEmpty)
        let messy = [
            PencilPoint(x: nan, y: 1, pressure: 0.5), PencilPoint(x: 0, y: 0, pressure: nan),
            PencilPoint(x: 1e300, y: -1e300, pressure: 0.2), PencilPoint(x: 0, y: 0, pressure: -4),
            PencilPoint(x: Double.infinity, y: 0), PencilPoint(x: 3, y: 4, pressure: 0.7),
            PencilPoint(x: 3, y: 4 + 1e-12, pressure: 0.1),
        ]
        expectWellFormedStroke(pencil.outline(messy))
        expectWellFormedStroke(Pencil.smoothPath(through: messy.map(\.position)).stroked(StrokeStyle(width: 3)))
    }
}

@Suite struct SweptDiscTests {
    /// Random samples with sharp turns, tiny and large spacing and fast width changes: the
    /// fill (trapezoids, joint pieces or discs) is the union of consecutive disc hulls.
    @Test(arguments: 0..<16)
    func unionOfHullsOverRandomSamples(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) &* 7919 &+ 1)
        let n = Int.random(in: 2...9, using: &rng)
        var c: [Point] = [Point(rng.double(in: 20...80), rng.double(in: 20...80))]
        var r: [Double] = [rng.double(in: 0.5...12)]
        for _ in 1..<n {
            let step = Bool.random(using: &rng) ? rng.double(in: 0.2...4) : rng.double(in: 4...30)
            let a = rng.double(in: 0...(2 * Double.pi))
            c.append(c[c.count - 1] + Point(cosPrecise(a), sinPrecise(a)) * step)
            r.append(Bool.random(using: &rng) ? r[r.count - 1] * rng.double(in: 0.8...1.25) : rng.double(in: 0.5...12))
        }
        let tol = 0.02
        let path = Pencil.sweptDiscs(c, r, tolerance: tol)
        expectWellFormedStroke(path)
        let xs = stride(from: -30.0, through: 130, by: 1.7).map { $0 + 0.013 }
        let ys = stride(from: -30.0, through: 130, by: 1.7).map { $0 + 0.029 }
        let grid = windingGrid(path, xs: xs, ys: ys)
        var mismatches: [String] = []
        for (yi, y) in ys.enumerated() {
            for (xi, x) in xs.enumerated() {
                let p = Point(x, y)
                var sd = Double.infinity
                for k in 0..<(n - 1) { sd = Swift.min(sd, hullDistance(p, c[k], r[k], c[k + 1], r[k + 1])) }
                guard Swift.abs(sd) > tol * 1.5 else { continue }
                let w = grid[yi][xi]
                if w < 0 || (w > 0) != (sd < 0) { mismatches.append("\(p): distance \(sd), winding \(w)") }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5)) samples \(c) radii \(r)")
    }

    /// Where samples are well spaced, joints are partial pieces, not whole discs.
    @Test func wellSpacedSamplesUseJointPieces() {
        let c = (0..<20).map { Point(Double($0) * 10, 5 * sinPrecise(Double($0))) }
        let r = (0..<20).map { 3 + 2 * cosPrecise(Double($0)) }
        let path = Pencil.sweptDiscs(c, r, tolerance: 0.05)
        let pts = contours(path).reduce(0) { $0 + $1.points.count }
        var discs = 0
        for k in 0..<20 {
            var p = ConvexPieces(tolerance: 0.05)
            p.setRadius(r[k])
            discs += p.arcSegments(2 * Double.pi)
        }
        // Trapezoids (4 points each) plus joints well under the cost of a disc per sample.
        #expect(pts < 19 * 4 + discs / 2)
    }
}
