// Test oracles: a scanline measure of a path's nonzero-filled area and winding numbers, and a
// seeded random generator. Slow and obvious on purpose.

@testable import TechoGeometry

/// What a nonzero fill of a path covers, measured along horizontal scanlines.
struct ScanMeasure {
    /// Area where the winding number is not zero (midpoint rule over rows, exact along x).
    var area = 0.0
    /// Smallest and largest winding number seen in any covered span; positively oriented
    /// contours (clockwise on a y-down page) wind +1.
    var minWinding = 0
    var maxWinding = 0

    /// Measures `path` with `rows` scanlines across its bounds.
    init(_ path: Path, rows: Int = 2000, tolerance: Double = 0.001) {
        let contours = path.flattened(tolerance: tolerance)
        var edges: [(Point, Point)] = []
        for c in contours where c.points.count >= 2 {
            for i in 0..<c.points.count {
                edges.append((c.points[i], c.points[(i + 1) % c.points.count]))
            }
        }
        let b = path.controlBounds
        guard !b.isNull, b.height > 0 else { return }
        let h = b.height / Double(rows)
        var xs: [(Double, Int)] = []
        for row in 0..<rows {
            let y = b.minY + (Double(row) + 0.5) * h
            xs.removeAll(keepingCapacity: true)
            for (p, q) in edges {
                let (lo, hi, dir) = p.y < q.y ? (p, q, 1) : (q, p, -1)
                guard lo.y <= y, y < hi.y else { continue }
                let t = (y - lo.y) / (hi.y - lo.y)
                xs.append((lo.x + (hi.x - lo.x) * t, dir))
            }
            xs.sort { $0.0 < $1.0 }
            var w = 0
            for i in 0..<xs.count {
                w -= xs[i].1
                if w != 0, i + 1 < xs.count {
                    let span = xs[i + 1].0 - xs[i].0
                    area += span * h
                    // Shared edges cross a row at the same x; an empty span is no overlap.
                    if span > 1e-9 {
                        minWinding = Swift.min(minWinding, w)
                        maxWinding = Swift.max(maxWinding, w)
                    }
                }
            }
        }
    }

    /// The winding number at `p` (ray cast to the right); positive contours wind +1.
    static func winding(of path: Path, at p: Point) -> Int {
        var w = 0
        for c in path.flattened(tolerance: 0.001) where c.points.count >= 2 {
            for i in 0..<c.points.count {
                let a = c.points[i], b = c.points[(i + 1) % c.points.count]
                let (lo, hi, dir) = a.y < b.y ? (a, b, 1) : (b, a, -1)
                guard lo.y <= p.y, p.y < hi.y else { continue }
                let x = lo.x + (hi.x - lo.x) * (p.y - lo.y) / (hi.y - lo.y)
                if x > p.x { w += dir }
            }
        }
        return w
    }
}

/// The contours of a path with `close` (no flattening needed for line-only paths).
func contours(_ p: Path) -> [Contour] { p.flattened(tolerance: 0.01) }

func approx(_ a: Double, _ b: Double, _ eps: Double = 1e-9) -> Bool { Swift.abs(a - b) <= eps }

/// Winding numbers of a path at every point of a grid, one scanline per row (positive contours
/// wind +1).
func windingGrid(_ path: Path, xs: [Double], ys: [Double]) -> [[Int]] {
    var edges: [(Point, Point)] = []
    for c in path.flattened(tolerance: 0.001) where c.points.count >= 2 {
        for i in 0..<c.points.count { edges.append((c.points[i], c.points[(i + 1) % c.points.count])) }
    }
    var out: [[Int]] = []
    var cross: [(Double, Int)] = []
    for y in ys {
        cross.removeAll(keepingCapacity: true)
        for (a, b) in edges {
            let (lo, hi, dir) = a.y < b.y ? (a, b, 1) : (b, a, -1)
            guard lo.y <= y, y < hi.y else { continue }
            cross.append((lo.x + (hi.x - lo.x) * (y - lo.y) / (hi.y - lo.y), dir))
        }
        cross.sort { $0.0 < $1.0 }
        // Winding at x counts crossings to the right, as `ScanMeasure.winding(of:at:)`.
        var row: [Int] = []
        var total = cross.reduce(0) { $0 + $1.1 }
        var j = 0
        for x in xs {
            while j < cross.count, cross[j].0 <= x { total -= cross[j].1; j += 1 }
            row.append(total)
        }
        out.append(row)
    }
    return out
}

/// Signed distance from `p` to the convex hull of discs (c1, r1), (c2, r2): the minimum over
/// t of |p − c(t)| − r(t), a convex function of t, by ternary search.
func hullDistance(_ p: Point, _ c1: Point, _ r1: Double, _ c2: Point, _ r2: Double) -> Double {
    func f(_ t: Double) -> Double { p.distance(to: c1.lerp(c2, t)) - (r1 + (r2 - r1) * t) }
    var lo = 0.0, hi = 1.0
    for _ in 0..<50 {
        let m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3
        if f(m1) < f(m2) { hi = m2 } else { lo = m1 }
    }
    return Swift.min(f(0), f(1), f((lo + hi) / 2))
}
