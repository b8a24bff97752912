// Vector paths: the geometry every fill and stroke starts from.

/// One command of a path. Coordinates are absolute.
public enum PathElement: Hashable, Sendable {
    case move(Point)
    case line(Point)
    /// Quadratic Bézier: control point, end point.
    case quad(Point, Point)
    /// Cubic Bézier: two control points, end point.
    case cubic(Point, Point, Point)
    /// Closes the current subpath with a straight line to its start.
    case close
}

/// A sequence of subpaths made of lines and Bézier curves.
///
/// Build with `move`, `line`, `quad`, `cubic`, `close` or the shape helpers. A drawing command
/// without a preceding `move` starts at the end of the previous subpath (or the origin), as in
/// SVG and cairo. Default: empty.
///
/// ## Guarantees
/// `elements` never holds a `.close` or curve before the first `.move`: the builders insert the
/// implicit move.
public struct Path: Hashable, Sendable {
    /// The commands, in order. Default: empty.
    public private(set) var elements: [PathElement] = []
    /// The current point: end of the last command. Default: the origin.
    public private(set) var currentPoint: Point = .zero
    private var subpathStart: Point = .zero
    /// Whether a subpath is open (a `move` since the last `close`). Default false.
    public private(set) var hasCurrentSubpath = false

    public init() {}

    public var isEmpty: Bool { elements.isEmpty }

    /// Reserves room for `n` elements, for builders that know their size.
    public mutating func reserveCapacity(_ n: Int) { elements.reserveCapacity(n) }

    public mutating func move(to p: Point) {
        elements.append(.move(p))
        currentPoint = p
        subpathStart = p
        hasCurrentSubpath = true
    }
    public mutating func line(to p: Point) {
        ensureSubpath()
        elements.append(.line(p))
        currentPoint = p
    }
    public mutating func quad(to p: Point, control c: Point) {
        ensureSubpath()
        elements.append(.quad(c, p))
        currentPoint = p
    }
    public mutating func cubic(to p: Point, control1 c1: Point, control2 c2: Point) {
        ensureSubpath()
        elements.append(.cubic(c1, c2, p))
        currentPoint = p
    }
    public mutating func close() {
        guard hasCurrentSubpath else { return }
        elements.append(.close)
        currentPoint = subpathStart
        hasCurrentSubpath = false
    }
    private mutating func ensureSubpath() {
        if !hasCurrentSubpath { move(to: currentPoint) }
    }

    /// Appends every subpath of `other`.
    public mutating func append(_ other: Path) {
        for e in other.elements {
            switch e {
            case .move(let p): move(to: p)
            case .line(let p): line(to: p)
            case .quad(let c, let p): quad(to: p, control: c)
            case .cubic(let c1, let c2, let p): cubic(to: p, control1: c1, control2: c2)
            case .close: close()
            }
        }
    }

    // MARK: Shapes

    /// A closed rectangle, clockwise on a y-down page.
    public static func rect(_ r: Rect) -> Path {
        var p = Path()
        p.move(to: Point(r.minX, r.minY))
        p.line(to: Point(r.maxX, r.minY))
        p.line(to: Point(r.maxX, r.maxY))
        p.line(to: Point(r.minX, r.maxY))
        p.close()
        return p
    }

    /// Cubic control-point factor for a quarter ellipse: 4/3·tan(π/8). Maximum radial error
    /// 2.7e-4 of the radius.
    public static let kappa = 0.5522847498307936

    /// A closed ellipse inscribed in `r`, as four cubic Béziers, clockwise on a y-down page.
    public static func ellipse(in r: Rect) -> Path {
        let cx = r.midX, cy = r.midY, rx = r.width / 2, ry = r.height / 2
        let kx = rx * kappa, ky = ry * kappa
        var p = Path()
        p.move(to: Point(cx + rx, cy))
        p.cubic(to: Point(cx, cy + ry), control1: Point(cx + rx, cy + ky), control2: Point(cx + kx, cy + ry))
        p.cubic(to: Point(cx - rx, cy), control1: Point(cx - kx, cy + ry), control2: Point(cx - rx, cy + ky))
        p.cubic(to: Point(cx, cy - ry), control1: Point(cx - rx, cy - ky), control2: Point(cx - kx, cy - ry))
        p.cubic(to: Point(cx + rx, cy), control1: Point(cx + kx, cy - ry), control2: Point(cx + rx, cy - ky))
        p.close()
        return p
    }

