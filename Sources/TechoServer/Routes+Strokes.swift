// The routes on single strokes of an ink layer, by their ids (docs/editor-api.md, "Strokes"):
// list them, restyle one, move one, remove one, and remove a set of them as one history step
// (the stroke eraser's drag). Each goes through `PageEdits`, as `techo set`, `gesture` and `rm`
// do, and names its history step as they do.
import TechoEditing
import TechoExport
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

extension EditorServer {
    /// `GET /api/pages/ID/strokes/SID/render?scale=S`: what the editor draws while a picked
    /// stroke is dragged. `part=stroke` (the default) is the stroke alone, on nothing, over its
    /// drawn bounds only: `X-Techo-Sprite: x,y,w,h` is the rectangle it covers in page pixels.
    /// `part=rest` is the whole page without that stroke, or with `region=x,y,w,h` that part of
    /// it at the scale on screen (a zoomed view), as the page's own render answers it.
    func renderStroke(_ id: String, _ sid: String, _ request: HTTPRequest) throws -> HTTPResponse {
        // A misspelt parameter (`sacle=2`) would otherwise be a render at the default, silently.
        for name in request.query.keys.sorted() where !Self.strokeRenderParameters.contains(name) {
            throw EditError(.invalid, "'\(name)': not a parameter of this route; it takes scale, part and region")
        }
        let scale = try renderScale(request)
        let part = request.query["part"] ?? "stroke"
        guard ["stroke", "rest"].contains(part) else { throw EditError(.invalid, "part: expected stroke or rest, got '\(part)'") }
        let region = try renderRegion(request, scale: scale)
        if region != nil && part == "stroke" { throw EditError(.invalid, "region: only with part=rest (the stroke alone covers its own bounds)") }
        let r = region.map { "\($0.x),\($0.y),\($0.width),\($0.height)" } ?? ""
        return try renderQueue.answer("stroke \(id) \(sid) \(scale) \(part) \(r)") {
            try self.renderStrokeNow(id, sid, scale: scale, part: part, region: region)
        }
    }

    /// The query parameters the stroke render route takes (`token` is how a browser's image
    /// request carries the token).
    static let strokeRenderParameters: Set<String> = ["scale", "part", "region", "token"]

    /// The stroke's picture or the page without it, as it is now (the render queue's job).
    func renderStrokeNow(
        _ id: String, _ sid: String, scale: Double, part: String, region: (x: Int, y: Int, width: Int, height: Int)?
    ) throws -> HTTPResponse {
        let s = try snapshot()
        let full = try page(id, in: s)
        if let e = full.elements.first(where: { $0.id == sid }) {
            // An element's id where a stroke's is wanted: say what it is, and which strokes there are.
            let what = e.kind == .ink ? "an ink layer (its strokes are rendered one by one)" : "\(e.kind == .image ? "an" : "a") \(e.kind.rawValue)"
            let strokes = full.strokeIDs
            let listed =
                strokes.isEmpty
                ? "the page has no strokes" : "strokes: " + strokes.prefix(20).joined(separator: ", ") + (strokes.count > 20 ? ", …" : "")
            throw EditError(.notFound, "'\(sid)' is \(what) on page \(id), not a stroke; \(listed)")
        }
        let at = try PageEdits.strokeLocation(sid, on: full)
        guard case .ink(var ink) = full.elements[at.element].content else { throw EditError(.notFound, "no stroke '\(sid)' on page \(id)") }
        let size = try renderer.resolvedSize(of: full)
        var p = full
        p.size = PageSize(fixing: p.size, width: size.width, height: size.height)
        // The whole render's size in device pixels, which every region is clipped to.
        let w = Int((size.width * scale).rounded()), h = Int((size.height * scale).rounded())
        var area = region
        if part == "rest" {
            ink.strokes.remove(at: at.stroke)
            p.elements[at.element].content = .ink(ink)
        } else {
            let stroke = ink.strokes[at.stroke]
            ink.strokes = [stroke]
            var e = p.elements[at.element]
            e.content = .ink(ink)
            e.hidden = false
            e.clip = nil
            p.elements = [e]
            p.background = Background(color: nil)
            // Its drawn bounds, outward to whole device pixels and one more for the antialiasing.
            let b = try renderer.strokeBounds(stroke)
            guard !b.isNull, b.width.isFinite, b.height.isFinite else { throw EditError(.notFound, "stroke '\(sid)' draws nothing") }
            let x0 = max(0, Int((b.minX * scale).rounded(.down)) - 1), y0 = max(0, Int((b.minY * scale).rounded(.down)) - 1)
            let x1 = min(w, Int((b.maxX * scale).rounded(.up)) + 1), y1 = min(h, Int((b.maxY * scale).rounded(.up)) + 1)
            guard x1 > x0, y1 > y0 else { throw EditError(.notFound, "stroke '\(sid)' draws nothing on the page") }
            guard x1 - x0 <= Self.maxRegionSide, y1 - y0 <= Self.maxRegionSide, (x1 - x0) * (y1 - y0) <= Self.maxRegionPixels else {
                throw EditError(
                    .invalid,
                    "scale: stroke '\(sid)' at scale \(numberText(scale)) is \(x1 - x0)x\(y1 - y0) px; the limit is \(Self.maxRegionSide) px a side and \(Self.maxRegionPixels) pixels"
                )
            }
            area = (x0, y0, x1 - x0, y1 - y0)
        }
        var headers: [(String, String)] = []
        if let a = area {
            let x0 = max(0, a.x), y0 = max(0, a.y), x1 = min(w, a.x + a.width), y1 = min(h, a.y + a.height)
            guard x1 > x0, y1 > y0 else {
                throw EditError(.invalid, "region: \(a.width)x\(a.height) px at \(a.x),\(a.y) is outside the page (\(w)x\(h) px at scale \(numberText(scale)))")
            }
            headers.append(("X-Techo-Region", "\(x0),\(y0),\(x1 - x0),\(y1 - y0)"))
            if part == "stroke" {
                let n = numberText
                let sx = Double(x0) / scale, sy = Double(y0) / scale
                headers.append(("X-Techo-Sprite", "\(n(sx)),\(n(sy)),\(n(Double(x1) / scale - sx)),\(n(Double(y1) / scale - sy))"))
            }
        }
        let variant = "stroke-\(part):\(sid)" + (area.map { " region:\($0.x),\($0.y),\($0.width),\($0.height)" } ?? "")
        let entry = try renders.render(RenderCache.Key(page: full, scale: scale, variant: variant)) {
            var seconds = (render: 0.0, encode: 0.0)
            let bytes =
                if let area {
                    try PageBytes.png(of: p, scale: scale, region: area, renderer: renderer, seconds: &seconds)
                } else {
                    try PageBytes.png(of: p, scale: scale, renderer: renderer, forScreen: true, seconds: &seconds)
                }
            return RenderCache.Entry(png: bytes, headers: headers)
        }
        return png(entry.png, extra: entry.headers + [("X-Techo-Revision", String(s.revision))])
    }
}
