// Several elements at once (PRODUCT §13 "Selecting"): one gesture, restack or removal applied
// to a group of elements of one page, as one change (one history step when the caller runs it
// in one transaction). The CLI's `techo gesture J PAGE ID ID…` and the editor's group routes
// both come here.
//
// A group acts about its box: the union of its elements' own boxes (each element's natural
// size about its centre, under its transform: what the editor's selection frame outlines).
// Pan, pinch and rotate with a focal point act on each element exactly as on one; pinch and
// rotate without one act about the group box's centre (as a design tool scales and turns a
// multiple selection about the selection's centre); a double-tap turns the group +90° about
// that centre; a flip mirrors the group across the line through that centre (each element
// mirrored on the page, its place mirrored too), so the group's arrangement is mirrored as
// a whole, as Figma and tldraw flip several shapes.
//
// Strokes join a group beside elements (docs/editor.md, "Several at once"). A stroke has no
// transform of its own: each gesture moves its points as the single-stroke gesture does
// (StrokeEdits.swift), about the group's centre instead of its own. Its box in the group is its
// drawn bounds (pen width included, what `GET …/strokes` lists and the editor frames), carried
// by the gestures so far as an element's own box is carried by its placement. Raising and
// lowering leave strokes in their place in their ink layer: the restack routes take elements.
import Foundation
import TechoGeometry
import TechoModel
import TechoRender

/// A group of elements of one page, by id.
public enum GroupEdits {
    /// The most ids one group change takes: a page's element limit.
    public static var maxIDs: Int { ModelLimits.default.maxElementsPerPage }

    /// The indices of `ids` on `page`: each must be an element there, listed once, at most
    /// `maxIDs` of them. The unknown-id error is `PageEdits.elementIndex`'s.
    public static func indices(_ ids: [String], on page: Page) throws(EditError) -> [Int] {
        guard !ids.isEmpty else { throw EditError(.invalid, "elements: expected at least one element id") }
        guard ids.count <= maxIDs else { throw EditError(.tooLarge, "elements: \(ids.count) ids is over the limit of \(maxIDs)") }
        var seen = Set<String>()
        var out: [Int] = []
        for id in ids {
            guard seen.insert(id).inserted else { throw EditError(.invalid, "elements: '\(id)' is listed twice") }
            out.append(try PageEdits.elementIndex(id, on: page))
        }
        return out
    }

    /// An element's own box (its natural size about its centre), in its own space.
    public static func ownBox(_ e: Element, renderer: PageRenderer) throws -> Rect {
        let size: (Double, Double)
        switch e.content {
        case .image(let i): size = (i.naturalWidth, i.naturalHeight)
        case .photo(let p): size = p.crop.map { ($0.width, $0.height) } ?? (p.image.naturalWidth, p.image.naturalHeight)
        case .text(let text): size = try renderer.naturalSize(of: text)
        case .washi:
            var alone = e
            alone.placement = .identity
            let r = try renderer.drawnBounds(of: alone)
            size = r.isNull ? (0, 0) : (r.width, r.height)
        case .ink: size = (0, 0)
        }
        return Rect(x: -size.0 / 2, y: -size.1 / 2, width: size.0, height: size.1)
    }

    /// A short name for the history step: `gesture a b c`, or `gesture 12 elements` past five
    /// (`gesture 12 items` when strokes are among them).
    public static func describe(_ verb: String, _ ids: [String], strokes: [String] = []) -> String {
        let all = ids + strokes
        return all.count <= 5 ? "\(verb) \(all.joined(separator: " "))" : "\(verb) \(all.count) \(strokes.isEmpty ? "elements" : "items")"
    }

    /// The most stroke ids one group change takes (a marquee over a page of handwriting).
    public static var maxStrokeIDs: Int { PageEdits.maxStrokesPerRemoval }

    /// Where each stroke of `ids` is on `page`: each must be a stroke's id there (an element's id
    /// is refused, naming it), listed once, at most `maxStrokeIDs` of them. Errors start with
    /// `strokes:`, the body field the editor lists them in.
    public static func strokeLocations(_ ids: [String], on page: Page) throws(EditError) -> [(element: Int, stroke: Int)] {
        guard ids.count <= maxStrokeIDs else { throw EditError(.tooLarge, "strokes: \(ids.count) ids is over the limit of \(maxStrokeIDs)") }
        var seen = Set<String>()
        var out: [(element: Int, stroke: Int)] = []
        for id in ids {
            guard seen.insert(id).inserted else { throw EditError(.invalid, "strokes: '\(id)' is listed twice") }
            if page.index(of: id) != nil { throw EditError(.invalid, "strokes: '\(id)' is an element, not a stroke (list it under elements)") }
            guard let at = page.strokeLocation(id) else {
                let all = page.strokeIDs
                let more = all.count > 20 ? ", … (\(all.count) in all)" : ""
                let listed = all.isEmpty ? " (the page has no strokes)" : "; strokes: " + all.prefix(20).joined(separator: ", ") + more
                throw EditError(.notFound, "strokes: no stroke '\(id)' on page \(page.id)\(listed)")
            }
            out.append(at)
        }
        return out
    }

