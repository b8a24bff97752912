// The operations on one stroke of an ink layer, by its id (docs/format.md, "Stroke ids"):
// remove, restyle and move, each as every front end calls it (the CLI's rm, set and gesture,
// the editor's server). A moved stroke has its points changed: strokes have no transform of
// their own (docs/decisions/stroke-ids.md).
import TechoModel

extension PageEdits {
    /// How many stroke ids one removal takes (a stroke eraser's drag over a crowded page).
    public static let maxStrokesPerRemoval = 10_000

    /// Where stroke `id` is on `page`, or `.notFound` naming it.
    public static func strokeLocation(_ id: String, on page: Page) throws(EditError) -> (element: Int, stroke: Int) {
        guard let at = page.strokeLocation(id) else { throw noItem(id, on: page) }
        return at
    }

    /// The refusal of an id that is neither an element's nor a stroke's on `page`.
    static func noItem(_ id: String, on page: Page) -> EditError {
        let ids = page.elements.map(\.id)
        let strokes = page.strokeIDs
        var message = "no element\(strokes.isEmpty ? "" : " or stroke") '\(id)' on page \(page.id)"
        if ids.isEmpty { message += " (the page is empty)" } else { message += "; elements: \(ids.joined(separator: ", "))" }
        if !strokes.isEmpty {
            message += "; strokes: " + strokes.prefix(20).joined(separator: ", ") + (strokes.count > 20 ? ", … (\(strokes.count) in all)" : "")
        }
        return EditError(.notFound, message)
    }

    /// Removes the elements and strokes `ids` (each an element's or a stroke's id on the page,
    /// none twice, at most `maxStrokesPerRemoval`): all or nothing. An ink layer whose last
    /// stroke goes stays, empty, so that drawing goes on into it.
    public static func removeItems(_ ids: [String], from page: inout Page) throws(EditError) {
        guard ids.count <= maxStrokesPerRemoval else {
            throw EditError(.tooLarge, "\(ids.count) ids is over the limit of \(maxStrokesPerRemoval) in one removal")
        }
        var seen = Set<String>()
        var strokes = Set<String>()
        var elements: [String] = []
        for id in ids {
            guard seen.insert(id).inserted else { throw EditError(.invalid, "'\(id)' is listed twice") }
            if page.index(of: id) != nil {
                elements.append(id)
            } else if page.strokeLocation(id) != nil {
                strokes.insert(id)
            } else {
                throw noItem(id, on: page)
            }
        }
        if !strokes.isEmpty {
            for i in page.elements.indices {
                guard case .ink(var ink) = page.elements[i].content else { continue }
                let n = ink.strokes.count
                ink.strokes.removeAll { $0.id.map(strokes.contains) ?? false }
                if ink.strokes.count != n { page.elements[i].content = .ink(ink) }
            }
        }
        for id in elements { page.elements.remove(at: try elementIndex(id, on: page)) }
    }

    /// Sets stroke `id`'s colour, width and opacity (nil: unchanged). An eraser's colour is not
    /// drawn, so it is refused.
    public static func restyleStroke(_ id: String, color: RGBA?, width: Double?, opacity: Double?, on page: inout Page) throws(EditError) {
        let (i, j) = try strokeLocation(id, on: page)
        guard case .ink(var ink) = page.elements[i].content else { return }
        var s = ink.strokes[j]
        if let color {
            guard s.tool != .eraser else { throw EditError(.invalid, field: "color", "stroke '\(id)' is an eraser stroke; it has no colour") }
            s.color = color
        }
        if let width {
            guard FieldRules.strokeWidth.contains(width) else { throw EditError(.invalid, field: "width", FieldRules.strokeWidth.refusal(width)) }
            s.width = width
        }
        if let opacity {
            guard FieldRules.opacity.contains(opacity) else { throw EditError(.invalid, field: "opacity", FieldRules.opacity.refusal(opacity)) }
            s.opacity = opacity
        }
        ink.strokes[j] = s
        page.elements[i].content = .ink(ink)
    }

