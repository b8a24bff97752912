// Curve flattening: Béziers become polylines whose distance from the true curve stays under a
// tolerance. The segment count comes from the curve's second differences (the bound used by
// Wang's formula, as in tiny-skia / Skia's edge builders), so it is fixed per curve and never
// recursive: a hostile curve cannot make it loop.

extension Path {
    /// Default flattening tolerance in device pixels: a quarter of a pixel's distance from the
    /// true curve is invisible at any export scale, since callers flatten after transforming.
    public static let defaultTolerance = 0.1

    /// The subpaths as polylines, each curve split so no point strays more than `tolerance`
    /// from the true curve. Flatten in device space (after the transform) so facets stay
    /// invisible at any scale.
    ///
    /// - Complexity: O(number of output points); at most `maxSegmentsPerCurve` per curve, and
    ///   past `maxFlattenedPoints` in all the tolerance is coarsened for the whole path.
    public func flattened(tolerance: Double = Path.defaultTolerance) -> [Contour] {
        let tol = budgetedTolerance(tolerance > 0 && tolerance.isFinite ? tolerance : Path.defaultTolerance)
        var contours: [Contour] = []
        var pts: [Point] = []
        var last = Point.zero
        func flush(closed: Bool) {
            if !pts.isEmpty { contours.append(Contour(points: pts, isClosed: closed)) }
            pts = []
        }
        for e in elements {
            switch e {
            case .move(let p):
                flush(closed: false)
                pts.append(p)
                last = p
            case .line(let p):
                pts.append(p)
                last = p
            case .quad(let c, let p):
                let n = Path.segmentCount(p0: last, p1: c, p2: p, p3: nil, tolerance: tol)
                for i in 1...n {
                    let t = Double(i) / Double(n), u = 1 - t
                    pts.append(
                        Point(
                            u * u * last.x + 2 * u * t * c.x + t * t * p.x,
                            u * u * last.y + 2 * u * t * c.y + t * t * p.y))
                }
                pts[pts.count - 1] = p
                last = p
            case .cubic(let c1, let c2, let p):
                let n = Path.segmentCount(p0: last, p1: c1, p2: c2, p3: p, tolerance: tol)
                for i in 1...n {
                    let t = Double(i) / Double(n), u = 1 - t
                    let a = u * u * u, b = 3 * u * u * t, cc = 3 * u * t * t, d = t * t * t
                    pts.append(
                        Point(
                            a * last.x + b * c1.x + cc * c2.x + d * p.x,
                            a * last.y + b * c1.y + cc * c2.y + d * p.y))
                }
                pts[pts.count - 1] = p
                last = p
            case .close:
                if let first = pts.first {
                    if pts.count > 1, pts[pts.count - 1] == first { pts.removeLast() }
                    flush(closed: true)
                    last = first
                }
            }
        }
        flush(closed: false)
        return contours
    }

    /// The most segments one curve may become; bounds work on absurd coordinates.
    public static let maxSegmentsPerCurve = 4096

    /// The most points `flattened` produces for one path when the tolerance allows it: past
    /// this the tolerance is coarsened for the whole path (never below one segment per
    /// element), so a huge or hostile path cannot exhaust memory.
    public static let maxFlattenedPoints = 1 << 22

    /// `tolerance`, or a coarser one if flattening at `tolerance` would make more than
    /// `maxPoints` points. Segment counts go as 1/√tolerance, so scaling the tolerance by k²
    /// divides each curve's count by about k (plus one for rounding up).
    func budgetedTolerance(_ tolerance: Double, maxPoints: Int = Path.maxFlattenedPoints) -> Double {
        var fixed = 0, curves = 0, counted = 0
        var curvePoints = 0.0  // uncapped, so the scaling below is proportional
        var last = Point.zero, start = Point.zero
        for e in elements {
            switch e {
            case .move(let p): fixed += 1; last = p; start = p
            case .line(let p): fixed += 1; last = p
            case .quad(let c, let p):
                curves += 1
                counted += Path.segmentCount(p0: last, p1: c, p2: p, p3: nil, tolerance: tolerance)
                curvePoints += Path.rawSegmentCount(p0: last, p1: c, p2: p, p3: nil, tolerance: tolerance)
                last = p
            case .cubic(let c1, let c2, let p):
                curves += 1
                counted += Path.segmentCount(p0: last, p1: c1, p2: c2, p3: p, tolerance: tolerance)
                curvePoints += Path.rawSegmentCount(p0: last, p1: c1, p2: c2, p3: p, tolerance: tolerance)
                last = p
            case .close: last = start
            }
        }
        guard fixed + counted > maxPoints, counted > curves else { return tolerance }
        // After scaling, each curve makes at most ⌈raw/k⌉ ≤ raw/k + 1 segments.
        let room = maxPoints - fixed - curves
        guard room > 0 else { return Double.greatestFiniteMagnitude }
        let k = Swift.max(1, curvePoints / Double(room))
        let t = tolerance * k * k
        return t.isFinite ? t : Double.greatestFiniteMagnitude
    }

    /// Segments needed so a uniform split stays within `tolerance`: for a degree-n Bézier the
    /// error of a chord over parameter step h is at most n(n-1)/8 · max|second difference| · h².
    static func segmentCount(p0: Point, p1: Point, p2: Point, p3: Point?, tolerance: Double) -> Int {
        let n = rawSegmentCount(p0: p0, p1: p1, p2: p2, p3: p3, tolerance: tolerance).rounded(.up)
        if !(n >= 1) { return 1 }
        return Int(min(n, Double(maxSegmentsPerCurve)))
    }

    /// The segment count before rounding and capping (0 for a straight or non-finite curve).
    static func rawSegmentCount(p0: Point, p1: Point, p2: Point, p3: Point?, tolerance: Double) -> Double {
        let dd: Double
        let factor: Double
        if let p3 {
            let d1 = p0 - p1 * 2 + p2, d2 = p1 - p2 * 2 + p3
            dd = max(d1.length, d2.length)
            factor = 6.0 / 8.0  // n(n-1)/8 with n = 3
        } else {
            dd = (p0 - p1 * 2 + p2).length
            factor = 2.0 / 8.0  // n = 2
        }
        guard dd.isFinite else { return 0 }
        let n = (factor * dd / tolerance).squareRoot()
        return n.isFinite ? n : 0
    }
}
