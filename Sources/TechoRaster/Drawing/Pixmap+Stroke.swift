// Stroking: the geometry's stroker turns the pen into positively oriented convex pieces, which
// the nonzero fill covers exactly once, so translucent strokes never darken where they overlap.

import TechoGeometry

extension Pixmap {
    /// Strokes `path` with `style` (width, caps, joins, dashes in path units), mapped to device
    /// space by `transform`, and fills the outline with `paint`.
    ///
    /// The stroke is built in path space with a tolerance divided by the transform's largest
    /// scale, so a non-uniform transform stretches the pen as cairo and SVG do, and curves and
    /// round caps stay smooth at any export scale. A self-crossing stroke is covered once.
    ///
    /// - Parameters:
    ///   - transform: path space to pixels. Default identity.
    ///   - clip: only pixels inside the mask are drawn. Default none.
    public mutating func stroke(
        _ path: Path, style: StrokeStyle, paint: Paint,
        transform: Transform = .identity, clip: Mask? = nil
    ) {
        guard transform.isFinite else { return }
        let scale = transform.maxScale
        guard scale > 0 && scale.isFinite else { return }
        let outline = path.stroked(style, tolerance: rasterTolerance / scale)
        fill(outline, paint: paint, rule: .nonZero, transform: transform, clip: clip)
    }
}
