// Freehand ink: a centripetal Catmull-Rom spline through the raw samples (α = ½, which never
// loops or cusps within a segment; Yuksel, Schaefer & Keyser 2011), converted to cubic Béziers
// with the Barry–Goldman tangents, and for pressure a variable-width outline: the union of the
// convex hulls of consecutive sample discs (the swept area of a disc whose centre and radius
// move linearly between samples), emitted as the tangent trapezoid between consecutive discs
// plus, at each sample, the disc or just the part of it the trapezoids leave uncovered; each
// piece is its own positively oriented convex contour, so the nonzero fill never shows beads,
// gaps or darker overlaps, however fast the width changes. Not whole hulls: consecutive hulls
// overlap several deep along the outline, which would count edge antialiasing several times.

/// One raw sample of a freehand stroke.
public struct PencilPoint: Hashable, Sendable {
    /// Where the pen was. Default: the origin.
    public var position: Point
    /// Pen pressure in 0…1, or nil when the device gave none (treated as 1). Default nil.
    public var pressure: Double?

    public init(_ position: Point, pressure: Double? = nil) {
        self.position = position
        self.pressure = pressure
    }
    public init(x: Double, y: Double, pressure: Double? = nil) {
        self.init(Point(x, y), pressure: pressure)
    }
}

/// How freehand samples become ink: smoothing and the pressure-to-width mapping.
///
/// The width at pressure `p` is `width · (minimumWidthFraction + (1 − minimumWidthFraction)·p)`
/// with `p` clamped to 0…1 (missing or NaN pressure counts as 1).
public struct Pencil: Hashable, Sendable {
    /// Full stroke width, at pressure 1, in path units. Default 1.
    public var width: Double
    /// The fraction of `width` drawn at pressure 0. Default 0.3.
    public var minimumWidthFraction: Double

    public init(width: Double = 1, minimumWidthFraction: Double = 0.3) {
        self.width = width
        self.minimumWidthFraction = minimumWidthFraction
    }

    /// The stroke width at `pressure`.
    public func width(atPressure pressure: Double?) -> Double {
        let p = pressure.map { $0.isNaN ? 1 : Swift.min(1, Swift.max(0, $0)) } ?? 1
        let f = Swift.min(1, Swift.max(0, minimumWidthFraction.isNaN ? 0.3 : minimumWidthFraction))
        return width * (f + (1 - f) * p)
    }

    /// A smooth open path through every point: one cubic Bézier per pair of consecutive
    /// points, following the centripetal Catmull-Rom spline (end tangents from mirrored
    /// neighbours). Repeated and non-finite points are skipped; one point gives a lone move.
    ///
    /// - Complexity: O(points).
    public static func smoothPath(through points: [Point]) -> Path {
        var pts: [Point] = []
        pts.reserveCapacity(points.count)
        for p in points where p.isFinite {
            if let l = pts.last, l == p { continue }
            pts.append(p)
        }
        var path = Path()
        guard let first = pts.first else { return path }
        path.reserveCapacity(pts.count)
        path.move(to: first)
        for i in 0..<Swift.max(0, pts.count - 1) {
            let (c1, c2) = controls(pts, i)
            path.cubic(to: pts[i + 1], control1: c1, control2: c2)
        }
        return path
    }

    /// Bézier control points of the centripetal Catmull-Rom segment from `pts[i]` to
    /// `pts[i + 1]`. Written relative to the segment's ends, with d the distances between
    /// neighbours: b1 = P1 + (d1·(P2 − P1) − d2·(P0 − P1)) / (3·√d1·(√d1 + √d2)), and
    /// symmetrically for b2.
    static func controls(_ pts: [Point], _ i: Int) -> (Point, Point) {
        let p1 = pts[i], p2 = pts[i + 1]
        let p0 = i > 0 ? pts[i - 1] : p1 * 2 - p2
        let p3 = i + 2 < pts.count ? pts[i + 2] : p2 * 2 - p1
        let d1 = p1.distance(to: p0), d2 = p2.distance(to: p1), d3 = p3.distance(to: p2)
        let s1 = d1.squareRoot(), s2 = d2.squareRoot(), s3 = d3.squareRoot()
        var b1 = p1 + (p2 - p1) / 3
        var b2 = p2 - (p2 - p1) / 3
        let den1 = 3 * s1 * (s1 + s2)
        if den1 > 0 {
            let c = p1 + ((p2 - p1) * d1 - (p0 - p1) * d2) / den1
            if c.isFinite { b1 = c }
        }
        let den2 = 3 * s3 * (s3 + s2)
        if den2 > 0 {
            let c = p2 + ((p1 - p2) * d3 - (p3 - p2) * d2) / den2
            if c.isFinite { b2 = c }
        }
        return (b1, b2)
    }

