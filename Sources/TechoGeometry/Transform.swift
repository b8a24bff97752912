// 2-D affine transforms with CGAffineTransform semantics.

import Foundation

/// An affine transform `x' = a·x + c·y + tx`, `y' = b·x + d·y + ty` (CGAffineTransform / cairo
/// order).
///
/// `t1.concatenating(t2)` applies `t1` first, then `t2`, as `CGAffineTransform.concatenating`
/// does. Default: `.identity`.
public struct Transform: Hashable, Sendable, CustomStringConvertible {
    public var a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double

    @inlinable public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }

    public static let identity = Transform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    @inlinable public static func translation(_ dx: Double, _ dy: Double) -> Transform {
        Transform(a: 1, b: 0, c: 0, d: 1, tx: dx, ty: dy)
    }
    @inlinable public static func scale(_ sx: Double, _ sy: Double) -> Transform {
        Transform(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
    }
    @inlinable public static func scale(_ s: Double) -> Transform { scale(s, s) }
    /// A rotation by `radians`, clockwise on a y-down page for positive angles.
    @inlinable public static func rotation(_ radians: Double) -> Transform {
        let (s, co) = (sinPrecise(radians), cosPrecise(radians))
        return Transform(a: co, b: s, c: -s, d: co, tx: 0, ty: 0)
    }
    /// A rotation by `degrees`; multiples of 90° are exact.
    @inlinable public static func rotation(degrees: Double) -> Transform {
        let r = degrees.truncatingRemainder(dividingBy: 360)
        let q = (r < 0 ? r + 360 : r)
        switch q {
        case 0: return .identity
        case 90: return Transform(a: 0, b: 1, c: -1, d: 0, tx: 0, ty: 0)
        case 180: return Transform(a: -1, b: 0, c: 0, d: -1, tx: 0, ty: 0)
        case 270: return Transform(a: 0, b: -1, c: 1, d: 0, tx: 0, ty: 0)
        default: return rotation(degrees * .pi / 180)
        }
    }

    /// `self` first, then `o`.
    @inlinable public func concatenating(_ o: Transform) -> Transform {
        Transform(
            a: a * o.a + b * o.c, b: a * o.b + b * o.d,
            c: c * o.a + d * o.c, d: c * o.b + d * o.d,
            tx: tx * o.a + ty * o.c + o.tx, ty: tx * o.b + ty * o.d + o.ty)
    }
    /// Translate in the transform's own space first (CGAffineTransform.translatedBy).
    @inlinable public func translatedBy(_ dx: Double, _ dy: Double) -> Transform { Transform.translation(dx, dy).concatenating(self) }
    @inlinable public func scaledBy(_ sx: Double, _ sy: Double) -> Transform { Transform.scale(sx, sy).concatenating(self) }
    @inlinable public func rotatedBy(_ radians: Double) -> Transform { Transform.rotation(radians).concatenating(self) }

    @inlinable public var determinant: Double { a * d - b * c }
    @inlinable public var isFinite: Bool {
        a.isFinite && b.isFinite && c.isFinite && d.isFinite && tx.isFinite && ty.isFinite
    }
    /// Finite and invertible (|det| above a tiny epsilon).
    @inlinable public var isInvertible: Bool { isFinite && abs(determinant) > 1e-12 && determinant.isFinite }
    @inlinable public var isIdentity: Bool { self == .identity }

    /// The inverse, or nil when the transform is singular or not finite.
    public func inverted() -> Transform? {
        guard isInvertible else { return nil }
        let det = determinant
        let ia = d / det, ib = -b / det, ic = -c / det, id = a / det
        let r = Transform(a: ia, b: ib, c: ic, d: id, tx: -(tx * ia + ty * ic), ty: -(tx * ib + ty * id))
        return r.isFinite ? r : nil
    }

    @inlinable public func apply(_ p: Point) -> Point { Point(a * p.x + c * p.y + tx, b * p.x + d * p.y + ty) }
    /// Applies only the linear part (no translation), for vectors.
    @inlinable public func applyVector(_ p: Point) -> Point { Point(a * p.x + c * p.y, b * p.x + d * p.y) }

    /// The largest factor by which the transform stretches any vector (largest singular value).
    /// Curve flattening uses it to keep facets invisible at any export scale.
    public var maxScale: Double {
        let s1 = a * a + b * b, s2 = c * c + d * d, m = a * c + b * d
        let mean = (s1 + s2) / 2, diff = (s1 - s2) / 2
        return (mean + (diff * diff + m * m).squareRoot()).squareRoot()
    }
    /// The smallest singular value.
    public var minScale: Double {
        let s1 = a * a + b * b, s2 = c * c + d * d, m = a * c + b * d
        let mean = (s1 + s2) / 2, diff = (s1 - s2) / 2
        return Swift.max(0, mean - (diff * diff + m * m).squareRoot()).squareRoot()
    }

    public var description: String { "[\(a), \(b), \(c), \(d), \(tx), \(ty)]" }
}

@inlinable func sinPrecise(_ x: Double) -> Double { Foundation.sin(x) }
@inlinable func cosPrecise(_ x: Double) -> Double { Foundation.cos(x) }
