// Which strokes a pointer touches: the outline the renderer fills for each stroke (the pencil's
// variable-width outline, the stroker's outline of a shape or a highlighter, a filled shape's
// inside), flattened, against a point or a polyline widened by a radius. A stroke is hit when a
// query point lies inside its outline (nonzero winding, as it is filled) or a query segment
// passes within the radius of an outline edge. The editor's select tool and stroke eraser ask
// this; the page answer carries no stroke geometry.

import TechoGeometry
import TechoModel

extension PageRenderer {
    /// One stroke a query touched: its id and the ink layer (element) holding it.
    public struct StrokeHit: Hashable, Sendable {
        public var id: String
        public var layer: String
    }

    /// The strokes of `page` that the polyline `points` (one point: a point) touches within
    /// `radius` page pixels, topmost first: elements from the top of the stack down, and inside
    /// an ink layer its pen strokes (newest first) above its highlighters (newest first), as the
    /// renderer composites them. Erasers draw nothing of their own and are never hit; hidden
    /// layers are skipped. The outline is the stroke's own, not what an eraser left of it.
    ///
    /// - Complexity: O(strokes near the query × their outline edges × query segments).
    public func strokesHit(on page: Page, points: [Point], radius: Double) throws -> [StrokeHit] {
        guard let first = points.first else { return [] }
        let r = max(0, radius)
        var box = Rect.bounding(points)
        if box.isNull { box = Rect(x: first.x, y: first.y, width: 0, height: 0) }
        box = box.outset(by: r)
        func near(_ b: Rect) -> Bool { b.minX <= box.maxX && b.maxX >= box.minX && b.minY <= box.maxY && b.maxY >= box.minY }
        var hits: [StrokeHit] = []
        for e in page.elements.reversed() {
            guard case .ink(let ink) = e.content, !e.hidden else { continue }
            let pens = ink.strokes.filter { $0.tool != .eraser && $0.tool != .highlighter }
            let markers = ink.strokes.filter { $0.tool == .highlighter }
            for s in pens.reversed() + markers.reversed() {
                let b = try strokeBounds(s)
                guard !b.isNull, near(b) else { continue }
                let contours = try strokeOutline(s).flattened(tolerance: 0.25)
                if Self.touches(contours, points, r) { hits.append(StrokeHit(id: s.id ?? "", layer: e.id)) }
            }
        }
        return hits
    }

    /// The filled outline of stroke `s` in page pixels, as the renderer draws it (before erasers).
    public func strokeOutline(_ s: Stroke) throws -> Path {
        switch s.tool {
        case .eraser: return Path()
        case .highlighter:
            let path = s.points.count == 1 ? Path.polyline([s.points[0].point]) : Pencil.smoothPath(through: s.points.map(\.point))
            var style = StrokeStyle(s, cap: .butt)
            if s.points.count == 1 { style.cap = .square }
            return path.stroked(style)
        default:
            switch try penGeometry(s, tolerance: 0.25) {
            case .pressureOutline(let outline): return outline
            case .none: return Path()
            case .shape(let shape):
                var out = shape.stroked(StrokeStyle(s))
                if s.fill != nil, s.tool == .rect || s.tool == .ellipse || s.tool == .path {
                    // A filled shape is hit anywhere inside it too: its fill is ink.
                    out.append(shape)
                }
                return out
            }
        }
    }

    /// Whether the query polyline, widened by `r`, meets the filled `contours`.
    static func touches(_ contours: [Contour], _ q: [Point], _ r: Double) -> Bool {
        for p in q where winding(contours, p) != 0 { return true }
        let segments = q.count == 1 ? [(q[0], q[0])] : zip(q, q.dropFirst()).map { ($0, $1) }
        for c in contours where c.points.count > 1 {
            let n = c.points.count
            for i in 0..<n {
                let a = c.points[i], b = c.points[(i + 1) % n]
                if !c.isClosed && i == n - 1 { break }
                for (p, q) in segments where segmentDistance(p, q, a, b) <= r { return true }
            }
        }
        return false
    }

    /// The nonzero winding number of the closed contours around `p`.
    static func winding(_ contours: [Contour], _ p: Point) -> Int {
        var w = 0
        for c in contours where c.points.count > 2 {
            let n = c.points.count
            for i in 0..<n {
                let a = c.points[i], b = c.points[(i + 1) % n]
                let side = (b.x - a.x) * (p.y - a.y) - (p.x - a.x) * (b.y - a.y)
                if a.y <= p.y {
                    if b.y > p.y && side > 0 { w += 1 }
                } else if b.y <= p.y && side < 0 {
                    w -= 1
                }
            }
        }
        return w
    }

    /// The distance between segments pq and ab (zero when they cross).
    static func segmentDistance(_ p: Point, _ q: Point, _ a: Point, _ b: Point) -> Double {
        func cross(_ o: Point, _ u: Point, _ v: Point) -> Double { (u.x - o.x) * (v.y - o.y) - (u.y - o.y) * (v.x - o.x) }
        let d1 = cross(a, b, p), d2 = cross(a, b, q), d3 = cross(p, q, a), d4 = cross(p, q, b)
        if ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)) { return 0 }
        return min(pointSegment(p, a, b), pointSegment(q, a, b), pointSegment(a, p, q), pointSegment(b, p, q))
    }

    static func pointSegment(_ p: Point, _ a: Point, _ b: Point) -> Double {
        let dx = b.x - a.x, dy = b.y - a.y
        let len = dx * dx + dy * dy
        let t = len > 0 ? max(0, min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / len)) : 0
        return Point(a.x + t * dx, a.y + t * dy).distance(to: p)
    }
}
