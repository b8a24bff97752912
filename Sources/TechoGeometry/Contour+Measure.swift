// Measures of flattened contours: signed area (the shoelace formula) and length.

extension Contour {
    /// The signed area enclosed by the polygon (closed implicitly, whatever `isClosed` says),
    /// by the shoelace formula. Positive for clockwise contours on a y-down page, the
    /// orientation of `Path.rect` and of every piece the stroker emits. NaN if a point is not
    /// finite.
    ///
    /// - Complexity: O(points).
    public var signedArea: Double { Contour.signedArea(of: points) }

    /// The shoelace area of a polygon given as points; see `signedArea`.
    static func signedArea(of points: [Point]) -> Double {
        guard points.count >= 3 else { return 0 }
        // Relative to the first point, so large offsets do not cancel catastrophically.
        let o = points[0]
        var sum = 0.0
        var prev = Point.zero
        for i in 1..<points.count {
            let p = points[i] - o
            sum += prev.cross(p)
            prev = p
        }
        return sum / 2
    }

    /// The polyline's length; a closed contour includes its closing segment.
    ///
    /// - Complexity: O(points).
    public var length: Double {
        guard points.count >= 2 else { return 0 }
        var sum = 0.0
        for i in 1..<points.count { sum += points[i].distance(to: points[i - 1]) }
        if isClosed, let first = points.first, let last = points.last { sum += last.distance(to: first) }
        return sum
    }
}
