import Testing

@testable import TechoGeometry

@Suite struct SVGPathParserTests {
    func parse(_ d: String) throws -> [PathElement] { try Path(svgPathData: d).elements }

    @Test func absoluteAndRelativeLines() throws {
        #expect(
            try parse("M10 20 L30 40 H50 V60 Z") == [
                .move(Point(10, 20)), .line(Point(30, 40)), .line(Point(50, 40)), .line(Point(50, 60)), .close,
            ])
        #expect(
            try parse("m10 20 l20 20 h20 v20 z m1 1 l1 0") == [
                .move(Point(10, 20)), .line(Point(30, 40)), .line(Point(50, 40)), .line(Point(50, 60)), .close,
                .move(Point(11, 21)), .line(Point(12, 21)),
            ])
    }

    /// A drawing command straight after Z starts its subpath with an implicit move.
    @Test func drawingAfterCloseStartsAtTheSubpathStart() throws {
        let p = try Path(svgPathData: "M5 5 L10 5 Z l1 1")
        p.checkInvariants()
        #expect(p.elements == [.move(Point(5, 5)), .line(Point(10, 5)), .close, .move(Point(5, 5)), .line(Point(6, 6))])
    }

    @Test func implicitRepeatedCommands() throws {
        // Extra pairs after M are lines; after m, relative lines.
        #expect(try parse("M0 0 10 0 10 10") == [.move(Point(0, 0)), .line(Point(10, 0)), .line(Point(10, 10))])
        #expect(try parse("m5 5 10 0 0 10") == [.move(Point(5, 5)), .line(Point(15, 5)), .line(Point(15, 15))])
        #expect(try parse("M0 0 h1 2 3") == [.move(.zero), .line(Point(1, 0)), .line(Point(3, 0)), .line(Point(6, 0))])
    }

    @Test func compactNumbers() throws {
        #expect(
            try parse("M.5.5L-1-2l1e-3,2E+1") == [
                .move(Point(0.5, 0.5)), .line(Point(-1, -2)), .line(Point(-1 + 1e-3, 18)),
            ])
        #expect(try parse("M1.5e2-3.") == [.move(Point(150, -3))])
        #expect(try parse("  \n\tM 1 , 2  ") == [.move(Point(1, 2))])
        #expect(try parse("") == [])
        #expect(try parse("   ") == [])
    }

    @Test func curvesAndSmoothReflection() throws {
        let e = try parse("M0 0 C10 0 20 10 20 20 S30 40 40 40 Q50 40 50 50 T60 60 t10 10")
        #expect(
            e == [
                .move(.zero),
                .cubic(Point(10, 0), Point(20, 10), Point(20, 20)),
                .cubic(Point(20, 30), Point(30, 40), Point(40, 40)),
                .quad(Point(50, 40), Point(50, 50)),
                .quad(Point(50, 60), Point(60, 60)),
                .quad(Point(70, 60), Point(70, 70)),
            ])
        // S without a preceding C uses the current point as its first control point.
        #expect(try parse("M1 1 L2 2 S3 3 4 4") == [.move(Point(1, 1)), .line(Point(2, 2)), .cubic(Point(2, 2), Point(3, 3), Point(4, 4))])
        #expect(try parse("M1 1 q1 0 1 1") == [.move(Point(1, 1)), .quad(Point(2, 1), Point(2, 2))])
    }

    @Test func arcFlagsWithoutSeparators() throws {
        let a = try Path(svgPathData: "M0 0a1 1 0 00 1 1")
        let b = try Path(svgPathData: "M0 0 a 1 1 0 0 0 1 1")
        #expect(a == b)
        #expect(a.currentPoint == Point(1, 1))
        let c = try Path(svgPathData: "M0 0a1 1 0 1110 0")
        #expect(c.currentPoint == Point(10, 0))
    }

    @Test(arguments: [
        ("M10 10 L", SVGPathError(expected: .number, offset: 8)),
        ("M10 10 L 5 x", SVGPathError(expected: .number, offset: 11)),
        ("L 1 2", SVGPathError(expected: .moveTo, offset: 0)),
        ("  10 10", SVGPathError(expected: .moveTo, offset: 2)),
        ("M 1 2 X 3 4", SVGPathError(expected: .command, offset: 6)),
        ("M0 0 A 1 1 0 2 0 5 5", SVGPathError(expected: .flag, offset: 13)),
        ("M1e999 0", SVGPathError(expected: .finiteNumber, offset: 1)),
        ("M 1 2 Z 3 4", SVGPathError(expected: .command, offset: 8)),
        ("M1 2 L3 .", SVGPathError(expected: .number, offset: 8)),
        ("M1 2 L3 -e5", SVGPathError(expected: .number, offset: 8)),
    ])
    func errorsNameTheOffset(data: String, error: SVGPathError) {
        #expect(throws: error) { try Path(svgPathData: data) }
    }

    @Test func errorMessageReadsWell() {
        #expect(SVGPathError(expected: .number, offset: 14).description == "expected a number at offset 14")
    }

    /// Writing elements back as absolute path data and parsing again gives the same path.
    @Test func roundTrip() throws {
        let sources = [
            "M10 20 L30 40 H50 V60 Z",
            "m5 5 c1 2 3 4 5 6 s1 1 2 2 q3 3 4 4 t5 5 z M0 0 l-1.25 3e-2",
            "M100 100 A50 25 30 1 0 150 150 a10 10 0 0 1 20 0",
        ]
        for s in sources {
            let p = try Path(svgPathData: s)
            p.checkInvariants()
            #expect(try Path(svgPathData: svgData(p)) == p, "\(s)")
        }
    }

    func svgData(_ p: Path) -> String {
        func f(_ v: Double) -> String { "\(v)" }
        func pt(_ q: Point) -> String { "\(f(q.x)) \(f(q.y))" }
        return p.elements.map { e -> String in
            switch e {
            case .move(let q): return "M" + pt(q)
            case .line(let q): return "L" + pt(q)
            case .quad(let c, let q): return "Q" + pt(c) + " " + pt(q)
            case .cubic(let c1, let c2, let q): return "C" + pt(c1) + " " + pt(c2) + " " + pt(q)
            case .close: return "Z"
            }
        }.joined(separator: " ")
    }
}