    /// A circle of radius `r` about `c`.
    public static func circle(center c: Point, radius r: Double) -> Path {
        ellipse(in: Rect(x: c.x - r, y: c.y - r, width: 2 * r, height: 2 * r))
    }

    /// A rectangle with circular corners of `radius` (clamped to half the shorter side).
    public static func roundedRect(_ r: Rect, radius: Double) -> Path {
        let rad = max(0, min(radius, r.width / 2, r.height / 2))
        if rad <= 0 { return rect(r) }
        let k = rad * (1 - kappa)
        var p = Path()
        p.move(to: Point(r.minX + rad, r.minY))
        p.line(to: Point(r.maxX - rad, r.minY))
        p.cubic(to: Point(r.maxX, r.minY + rad), control1: Point(r.maxX - k, r.minY), control2: Point(r.maxX, r.minY + k))
        p.line(to: Point(r.maxX, r.maxY - rad))
        p.cubic(to: Point(r.maxX - rad, r.maxY), control1: Point(r.maxX, r.maxY - k), control2: Point(r.maxX - k, r.maxY))
        p.line(to: Point(r.minX + rad, r.maxY))
        p.cubic(to: Point(r.minX, r.maxY - rad), control1: Point(r.minX + k, r.maxY), control2: Point(r.minX, r.maxY - k))
        p.line(to: Point(r.minX, r.minY + rad))
        p.cubic(to: Point(r.minX + rad, r.minY), control1: Point(r.minX, r.minY + k), control2: Point(r.minX + k, r.minY))
        p.close()
        return p
    }

    /// A polyline (or polygon when `closed`) through `points`.
    public static func polyline(_ points: [Point], closed: Bool = false) -> Path {
        var p = Path()
        guard let first = points.first else { return p }
        p.move(to: first)
        for q in points.dropFirst() { p.line(to: q) }
        if closed { p.close() }
        return p
    }

    // MARK: Queries

    /// The path with every point mapped through `t`.
    public func applying(_ t: Transform) -> Path {
        var out = Path()
        out.elements.reserveCapacity(elements.count)
        for e in elements {
            switch e {
            case .move(let p): out.move(to: t.apply(p))
            case .line(let p): out.line(to: t.apply(p))
            case .quad(let c, let p): out.quad(to: t.apply(p), control: t.apply(c))
            case .cubic(let c1, let c2, let p): out.cubic(to: t.apply(p), control1: t.apply(c1), control2: t.apply(c2))
            case .close: out.close()
            }
        }
        return out
    }

    /// The bounding box of all points, control points included (a cheap conservative bound).
    public var controlBounds: Rect {
        var pts: [Point] = []
        pts.reserveCapacity(elements.count * 3)
        for e in elements {
            switch e {
            case .move(let p), .line(let p): pts.append(p)
            case .quad(let c, let p): pts.append(c); pts.append(p)
            case .cubic(let c1, let c2, let p): pts.append(c1); pts.append(c2); pts.append(p)
            case .close: break
            }
        }
        return Rect.bounding(pts)
    }

    /// Every coordinate is finite.
    public var isFinite: Bool {
        for e in elements {
            switch e {
            case .move(let p), .line(let p): if !p.isFinite { return false }
            case .quad(let c, let p): if !(c.isFinite && p.isFinite) { return false }
            case .cubic(let c1, let c2, let p): if !(c1.isFinite && c2.isFinite && p.isFinite) { return false }
            case .close: break
            }
        }
        return true
    }
}

/// A flattened subpath: a polyline, closed or open.
public struct Contour: Hashable, Sendable {
    /// The vertices in order. A closed contour does not repeat its first point at the end.
    public var points: [Point]
    /// Whether the contour ends with a `close`. Default false.
    public var isClosed: Bool

    public init(points: [Point], isClosed: Bool) {
        self.points = points
        self.isClosed = isClosed
    }
}
