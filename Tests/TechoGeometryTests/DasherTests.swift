import Testing

@testable import TechoGeometry

@Suite struct DasherTests {
    /// Lengths of the dashes (open subpaths) of a dashed path.
    func dashLengths(_ p: Path) -> [Double] { contours(p).map(\.length) }
    /// Where each dash starts along a horizontal line, rounded to 1e-9.
    func starts(_ p: Path) -> [Double] { contours(p).map { ($0.points[0].x * 1e9).rounded() / 1e9 } }

    @Test func dashesOfAStraightLine() {
        let line = Path.polyline([Point(0, 0), Point(100, 0)])
        let d = line.dashed(pattern: [10, 5])
        let lengths = dashLengths(d)
        // 0-10, 15-25, … 90-100: seven dashes of 10.
        #expect(lengths.count == 7)
        #expect(lengths.allSatisfy { approx($0, 10) })
        #expect(contours(d).allSatisfy { !$0.isClosed })
        #expect(starts(d) == [0, 15, 30, 45, 60, 75, 90])
    }

    @Test func phaseShiftsThePattern() {
        let line = Path.polyline([Point(0, 0), Point(100, 0)])
        let d = line.dashed(pattern: [10, 5], phase: 4)
        let cs = contours(d)
        // First dash is the last 6 of the first interval, then every 15 from 11.
        #expect(approx(cs[0].length, 6) && cs[0].points[0] == Point(0, 0))
        #expect(approx(cs[1].points[0].x, 11))
        let total = dashLengths(d).reduce(0, +)
        // On from 0-6, 11-21, …, 86-96: 6 + 6·10.
        #expect(approx(total, 66, 1e-9))
        // A negative phase counts back from the pattern's end: −11 ≡ 4.
        #expect(contours(line.dashed(pattern: [10, 5], phase: -11)) == cs)
        // Phase landing in the gap starts with a gap.
        let gapFirst = contours(line.dashed(pattern: [10, 5], phase: 12))
        #expect(approx(gapFirst[0].points[0].x, 3))
    }

    @Test func dashContinuesAcrossVertices() {
        let l = Path.polyline([Point(0, 0), Point(7, 0), Point(7, 7), Point(20, 7)])
        let d = contours(l.dashed(pattern: [10, 2]))
        #expect(d[0].points == [Point(0, 0), Point(7, 0), Point(7, 3)])
        #expect(approx(d[0].length, 10))
        #expect(approx(d[1].points[0].y, 5))
    }

    @Test func dashLengthsSumOverRandomPolylines() {
        var rng = SplitMix64(seed: 42)
        for _ in 0..<50 {
            let pts = (0..<Int.random(in: 2...10, using: &rng)).map { _ in Point(rng.double(in: 0...200), rng.double(in: 0...200)) }
            let poly = Path.polyline(pts)
            let on = rng.double(in: 0.5...20), off = rng.double(in: 0.5...20)
            let d = poly.dashed(pattern: [on, off], phase: rng.double(in: -50...50))
            let length = contours(poly)[0].length
            let sum = dashLengths(d).reduce(0, +)
            // Every dash is at most `on` long, and on-fraction of the length is covered within
            // one period of slack at the end.
            #expect(dashLengths(d).allSatisfy { $0 <= on + 1e-9 })
            #expect(Swift.abs(sum - length * on / (on + off)) <= on + 1e-9)
        }
    }

    @Test func oddPatternIsRepeated() {
        let line = Path.polyline([Point(0, 0), Point(30, 0)])
        #expect(starts(line.dashed(pattern: [5])) == [0, 10, 20])
        // on 4, off 2, on 1, off 4, on 2, off 1, …
        #expect(starts(line.dashed(pattern: [4, 2, 1])) == [0, 6, 11, 14, 20, 25, 28])
    }

    @Test func closedSubpathWrapsTheDashAroundTheStart() {
        let square = Path.rect(Rect(x: 0, y: 0, width: 10, height: 10))  // perimeter 40
        // Phase 5 with [10, 5]: on 0-5, off 5-10, on 10-20, off 20-25, on 25-35, off 35-40 → the
        // last dash ends at 35, so the first one stands alone.
        let a = contours(square.dashed(pattern: [10, 5], phase: 5))
        #expect(a.count == 3)
        // [12, 4]: on 0-12, off, on 16-28, off, on 32-40 ⇒ joins the first: 8 + 12 = 20.
        let b = contours(square.dashed(pattern: [12, 4]))
        #expect(b.count == 2)
        #expect(b.map(\.length).sorted() == [12, 20])
        #expect(b.allSatisfy { !$0.isClosed })
        // A pattern longer than the perimeter leaves the square closed.
        let c = contours(square.dashed(pattern: [100, 1]))
        #expect(c.count == 1 && c[0].isClosed && c[0].points.count == 4)
    }

    @Test(arguments: [[], [0, 0], [-1, 5], [Double.nan, 3], [Double.infinity, 1], [5, -0.1]])
    func absurdPatternsAreSolid(pattern: [Double]) {
        let line = Path.polyline([Point(0, 0), Point(100, 0)])
        #expect(line.dashed(pattern: pattern) == line)
    }

    @Test func zeroLengthDashesAreDots() {
        let line = Path.polyline([Point(0, 0), Point(20, 0)])
        let d = line.dashed(pattern: [0, 10])
        #expect(contours(d).map { $0.points } == [[Point(0, 0), Point(0, 0)], [Point(10, 0), Point(10, 0)], [Point(20, 0), Point(20, 0)]])
        let dots = d.stroked(StrokeStyle(width: 4, cap: .round))
        #expect(contours(dots).count == 3)
    }

    @Test func tinyPatternOnHugePathIsBounded() {
        let line = Path.polyline([Point(0, 0), Point(1e9, 0)])
        let d = line.dashed(pattern: [1e-9, 1e-9], phase: Double.nan)
        #expect(contours(d).count <= Path.maxDashCount)
        #expect(contours(d).count > 0)
    }
}
