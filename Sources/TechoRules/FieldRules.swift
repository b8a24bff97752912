// The table. Each rule is the one place its field's range is written: the page and manifest
// decoders, the model's constructors, the CLI's options, the editor's routes and the renderer
// all read it from here. docs/limits.md lists the same values for people.

/// Every numeric field's rule, by the field's name in the formats.
public enum FieldRules {
    // MARK: Any element

    /// `opacity`, 0…1.
    public static let opacity = FieldRule("opacity", 0...1)
    /// `scale` of a placement.
    public static let scale = FieldRule("scale", 1e-4...1e4)
    /// A page coordinate (a centre, a point of a stroke), pixels either way from the origin.
    public static let coordinate = FieldRule("coordinate", -1e7...1e7, unit: "px")
    /// An angle given to a gesture or a placement, degrees (normalised to (-180, 180] after).
    public static let rotation = FieldRule("rotate", -1e6...1e6, unit: "degrees")
    /// A die-cut outline's or a text outline's `width`.
    public static let outlineWidth = FieldRule("outline width", above: 0, atMost: 1000, unit: "px")

    // MARK: Text

    /// Most Unicode scalars in one text; the text engine lays out no more.
    public static let maxTextScalars = 100_000
    /// Longest `font` family name, bytes.
    public static let maxFontNameBytes = 256
    /// Font `size`.
    public static let fontSize = FieldRule("size", 1...2000, unit: "px")
    /// Font `weight` (`bold` is 700).
    public static let weight = IntegerRule("weight", 100...900)
    /// `lineHeight`, a multiple of the size.
    public static let lineHeight = FieldRule("lineHeight", above: 0, atMost: 10, unit: "× the size")
    /// `maxWidth`, the wrap width.
    public static let maxWidth = FieldRule("maxWidth", above: 0, atMost: 1e6, unit: "px")
    /// `letterSpacing`.
    public static let letterSpacing = FieldRule("letterSpacing", -1e4...1e4, unit: "px")

    // MARK: Photos

    /// A photo's corner `radius`.
    public static let radius = FieldRule("radius", 0...1e5, unit: "px")
    /// The photo adjustments, in the order the formats list them.
    public static let adjustments: [FieldRule] = [
        FieldRule("brightness", -1...1), FieldRule("contrast", -1...1), FieldRule("saturation", -1...1),
        FieldRule("warmth", -1...1), FieldRule("grayscale", 0...1), FieldRule("sepia", 0...1), FieldRule("fade", 0...1),
    ]

    // MARK: Washi tape and ink

    /// Washi tape's `width` across the strip.
    public static let washiWidth = FieldRule("width", above: 0, atMost: 1e5, unit: "px")
    /// A stroke's `width`.
    public static let strokeWidth = FieldRule("width", above: 0, atMost: 1e5, unit: "px")
    /// A stroke's `miterLimit`.
    public static let miterLimit = FieldRule("miterLimit", 1...1e4)
    /// One length of a `dash` pattern.
    public static let dashLength = FieldRule("dash", 0...1e6, unit: "px")
    /// A stroke's `dashOffset`.
    public static let dashOffset = FieldRule("dashOffset", -1e6...1e6, unit: "px")
    /// A point's pen pressure.
    public static let pressure = FieldRule("pressure", 0...1)

    // MARK: Pages and backgrounds

    /// A page's `dpi`.
    public static let dpi = FieldRule("dpi", 10...4800)
    /// A page's `margin` and a paper pattern's `margin`.
    public static let margin = FieldRule("margin", 0...1e5, unit: "px")
    /// A paper pattern's `spacing`.
    public static let paperSpacing = FieldRule("spacing", 1...1e5, unit: "px")
}

/// What a text's `font` may not look like.
public enum FontNames {
    /// True when a family name reads like a file path (a slash or a font file's extension):
    /// such a name is refused when written, and never opened as a file by the renderer.
    public static func looksLikeFilePath(_ family: String) -> Bool {
        let lower = family.lowercased()
        return family.contains("/") || family.contains("\\")
            || [".ttf", ".otf", ".ttc", ".otc", ".woff", ".woff2", ".pfb"].contains { lower.hasSuffix($0) }
    }
}