    /// The page without the elements and strokes `ids` (each either, listed once): what a
    /// group's gesture in flight is drawn over (`render?without=ID,ID,…`).
    public static func without(_ ids: [String], on page: inout Page) throws(EditError) {
        var elements: [String] = [], strokes: [String] = []
        for id in ids { if page.index(of: id) == nil && page.strokeLocation(id) != nil { strokes.append(id) } else { elements.append(id) } }
        if !elements.isEmpty { _ = try indices(elements, on: page) }
        _ = try strokeLocations(strokes, on: page)
        try PageEdits.removeItems(ids, from: &page)
    }

    /// Applies `gestures` to the elements `ids` and the strokes `strokes` of `page` as a group
    /// (see the file's comment): all or nothing. Ink layers and locked elements are refused as
    /// one element's gesture is; a stroke of a locked layer, a `path` stroke, or a `rect` or
    /// `ellipse` stroke turned by other than quarter turns as one stroke's gesture is.
    public static func move(
        _ ids: [String], strokes: [String] = [], on page: inout Page, by gestures: [Gesture], renderer: PageRenderer,
        label: (Int, Gesture) -> String = { n, _ in "gesture \(n + 1)" }
    ) throws(EditError) {
        guard !ids.isEmpty || !strokes.isEmpty else { throw EditError(.invalid, "elements: expected at least one element or stroke id") }
        let idx = ids.isEmpty ? [] : try indices(ids, on: page)
        let at = try strokeLocations(strokes, on: page)
        for i in idx {
            guard page.elements[i].kind != .ink else { throw PageEdits.inkHasNoTransform(page.elements[i].id) }
            guard !page.elements[i].locked else { throw PageEdits.isLocked(page.elements[i].id) }
        }
        var lines: [Stroke] = []
        for (sid, (i, j)) in zip(strokes, at) {
            let layer = page.elements[i]
            guard !layer.locked else {
                throw EditError(
                    .conflict, "'\(sid)': its ink layer '\(layer.id)' is locked; no gesture moves it (unlock it first: techo set --unlock, or the layers list)")
            }
            guard case .ink(let ink) = layer.content else { continue }
            let s = ink.strokes[j]
            guard s.tool != .path else {
                throw EditError(.invalid, "'\(sid)' is a path stroke; its SVG path data is not moved by gestures (change its \"d\")")
            }
            lines.append(s)
        }
        var boxes: [Rect] = []
        for i in idx {
            do { boxes.append(try ownBox(page.elements[i], renderer: renderer)) } catch {
                throw EditError(.invalid, "'\(page.elements[i].id)': \(error)")
            }
        }
        var strokeBoxes: [Rect] = []
        for (sid, s) in zip(strokes, lines) {
            var b: Rect
            do { b = try renderer.strokeBounds(s) } catch { throw EditError(.invalid, "'\(sid)': \(error)") }
            if b.isNull || !b.width.isFinite || !b.height.isFinite {
                let c = PageEdits.strokeCenter(s)
                b = Rect(x: c.x, y: c.y, width: 0, height: 0)
            }
            strokeBoxes.append(b)
        }
        var placements = idx.map { page.elements[$0].placement }
        // What the gestures so far did to each stroke, and how much they scaled its width.
        var carried = [Transform](repeating: .identity, count: lines.count)
        var widthScale = [Double](repeating: 1, count: lines.count)
        for (n, g) in gestures.enumerated() {
            // The group's centre now (the gestures before this one moved it).
            var union = Rect.null
            for (b, p) in zip(boxes, placements) { union = union.union(b.applying(p.transform)) }
            for (b, t) in zip(strokeBoxes, carried) { union = union.union(b.applying(t)) }
            let c = union.isNull ? (placements.first?.center ?? .zero) : union.center
            do {
                for k in placements.indices { placements[k] = try apply(g, to: placements[k], groupCentre: c) }
                if !lines.isEmpty {
                    let (t, ws) = try strokeTransform(g, groupCentre: c)
                    for (k, s) in lines.enumerated() {
                        if case .rotate(let d, _) = g, s.tool == .rect || s.tool == .ellipse, d.truncatingRemainder(dividingBy: 90) != 0 {
                            throw ValueError("'\(strokes[k])': a \(s.tool.rawValue) stroke stays a box: it turns by quarter turns only, not \(d)°")
                        }
                        carried[k] = carried[k].concatenating(t)
                        widthScale[k] *= ws
                    }
                }
            } catch {
                throw EditError(.invalid, "\(label(n, g)): refused, nothing changed: \(error)")
            }
        }
        for (k, i) in idx.enumerated() { page.elements[i].placement = placements[k] }
        for (k, (i, j)) in at.enumerated() {
            guard case .ink(var ink) = page.elements[i].content else { continue }
            do { ink.strokes[j] = try PageEdits.transformed(lines[k], by: carried[k], widthScale: widthScale[k]) } catch {
                throw EditError(.invalid, "'\(strokes[k])': refused, nothing changed: \(error)")
            }
            page.elements[i].content = .ink(ink)
        }
    }

