// How a path is stroked: the parameters of the stroker and dasher.

/// The shape at the open ends of a stroke.
public enum LineCap: String, Hashable, Sendable, CaseIterable { case butt, round, square }
/// The shape where two segments of a stroke meet.
public enum LineJoin: String, Hashable, Sendable, CaseIterable { case miter, round, bevel }
/// Which points are inside a self-crossing shape.
public enum FillRule: String, Hashable, Sendable, CaseIterable { case nonZero = "nonzero", evenOdd = "evenodd" }

/// Stroke parameters, as in SVG / cairo.
public struct StrokeStyle: Hashable, Sendable {
    /// Full width of the stroke in path units (> 0). Default 1.
    public var width: Double
    /// End caps. Default `.round` (techo's ink default).
    public var cap: LineCap
    /// Joins. Default `.round`.
    public var join: LineJoin
    /// Miter length limit as a multiple of the half-width ratio, as SVG's `stroke-miterlimit`.
    /// Default 10.
    public var miterLimit: Double
    /// Dash lengths, alternating on and off, in path units; empty for a solid stroke.
    /// Default empty.
    public var dash: [Double]
    /// How far into the dash pattern the stroke starts. Default 0.
    public var dashOffset: Double

    public init(
        width: Double = 1, cap: LineCap = .round, join: LineJoin = .round, miterLimit: Double = 10,
        dash: [Double] = [], dashOffset: Double = 0
    ) {
        self.width = width
        self.cap = cap
        self.join = join
        self.miterLimit = miterLimit
        self.dash = dash
        self.dashOffset = dashOffset
    }
}
