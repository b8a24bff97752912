// The routes on single strokes of an ink layer, by their ids (docs/editor-api.md, "Strokes"):
// list them, restyle one, move one, remove one, and remove a set of them as one history step
// (the stroke eraser's drag). Each goes through `PageEdits`, as `techo set`, `gesture` and `rm`
// do, and names its history step as they do.
import TechoEditing
import TechoGeometry
import TechoModel
import TechoRender

extension EditorServer {
    /// `GET /api/pages/ID/strokes`: every stroke, in stacking order, with its layer and bounds.
    func strokeList(_ id: String) throws -> HTTPResponse {
        let s = try snapshot()
        let p = try page(id, in: s)
        var items: [JSONValue] = []
        for e in p.elements {
            guard case .ink(let ink) = e.content else { continue }
            for st in ink.strokes {
                var o: [String: JSONValue] = [
                    "id": .string(st.id ?? ""), "layer": .string(e.id), "tool": .string(st.tool.rawValue),
                    "color": .string(st.color.description), "width": .number(st.width), "opacity": .number(st.opacity),
                ]
                let b = try renderer.strokeBounds(st)
                if !b.isNull { o["bounds"] = [.number(b.minX), .number(b.minY), .number(b.width), .number(b.height)] }
                items.append(.object(o))
            }
        }
        return .json(200, ["revision": .number(Double(s.revision)), "strokes": .array(items)])
    }

    /// `PATCH /api/pages/ID/strokes/SID`: `{"color", "width", "opacity"}`, each optional.
    func setStroke(_ id: String, _ sid: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let (ctx, root) = try body(request)
        return try editPage(id, "set \(sid)") { p in
            _ = try PageEdits.strokeLocation(sid, on: p)
            guard let o = root.object() else { try ctx.throwIfProblems(); return }
            let color = o.optional("color")?.color()
            let width = o.optional("width")?.length(dpi: p.dpi, FieldRules.strokeWidth)
            let opacity = o.optional("opacity")?.number(FieldRules.opacity)
            o.finish()
            try ctx.throwIfProblems()
            guard color != nil || width != nil || opacity != nil else {
                throw EditError(.invalid, "request body: nothing to change; give color, width or opacity")
            }
            try PageEdits.restyleStroke(sid, color: color, width: width, opacity: opacity, on: &p)
        }
    }

    /// `POST /api/pages/ID/strokes/SID/gesture`: `{"events": [EVENT, …]}` as for an element.
    func strokeGesture(_ id: String, _ sid: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let (ctx, root) = try body(request)
        var gestures: [Gesture] = []
        if let o = root.object() {
            gestures = gestureEvents(o)
            o.finish()
        }
        try ctx.throwIfProblems()
        return try editPage(id, "gesture \(sid)") { p in
            try PageEdits.moveStroke(sid, on: &p, by: gestures, label: { n, _ in "events[\(n)]" })
        }
    }

    /// `DELETE /api/pages/ID/strokes/SID`.
    func removeStroke(_ id: String, _ sid: String) throws -> HTTPResponse {
        try editPage(id, "rm \(sid)") { p in
            _ = try PageEdits.strokeLocation(sid, on: p)
            try PageEdits.removeItems([sid], from: &p)
        }
    }

    /// `POST /api/pages/ID/strokes/erase`: `{"ids": [SID, …]}`, whole strokes removed as one
    /// step (the stroke eraser's drag); every id must be a stroke's, none twice.
    func eraseStrokes(_ id: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let (ctx, root) = try body(request)
        var ids: [String] = []
        if let o = root.object() {
            if let n = o.required("ids") {
                if case .array(let items) = n.value, items.count > PageEdits.maxStrokesPerRemoval {
                    n.report("\(items.count) ids is over the limit of \(PageEdits.maxStrokesPerRemoval)")
                } else if let items = n.array() {
                    ids = items.compactMap { $0.string() }
                    if items.isEmpty { n.report("expected at least one stroke id") }
                }
            }
            o.finish()
        }
        try ctx.throwIfProblems()
        return try editPage(id, "erase \(ids.count) stroke\(ids.count == 1 ? "" : "s")") { p in
            for sid in ids where p.index(of: sid) != nil {
                throw EditError(.invalid, "ids: '\(sid)' is an element, not a stroke")
            }
            try PageEdits.removeItems(ids, from: &p)
        }
    }

    /// At most this many points in one hit query (a stroke eraser's drag between two answers).
    static let maxHitPoints = 2_000
    /// The widest reach of a hit query, in page pixels.
    static let maxHitRadius = 1_000.0

    /// `POST /api/pages/ID/strokes/hit`: `{"points": [[x, y], …], "radius": R}` → the ids of the
    /// strokes within R page pixels of that point or polyline, topmost first, with their layers
    /// (`PageRenderer.strokesHit`). Reads only; changes nothing.
    func hitStrokes(_ id: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let (ctx, root) = try body(request)
        var points: [Point] = []
        var radius = 0.0
        if let o = root.object() {
            if let n = o.required("points") {
                if case .array(let items) = n.value, items.count > Self.maxHitPoints {
                    n.report("\(items.count) points is over the limit of \(Self.maxHitPoints)")
                } else if let items = n.array() {
                    if items.isEmpty { n.report("expected at least one point [x, y]") }
                    points = items.compactMap { $0.point().map { Point($0.0, $0.1) } }
                }
            }
            if let n = o.optional("radius") { radius = n.number(in: 0...Self.maxHitRadius) ?? 0 }
            o.finish()
        }
        try ctx.throwIfProblems()
        let s = try snapshot()
        let p = try page(id, in: s)
        let hits = try renderer.strokesHit(on: p, points: points, radius: radius)
        return .json(
            200,
            [
                "revision": .number(Double(s.revision)),
                "hits": .array(hits.map { .object(["id": .string($0.id), "layer": .string($0.layer)]) }),
            ])
    }
}