    /// What gesture `g` does to the points of a stroke in a group centred at `c` (the page
    /// matrix an element's placement gets, about `c` where the gesture names no point), and the
    /// factor it scales the pen's width by.
    static func strokeTransform(_ g: Gesture, groupCentre c: Point) throws -> (Transform, Double) {
        switch g {
        case .pan(let dx, let dy):
            guard dx.isFinite, dy.isFinite else { throw ValueError("pan (\(dx), \(dy)) is not finite") }
            return (.translation(dx, dy), 1)
        case .pinch(let k, let around):
            guard k.isFinite, k > 0 else { throw ValueError("pinch scale \(k) must be a finite number > 0") }
            guard around?.isFinite ?? true else { throw ValueError("pinch point is not finite") }
            return (g.pageMatrix(center: c) ?? .identity, k)
        case .rotate(let d, let around):
            guard d.isFinite else { throw ValueError("rotation \(d)° is not finite") }
            guard around?.isFinite ?? true else { throw ValueError("rotation point is not finite") }
            return (g.pageMatrix(center: c) ?? .identity, 1)
        case .doubleTap: return (g.pageMatrix(center: c) ?? .identity, 1)
        case .flip(let axis):
            let m: Transform = axis == .h ? .scale(-1, 1) : .scale(1, -1)
            return (Transform.translation(-c.x, -c.y).concatenating(m).concatenating(.translation(c.x, c.y)), 1)
        }
    }

    /// One gesture on one member of a group whose box is centred at `c`.
    static func apply(_ g: Gesture, to p: Placement, groupCentre c: Point) throws -> Placement {
        switch g {
        case .pan: return try p.applying(g)
        case .pinch(let s, let around): return try p.applying(.pinch(scale: s, around: around ?? c))
        case .rotate(let d, let around): return try p.applying(.rotate(degrees: d, around: around ?? c))
        case .doubleTap: return try p.applying(.rotate(degrees: 90, around: c))
        case .flip(let axis):
            // Mirrored on the page across the group's centre line: in the element's own frame
            // that is its own flip with its rotation negated, and its centre mirrored.
            var q = try p.applying(.flip(axis))
            q = try q.applying(.rotate(degrees: -2 * p.rotation, around: nil))
            let d = axis == .h ? (2 * (c.x - p.center.x), 0.0) : (0.0, 2 * (c.y - p.center.y))
            return try q.applying(.pan(dx: d.0, dy: d.1))
        }
    }

    /// Moves the elements `ids` within the stack together: `.by(n)` moves each |n| places up
    /// (or down), never past another member, so the group keeps its own order; `.top` and
    /// `.bottom` put the whole group there in its order.
    public static func restack(_ ids: [String], on page: inout Page, to target: StackTarget) throws(EditError) {
        let chosen = Set(try indices(ids, on: page))
        var order = Array(page.elements.indices)
        var member = order.map { chosen.contains($0) }
        switch target {
        case .top, .bottom:
            let inGroup = order.filter { chosen.contains($0) }, rest = order.filter { !chosen.contains($0) }
            order = PageEdits.isRaise(target) ? rest + inGroup : inGroup + rest
        case .by(let n):
            let steps = min(abs(n), page.elements.count)
            for _ in 0..<steps {
                if n > 0 {
                    for i in stride(from: order.count - 2, through: 0, by: -1) where member[i] && !member[i + 1] {
                        order.swapAt(i, i + 1)
                        member.swapAt(i, i + 1)
                    }
                } else {
                    for i in 1..<max(1, order.count) where member[i] && !member[i - 1] {
                        order.swapAt(i, i - 1)
                        member.swapAt(i, i - 1)
                    }
                }
            }
        }
        page.elements = order.map { page.elements[$0] }
    }

    /// Removes the elements `ids` and the strokes `strokes` from the page (an ink layer whose
    /// last stroke goes stays, empty).
    public static func remove(_ ids: [String], strokes: [String] = [], from page: inout Page) throws(EditError) {
        guard !ids.isEmpty || !strokes.isEmpty else { throw EditError(.invalid, "elements: expected at least one element or stroke id") }
        let chosen = Set(ids.isEmpty ? [] : try indices(ids, on: page))
        _ = try strokeLocations(strokes, on: page)
        if !strokes.isEmpty { try PageEdits.removeItems(strokes, from: &page) }
        page.elements = page.elements.indices.filter { !chosen.contains($0) }.map { page.elements[$0] }
    }
}
