// Drawing laid-out text through a sticker's full transform: glyph outlines are filled as
// vectors (sharp under any rotation or scale), the optional outline is a stroke around them
// drawn under the fill, colour emoji are sampled from their bitmaps; with opacity below 1 all
// of it goes into one layer (bounding-box sized) composited once, as resvg does for groups.
import TechoGeometry
import TechoRaster

/// A stroke drawn around the glyphs, under their fill: the look of an outlined sticker title.
public struct TextOutline: Hashable, Sendable {
    /// The outline colour. Default: none (required).
    public var color: Color
    /// How far the outline reaches outside the glyph edge, element pixels (> 0). The stroke
    /// is twice as wide and centred on the edge; the fill covers its inner half. Default: none.
    public var width: Double

    public init(color: Color, width: Double) {
        self.color = color
        self.width = width
    }
}

extension LaidOutText {
    /// Draws the text into `pixmap` with the colour and outline of its style.
    public func draw(into pixmap: inout Pixmap, transform: Transform, opacity: Double = 1) {
        draw(into: &pixmap, transform: transform, color: style.color, opacity: opacity, outline: style.outline)
    }

    /// Draws the text into `pixmap`.
    ///
    /// - Parameters:
    ///   - transform: element space (origin at the box centre, y down) → pixmap pixels.
    ///   - color: the glyph fill; colour emoji keep their own colours.
    ///   - opacity: applied once to the whole text (0…1). Default 1.
    ///   - outline: a stroke around the outline glyphs, under the fill. Default nil.
    public func draw(
        into pixmap: inout Pixmap, transform: Transform, color: Color, opacity: Double = 1,
        outline: TextOutline? = nil
    ) {
        guard transform.isInvertible, opacity > 0, !glyphs.isEmpty else { return }
        let alpha = min(opacity, 1)
        let reach = max(0, outline?.width ?? 0) + 2
        let device = inkBounds.outset(by: reach).applying(transform)
            .intersection(Rect(x: 0, y: 0, width: Double(pixmap.width), height: Double(pixmap.height)))
        guard !device.isEmpty, device.isFinite else { return }
        if alpha >= 1 {
            drawGlyphs(into: &pixmap, transform: transform, color: color, outline: outline)
            return
        }
        // Isolate, then composite once: where the outline and the fill overlap, the text must
        // not get darker than `opacity` allows.
        let x0 = Int(device.minX.rounded(.down)), y0 = Int(device.minY.rounded(.down))
        let x1 = Int(device.maxX.rounded(.up)), y1 = Int(device.maxY.rounded(.up))
        var layer = Pixmap(width: max(1, x1 - x0), height: max(1, y1 - y0))
        drawGlyphs(
            into: &layer, transform: transform.concatenating(.translation(Double(-x0), Double(-y0))),
            color: color, outline: outline)
        pixmap.composite(layer, x: x0, y: y0, opacity: alpha)
    }

    private func drawGlyphs(into pixmap: inout Pixmap, transform: Transform, color: Color, outline: TextOutline?) {
        // One path per face: glyphs of one font share a winding convention, so nonzero
        // filling their union is exact even where glyphs touch (marks over bases).
        var byFace: [(FaceKey, Path)] = []
        for g in glyphs {
            guard let p = g.path else { continue }
            if let i = byFace.firstIndex(where: { $0.0 == g.face }) { byFace[i].1.append(p) } else { byFace.append((g.face, p)) }
        }
        if let outline, outline.width > 0, outline.width.isFinite {
            // Stroke in element space with a tolerance tightened by the transform's scale, so
            // the flattened outline stays within Path.defaultTolerance in device pixels.
            let tol = Path.defaultTolerance / max(transform.maxScale, 1e-6)
            let style = StrokeStyle(width: 2 * outline.width, cap: .round, join: .round)
            var band = Path()
            for (_, p) in byFace { band.append(p.stroked(style, tolerance: tol)) }
            // The stroker's pieces are positively oriented, so one nonzero fill covers the
            // whole outline once, even where the outlines of neighbouring glyphs overlap.
            pixmap.fill(band, paint: Paint(color: outline.color), rule: .nonZero, transform: transform)
        }
        for (_, p) in byFace {
            pixmap.fill(p, paint: Paint(color: color), rule: .nonZero, transform: transform)
        }
        for g in glyphs {
            guard case .image(let cg) = g.kind else { continue }
            let t = g.transform.concatenating(transform)
            let (img, factor) = cg.image(forScale: t.maxScale)
            pixmap.draw(img, transform: Transform.scale(factor).concatenating(t), opacity: 1, filter: .bilinear)
        }
    }
}
