// The range of every numeric field a journal holds, in one table. The model checks its values
// against it when they are made, the decoders and front ends (CLI, manifest, editor server,
// library) refuse with its words, and the renderer's own limits are these, so whatever is
// accepted can be drawn. This target imports nothing, so the model and the text engine (which
// may not import each other) both read the same table.

/// One numeric field's rule: what it is called in the formats, the values it may take and the
/// unit they are in.
///
/// ## Guarantees
/// `lower < upper`; both are finite.
public struct FieldRule: Sendable, Hashable, CustomStringConvertible {
    /// The field's name in the page and manifest formats (`lineHeight`, `size`).
    public let name: String
    /// The smallest value (or, when `lowerOpen`, the bound values must be above).
    public let lower: Double
    /// The values must be strictly above `lower`. Default false.
    public let lowerOpen: Bool
    /// The largest value allowed.
    public let upper: Double
    /// How the values are measured, for messages (`px`, `× the size`); empty for plain numbers.
    public let unit: String

    public init(_ name: String, _ range: ClosedRange<Double>, unit: String = "") {
        self.init(name, lower: range.lowerBound, lowerOpen: false, upper: range.upperBound, unit: unit)
    }

    /// A rule whose values must be above `lower` and at most `atMost`.
    public init(_ name: String, above lower: Double, atMost upper: Double, unit: String = "") {
        self.init(name, lower: lower, lowerOpen: true, upper: upper, unit: unit)
    }

    init(_ name: String, lower: Double, lowerOpen: Bool, upper: Double, unit: String) {
        precondition(lower.isFinite && upper.isFinite && lower < upper, "FieldRule \(name): bad bounds \(lower)…\(upper)")
        self.name = name; self.lower = lower; self.lowerOpen = lowerOpen; self.upper = upper; self.unit = unit
    }

    /// True when `value` is finite and within the rule.
    public func contains(_ value: Double) -> Bool {
        value.isFinite && (lowerOpen ? value > lower : value >= lower) && value <= upper
    }

    /// The closed range of allowed values (an open lower bound becomes the next double up), for
    /// code that takes a `ClosedRange`.
    public var range: ClosedRange<Double> { (lowerOpen ? lower.nextUp : lower)...upper }

    /// What the rule allows, in words: `from 1 to 2000 px`, `more than 0 and at most 10`.
    public var expected: String {
        let u = unit.isEmpty ? "" : " \(unit)"
        return lowerOpen
            ? "more than \(FieldRule.text(lower)) and at most \(FieldRule.text(upper))\(u)" : "from \(FieldRule.text(lower)) to \(FieldRule.text(upper))\(u)"
    }

    /// The words every front end uses to refuse `value`: `50 is out of range (expected more than
    /// 0 and at most 10 × the size)`. Callers put where the value came from in front of it (the
    /// JSON path, the option, the field's name).
    public func refusal(_ value: Double) -> String {
        "\(value.isFinite ? FieldRule.text(value) : String(describing: value)) is out of range (expected \(expected))"
    }

    /// `name: refusal`, for errors that name the field itself.
    public func refusalNamingField(_ value: Double) -> String { "\(name): \(refusal(value))" }

    public var description: String { "\(name) \(expected)" }

    /// A number as people write it: no trailing `.0`, no exponent for the sizes rules use.
    public static func text(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return String(v)
    }
}

/// A whole-number field's rule (weights, counts).
public struct IntegerRule: Sendable, Hashable, CustomStringConvertible {
    /// The field's name in the formats.
    public let name: String
    /// The values allowed.
    public let range: ClosedRange<Int>

    public init(_ name: String, _ range: ClosedRange<Int>) { self.name = name; self.range = range }

    /// What the rule allows, in words.
    public var expected: String { "a whole number from \(range.lowerBound) to \(range.upperBound)" }
    /// The words used to refuse `value`.
    public func refusal(_ value: Int) -> String { "\(value) is out of range (expected \(expected))" }
    public var description: String { "\(name) \(expected)" }
}
