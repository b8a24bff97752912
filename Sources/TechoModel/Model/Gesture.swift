// The gesture operations of docs/contract.md §3 and their effect on a Placement. Each updates the
// decomposed placement exactly as pre-multiplying the page-space matrix would (pan: translate;
// pinch/rotate about p: T(-p)·op·T(p); flip: mirror in element space).

import Foundation

/// A mirror axis in an element's own frame.
public enum FlipAxis: String, Hashable, Sendable, CaseIterable {
    /// Left-right.
    case h
    /// Top-bottom.
    case v
}

/// One gesture operation.
public enum Gesture: Hashable, Sendable {
    /// Move by (dx, dy) page pixels.
    case pan(dx: Double, dy: Double)
    /// Scale by `scale` about the centre, or about a page point (which stays fixed).
    case pinch(scale: Double, around: Point?)
    /// Rotate by `degrees` (clockwise) about the centre, or about a page point.
    case rotate(degrees: Double, around: Point?)
    /// Rotate +90° about the centre.
    case doubleTap
    /// Mirror in the element's own frame.
    case flip(FlipAxis)

    /// The page-space matrix this gesture applies to an element placed at `center` (left-multiplied
    /// onto the element's transform for pan, pinch and rotate; flip acts in element space).
    public func pageMatrix(center: Point) -> Transform? {
        func about(_ p: Point, _ t: Transform) -> Transform {
            Transform.translation(-p.x, -p.y).concatenating(t).concatenating(.translation(p.x, p.y))
        }
        switch self {
        case .pan(let dx, let dy): return .translation(dx, dy)
        case .pinch(let s, let p): return about(p ?? center, .scale(s))
        case .rotate(let d, let p): return about(p ?? center, .rotation(degrees: d))
        case .doubleTap: return about(center, .rotation(degrees: 90))
        case .flip: return nil
        }
    }
}

extension Placement {
    /// This placement after `gesture`, or a `GestureError` (and no change) when the result would
    /// be singular, non-finite or out of range.
    public func applying(_ gesture: Gesture) throws -> Placement {
        var p = self
        switch gesture {
        case .pan(let dx, let dy):
            guard dx.isFinite, dy.isFinite else { throw GestureError("pan (\(dx), \(dy)) is not finite") }
            p.center = Point(center.x + dx, center.y + dy)
        case .pinch(let s, let around):
            guard s.isFinite, s > 0 else { throw GestureError("pinch scale \(s) must be a finite number > 0") }
            p.scale = scale * s
            if let q = around {
                guard q.isFinite else { throw GestureError("pinch point \(q) is not finite") }
                p.center = q + (center - q) * s
            }
        case .rotate(let d, let around):
            guard d.isFinite else { throw GestureError("rotation \(d)° is not finite") }
            p.rotation = Placement.normalized(rotation + d)
            if let q = around {
                guard q.isFinite else { throw GestureError("rotation point \(q) is not finite") }
                p.center = Transform.rotation(degrees: d).applyVector(center - q) + q
            }
        case .doubleTap:
            p.rotation = Placement.normalized(rotation + 90)
        case .flip(let axis):
            if axis == .h { p.flipH.toggle() } else { p.flipV.toggle() }
        }
        if let problem = p.problem { throw GestureError("\(gesture.label) refused: \(problem)") }
        return p
    }

    /// Applies `gesture` in place; on error nothing changes.
    public mutating func apply(_ gesture: Gesture) throws { self = try applying(gesture) }

    /// Applies every gesture in order as one operation: all or nothing.
    public func applying<S: Sequence>(_ gestures: S) throws -> Placement where S.Element == Gesture {
        var p = self
        for g in gestures { p = try p.applying(g) }
        return p
    }
}

extension Gesture {
    /// A short name for messages ("pinch 0", "pan").
    public var label: String {
        switch self {
        case .pan(let dx, let dy): return "pan \(dx),\(dy)"
        case .pinch(let s, _): return "pinch \(s)"
        case .rotate(let d, _): return "rotate \(d)"
        case .doubleTap: return "double-tap"
        case .flip(let a): return "flip \(a.rawValue)"
        }
    }
}
