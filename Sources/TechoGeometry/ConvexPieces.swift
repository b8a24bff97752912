// Output of the stroker and the pencil outliner: a union of small convex polygons, each closed
// and turned to positive orientation, so a nonzero fill adds overlapping pieces and never lets
// them cancel (the idea behind "stroke = union of pieces" as in the SVG 2 stroke-shape
// definition, written here from scratch).

/// Collects convex pieces into a `Path`, one closed positively oriented contour per piece.
///
/// Fill a polygon's vertices into `scratch` (in either turning direction), then call
/// `emit()`. Pieces with a non-finite vertex or no area are dropped.
struct ConvexPieces {
    var path = Path()
    var scratch: [Point] = []
    /// Largest chord angle for arcs of the current radius (see `setRadius`).
    private(set) var radius = 0.0
    private(set) var maxStep = Double.pi / 2
    let tolerance: Double

    /// Most segments any one arc becomes, so absurd radii cannot make huge pieces.
    static let maxArcSegments = 1024

    init(tolerance: Double) {
        self.tolerance = tolerance
        scratch.reserveCapacity(64)
    }

    /// Sets the radius later arcs use and the chord angle that keeps an inscribed polygon
    /// within `tolerance` of the circle: r·(1 − cos(δ/2)) ≤ tolerance.
    mutating func setRadius(_ r: Double) {
        radius = r
        if r <= tolerance {
            maxStep = Double.pi / 2
        } else {
            maxStep = Swift.max(2 * acosApprox(1 - tolerance / r), 1e-9)
        }
    }

    /// Segments for an arc of `angle` radians at the current radius.
    func arcSegments(_ angle: Double) -> Int { ConvexPieces.arcSegments(angle, maxStep: maxStep) }

    /// Segments for an arc of `angle` radians with chords of at most `maxStep` radians.
    static func arcSegments(_ angle: Double, maxStep: Double) -> Int {
        let n = (Swift.abs(angle) / maxStep).rounded(.up)
        if !(n >= 1) { return 1 }
        return Int(Swift.min(n, Double(ConvexPieces.maxArcSegments)))
    }

    /// Appends to `scratch` the points `center + start` rotated by `angle·k/n` for k = 0…n
    /// (positive angles turn clockwise on a y-down page). When given, `end` replaces the last
    /// point, so the arc meets a neighbouring piece's corner exactly (no hairline seam).
    mutating func appendArc(center: Point, start: Point, angle: Double, minSegments: Int = 1, end: Point? = nil) {
        let n = Swift.max(arcSegments(angle), minSegments)
        let step = angle / Double(n)
        let c = cosPrecise(step), s = sinPrecise(step)
        var v = start
        scratch.append(center + v)
        for _ in 0..<n {
            v = Point(v.x * c - v.y * s, v.x * s + v.y * c)
            scratch.append(center + v)
        }
        if let end { scratch[scratch.count - 1] = end }
    }

    /// Emits a full circle polygon at the current radius.
    mutating func emitDisc(_ center: Point) {
        scratch.removeAll(keepingCapacity: true)
        let n = Swift.max(arcSegments(2 * Double.pi), 8)
        let step = 2 * Double.pi / Double(n)
        let c = cosPrecise(step), s = sinPrecise(step)
        var v = Point(radius, 0)
        for _ in 0..<n {
            scratch.append(center + v)
            v = Point(v.x * c - v.y * s, v.x * s + v.y * c)
        }
        emit()
    }

    /// Emits the polygon in `scratch` as one closed contour with positive signed area, then
    /// clears `scratch`.
    mutating func emit() {
        defer { scratch.removeAll(keepingCapacity: true) }
        guard scratch.count >= 3 else { return }
        let area = Contour.signedArea(of: scratch)
        // Drop slivers whose area is rounding noise (a bevel across a U-turn, say): their
        // sign could flip under any re-evaluation.
        var extent = 0.0
        for p in scratch { extent = Swift.max(extent, (p - scratch[0]).lengthSquared) }
        guard area.isFinite, Swift.abs(area) > extent * 1e-12 else { return }
        for p in scratch where !p.isFinite { return }
        if area > 0 {
            path.move(to: scratch[0])
            for i in 1..<scratch.count { path.line(to: scratch[i]) }
        } else {
            path.move(to: scratch[scratch.count - 1])
            for i in stride(from: scratch.count - 2, through: 0, by: -1) { path.line(to: scratch[i]) }
        }
        path.close()
    }
}

/// acos clamped to its domain.
@inline(__always) func acosApprox(_ x: Double) -> Double {
    acosPrecise(Swift.min(1, Swift.max(-1, x)))
}
