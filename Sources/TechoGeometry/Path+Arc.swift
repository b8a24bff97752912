// Circular and elliptical arcs as cubic Béziers: each piece spans at most 90° and uses the
// control distance 4/3·tan(Δ/4) of the unit circle (the standard construction, as in cairo and
// Skia); the SVG endpoint-to-centre conversion follows the SVG 1.1 implementation notes F.6.

extension Path {
    /// Appends a circular arc about `center`, as cubic pieces of at most 90°.
    ///
    /// Angles are in radians from the +x axis towards +y, which is clockwise on a y-down page.
    /// With `clockwise` true the arc sweeps increasing angles from `startAngle` to `endAngle`
    /// (adding whole turns to `endAngle` as needed, as cairo's `arc` does); otherwise it
    /// sweeps decreasing angles. A sweep of a full turn or more draws one full circle. The arc
    /// starts with a line from the current point (or a move when no subpath is open). Non-finite
    /// arguments or a negative radius append nothing.
    public mutating func arc(center: Point, radius: Double, startAngle: Double, endAngle: Double, clockwise: Bool) {
        guard center.isFinite, radius.isFinite, radius >= 0, startAngle.isFinite, endAngle.isFinite else { return }
        var sweep = endAngle - startAngle
        let turn = 2 * Double.pi
        if clockwise {
            if sweep >= turn {
                sweep = turn
            } else if sweep < 0 {
                sweep = sweep.truncatingRemainder(dividingBy: turn)
                if sweep < 0 { sweep += turn }
            }
        } else {
            if sweep <= -turn {
                sweep = -turn
            } else if sweep > 0 {
                sweep = sweep.truncatingRemainder(dividingBy: turn)
                if sweep > 0 { sweep -= turn }
            }
        }
        let start = Point(center.x + radius * cosPrecise(startAngle), center.y + radius * sinPrecise(startAngle))
        if hasCurrentSubpath { line(to: start) } else { move(to: start) }
        appendArcCubics(center: center, rx: radius, ry: radius, rotation: 0, startAngle: startAngle, sweep: sweep, end: nil)
    }

    /// Appends an SVG elliptical arc from the current point to `end` (the `A` command), per
    /// the SVG implementation notes: radii are made positive and scaled up when too small to
    /// reach `end`; a zero radius gives a line; an `end` equal to the current point gives
    /// nothing. `rotation` is the x-axis rotation in degrees.
    public mutating func arc(to end: Point, radii: Point, rotation: Double, largeArc: Bool, sweep: Bool) {
        let p1 = currentPoint
        guard p1 != end else { return }
        var rx = Swift.abs(radii.x), ry = Swift.abs(radii.y)
        guard rx > 0, ry > 0, rx.isFinite, ry.isFinite, rotation.isFinite, end.isFinite, p1.isFinite else {
            line(to: end)
            return
        }
        let phi = rotation.truncatingRemainder(dividingBy: 360) * Double.pi / 180
        let cphi = cosPrecise(phi), sphi = sinPrecise(phi)
        // Step 1: the midpoint-relative start point in the ellipse's own axes.
        let dx = (p1.x - end.x) / 2, dy = (p1.y - end.y) / 2
        let x1 = cphi * dx + sphi * dy
        let y1 = -sphi * dx + cphi * dy
        // Radii too small to span the endpoints grow just enough.
        let lambda = (x1 * x1) / (rx * rx) + (y1 * y1) / (ry * ry)
        if lambda > 1 {
            let s = lambda.squareRoot()
            rx *= s
            ry *= s
        }
        // Step 2: the centre in the ellipse's axes.
        let rx2 = rx * rx, ry2 = ry * ry
        let num = rx2 * ry2 - rx2 * y1 * y1 - ry2 * x1 * x1
        let den = rx2 * y1 * y1 + ry2 * x1 * x1
        var coef = den > 0 ? Swift.max(0, num / den).squareRoot() : 0
        if largeArc == sweep { coef = -coef }
        let cxp = coef * rx * y1 / ry
        let cyp = -coef * ry * x1 / rx
        // Step 3: the centre in page space.
        let cx = cphi * cxp - sphi * cyp + (p1.x + end.x) / 2
        let cy = sphi * cxp + cphi * cyp + (p1.y + end.y) / 2
        // Step 4: start angle and sweep on the unit circle.
        let ux = (x1 - cxp) / rx, uy = (y1 - cyp) / ry
        let vx = (-x1 - cxp) / rx, vy = (-y1 - cyp) / ry
        let theta1 = atan2Precise(uy, ux)
        var delta = atan2Precise(ux * vy - uy * vx, ux * vx + uy * vy)
        if !sweep && delta > 0 { delta -= 2 * Double.pi }
        if sweep && delta < 0 { delta += 2 * Double.pi }
        guard cx.isFinite, cy.isFinite, delta.isFinite else {
            line(to: end)
            return
        }
        appendArcCubics(center: Point(cx, cy), rx: rx, ry: ry, rotation: phi, startAngle: theta1, sweep: delta, end: end)
    }

    /// Cubic pieces of ≤ 90° for the ellipse arc `center + R(rotation)·(rx cos θ, ry sin θ)`,
    /// θ from `startAngle` over `sweep`; the last point is exactly `end` when given.
    private mutating func appendArcCubics(
        center: Point, rx: Double, ry: Double, rotation: Double,
        startAngle: Double, sweep: Double, end: Point?
    ) {
        guard sweep != 0 else { return }
        let n = Swift.max(1, Int((Swift.abs(sweep) / (Double.pi / 2) - 1e-9).rounded(.up)))
        let step = sweep / Double(n)
        let k = 4.0 / 3.0 * tanPrecise(step / 4)
        let cr = cosPrecise(rotation), sr = sinPrecise(rotation)
        func map(_ x: Double, _ y: Double) -> Point {
            Point(center.x + cr * rx * x - sr * ry * y, center.y + sr * rx * x + cr * ry * y)
        }
        var a = startAngle
        var ca = cosPrecise(a), sa = sinPrecise(a)
        for i in 0..<n {
            let b = i == n - 1 ? startAngle + sweep : a + step
            let cb = cosPrecise(b), sb = sinPrecise(b)
            let c1 = map(ca - k * sa, sa + k * ca)
            let c2 = map(cb + k * sb, sb - k * cb)
            let p = i == n - 1 ? (end ?? map(cb, sb)) : map(cb, sb)
            cubic(to: p, control1: c1, control2: c2)
            a = b
            ca = cb
            sa = sb
        }
    }
}