@Suite struct ArcTests {
    /// Points sampled along every cubic of `p`.
    func samples(_ p: Path) -> [Point] { p.flattened(tolerance: 0.0005).flatMap(\.points) }

    @Test func svgArcEndpointsAreExactAndPointsLieOnTheCircle() throws {
        let p = try Path(svgPathData: "M10 50 A40 40 0 0 1 90 50")
        #expect(p.currentPoint == Point(90, 50))
        // Sweep flag 1 from (10,50) to (90,50) with r 40 is the upper half (y-down: through y=10).
        for q in samples(p) {
            #expect(Swift.abs(q.distance(to: Point(50, 50)) - 40) < 40 * 3e-4)
            #expect(q.y <= 50 + 1e-9)
        }
        let lower = try Path(svgPathData: "M10 50 A40 40 0 0 0 90 50")
        #expect(samples(lower).allSatisfy { $0.y >= 50 - 1e-9 })
    }

    @Test func tooSmallRadiiAreScaledUp() throws {
        // Radius 1 cannot span 80: scaled so the arc is the half circle of radius 40.
        let p = try Path(svgPathData: "M10 50 A1 1 0 0 1 90 50")
        #expect(p.currentPoint == Point(90, 50))
        #expect(samples(p).allSatisfy { Swift.abs($0.distance(to: Point(50, 50)) - 40) < 0.02 })
    }

    @Test func zeroRadiusIsALineAndSameEndpointIsNothing() throws {
        #expect(try Path(svgPathData: "M0 0 A0 5 0 0 1 10 10").elements == [.move(.zero), .line(Point(10, 10))])
        #expect(try Path(svgPathData: "M3 3 A5 5 0 0 1 3 3").elements == [.move(Point(3, 3))])
    }

    @Test func largeArcFlagPicksTheLongWay() throws {
        let small = try Path(svgPathData: "M0 0 A10 10 0 0 1 10 10")
        let large = try Path(svgPathData: "M0 0 A10 10 0 1 1 10 10")
        let ls = small.flattened(tolerance: 0.001)[0].length, ll = large.flattened(tolerance: 0.001)[0].length
        #expect(Swift.abs(ls - Double.pi * 5) < 0.01)
        #expect(Swift.abs(ll - Double.pi * 15) < 0.01)
    }

    @Test func rotatedEllipseArc() throws {
        // A 2:1 ellipse rotated 90°: its long axis is vertical, so a half from (0,0) to (0,40)
        // with radii (20, 10) bulges 10 sideways.
        let p = try Path(svgPathData: "M0 0 A20 10 90 0 1 0 40")
        let xs = samples(p).map(\.x)
        #expect(Swift.abs((xs.map(Swift.abs).max() ?? 0) - 10) < 0.01)
        #expect(p.currentPoint == Point(0, 40))
    }

    @Test func arcBuilderUsesQuarterCubics() {
        var p = Path()
        p.arc(center: Point(0, 0), radius: 10, startAngle: 0, endAngle: Double.pi * 1.5, clockwise: true)
        // Move + three cubics of 90°.
        #expect(p.elements.count == 4)
        guard case .move(let s) = p.elements[0] else { Issue.record("no move"); return }
        #expect(s == Point(10, 0))
        #expect(Swift.abs(p.currentPoint.x) < 1e-12 && Swift.abs(p.currentPoint.y + 10) < 1e-12)
        // Clockwise on a y-down page goes from +x to +y first.
        guard case .cubic(_, _, let e1) = p.elements[1] else { Issue.record("no cubic"); return }
        #expect(Swift.abs(e1.x) < 1e-12 && Swift.abs(e1.y - 10) < 1e-12)
        var q = Path()
        q.arc(center: .zero, radius: 10, startAngle: 0, endAngle: Double.pi * 1.5, clockwise: false)
        #expect(q.elements.count == 2)  // the short way round, a quarter, counter-clockwise
        for sample in samples(p) + samples(q) {
            #expect(Swift.abs(sample.length - 10) < 10 * 3e-4)
        }
        var full = Path()
        full.arc(center: .zero, radius: 5, startAngle: 1, endAngle: 1 + 20, clockwise: true)
        #expect(full.elements.count == 5)
    }
}
