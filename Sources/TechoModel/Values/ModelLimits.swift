// The product's limits (docs/limits.md) as one configurable value.

/// Limits the model enforces on user input. Defaults are the product limits.
public struct ModelLimits: Sendable, Equatable {
    /// JSON size and nesting limits. Default 8 MiB, depth 64.
    public var json: JSONLimits = .default
    /// Longest text, in characters (Unicode scalars). Default `FieldRules.maxTextScalars`, 100 000.
    public var maxTextCharacters = FieldRules.maxTextScalars
    /// Most points in one stroke. Default 1 000 000.
    public var maxStrokePoints = 1_000_000
    /// Allowed font sizes, pixels. Default `FieldRules.fontSize`, 1…2000.
    public var fontSizes: ClosedRange<Double> = FieldRules.fontSize.range
    /// Longest page side at 1×, pixels. Default 16384.
    public var maxPageSide: Double = 16384
    /// Largest page area at 1×, pixels. Default 100 000 000.
    public var maxPagePixels: Double = 100_000_000
    /// Longest image side, pixels. Default 32768.
    public var maxImageSide: Double = 32768
    /// Largest image area, pixels. Default 100 000 000.
    public var maxImagePixels: Double = 100_000_000
    /// Most elements on one page. Default 10 000.
    public var maxElementsPerPage = 10_000

    public init() {}
    public static let `default` = ModelLimits()
}
