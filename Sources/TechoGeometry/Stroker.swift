// Stroking: the region a pen of some width covers along a path, as a path to fill with the
// nonzero rule. The cap, join and miter-limit rules follow Skia's SkStroke.cpp and the SVG 2
// stroke-shape definition; the construction is our own, simpler one: rather than tracing an
// offset outline on each side (which folds over itself on tight curves and needs a union pass),
// every segment, join and cap becomes its own small convex polygon, turned to positive
// orientation. Under the nonzero rule overlapping pieces add up and never cancel, so the fill
// is exactly the union: a stroke that crosses itself is covered once, with no holes.

/// Turns paths into stroke outlines. See `Path.stroked(_:tolerance:)`.
///
/// ## Guarantees
/// Every contour of the result is closed, convex and has positive signed area (clockwise on a
/// y-down page); every coordinate is finite. Work is linear in the flattened input size.
public struct Stroker: Sendable {
    /// The pen. Default: `StrokeStyle()` (width 1, round caps and joins).
    public var style: StrokeStyle
    /// Largest distance of the flattened curves and arcs from the true ones, in path units.
    /// Stroke in device space so this is in device pixels. Default `Path.defaultTolerance`.
    public var tolerance: Double

    public init(style: StrokeStyle = StrokeStyle(), tolerance: Double = Path.defaultTolerance) {
        self.style = style
        self.tolerance = tolerance
    }

    /// The outline of `path` stroked with `style`, dashed first when `style.dash` is set.
    public func stroke(_ path: Path) -> Path {
        let width = style.width
        guard width > 0, width.isFinite else { return Path() }
        let tol = tolerance > 0 && tolerance.isFinite ? tolerance : Path.defaultTolerance
        let source = style.dash.isEmpty ? path : path.dashed(pattern: style.dash, phase: style.dashOffset, tolerance: tol)
        var pieces = ConvexPieces(tolerance: tol)
        pieces.setRadius(width / 2)
        var pts: [Point] = []
        var buffers = Buffers()
        let contours = source.flattened(tolerance: tol)
        // Each vertex becomes a quad (5 elements) and a join (4 or more); reserving up front
        // avoids regrowing a large path several times.
        pieces.path.reserveCapacity(Swift.min(1 << 22, contours.reduce(0) { $0 + 10 * $1.points.count + 12 }))
        for contour in contours {
            cleaned(contour, into: &pts)
            strokeContour(pts, closed: contour.isClosed, buffers: &buffers, pieces: &pieces)
        }
        return pieces.path
    }

    /// Copies the finite points of `c`, dropping repeats (and, for a closed contour, a last
    /// point equal to the first).
    private func cleaned(_ c: Contour, into pts: inout [Point]) {
        pts.removeAll(keepingCapacity: true)
        for p in c.points where p.isFinite {
            if let last = pts.last, last == p { continue }
            pts.append(p)
        }
        if c.isClosed, pts.count > 1, pts[pts.count - 1] == pts[0] { pts.removeLast() }
    }

    /// Scratch arrays reused from contour to contour.
    struct Buffers {
        var dirs: [Point] = []
        var lengths: [Double] = []
        var inner: [InnerCorner?] = []
    }

