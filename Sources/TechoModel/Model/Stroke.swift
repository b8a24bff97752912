// Ink strokes (docs/contract.md §4): a tool, paint, geometry and line style.

import Foundation

/// A point of a freehand stroke, with optional pen pressure.
public struct StrokePoint: Hashable, Sendable {
    /// Page x, pixels.
    public var x: Double
    /// Page y, pixels.
    public var y: Double
    /// Pen pressure 0…1, or nil when not recorded (drawn as full pressure). Default nil.
    public var pressure: Double?
    public init(_ x: Double, _ y: Double, pressure: Double? = nil) { self.x = x; self.y = y; self.pressure = pressure }
    /// The point without pressure.
    public var point: Point { Point(x, y) }
}

/// One stroke of an ink layer.
///
/// ## Guarantees
/// `width` is finite and > 0; `opacity` in 0…1; `points` tools (`pencil`, `highlighter`,
/// `eraser`) have 1…`maxStrokePoints` finite points with pressures in 0…1; `line`, `dash`,
/// `rect` and `ellipse` have `from` and `to`; `path` has non-empty `d`; `dash` entries are
/// finite, ≥ 0 and not all zero; `miterLimit` ≥ 1; `id`, when set, is a valid id.
public struct Stroke: Hashable, Sendable {
    /// Drawing tools.
    public enum Tool: String, Hashable, Sendable, CaseIterable {
        case pencil, line, dash, rect, ellipse, path, highlighter, eraser

        /// Whether the tool's geometry is `points` (else `from`/`to`, or `d` for `path`).
        public var usesPoints: Bool { self == .pencil || self == .highlighter || self == .eraser }
        /// Whether the tool's geometry is `from`/`to`.
        public var usesEnds: Bool { self == .line || self == .dash || self == .rect || self == .ellipse }
    }

    /// The stroke's page-unique id (`s<n>`, docs/format.md "Stroke ids"), or nil for a stroke
    /// not yet on a page: the page gives it one (`Page.assignStrokeIDs`). Default nil.
    public var id: String?
    /// The tool. No default.
    public var tool: Tool
    /// Colour. Default black (an eraser ignores it).
    public var color: RGBA
    /// Line width, pixels, > 0. No default in the formats; 4 in code.
    public var width: Double
    /// Opacity 0…1. Default 1.
    public var opacity: Double
    /// Freehand points for pencil, highlighter and eraser. Default empty.
    public var points: [StrokePoint]
    /// Start point for line, dash, rect, ellipse. Default nil.
    public var from: Point?
    /// End point for line, dash, rect, ellipse. Default nil.
    public var to: Point?
    /// SVG path data for `path`. Default nil.
    public var d: String?
    /// Fill colour for rect, ellipse and path. Default nil (no fill).
    public var fill: RGBA?
    /// Fill rule for `fill`. Default non-zero.
    public var fillRule: FillRule
    /// Line cap. Default round.
    public var cap: LineCap
    /// Line join. Default round.
    public var join: LineJoin
    /// Miter limit, ≥ 1. Default 10.
    public var miterLimit: Double
    /// Dash pattern `[on, off, …]` in pixels, or nil for solid (the `dash` tool then uses
    /// `[3w, 3w]`). Default nil.
    public var dash: [Double]?
    /// Offset into the dash pattern, pixels. Default 0.
    public var dashOffset: Double

    public init(
        tool: Tool, color: RGBA = .black, width: Double = 4, opacity: Double = 1, points: [StrokePoint] = [],
        from: Point? = nil, to: Point? = nil, d: String? = nil, fill: RGBA? = nil, fillRule: FillRule = .nonZero,
        cap: LineCap = .round, join: LineJoin = .round, miterLimit: Double = 10, dash: [Double]? = nil,
        dashOffset: Double = 0, id: String? = nil, limits: ModelLimits = .default
    ) throws {
        self.id = id; self.tool = tool; self.color = color; self.width = width; self.opacity = opacity; self.points = points
        self.from = from; self.to = to; self.d = d; self.fill = fill; self.fillRule = fillRule; self.cap = cap
        self.join = join; self.miterLimit = miterLimit; self.dash = dash; self.dashOffset = dashOffset
        if let (_, message) = problems(limits: limits).first { throw ValueError(message) }
    }

    /// The effective dash pattern: `dash`, or `[3w, 3w]` for the dash tool.
    public var effectiveDash: [Double]? { dash ?? (tool == .dash ? [3 * width, 3 * width] : nil) }

    /// Every broken guarantee as (field, message).
    public func problems(limits: ModelLimits = .default) -> [(String, String)] {
        if isPlainlyValid(limits: limits) { return [] }
        var out: [(String, String)] = []
        if let id, !Identifier.isValid(id) { out.append(("id", "invalid stroke id \"\(id)\": use 1 to 64 letters, digits, '_' or '-'")) }
        for (rule, v) in [
            (FieldRules.strokeWidth, width), (FieldRules.opacity, opacity), (FieldRules.miterLimit, miterLimit), (FieldRules.dashOffset, dashOffset),
        ]
        where !rule.contains(v) {
            out.append((rule.name, rule.refusal(v)))
        }
        if let dash {
            if dash.isEmpty || !dash.allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= 1e6 }) || !dash.contains(where: { $0 > 0 }) {
                out.append(("dash", "must be a non-empty list of lengths ≥ 0, not all zero"))
            }
        }
        if tool.usesPoints {
            if points.isEmpty { out.append(("points", "a \(tool.rawValue) stroke needs at least one point")) }
            if points.count > limits.maxStrokePoints {
                out.append(("points", "\(points.count) points is over the limit of \(limits.maxStrokePoints)"))
            }
            if let bad = points.firstIndex(where: { !($0.x.isFinite && $0.y.isFinite && abs($0.x) <= 1e7 && abs($0.y) <= 1e7) }) {
                out.append(("points[\(bad)]", "coordinates must be finite and within ±10000000"))
            }
            if let bad = points.firstIndex(where: { p in p.pressure.map { !($0 >= 0 && $0 <= 1) } ?? false }) {
                out.append(("points[\(bad)]", "pressure must be between 0 and 1"))
            }
        } else if tool.usesEnds {
            if from == nil { out.append(("from", "a \(tool.rawValue) stroke needs \"from\"")) }
            if to == nil { out.append(("to", "a \(tool.rawValue) stroke needs \"to\"")) }
        } else if d?.isEmpty ?? true {
            out.append(("d", "a path stroke needs SVG path data \"d\""))
        }
        return out
    }

    /// The common stroke (points, no dash) checked in one pass without collecting anything:
    /// true only when `problems` would find none.
    private func isPlainlyValid(limits: ModelLimits) -> Bool {
        guard dash == nil, tool.usesPoints, id.map(Identifier.isValid) ?? true, !points.isEmpty, points.count <= limits.maxStrokePoints,
            FieldRules.strokeWidth.contains(width), FieldRules.opacity.contains(opacity),
            FieldRules.miterLimit.contains(miterLimit), FieldRules.dashOffset.contains(dashOffset)
        else { return false }
        for p in points {
            guard abs(p.x) <= 1e7, abs(p.y) <= 1e7 else { return false }  // false for NaN too
            if let q = p.pressure, !(q >= 0 && q <= 1) { return false }
        }
        return true
    }

    /// Traps when a guarantee is broken.
    public func checkInvariants() {
        let p = problems()
        precondition(p.isEmpty, "Stroke: \(p.map { "\($0.0): \($0.1)" }.joined(separator: "; "))")
    }
}
