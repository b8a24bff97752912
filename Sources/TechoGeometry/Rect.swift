// Axis-aligned rectangles.

/// An axis-aligned rectangle given by its minimum corner and size.
///
/// ## Guarantees
/// `width >= 0` and `height >= 0` for every rect made by `init(minX:minY:maxX:maxY:)`,
/// `bounding(_:)`, `union` and `intersection`. `Rect.null` (no points) is the identity of `union`.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    /// Left edge. Default 0.
    public var x: Double
    /// Top edge. Default 0.
    public var y: Double
    /// Width, ≥ 0 for a valid rect. Default 0.
    public var width: Double
    /// Height, ≥ 0 for a valid rect. Default 0.
    public var height: Double

    @inlinable public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    @inlinable public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.init(x: minX, y: minY, width: max(0, maxX - minX), height: max(0, maxY - minY))
    }

    /// The empty rect that contains no point; `union` with it returns the other rect.
    public static let null = Rect(x: .infinity, y: .infinity, width: 0, height: 0)
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    @inlinable public var minX: Double { x }
    @inlinable public var minY: Double { y }
    @inlinable public var maxX: Double { x + width }
    @inlinable public var maxY: Double { y + height }
    @inlinable public var midX: Double { x + width / 2 }
    @inlinable public var midY: Double { y + height / 2 }
    @inlinable public var center: Point { Point(midX, midY) }
    @inlinable public var isNull: Bool { x == .infinity || y == .infinity }
    @inlinable public var isEmpty: Bool { isNull || width <= 0 || height <= 0 }
    @inlinable public var isFinite: Bool { x.isFinite && y.isFinite && width.isFinite && height.isFinite }

    /// The smallest rect containing every point (`.null` for none).
    public static func bounding<S: Sequence>(_ points: S) -> Rect where S.Element == Point {
        var lo = Point(.infinity, .infinity), hi = Point(-.infinity, -.infinity)
        for p in points {
            lo.x = Swift.min(lo.x, p.x); lo.y = Swift.min(lo.y, p.y)
            hi.x = Swift.max(hi.x, p.x); hi.y = Swift.max(hi.y, p.y)
        }
        if lo.x > hi.x { return .null }
        return Rect(minX: lo.x, minY: lo.y, maxX: hi.x, maxY: hi.y)
    }

    public func union(_ o: Rect) -> Rect {
        if isNull { return o }
        if o.isNull { return self }
        return Rect(
            minX: Swift.min(minX, o.minX), minY: Swift.min(minY, o.minY),
            maxX: Swift.max(maxX, o.maxX), maxY: Swift.max(maxY, o.maxY))
    }

    /// The overlap of two rects, or `.null` when they do not overlap.
    public func intersection(_ o: Rect) -> Rect {
        if isNull || o.isNull { return .null }
        let x0 = Swift.max(minX, o.minX), y0 = Swift.max(minY, o.minY)
        let x1 = Swift.min(maxX, o.maxX), y1 = Swift.min(maxY, o.maxY)
        if x1 < x0 || y1 < y0 { return .null }
        return Rect(minX: x0, minY: y0, maxX: x1, maxY: y1)
    }

    /// The rect grown by `d` on every side (shrunk for negative `d`, never below zero size).
    public func insetBy(_ d: Double) -> Rect {
        if isNull { return self }
        return Rect(minX: minX + d, minY: minY + d, maxX: Swift.max(minX + d, maxX - d), maxY: Swift.max(minY + d, maxY - d))
    }
    public func outset(by d: Double) -> Rect { insetBy(-d) }

    @inlinable public func contains(_ p: Point) -> Bool { p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY }

    /// The bounding box of this rect's four corners after `t`.
    public func applying(_ t: Transform) -> Rect {
        if isNull { return self }
        return Rect.bounding([Point(minX, minY), Point(maxX, minY), Point(maxX, maxY), Point(minX, maxY)].map { t.apply($0) })
    }

    public var description: String { "Rect(\(x), \(y), \(width)x\(height))" }
}
