// A point or vector in a 2-D plane: pixels, y down.

/// A point (or a vector) with `Double` coordinates.
///
/// Default: `Point.zero` is the origin. Coordinates may be any `Double`; callers that take user
/// input check `isFinite` before using a point for drawing.
public struct Point: Hashable, Sendable, CustomStringConvertible {
    /// Horizontal coordinate, pixels, growing to the right. Default 0.
    public var x: Double
    /// Vertical coordinate, pixels, growing downwards. Default 0.
    public var y: Double

    @inlinable public init(_ x: Double, _ y: Double) { self.x = x; self.y = y }
    @inlinable public init(x: Double, y: Double) { self.x = x; self.y = y }

    public static let zero = Point(0, 0)

    /// Both coordinates are finite (not NaN or infinite).
    @inlinable public var isFinite: Bool { x.isFinite && y.isFinite }
    /// Euclidean length of the vector from the origin.
    @inlinable public var length: Double { (x * x + y * y).squareRoot() }
    /// Squared length, cheaper than `length` when only comparing.
    @inlinable public var lengthSquared: Double { x * x + y * y }

    @inlinable public static func + (a: Point, b: Point) -> Point { Point(a.x + b.x, a.y + b.y) }
    @inlinable public static func - (a: Point, b: Point) -> Point { Point(a.x - b.x, a.y - b.y) }
    @inlinable public static func * (a: Point, s: Double) -> Point { Point(a.x * s, a.y * s) }
    @inlinable public static func * (s: Double, a: Point) -> Point { Point(a.x * s, a.y * s) }
    @inlinable public static func / (a: Point, s: Double) -> Point { Point(a.x / s, a.y / s) }
    @inlinable public static prefix func - (a: Point) -> Point { Point(-a.x, -a.y) }
    @inlinable public static func += (a: inout Point, b: Point) { a = a + b }
    @inlinable public static func -= (a: inout Point, b: Point) { a = a - b }

    /// Dot product.
    @inlinable public func dot(_ o: Point) -> Double { x * o.x + y * o.y }
    /// 2-D cross product (z of the 3-D cross product); positive when `o` turns clockwise on a
    /// y-down page from `self`.
    @inlinable public func cross(_ o: Point) -> Double { x * o.y - y * o.x }
    /// Distance to another point.
    @inlinable public func distance(to o: Point) -> Double { (self - o).length }
    /// The vector scaled to length 1, or `.zero` for a zero vector.
    @inlinable public var normalized: Point {
        let l = length
        return l > 0 ? self / l : .zero
    }
    /// The vector turned by +90° (clockwise on a y-down page).
    @inlinable public var perpendicular: Point { Point(-y, x) }
    /// Linear interpolation: `self` at t = 0, `o` at t = 1.
    @inlinable public func lerp(_ o: Point, _ t: Double) -> Point { Point(x + (o.x - x) * t, y + (o.y - y) * t) }

    public var description: String { "(\(x), \(y))" }
}
