// Changing a page's background: the one operation `techo background` and the editor's
// background routes decode into. The rules (a mode or an opacity needs an image; paper fields
// fill in from the paper there is, then the defaults; `blank` paper is no paper) are here once.
// Fields are named by the editor API's JSON paths (`paper.spacing`); the CLI relabels them.
import Foundation
import TechoModel

/// A change of a page's background: each nil field stays as it is.
public struct BackgroundPatch: Sendable, Equatable {
    /// The colour under everything; `.some(nil)` makes the page transparent.
    public var color: RGBA??
    /// A new image, imported with the change (its mode and opacity default to tile and 1).
    public var image: AssetRef?
    /// Removes the image.
    public var removeImage = false
    public var mode: BackgroundImage.Mode?
    /// The image's opacity, `FieldRules.opacity`.
    public var opacity: Double?
    /// The paper's ruling; `.blank` removes the paper.
    public var paper: Paper.Pattern?
    /// Removes the paper.
    public var removePaper = false
    /// The paper's spacing, pixels.
    public var paperSpacing: Double?
    public var paperColor: RGBA?
    /// The paper's unruled margin, pixels.
    public var paperMargin: Double?

    public init() {}

    /// Whether the patch changes nothing.
    public var isEmpty: Bool { self == BackgroundPatch() }

    /// Applies the patch to `background` of a page at `dpi`, all or nothing.
    /// - Throws: `EditError` `.invalid` naming the field: a mode or opacity without an image,
    ///   an image both given and removed, a value out of its range.
    public func apply(to background: inout Background, dpi: Double) throws(EditError) {
        var bg = background
        if let c = color { bg.color = c }
        if image != nil && removeImage { throw EditError(.invalid, field: "image", "give a new image or remove it, not both") }
        if removeImage { bg.image = nil }
        if let v = opacity, !FieldRules.opacity.contains(v) { throw EditError(.invalid, field: "opacity", FieldRules.opacity.refusal(v)) }
        if let asset = image {
            bg.image = try EditError.wrapping { try BackgroundImage(asset: asset, mode: mode ?? .tile, opacity: opacity ?? 1) }
        } else if mode != nil || opacity != nil {
            guard let old = bg.image else { throw EditError(.invalid, field: mode != nil ? "mode" : "opacity", "needs a background image") }
            bg.image = try EditError.wrapping { try BackgroundImage(asset: old.asset, mode: mode ?? old.mode, opacity: opacity ?? old.opacity) }
        }
        let paperFields = paper != nil || paperSpacing != nil || paperColor != nil || paperMargin != nil
        if removePaper && paperFields { throw EditError(.invalid, field: "paper", "give a paper or remove it, not both") }
        if removePaper { bg.paper = nil }
        if paperFields {
            let pattern = paper ?? bg.paper?.pattern ?? .dots
            if pattern == .blank {
                bg.paper = nil
            } else {
                let spacing = paperSpacing ?? bg.paper?.spacing ?? Paper.defaultSpacing.pixels(dpi: dpi)
                let margin = paperMargin ?? bg.paper?.margin ?? 0
                if !FieldRules.paperSpacing.contains(spacing) { throw EditError(.invalid, field: "paper.spacing", FieldRules.paperSpacing.refusal(spacing)) }
                if !FieldRules.margin.contains(margin) { throw EditError(.invalid, field: "paper.margin", FieldRules.margin.refusal(margin)) }
                bg.paper = try EditError.wrapping {
                    try Paper(pattern: pattern, spacing: spacing, color: paperColor ?? bg.paper?.color ?? Paper.defaultColor, margin: margin)
                }
            }
        }
        background = bg
    }
}

extension PageEdits {
    /// Applies `patch` to the background of `page`, all or nothing.
    public static func setBackground(_ patch: BackgroundPatch, of page: inout Page) throws(EditError) {
        try patch.apply(to: &page.background, dpi: page.dpi)
    }
}