    private func strokeContour(_ pts: [Point], closed: Bool, buffers: inout Buffers, pieces: inout ConvexPieces) {
        let r = pieces.radius
        guard let first = pts.first else { return }
        if pts.count == 1 {
            dot(at: first, pieces: &pieces)
            return
        }
        // Unit direction and length of each segment; a closed contour has one more (back to
        // the start).
        let segCount = closed ? pts.count : pts.count - 1
        var dirs: [Point] = [], lengths: [Double] = [], inner: [InnerCorner?] = []
        swap(&dirs, &buffers.dirs)
        swap(&lengths, &buffers.lengths)
        swap(&inner, &buffers.inner)
        defer {
            swap(&dirs, &buffers.dirs)
            swap(&lengths, &buffers.lengths)
            swap(&inner, &buffers.inner)
        }
        dirs.removeAll(keepingCapacity: true)
        lengths.removeAll(keepingCapacity: true)
        for i in 0..<segCount {
            let a = pts[i], b = pts[(i + 1) % pts.count]
            var d = (b - a).normalized
            if !d.isFinite || d == .zero {
                // The difference overflowed: fall back to a scaled difference.
                d = ((b * 0.5) - (a * 0.5)).normalized
            }
            dirs.append(d)
            lengths.append(a.distance(to: b))
        }
        // Inner corners: where the inner offset lines of two segments meet, so the two quads
        // can end there and tile the join without overlapping (overlap along the outline
        // would count its antialiasing twice). Only where the cut stays within half of each
        // segment; elsewhere the quads simply overlap, which the nonzero fill absorbs.
        inner.removeAll(keepingCapacity: true)
        for v in 0..<pts.count {
            guard closed || (v > 0 && v < pts.count - 1) else { inner.append(nil); continue }
            let inIndex = (v + segCount - 1) % segCount
            inner.append(
                Stroker.innerCorner(
                    at: pts[v], incoming: dirs[inIndex], outgoing: dirs[v % segCount],
                    lengths: lengths[inIndex], lengths[v % segCount], radius: r))
        }
        for i in 0..<segCount {
            let ia = i, ib = (i + 1) % pts.count
            let a = pts[ia], b = pts[ib]
            let n = dirs[i].perpendicular * r
            // The corners in order a+n, b+n, b−n, a−n, with an inner corner replacing one
            // corner at each end by two points (see `InnerCorner`).
            let start = inner[ia], end = inner[ib]
            if let s = start, s.sign > 0 {
                pieces.scratch.append(a)
                pieces.scratch.append(s.point)
            } else {
                pieces.scratch.append(a + n)
            }
            if let e = end, e.sign > 0 {
                pieces.scratch.append(e.point)
                pieces.scratch.append(b)
            } else {
                pieces.scratch.append(b + n)
            }
            if let e = end, e.sign < 0 {
                pieces.scratch.append(b)
                pieces.scratch.append(e.point)
            } else {
                pieces.scratch.append(b - n)
            }
            if let s = start, s.sign < 0 {
                pieces.scratch.append(s.point)
                pieces.scratch.append(a)
            } else {
                pieces.scratch.append(a - n)
            }
            pieces.emit()
        }
        if closed {
            for i in 0..<segCount {
                join(at: pts[i], incoming: dirs[(i + segCount - 1) % segCount], outgoing: dirs[i], pieces: &pieces)
            }
        } else {
            for i in 1..<segCount {
                join(at: pts[i], incoming: dirs[i - 1], outgoing: dirs[i], pieces: &pieces)
            }
            cap(at: pts[0], outward: -dirs[0], pieces: &pieces)
            cap(at: pts[pts.count - 1], outward: dirs[segCount - 1], pieces: &pieces)
        }
    }

    /// Where the inner offset lines of two segments meet at a vertex: `point`, on the side
    /// `sign` (±1) of each segment's `perpendicular`.
    struct InnerCorner {
        var point: Point
        var sign: Double
    }

    /// The inner corner at `v`, or nil for a straight, very sharp (over 120°) or short join.
    static func innerCorner(
        at v: Point, incoming d1: Point, outgoing d2: Point, lengths l1: Double, _ l2: Double,
        radius r: Double
    ) -> InnerCorner? {
        let cross = d1.cross(d2), dot = d1.dot(d2)
        guard cross != 0, dot > -0.5 else { return nil }
        // The offset lines meet r·tan(φ/2) back from the vertex along each segment.
        let cut = r * ((1 - dot) / (1 + dot)).squareRoot()
        guard cut.isFinite, cut <= 0.5 * Swift.min(l1, l2) else { return nil }
        // The outer side is −perpendicular for a clockwise turn (see `join`), so the inner
        // side is +perpendicular then.
        let sign: Double = cross > 0 ? 1 : -1
        let p = v + d1.perpendicular * (sign * r) - d1 * cut
        return p.isFinite ? InnerCorner(point: p, sign: sign) : nil
    }

    /// A zero-length subpath: a disc for round caps, an axis-aligned square for square caps,
    /// nothing for butt caps.
    private func dot(at p: Point, pieces: inout ConvexPieces) {
        let r = pieces.radius
        switch style.cap {
        case .butt:
            return
        case .round:
            pieces.emitDisc(p)
        case .square:
            pieces.scratch.append(Point(p.x - r, p.y - r))
            pieces.scratch.append(Point(p.x + r, p.y - r))
            pieces.scratch.append(Point(p.x + r, p.y + r))
            pieces.scratch.append(Point(p.x - r, p.y + r))
            pieces.emit()
        }
    }

