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

    /// A short name for the history step: `gesture a b c`, or `gesture 12 elements` past five.
    public static func describe(_ verb: String, _ ids: [String]) -> String {
        ids.count <= 5 ? "\(verb) \(ids.joined(separator: " "))" : "\(verb) \(ids.count) elements"
    }

    /// Applies `gestures` to the elements `ids` of `page` as a group (see the file's comment):
    /// all or nothing. Ink layers and locked elements are refused as one element's gesture is.
    public static func move(
        _ ids: [String], on page: inout Page, by gestures: [Gesture], renderer: PageRenderer,
        label: (Int, Gesture) -> String = { n, _ in "gesture \(n + 1)" }
    ) throws(EditError) {
        let idx = try indices(ids, on: page)
        for i in idx {
            guard page.elements[i].kind != .ink else { throw PageEdits.inkHasNoTransform(page.elements[i].id) }
            guard !page.elements[i].locked else { throw PageEdits.isLocked(page.elements[i].id) }
        }
        var boxes: [Rect] = []
        for i in idx {
            do { boxes.append(try ownBox(page.elements[i], renderer: renderer)) } catch {
                throw EditError(.invalid, "'\(page.elements[i].id)': \(error)")
            }
        }
        var placements = idx.map { page.elements[$0].placement }
        for (n, g) in gestures.enumerated() {
            // The group's centre now (the gestures before this one moved it).
            var union = Rect.null
            for (b, p) in zip(boxes, placements) { union = union.union(b.applying(p.transform)) }
            let c = union.isNull ? placements[0].center : union.center
            do {
                for k in placements.indices { placements[k] = try apply(g, to: placements[k], groupCentre: c) }
            } catch {
                throw EditError(.invalid, "\(label(n, g)): refused, nothing changed: \(error)")
            }
        }
        for (k, i) in idx.enumerated() { page.elements[i].placement = placements[k] }
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

    /// Removes the elements `ids` from the page.
    public static func remove(_ ids: [String], from page: inout Page) throws(EditError) {
        let chosen = Set(try indices(ids, on: page))
        page.elements = page.elements.indices.filter { !chosen.contains($0) }.map { page.elements[$0] }
    }
}
