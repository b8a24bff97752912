// How a text sticker looks: the fields of the product's `text` element that shape and lay out.
import TechoRaster

/// Horizontal alignment of each line inside the text box.
public enum TextAlign: String, Hashable, Sendable, CaseIterable { case left, center, right }

/// The style of a text sticker.
///
/// Validated by `TextLayout.layout`, which throws `TextError.invalid(field:…)` naming the field.
public struct TextStyle: Hashable, Sendable {
    /// Font family resolved through fontconfig ("Noto Sans CJK JP", "serif"), or the path of a
    /// font file (`path#N` for face N of a collection). Default "sans-serif".
    public var font: String
    /// A font file to use before the family (a font imported into a journal), or nil. Default nil.
    public var fontFile: String? = nil
    /// Weight 100…900 (400 regular, 700 bold). Default 400.
    public var weight: Int
    /// Italic. Default false.
    public var italic: Bool
    /// Font size: pixels per em, 1…2000. Default 32.
    public var size: Double
    /// Line alignment. Default `.left`.
    public var align: TextAlign
    /// Distance between baselines as a multiple of `size`, > 0 and ≤ 10. Default 1.2 (the
    /// CSS `normal` of most Latin fonts; CJK journal text often looks better at 1.4–1.6).
    public var lineHeight: Double
    /// Wrap width in pixels (> 0), or nil for no wrapping. Default nil.
    public var maxWidth: Double?
    /// Extra space after every character, pixels (may be negative). Default 0.
    public var letterSpacing: Double
    /// Glyph colour (colour emoji keep their own). Default opaque black.
    public var color: Color
    /// A stroke around the glyphs, under the fill, or nil. Default nil.
    public var outline: TextOutline?

    public init(
        font: String = "sans-serif", weight: Int = 400, italic: Bool = false, size: Double = 32,
        align: TextAlign = .left, lineHeight: Double = 1.2, maxWidth: Double? = nil,
        letterSpacing: Double = 0, color: Color = .black, outline: TextOutline? = nil
    ) {
        self.font = font
        self.weight = weight
        self.italic = italic
        self.size = size
        self.align = align
        self.lineHeight = lineHeight
        self.maxWidth = maxWidth
        self.letterSpacing = letterSpacing
        self.color = color
        self.outline = outline
    }

    /// The font request this style makes.
    public var fontRequest: FontRequest { FontRequest(family: font, file: fontFile, weight: weight, italic: italic) }
}
