// The one place where model values become raster values: colours, and the enums the two
// layers both name. Everything else in the renderer goes through these helpers.

import TechoModel
import TechoRaster
import TechoText

extension Color {
    /// The model's straight 8-bit colour as a raster colour, its alpha scaled by `opacity`.
    init(_ c: RGBA, opacity: Double = 1) {
        self.init(r: Double(c.r) / 255, g: Double(c.g) / 255, b: Double(c.b) / 255, a: Double(c.a) / 255 * opacity)
    }
}

extension Paint {
    /// A solid anti-aliased paint of a model colour.
    init(_ c: RGBA, opacity: Double = 1, blendMode: BlendMode = .sourceOver) {
        self.init(color: Color(c, opacity: opacity), blendMode: blendMode)
    }
}

extension TextAlign {
    init(_ a: TextContent.Align) {
        switch a {
        case .left: self = .left
        case .center: self = .center
        case .right: self = .right
        }
    }
}

extension TextStyle {
    /// The layout style of a text element.
    init(_ t: TextContent) {
        self.init(
            font: t.font, weight: t.weight, italic: t.italic, size: t.size, align: TextAlign(t.align),
            lineHeight: t.lineHeight, maxWidth: t.maxWidth, letterSpacing: t.letterSpacing)
    }
}

extension StrokeStyle {
    /// The line style of an ink stroke (`LineCap`, `LineJoin` and `FillRule` are TechoGeometry's
    /// own types, shared by the model and the raster).
    init(_ s: Stroke, cap: LineCap? = nil) {
        self.init(
            width: s.width, cap: cap ?? s.cap, join: s.join, miterLimit: s.miterLimit,
            dash: s.effectiveDash ?? [], dashOffset: s.dashOffset)
    }
}