    /// The outline of the stroke through `points`, smoothed as `smoothPath(through:)`, whose
    /// nonzero fill is the ink: round ends, width following pressure. One point is a dot.
    ///
    /// The spline is sampled so the polyline stays within `tolerance` of it (flatten in device
    /// space); width varies linearly between samples. When every sample has the same width
    /// this is the round-capped, round-joined stroke of the smooth path (the cheaper
    /// construction); otherwise the union of the convex hulls of consecutive sample discs
    /// (see `sweptDiscs`).
    /// Non-finite points are skipped; a width that is not positive and finite gives an empty
    /// path.
    ///
    /// - Complexity: O(samples × arc points per disc), samples bounded by a budget.
    public func outline(_ points: [PencilPoint], tolerance: Double = Path.defaultTolerance) -> Path {
        guard width > 0, width.isFinite else { return Path() }
        let tol = tolerance > 0 && tolerance.isFinite ? tolerance : Path.defaultTolerance
        var pts: [Point] = []
        var radii: [Double] = []
        pts.reserveCapacity(points.count)
        radii.reserveCapacity(points.count)
        for p in points where p.position.isFinite {
            let r = self.width(atPressure: p.pressure) / 2
            if let l = pts.last, l == p.position {
                radii[radii.count - 1] = Swift.max(radii[radii.count - 1], r)
                continue
            }
            pts.append(p.position)
            radii.append(r)
        }
        guard let first = pts.first, let r0 = radii.first else { return Path() }
        if radii.allSatisfy({ $0 == r0 }) {
            let path = pts.count == 1 ? Path.polyline([first]) : Pencil.smoothPath(through: pts)
            return path.stroked(StrokeStyle(width: 2 * r0, cap: .round, join: .round), tolerance: tol)
        }
        // Widths differ, so there are at least two points. Each sample costs a disc, so the
        // sample budget is an eighth of the flattening budget.
        let sampleTolerance = Pencil.smoothPath(through: pts).budgetedTolerance(tol, maxPoints: Path.maxFlattenedPoints / 8)
        var centers: [Point] = [first]
        var sampleRadii: [Double] = [r0]
        for i in 0..<(pts.count - 1) {
            let (c1, c2) = Pencil.controls(pts, i)
            let p0 = pts[i], p3 = pts[i + 1]
            let n = Path.segmentCount(p0: p0, p1: c1, p2: c2, p3: p3, tolerance: sampleTolerance)
            for k in 1...n {
                let t = Double(k) / Double(n), u = 1 - t
                let c = k == n ? p3 : p0 * (u * u * u) + c1 * (3 * u * u * t) + c2 * (3 * u * t * t) + p3 * (t * t * t)
                let r = radii[i] * u + radii[i + 1] * t
                if c == centers[centers.count - 1] {
                    sampleRadii[sampleRadii.count - 1] = Swift.max(r, sampleRadii[sampleRadii.count - 1])
                    continue
                }
                centers.append(c)
                sampleRadii.append(r)
            }
        }
        return Pencil.sweptDiscs(centers, sampleRadii, tolerance: tol)
    }

    /// Tangents between consecutive sample discs: the outer tangent normals (unit, turned by
    /// ±α from the axis) and the distance; nil when one disc holds the other.
    struct Tangents {
        var plus: Point
        var minus: Point
        var distance: Double
    }

    static func tangents(_ c1: Point, _ r1: Double, _ c2: Point, _ r2: Double) -> Tangents? {
        let v = c2 - c1
        let d = v.length
        guard d.isFinite, d > Swift.abs(r1 - r2) else { return nil }
        // The outer tangent normals m make angle α with the axis u, cos α = (r1 − r2)/d.
        let u = v / d
        let cosA = (r1 - r2) / d
        let sinA = Swift.max(0, 1 - cosA * cosA).squareRoot()
        return Tangents(
            plus: Point(u.x * cosA - u.y * sinA, u.x * sinA + u.y * cosA),
            minus: Point(u.x * cosA + u.y * sinA, -u.x * sinA + u.y * cosA),
            distance: d)
    }

