// Tight bounds of a path: end points plus the curve extrema, found where each coordinate's
// derivative vanishes (a linear equation for quadratics, a quadratic one for cubics).

extension Path {
    /// The smallest rectangle containing every point of the path, curves included (tighter
    /// than `controlBounds`, whose control points may lie outside the curve). `.null` for an
    /// empty path. Non-finite coordinates make a non-finite rect.
    ///
    /// - Complexity: O(elements).
    public var bounds: Rect {
        var lo = Point(Double.infinity, Double.infinity), hi = Point(-Double.infinity, -Double.infinity)
        var any = false
        func add(_ p: Point) {
            any = true
            lo.x = Swift.min(lo.x, p.x); lo.y = Swift.min(lo.y, p.y)
            hi.x = Swift.max(hi.x, p.x); hi.y = Swift.max(hi.y, p.y)
            if p.x.isNaN || p.y.isNaN { lo = Point(.nan, .nan) }
        }
        var last = Point.zero
        for e in elements {
            switch e {
            case .move(let p), .line(let p):
                add(p)
                last = p
            case .quad(let c, let p):
                add(p)
                for t in Path.quadExtrema(last.x, c.x, p.x) + Path.quadExtrema(last.y, c.y, p.y) {
                    let u = 1 - t
                    add(last * (u * u) + c * (2 * u * t) + p * (t * t))
                }
                last = p
            case .cubic(let c1, let c2, let p):
                add(p)
                for t in Path.cubicExtrema(last.x, c1.x, c2.x, p.x) + Path.cubicExtrema(last.y, c1.y, c2.y, p.y) {
                    let u = 1 - t
                    add(last * (u * u * u) + c1 * (3 * u * u * t) + c2 * (3 * u * t * t) + p * (t * t * t))
                }
                last = p
            case .close:
                break
            }
        }
        guard any else { return .null }
        if lo.x.isNaN { return Rect(x: .nan, y: .nan, width: .nan, height: .nan) }
        return Rect(minX: lo.x, minY: lo.y, maxX: hi.x, maxY: hi.y)
    }

    /// Parameters in (0, 1) where a quadratic's coordinate has zero derivative.
    static func quadExtrema(_ a: Double, _ b: Double, _ c: Double) -> [Double] {
        let den = a - 2 * b + c
        guard den != 0 else { return [] }
        let t = (a - b) / den
        return t > 0 && t < 1 ? [t] : []
    }

    /// Parameters in (0, 1) where a cubic's coordinate has zero derivative: the roots of
    /// A t² + B t + C with A = −a + 3b − 3c + d, B = 2(a − 2b + c), C = b − a.
    static func cubicExtrema(_ a: Double, _ b: Double, _ c: Double, _ d: Double) -> [Double] {
        let qa = -a + 3 * b - 3 * c + d, qb = 2 * (a - 2 * b + c), qc = b - a
        var roots: [Double] = []
        let scale = Swift.max(Swift.abs(qa), Swift.abs(qb), Swift.abs(qc))
        guard scale > 0, scale.isFinite else { return roots }
        if Swift.abs(qa) <= scale * 1e-12 {
            if qb != 0 { roots.append(-qc / qb) }
        } else {
            let disc = qb * qb - 4 * qa * qc
            if disc >= 0 {
                // The numerically stable pair of roots.
                let q = -0.5 * (qb + (qb < 0 ? -1 : 1) * disc.squareRoot())
                if q != 0 { roots.append(qc / q) }
                roots.append(q / qa)
            }
        }
        return roots.filter { $0 > 0 && $0 < 1 }
    }
}
