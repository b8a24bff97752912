// Ink layers (docs/contract.md §4). Each ink element is drawn into its own transparent, bbox-sized
// layer and composited once, so an eraser (destination-out with its smoothed outline) clears only
// that layer and reveals whatever lies beneath. Every stroke is one nonzero fill of its outline
// (the stroker's pieces are covered once), so a translucent stroke never darkens where it
// crosses itself.
//
// Highlighters: their strokes go to a second layer of the same ink element, composited with
// multiply *under* the element's pen strokes: on paper a highlighter dulls nothing drawn in ink,
// whatever order the strokes were made in. Erasers clear both layers.

import TechoModel
import TechoRaster

extension PageRenderer {
    func drawInk(_ ink: InkContent, element e: Element, canvas: Canvas, into out: inout ElementDrawing) throws {
        var bounds = Rect.null
        for (i, s) in ink.strokes.enumerated() where s.tool != .eraser {
            do { bounds = bounds.union(try strokeBounds(s)) } catch {
                throw RenderError(pageID: canvas.page.id, elementID: e.id, message: "strokes[\(i)]: \(error)")
            }
        }
        guard !bounds.isNull, var pen = canvas.layer(coveringDevice: bounds.applying(canvas.device)) else { return }
        var marker: Layer?
        var hasPen = false
        let local = pen.local(canvas.device)
        let tolerance = 0.05 / canvas.scale
        for (i, s) in ink.strokes.enumerated() {
            switch s.tool {
            case .eraser:
                let outline = Pencil(width: s.width).outline(s.points.map(pencilPoint), tolerance: tolerance)
                let paint = Paint(color: .black, blendMode: .destinationOut)
                pen.pixmap.fill(outline, paint: paint, transform: local)
                marker?.pixmap.fill(outline, paint: paint, transform: local)
            case .highlighter:
                if marker == nil { marker = Layer(x0: pen.x0, y0: pen.y0, pixmap: Pixmap(width: pen.pixmap.width, height: pen.pixmap.height)) }
                let path = s.points.count == 1 ? Path.polyline([s.points[0].point]) : Pencil.smoothPath(through: s.points.map(\.point))
                // Flat chisel ends: a highlighter's felt tip is cut square.
                var style = StrokeStyle(s, cap: .butt)
                if s.points.count == 1 { style.cap = .square }
                marker?.pixmap.stroke(path, style: style, paint: Paint(s.color, opacity: s.opacity), transform: local)
            default:
                hasPen = true
                do { try drawStroke(s, into: &pen.pixmap, transform: local, tolerance: tolerance) } catch {
                    throw RenderError(pageID: canvas.page.id, elementID: e.id, message: "strokes[\(i)]: \(error)")
                }
            }
        }
        if let marker { out.composite(marker, opacity: e.opacity, blendMode: .multiply) }
        if hasPen { out.composite(pen, opacity: e.opacity) }
    }

    /// What a pen stroke (not eraser or highlighter) is, as the raster and the PDF both draw it.
    enum PenGeometry {
        /// Pressure varies the width: the pencil's variable-width outline, filled.
        case pressureOutline(Path)
        /// A path stroked with the stroke's style (and filled, for a filled shape).
        case shape(Path)
        /// Nothing a pen draws (the highlighter and the eraser are drawn apart).
        case none
    }

    /// The geometry of pen stroke `s`, the one place the raster and the vector PDF take it from.
    func penGeometry(_ s: Stroke, tolerance: Double) throws -> PenGeometry {
        switch s.tool {
        case .pencil:
            let hasPressure = s.points.contains { $0.pressure != nil }
            if hasPressure && StrokeStyle(s).dash.isEmpty && s.cap == .round && s.join == .round {
                return .pressureOutline(Pencil(width: s.width).outline(s.points.map(pencilPoint), tolerance: tolerance))
            }
            return .shape(s.points.count == 1 ? .polyline([s.points[0].point]) : Pencil.smoothPath(through: s.points.map(\.point)))
        case .line, .dash: return .shape(.polyline([s.from ?? .zero, s.to ?? .zero]))
        case .rect: return .shape(.rect(Rect.bounding([s.from ?? .zero, s.to ?? .zero])))
        case .ellipse: return .shape(.ellipse(in: Rect.bounding([s.from ?? .zero, s.to ?? .zero])))
        case .path:
            do { return .shape(try Path(svgPathData: s.d ?? "")) } catch { throw InkFailure("d: \(error)") }
        case .highlighter, .eraser: return .none
        }
    }

    /// One pen stroke (not eraser or highlighter) into `target`.
    private func drawStroke(_ s: Stroke, into target: inout Pixmap, transform: Transform, tolerance: Double) throws {
        let paint = Paint(s.color, opacity: s.opacity)
        let style = StrokeStyle(s)
        let shape: Path
        switch try penGeometry(s, tolerance: tolerance) {
        case .pressureOutline(let outline):
            target.fill(outline, paint: paint, transform: transform)
            return
        case .shape(let p): shape = p
        case .none: return
        }
        guard let fill = s.fill, s.tool == .rect || s.tool == .ellipse || s.tool == .path else {
            target.stroke(shape, style: style, paint: paint, transform: transform)
            return
        }
        if s.opacity >= 1 {
            target.fill(shape, paint: Paint(fill), rule: s.fillRule, transform: transform)
            target.stroke(shape, style: style, paint: paint, transform: transform)
            return
        }
        // Fill and outline overlap along the inner half of the pen: group them so the
        // stroke's opacity applies once.
        let b = try strokeBounds(s).applying(transform)
        let box = IntRect(
            x0: Int(b.minX.rounded(.down)) - 1, y0: Int(b.minY.rounded(.down)) - 1,
            x1: Int(b.maxX.rounded(.up)) + 1, y1: Int(b.maxY.rounded(.up)) + 1
        )
        .intersection(IntRect(x0: 0, y0: 0, x1: target.width, y1: target.height))
        guard !box.isEmpty else { return }
        var group = Pixmap(width: box.width, height: box.height)
        let t = transform.concatenating(.translation(Double(-box.x0), Double(-box.y0)))
        group.fill(shape, paint: Paint(fill), rule: s.fillRule, transform: t)
        group.stroke(shape, style: style, paint: Paint(s.color), transform: t)
        target.composite(group, x: box.x0, y: box.y0, opacity: s.opacity)
    }

    /// A stroke's page-space bounds, pen width (and miter spikes) included.
    public func strokeBounds(_ s: Stroke) throws -> Rect {
        var r: Rect
        switch s.tool {
        case .pencil, .highlighter, .eraser:
            // The smoothing spline the stroke is drawn along, which may bulge a little beyond
            // its points: its exact bounds (curve extrema included).
            let points = s.points.map(\.point)
            r = Rect.bounding(points)
            if points.count > 1 { r = r.union(Pencil.smoothPath(through: points).bounds) }
        case .line, .dash, .rect, .ellipse: r = Rect.bounding([s.from ?? .zero, s.to ?? .zero])
        case .path:
            do { r = try Path(svgPathData: s.d ?? "").bounds } catch { throw InkFailure("d: \(error)") }
        }
        if r.isNull { return r }
        let reach = s.join == .miter ? max(1, s.miterLimit) : 1.5
        return r.outset(by: s.width / 2 * reach + 1)
    }

    private func pencilPoint(_ p: StrokePoint) -> PencilPoint { PencilPoint(p.point, pressure: p.pressure) }
}

/// An ink stroke that cannot be drawn (bad SVG path data).
struct InkFailure: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}