    /// The union of the convex hulls of consecutive discs (c[i], r[i]): a tangent trapezoid
    /// per pair, discs at the two ends, and at each interior sample either the full disc or,
    /// when that is provably enough, only the part of it between the neighbouring trapezoids.
    ///
    /// That joint piece J is the polygon on the sample's circle through the four tangent
    /// points, with arc points where the circle is neither behind the incoming trapezoid's
    /// chord nor beyond the outgoing one's. The rest of the disc is those two caps, inside the
    /// trapezoids when (A) the back cap, reaching r behind the centre, stays in front of the
    /// incoming trapezoid's far chord, and (B) likewise for the front cap. Using J instead of
    /// the disc saves points and keeps pieces from overlapping along the outline, where
    /// overlap would count antialiasing twice.
    static func sweptDiscs(_ c: [Point], _ r: [Double], tolerance: Double) -> Path {
        var pieces = ConvexPieces(tolerance: tolerance)
        let n = c.count
        guard n > 0 else { return pieces.path }
        // A trapezoid is 5 elements, a joint piece about 6 to 8; growing a large path by
        // doubling costs more than the slack.
        pieces.path.reserveCapacity(Swift.min(1 << 22, 13 * n + 64))
        var tan: [Tangents?] = []
        tan.reserveCapacity(n)
        for k in 0..<(n - 1) {
            let t = tangents(c[k], r[k], c[k + 1], r[k + 1])
            tan.append(t)
            if let t {
                pieces.scratch.append(c[k] + t.minus * r[k])
                pieces.scratch.append(c[k + 1] + t.minus * r[k + 1])
                pieces.scratch.append(c[k + 1] + t.plus * r[k + 1])
                pieces.scratch.append(c[k] + t.plus * r[k])
                pieces.emit()
            }
        }
        var entries: [(Double, Point)] = []
        for i in 0..<n {
            pieces.setRadius(r[i])
            guard i > 0, i < n - 1, let prev = tan[i - 1], let next = tan[i],
                joint(
                    c[i], r[i], prev: prev, prevRadius: r[i - 1], next: next, nextRadius: r[i + 1],
                    entries: &entries, pieces: &pieces)
            else {
                pieces.emitDisc(c[i])
                continue
            }
        }
        return pieces.path
    }

    /// Emits the joint piece at (c, r) and returns true, or returns false when the full disc
    /// is needed (see `sweptDiscs`).
    private static func joint(
        _ c: Point, _ r: Double, prev: Tangents, prevRadius r0: Double, next: Tangents,
        nextRadius r2: Double, entries: inout [(Double, Point)], pieces: inout ConvexPieces
    ) -> Bool {
        // (A) and (B): the caps, r deep beyond the centre along each axis, stay inside.
        guard prev.distance - r >= r0 * (r0 - r) / prev.distance,
            next.distance - r >= r2 * (r2 - r) / next.distance
        else { return false }
        // Angles on this circle, measured from the outgoing "−" tangent point.
        let base = atan2Precise(next.minus.y, next.minus.x)
        let twoPi = 2 * Double.pi
        func delta(_ m: Point) -> Double {
            var a = atan2Precise(m.y, m.x) - base
            while a < 0 { a += twoPi }
            while a >= twoPi { a -= twoPi }
            return a
        }
        let d2 = delta(next.plus), d3 = delta(prev.plus), d4 = delta(prev.minus)
        entries.removeAll(keepingCapacity: true)
        entries.append((0, c + next.minus * r))
        entries.append((d2, c + next.plus * r))
        entries.append((d3, c + prev.plus * r))
        entries.append((d4, c + prev.minus * r))
        // The circle is outline outside the outgoing front arc (0, d2) and the incoming back
        // arc, which runs from d3 up to d4, wrapping past 0 when d4 < d3.
        // The nested function must not capture `pieces`: holding a copy while `pieces` grows
        // would copy the whole output path on every joint.
        let maxStep = pieces.maxStep
        func arc(_ a: Double, _ b: Double) {
            guard b > a else { return }
            let steps = ConvexPieces.arcSegments(b - a, maxStep: maxStep)
            guard steps > 1 else { return }
            for k in 1..<steps {
                let da = a + (b - a) * Double(k) / Double(steps)
                let t = base + da
                entries.append((da, Point(c.x + r * cosPrecise(t), c.y + r * sinPrecise(t))))
            }
        }
        if d3 <= d4 {
            if d3 > d2 { arc(d2, d3) }
            arc(Swift.max(d4, d2), twoPi)
        } else {
            arc(Swift.max(d2, d4), d3)
        }
        // Points on one circle in angular order form a convex polygon.
        entries.sort { $0.0 < $1.0 }
        for e in entries { pieces.scratch.append(e.1) }
        pieces.emit()
        return true
    }
}