    /// Applies `gestures` to stroke `id` (all or nothing) by moving its points: pan moves it;
    /// pinch scales it (its width too) and rotate and double-tap turn it, about its centre or
    /// `around`; flip mirrors it about its centre. A `path` stroke (SVG data) is not moved, a
    /// `rect` or `ellipse` turns only by quarter turns (it stays a box), and no gesture moves
    /// a stroke of a locked layer. `label` names gesture `n` in an error.
    public static func moveStroke(
        _ id: String, on page: inout Page, by gestures: [Gesture], label: (Int, Gesture) -> String = { n, _ in "gesture \(n + 1)" }
    ) throws(EditError) {
        let (i, j) = try strokeLocation(id, on: page)
        guard !page.elements[i].locked else { throw isLocked(page.elements[i].id) }
        guard case .ink(var ink) = page.elements[i].content else { return }
        var s = ink.strokes[j]
        guard s.tool != .path else {
            throw EditError(.invalid, "stroke '\(id)' is a path stroke; its SVG path data is not moved by gestures (change its \"d\")")
        }
        for (n, g) in gestures.enumerated() {
            do { s = try moved(s, by: g) } catch { throw EditError(.invalid, "\(label(n, g)): refused, nothing changed: \(error)") }
        }
        ink.strokes[j] = s
        page.elements[i].content = .ink(ink)
    }

    /// The centre of a stroke's geometry (its points' or ends' bounding box).
    public static func strokeCenter(_ s: Stroke) -> Point {
        let r = s.tool.usesPoints ? Rect.bounding(s.points.map(\.point)) : Rect.bounding([s.from ?? .zero, s.to ?? .zero])
        return Point(r.minX + r.width / 2, r.minY + r.height / 2)
    }

    /// `s` after gesture `g`, or a `ValueError` saying why not.
    static func moved(_ s: Stroke, by g: Gesture) throws -> Stroke {
        let c = strokeCenter(s)
        var t: Transform
        var widthScale = 1.0
        switch g {
        case .pan(let dx, let dy):
            guard dx.isFinite, dy.isFinite else { throw ValueError("pan (\(dx), \(dy)) is not finite") }
            t = .translation(dx, dy)
        case .pinch(let k, let around):
            guard k.isFinite, k > 0 else { throw ValueError("pinch scale \(k) must be a finite number > 0") }
            guard around?.isFinite ?? true else { throw ValueError("pinch point is not finite") }
            t = g.pageMatrix(center: c) ?? .identity
            widthScale = k
        case .rotate(let d, let around):
            guard d.isFinite else { throw ValueError("rotation \(d)° is not finite") }
            guard around?.isFinite ?? true else { throw ValueError("rotation point is not finite") }
            if s.tool == .rect || s.tool == .ellipse, d.truncatingRemainder(dividingBy: 90) != 0 {
                throw ValueError("a \(s.tool.rawValue) stroke stays a box: it turns by quarter turns only, not \(d)°")
            }
            t = g.pageMatrix(center: c) ?? .identity
        case .doubleTap:
            t = g.pageMatrix(center: c) ?? .identity
        case .flip(let axis):
            let m: Transform = axis == .h ? .scale(-1, 1) : .scale(1, -1)
            t = Transform.translation(-c.x, -c.y).concatenating(m).concatenating(.translation(c.x, c.y))
        }
        return try transformed(s, by: t, widthScale: widthScale)
    }

    /// `s` with its points (or ends) mapped by `t` and its pen width (and dashes) scaled by
    /// `widthScale`, or a `ValueError` when the result is not a valid stroke. One stroke's
    /// gesture and a group's (GroupEdits) both end here.
    static func transformed(_ s: Stroke, by t: Transform, widthScale: Double) throws -> Stroke {
        var out = s
        out.points = s.points.map { p in
            let q = t.apply(p.point)
            return StrokePoint(q.x, q.y, pressure: p.pressure)
        }
        out.from = s.from.map(t.apply)
        out.to = s.to.map(t.apply)
        out.width = s.width * widthScale
        if let dash = s.dash, widthScale != 1 { out.dash = dash.map { $0 * widthScale } }
        if widthScale != 1 { out.dashOffset = s.dashOffset * widthScale }
        if let (field, message) = out.problems().first { throw ValueError("\(field): \(message)") }
        return out
    }
}
