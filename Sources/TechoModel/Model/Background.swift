// Page backgrounds (docs/contract.md §5): a colour, an image in a fill mode, and ruled paper.

/// A background image fill.
public struct BackgroundImage: Hashable, Sendable {
    /// How the image fills the page.
    public enum Mode: String, Hashable, Sendable, CaseIterable { case tile, cover, contain, stretch, center }
    /// The image in the journal.
    public var asset: AssetRef
    /// Fill mode. Default tile.
    public var mode: Mode
    /// Opacity 0…1. Default 1.
    public var opacity: Double
    public init(asset: AssetRef, mode: Mode = .tile, opacity: Double = 1) throws {
        guard FieldRules.opacity.contains(opacity) else { throw ValueError(FieldRules.opacity, opacity) }
        self.asset = asset; self.mode = mode; self.opacity = opacity
    }
}

/// Ruled paper drawn over the background colour and image.
public struct Paper: Hashable, Sendable {
    /// Rulings.
    public enum Pattern: String, Hashable, Sendable, CaseIterable { case blank, dots, grid, lines }
    /// The ruling. Default dots.
    public var pattern: Pattern
    /// Distance between rulings, pixels, > 0. Default 5 mm at the page dpi.
    public var spacing: Double
    /// Ruling colour. Default `#cbbfae`.
    public var color: RGBA
    /// Unruled margin on every side, pixels, ≥ 0. Default 0.
    public var margin: Double

    /// The default ruling colour.
    public static let defaultColor = RGBA(r: 0xCB, g: 0xBF, b: 0xAE)
    /// The default spacing.
    public static let defaultSpacing = Length(5, .mm)

    public init(pattern: Pattern = .dots, spacing: Double, color: RGBA = Paper.defaultColor, margin: Double = 0) throws {
        guard FieldRules.paperSpacing.contains(spacing) else { throw ValueError("paper " + FieldRules.paperSpacing.refusalNamingField(spacing)) }
        guard FieldRules.margin.contains(margin) else { throw ValueError("paper " + FieldRules.margin.refusalNamingField(margin)) }
        self.pattern = pattern; self.spacing = spacing; self.color = color; self.margin = margin
    }
}

/// What lies under a page's elements, drawn colour, then image, then paper.
public struct Background: Hashable, Sendable {
    /// Base colour, or nil for transparent. Default white.
    public var color: RGBA?
    /// Image fill. Default nil.
    public var image: BackgroundImage?
    /// Ruled paper. Default nil.
    public var paper: Paper?
    public init(color: RGBA? = .white, image: BackgroundImage? = nil, paper: Paper? = nil) {
        self.color = color; self.image = image; self.paper = paper
    }
}
