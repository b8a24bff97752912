// Device-space polylines in flat storage: the rasterizer's input. Paths are transformed and
// flattened in one pass (curves split uniformly, with the segment count from Wang's formula,
// as `Path.flattened` does), without building an array per subpath, because the stroker hands
// over thousands of tiny convex pieces per stroke.

import TechoGeometry

/// Closed polylines in device pixels, with their bounds.
///
/// ## Guarantees
/// Every coordinate is finite (a path with a non-finite point or transform gives no
/// polylines); `ends` is increasing and its last value is `xs.count`.
struct Polylines {
    /// Vertex coordinates, all polylines back to back.
    var xs: [Double] = [], ys: [Double] = []
    /// The end (exclusive) of each polyline in `xs` / `ys`.
    var ends: [Int] = []
    var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity

    init() {}

    /// The most segments one curve may become.
    static let maxSegmentsPerCurve = 4096

    /// `path` mapped by `transform` and flattened to within `tolerance` device pixels.
    init(_ path: Path, transform t: Transform, tolerance: Double) {
        guard t.isFinite else { return }
        let tol = tolerance > 0 && tolerance.isFinite ? tolerance : rasterTolerance
        xs.reserveCapacity(path.elements.count + 8)
        ys.reserveCapacity(path.elements.count + 8)
        let identity = t.isIdentity
        @inline(__always) func map(_ p: Point) -> Point { identity ? p : t.apply(p) }
        var last = Point.zero
        var start = 0
        var finite = true
        func add(_ p: Point) {
            if !(p.x.isFinite && p.y.isFinite) { finite = false }
            xs.append(p.x); ys.append(p.y)
            if p.x < minX { minX = p.x }
            if p.x > maxX { maxX = p.x }
            if p.y < minY { minY = p.y }
            if p.y > maxY { maxY = p.y }
        }
        func closeContour() {
            if xs.count - start >= 2 {
                ends.append(xs.count)
            } else {
                xs.removeSubrange(start...); ys.removeSubrange(start...)
            }
            start = xs.count
        }
        for e in path.elements {
            switch e {
            case .move(let p):
                closeContour()
                last = map(p); add(last)
            case .line(let p):
                last = map(p); add(last)
            case .quad(let c0, let p0):
                let c = map(c0), p = map(p0)
                let n = Polylines.segments((last - c * 2 + p).length, factor: 0.25, tol)
                for i in 1..<n {
                    let s = Double(i) / Double(n), u = 1 - s
                    add(Point(u * u * last.x + 2 * u * s * c.x + s * s * p.x, u * u * last.y + 2 * u * s * c.y + s * s * p.y))
                }
                add(p); last = p
            case .cubic(let c10, let c20, let p0):
                let c1 = map(c10), c2 = map(c20), p = map(p0)
                let dd = max((last - c1 * 2 + c2).length, (c1 - c2 * 2 + p).length)
                let n = Polylines.segments(dd, factor: 0.75, tol)
                for i in 1..<n {
                    let s = Double(i) / Double(n), u = 1 - s
                    let a = u * u * u, b = 3 * u * u * s, cc = 3 * u * s * s, d = s * s * s
                    add(Point(a * last.x + b * c1.x + cc * c2.x + d * p.x, a * last.y + b * c1.y + cc * c2.y + d * p.y))
                }
                add(p); last = p
            case .close:
                // The rasterizer closes every polyline; `Path` always starts a new subpath with
                // a move after a close.
                if start < xs.count { last = Point(xs[start], ys[start]) }
                closeContour()
            }
            if !finite { self = Polylines(); return }
        }
        closeContour()
    }

    /// Polylines already in device space.
    init(_ contours: [Contour]) {
        for c in contours where c.points.count >= 2 {
            for p in c.points {
                guard p.x.isFinite && p.y.isFinite else { self = Polylines(); return }
                xs.append(p.x); ys.append(p.y)
                minX = min(minX, p.x); maxX = max(maxX, p.x)
                minY = min(minY, p.y); maxY = max(maxY, p.y)
            }
            ends.append(xs.count)
        }
    }

    /// Uniform segments for a curve whose largest second difference is `dd`: the chord error
    /// over a parameter step h is at most factor · dd · h².
    static func segments(_ dd: Double, factor: Double, _ tol: Double) -> Int {
        guard dd.isFinite else { return 1 }
        let n = (factor * dd / tol).squareRoot().rounded(.up)
        if !(n >= 1) { return 1 }
        return Int(min(n, Double(maxSegmentsPerCurve)))
    }

    var isEmpty: Bool { ends.isEmpty }
}