    /// The cap at an open end `p`, where `outward` points away from the stroke.
    private func cap(at p: Point, outward d: Point, pieces: inout ConvexPieces) {
        let r = pieces.radius
        let n = d.perpendicular * r
        switch style.cap {
        case .butt:
            return
        case .square:
            let e = d * r
            pieces.scratch.append(p + n)
            pieces.scratch.append(p + n + e)
            pieces.scratch.append(p - n + e)
            pieces.scratch.append(p - n)
            pieces.emit()
        case .round:
            // Half disc from −n through `outward` to +n.
            pieces.appendArc(center: p, start: -n, angle: Double.pi, minSegments: 4, end: p + n)
            pieces.emit()
        }
    }

    /// The join at vertex `v` between unit directions `d1` (arriving) and `d2` (leaving): a
    /// piece on the outer side of the turn only, since the two segment quads already overlap
    /// on the inner side.
    private func join(at v: Point, incoming d1: Point, outgoing d2: Point, pieces: inout ConvexPieces) {
        let cross = d1.cross(d2), dot = d1.dot(d2)
        if cross == 0 && dot > 0 { return }  // straight on: the quads meet exactly
        let r = pieces.radius
        // A clockwise turn (cross > 0) opens a gap on the left, −normal side.
        let side: Double = cross > 0 ? -1 : 1
        let n1 = d1.perpendicular * (side * r), n2 = d2.perpendicular * (side * r)
        switch style.join {
        case .bevel:
            bevel(v, n1, n2, pieces: &pieces)
        case .miter:
            // SVG: miter length / width = 1 / sin(θ/2), θ the angle between the segments;
            // sin(θ/2) = cos(turn/2) = √((1 + d1·d2) / 2).
            let sinHalf = ((1 + dot) / 2).squareRoot()
            let limit = Swift.max(1, style.miterLimit.isNaN ? 1 : style.miterLimit)
            let bisector = (n1 + n2).normalized
            if sinHalf * limit >= 1, sinHalf > 0, bisector != .zero {
                let tip = v + bisector * (r / sinHalf)
                pieces.scratch.append(v)
                pieces.scratch.append(v + n1)
                pieces.scratch.append(tip)
                pieces.scratch.append(v + n2)
                pieces.emit()
            } else {
                bevel(v, n1, n2, pieces: &pieces)
            }
        case .round:
            // Rotating d1 onto d2 also rotates n1 onto n2, sweeping the outer side.
            let turn = atan2Precise(cross, dot)
            pieces.scratch.append(v)
            pieces.appendArc(center: v, start: n1, angle: turn, end: v + n2)
            pieces.emit()
        }
    }

    private func bevel(_ v: Point, _ n1: Point, _ n2: Point, pieces: inout ConvexPieces) {
        pieces.scratch.append(v)
        pieces.scratch.append(v + n1)
        pieces.scratch.append(v + n2)
        pieces.emit()
    }
}

extension Path {
    /// The region a pen described by `style` covers along this path, as a path whose nonzero
    /// fill is exactly the stroke (dashed first when `style.dash` is non-empty).
    ///
    /// Curves, round joins and round caps are flattened to within `tolerance`, so stroke in
    /// device space (transform the path first). Closed subpaths get a join where they close
    /// and no caps. A subpath whose points all coincide (including a lone move) is a dot: a
    /// disc for round caps, a square for square caps, nothing for butt caps. Non-finite
    /// points are skipped; a width that is not positive and finite gives an empty path.
    ///
    /// - Complexity: O(flattened points + arc points).
    public func stroked(_ style: StrokeStyle, tolerance: Double = Path.defaultTolerance) -> Path {
        Stroker(style: style, tolerance: tolerance).stroke(self)
    }
}

extension Path {
    /// The stroke of this path drawn under `transform`, in device space: the pen is applied in
    /// the path's own space (so a non-uniform scale makes the pen elliptical, as in SVG and
    /// cairo), flattened so the device-space error stays under `tolerance`, then transformed.
    /// A mirroring transform would flip every piece's orientation, so the pieces are reversed
    /// to keep them positive. A singular or non-finite transform gives an empty path.
    public func stroked(_ style: StrokeStyle, transform: Transform, tolerance: Double = Path.defaultTolerance) -> Path {
        guard transform.isInvertible else { return Path() }
        let scale = transform.maxScale
        let tol = tolerance > 0 && tolerance.isFinite ? tolerance : Path.defaultTolerance
        let outline = stroked(style, tolerance: tol / scale).applying(transform)
        return transform.determinant < 0 ? outline.reversed() : outline
    }
}
