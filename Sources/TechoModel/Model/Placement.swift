// Where an element sits on its page, stored decomposed (centre, uniform scale, rotation, mirror)
// so that gestures never accumulate skew; the affine matrix is derived, as UIKit's center +
// transform are.

import Foundation

/// An element's placement on its page.
///
/// The derived `transform` maps the element's own space (origin at its centre, y down, pixels)
/// to page pixels: mirror, then scale, then rotate, then move to `center`.
///
/// ## Guarantees
/// `center` is finite with |x|, |y| ≤ `Placement.maxCoordinate`; `scale` lies in
/// `Placement.scaleRange`; `rotation` is finite and normalised to (-180, 180]. So the derived
/// transform is always finite, invertible and a similarity (no skew).
public struct Placement: Hashable, Sendable {
    /// Centre of the element on the page, pixels. Default the origin (decoders use the page centre).
    public internal(set) var center: Point
    /// Uniform scale, > 0. Default 1.
    public internal(set) var scale: Double
    /// Rotation in degrees, clockwise on the page (y down), in (-180, 180]. Default 0.
    public internal(set) var rotation: Double
    /// Mirrored left-right in the element's own frame. Default false.
    public internal(set) var flipH: Bool
    /// Mirrored top-bottom in the element's own frame. Default false.
    public internal(set) var flipV: Bool

    /// The scales a placement may take: beyond them a transform is as good as singular.
    public static let scaleRange: ClosedRange<Double> = FieldRules.scale.range
    /// The farthest a centre may be from the page origin, pixels.
    public static let maxCoordinate: Double = FieldRules.coordinate.upper

    /// A placement; throws `GestureError` when the values break the guarantees.
    public init(center: Point = .zero, scale: Double = 1, rotation: Double = 0, flipH: Bool = false, flipV: Bool = false) throws {
        self.center = center; self.scale = scale; self.rotation = Placement.normalized(rotation)
        self.flipH = flipH; self.flipV = flipV
        if let problem = problem { throw GestureError(problem) }
    }

    /// The identity placement (centre at the origin).
    public static let identity = Placement(unchecked: .zero)

    private init(unchecked center: Point) {
        self.center = center; scale = 1; rotation = 0; flipH = false; flipV = false
    }

    /// Why these values break the guarantees, or nil.
    var problem: String? {
        guard center.isFinite, abs(center.x) <= Placement.maxCoordinate, abs(center.y) <= Placement.maxCoordinate else {
            return "the centre \(center) would be outside ±\(Int(Placement.maxCoordinate)) px"
        }
        guard scale.isFinite, Placement.scaleRange.contains(scale) else {
            return "the scale \(scale) would be outside \(Placement.scaleRange.lowerBound)…\(Placement.scaleRange.upperBound)"
        }
        guard rotation.isFinite else { return "the rotation \(rotation) is not finite" }
        return nil
    }

    /// Traps when the guarantees do not hold.
    public func checkInvariants() {
        precondition(problem == nil, problem ?? "")
        precondition(rotation > -180 && rotation <= 180, "rotation \(rotation) not normalised")
    }

    /// Angle in (-180, 180].
    static func normalized(_ degrees: Double) -> Double {
        guard degrees.isFinite else { return degrees }
        var r = degrees.truncatingRemainder(dividingBy: 360)
        if r <= -180 { r += 360 }
        if r > 180 { r -= 360 }
        return r
    }

    /// The affine map from element space to page space.
    public var transform: Transform {
        Transform.scale(flipH ? -scale : scale, flipV ? -scale : scale)
            .concatenating(.rotation(degrees: rotation))
            .concatenating(.translation(center.x, center.y))
    }
}

/// A gesture (docs/contract.md §3) that would break a placement's guarantees, refused unapplied.
public struct GestureError: Error, Equatable, CustomStringConvertible, Sendable {
    /// What was refused and why.
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
