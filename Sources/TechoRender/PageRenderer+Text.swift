// Text stickers: TechoText lays the text out in element space (origin at the box centre); the
// glyph outlines are filled through the element's full device transform, so text is vector-sharp
// at any scale, with the optional outline stroked under the fill and colour emoji drawn from the
// strike reduction nearest their device size.

import TechoModel
import TechoRaster
import TechoText

extension PageRenderer {
    func drawText(_ text: TextContent, element e: Element, canvas: Canvas, into out: inout ElementDrawing) throws {
        let laid = try layout(text)
        for w in laid.warnings { out.warnings.append("element \(e.id): \(w)") }
        guard !laid.glyphs.isEmpty else { return }
        let t = canvas.toDevice(e)
        let outlines = laid.outlinePath
        let images = laid.glyphs.filter(\.isImage)
        let draws = (outlines.isEmpty ? 0 : 1) + (text.outline == nil ? 0 : 1) + images.count
        if draws == 1 && images.isEmpty {
            out.marks.append(
                .prepared(
                    PreparedDraw(
                        filling: outlines, paint: Paint(text.color, opacity: e.opacity), transform: t,
                        width: canvas.width, height: canvas.height)))
            return
        }
        guard var layer = canvas.layer(coveringDevice: textBounds(laid, text).applying(t)) else { return }
        let local = layer.local(t)
        if let o = text.outline {
            // Twice the width: half of the pen lies under the glyph, the other half shows.
            let style = StrokeStyle(width: 2 * o.width, cap: .round, join: .round)
            layer.pixmap.stroke(outlines, style: style, paint: Paint(o.color), transform: local)
        }
        layer.pixmap.fill(outlines, paint: Paint(text.color), transform: local)
        for g in images { drawColorGlyph(g, transform: local, into: &layer.pixmap) }
        out.composite(layer, opacity: e.opacity)
    }

    /// A colour bitmap glyph (emoji keep their own colours and take no outline), from the
    /// strike reduction nearest its device size.
    private func drawColorGlyph(_ g: PlacedGlyph, transform: Transform, into target: inout Pixmap) {
        guard case .image(let glyph) = g.kind else { return }
        let full = g.transform.concatenating(transform)
        let (img, factor) = glyph.image(forScale: full.maxScale)
        target.draw(img, transform: Transform.scale(factor).concatenating(full), filter: .bilinear)
    }

    /// What a text element may cover in element space: the layout box and the glyph ink, with
    /// the outline's width around them.
    func textBounds(_ laid: LaidOutText, _ text: TextContent) -> Rect {
        var r = laid.bounds
        let ink = laid.inkBounds
        if !ink.isNull { r = r.union(ink) }
        return r.outset(by: (text.outline?.width ?? 0) + 1)
    }
}
