// The routes that change the journal. Each decodes its request into the model's own typed values
// (through the same JSON decoders as page files and gesture recordings, so errors name the field
// by its JSON path) and makes one transaction of the journal's store, with the description the
// matching CLI command gives its history step. A request that fails changes nothing.
import Foundation
import TechoEditing
import TechoExport
import TechoGeometry
import TechoModel

extension EditorServer {
    /// Parses a JSON request body.
    func body(_ request: HTTPRequest) throws -> (DecodingContext, JSONNode) {
        guard !request.body.isEmpty else { throw EditError(.invalid, "request body: expected a JSON object, got nothing") }
        let value = try JSONParser.parse(request.body, file: "request body")
        let ctx = DecodingContext(file: "request body")
        return (ctx, ctx.root(value))
    }

    /// Runs `edit` on page `id` as one history step, and answers with the new revision.
    func editPage(
        _ id: String, _ description: String, importing: [AssetImport] = [], extra: (inout [String: JSONValue]) -> Void = { _ in },
        _ edit: (inout Page) throws -> Void
    ) throws -> HTTPResponse {
        try PageEdits.editPage(id, of: store, description: description, importing: importing, edit)
        var o: [String: JSONValue] = ["revision": .number(Double(watcher.refresh()))]
        extra(&o)
        return .json(200, .object(o))
    }

    // MARK: Gestures, strokes, new elements

    /// At most this many events in one gesture.
    static let maxGestureEvents = 100_000

    /// The body's required `events`: gesture events, at most `EditorServer.maxGestureEvents`
    /// (each problem reported on the body's context).
    func gestureEvents(_ o: ObjectReader) -> [Gesture] {
        guard let events = o.required("events") else { return [] }
        if case .array(let items) = events.value, items.count > EditorServer.maxGestureEvents {
            events.report("\(items.count) events is over the limit of \(EditorServer.maxGestureEvents)")
            return []
        }
        return events.array()?.compactMap(GestureReplay.event) ?? []
    }

    func gesture(_ id: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let (ctx, root) = try body(request)
        var eid: String?
        var group: [String]?
        var strokes: [String]?
        var gestures: [Gesture] = []
        if let o = root.object() {
            // One element (`element`), or several moved as a group (`elements` and `strokes`),
            // not both.
            if o.has("elements") || o.has("strokes") {
                if o.has("element") { root.report("give \"element\" or \"elements\" and \"strokes\", not both") }
                group = o.has("elements") ? elementIDs(o.required("elements")) : []
                strokes = o.has("strokes") ? strokeIDs(o.required("strokes")) : []
            } else {
                eid = o.required("element")?.string()
            }
            gestures = gestureEvents(o)
            o.finish()
        }
        try ctx.throwIfProblems()
        let label: (Int, Gesture) -> String = { n, _ in "events[\(n)]" }
        if let group, let strokes {
            return try editPage(id, GroupEdits.describe("gesture", group, strokes: strokes)) { p in
                try GroupEdits.move(group, strokes: strokes, on: &p, by: gestures, renderer: renderer, label: label)
            }
        }
        guard let eid else { throw EditError(.invalid, "request body: missing element") }
        return try editPage(id, "gesture \(eid)") { p in try PageEdits.move(eid, on: &p, by: gestures, label: label) }
    }

    /// A body's list of stroke ids (`strokes`): strings, at most `GroupEdits.maxStrokeIDs`,
    /// each listed once; an empty list is refused. Unknown ids are the edit's to report.
    func strokeIDs(_ node: JSONNode?) -> [String]? {
        groupIDList(node, max: GroupEdits.maxStrokeIDs, empty: "expected at least one stroke id (leave strokes out for none)")
    }

    /// A body's list of element ids (`elements`): strings, at most `GroupEdits.maxIDs` of them,
    /// each listed once; an empty list is refused. Unknown ids are the edit's to report.
    func elementIDs(_ node: JSONNode?) -> [String]? {
        groupIDList(node, max: GroupEdits.maxIDs, empty: "expected at least one element id")
    }

    /// A list of at most `max` distinct id strings at `node`, each problem reported on it
    /// (`empty` when there are none); nil when the node is absent or not a list.
    private func groupIDList(_ node: JSONNode?, max: Int, empty: String) -> [String]? {
        guard let node else { return nil }
        if case .array(let items) = node.value, items.count > max {
            node.report("\(items.count) ids is over the limit of \(max)")
            return nil
        }
        guard let items = node.array() else { return nil }
        if items.isEmpty { node.report(empty) }
        var seen = Set<String>()
        var ids: [String] = []
        for item in items {
            guard let s = item.string() else { continue }
            if !seen.insert(s).inserted { item.report("'\(s.prefix(64))' is listed twice") }
            ids.append(s)
        }
        return ids
    }

    /// Moves several elements up or down the stack together (`elements`, and `by` or `to` as
    /// for one): one history step.
    func restackGroup(_ id: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let (ctx, root) = try body(request)
        var ids: [String]?
        var target: StackTarget?
        if let o = root.object() {
            ids = elementIDs(o.required("elements"))
            if let n = o.optional("by"), let v = n.integer(in: -1_000_000...1_000_000) {
                if v == 0 { n.report("must not be 0") } else { target = .by(v) }
            }
            if let n = o.optional("to"), let v = n.string() {
                if v == "top" { target = .top } else if v == "bottom" { target = .bottom } else { n.report("expected \"top\" or \"bottom\", got \"\(v)\"") }
            }
            if o.has("by") == o.has("to") { root.report("give \"by\" (places up, or down when negative) or \"to\" (\"top\" or \"bottom\"), one of them") }
            o.finish()
        }
        try ctx.throwIfProblems()
        guard let ids, let target else { throw EditError(.invalid, "request body: say which elements and where") }
        return try editPage(id, GroupEdits.describe(PageEdits.isRaise(target) ? "raise" : "lower", ids)) { p in
            try GroupEdits.restack(ids, on: &p, to: target)
        }
    }

    /// Removes several elements (`elements`) and strokes (`strokes`): one history step.
    func removeGroup(_ id: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let (ctx, root) = try body(request)
        var ids: [String]?
        var strokes: [String]?
        if let o = root.object() {
            if o.has("strokes") {
                strokes = strokeIDs(o.required("strokes"))
                ids = o.has("elements") ? elementIDs(o.required("elements")) : []
            } else {
                ids = elementIDs(o.required("elements"))
                strokes = []
            }
            o.finish()
        }
        try ctx.throwIfProblems()
        guard let ids, let strokes else { throw EditError(.invalid, "request body: missing elements") }
        return try editPage(id, GroupEdits.describe("rm", ids, strokes: strokes)) { p in try GroupEdits.remove(ids, strokes: strokes, from: &p) }
    }

    func draw(_ id: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let (ctx, root) = try body(request)
        var layer = ""
        // The step is named as `techo draw` names it; the decoder reports a bad tool.
        var tool = "stroke"
        if case .object(let o) = root.value, case .string(let t)? = o["tool"], let known = Stroke.Tool(rawValue: t) { tool = known.rawValue }
        return try editPage(id, "draw \(tool)", extra: { $0["id"] = .string(layer) }) { p in
            guard let stroke = Stroke.decode(drawing: root, dpi: p.dpi) else {
                try ctx.throwIfProblems()
                throw EditError(.invalid, "request body: not a stroke")
            }
            try ctx.throwIfProblems()
            layer = try PageEdits.draw(stroke, on: &p)
        }
    }

    func addElement(_ id: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let (ctx, root) = try body(request)
        if case .object(let o) = root.value, case .string(let type)? = o["type"], !["text", "washi"].contains(type) {
            throw EditError(.invalid, "type: '\(type)' elements are added by uploading the file (?type=image|photo&name=FILE) or drawing (POST …/draw)")
        }
        var added = ""
        let kind: String = {
            if case .object(let o) = root.value, case .string(let t)? = o["type"] { return t }; return "element"
        }()
        // `?anchor=top-left|top|top-right`: `at` is that point of a text's box, not its centre
        // (the text tool places the box where the user clicked).
        let anchor = try textAnchor(request, "anchor")
        if anchor != nil, kind != "text" { throw EditError(.invalid, "anchor: only a text is placed by an anchor") }
        return try editPage(id, "add \(kind)", extra: { $0["id"] = .string(added) }) { p in
            guard let e = Element.decode(root, addingTo: p) else { try ctx.throwIfProblems(); throw EditError(.invalid, "request body: not an element") }
            try ctx.throwIfProblems()
            var new = NewElement(id: e.id, content: e.content, placement: e.placement, opacity: e.opacity, hidden: e.hidden, clip: e.clip)
            new.locked = e.locked
            added = try PageEdits.add(new, to: &p, renderer: renderer)
            if let anchor {
                guard root.object()?.has("at") == true else { throw EditError(.invalid, "anchor: give the point it goes to as at") }
                try PageEdits.place(anchor, of: added, at: e.placement.center, on: &p, renderer: renderer)
            }
        }
    }

    /// The display name of an upload: the last part of `name`, without control characters.
    func displayName(_ request: HTTPRequest, key: String) throws -> String {
        let raw = request.query[key] ?? "upload"
        let last = raw.split(separator: "/").last.map(String.init) ?? "upload"
        let clean = String(last.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7f }.map(Character.init).prefix(200))
        guard !clean.isEmpty else { throw EditError(.invalid, "\(key): expected a file name such as photo.jpg") }
        return clean
    }

    func queryNumber(_ request: HTTPRequest, _ key: String, in range: ClosedRange<Double>) throws -> Double? {
        guard let text = request.query[key] else { return nil }
        guard let v = Double(text), v.isFinite, range.contains(v) else {
            throw EditError(.invalid, "\(key): expected a number from \(numberText(range.lowerBound)) to \(numberText(range.upperBound)), got '\(text)'")
        }
        return v
    }

    /// A picture upload: the body is the file's bytes, checked as `techo add` checks a file.
    func upload(_ id: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let type = request.query["type"] ?? ""
        guard type == "image" || type == "photo" else { throw EditError(.invalid, "type: expected image or photo, got '\(type)'") }
        let name = try displayName(request, key: "name")
        let x = try queryNumber(request, "x", in: -Placement.maxCoordinate...Placement.maxCoordinate)
        let y = try queryNumber(request, "y", in: -Placement.maxCoordinate...Placement.maxCoordinate)
        guard (x == nil) == (y == nil) else { throw EditError(.invalid, "x, y: give both or neither") }
        // Check the page exists before storing anything.
        let s = try snapshot()
        _ = try page(id, in: s)
        let picture = try PageEdits.preparePicture(request.body, name: name)
        let asset = picture.asset.ref
        var added = ""
        return try editPage(id, "add \(type) \(name)", importing: [picture.asset], extra: { $0["id"] = .string(added) }) { p in
            let image = try ImageContent(asset: asset, naturalWidth: picture.naturalWidth, naturalHeight: picture.naturalHeight)
            let content: Element.Content = type == "photo" ? .photo(PhotoContent(image: image)) : .image(image)
            added = try PageEdits.add(NewElement(content: content, center: x.map { Point($0, y ?? 0) }, fitToPage: true), to: &p, renderer: renderer)
        }
    }

    // MARK: Changing elements

    func setElement(_ id: String, _ eid: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let (ctx, root) = try body(request)
        let keep = try textAnchor(request, "keep")
        return try editPage(id, "set \(eid)") { p in
            _ = try PageEdits.elementIndex(eid, on: p)
            guard let o = root.object() else { try ctx.throwIfProblems(); return }
            var patch = ElementPatch()
            patch.opacity = o.optional("opacity")?.number(FieldRules.opacity)
            patch.hidden = o.optional("hidden")?.bool()
            patch.locked = o.optional("locked")?.bool()
            patch.at = o.optional("at")?.point().map { Point($0.0, $0.1) }
            patch.scale = o.optional("scale")?.number(FieldRules.scale)
            patch.rotate = o.optional("rotate")?.number(FieldRules.rotation)
            patch.text = o.optional("text")?.string()
            patch.font = o.optional("font")?.string()
            patch.size = o.optional("size")?.length(dpi: p.dpi, FieldRules.fontSize)
            patch.color = o.optional("color")?.color()
            patch.align = o.optional("align")?.choice(TextContent.Align.self)
            patch.weight = o.optional("weight")?.integer(FieldRules.weight)
            patch.italic = o.optional("italic")?.bool()
            if let n = o.optional("maxWidth") {
                if case .null = n.value { patch.maxWidth = .some(nil) } else if let v = n.length(dpi: p.dpi, FieldRules.maxWidth) { patch.maxWidth = .some(v) }
            }
            patch.lineHeight = o.optional("lineHeight")?.number(FieldRules.lineHeight)
            patch.letterSpacing = o.optional("letterSpacing")?.length(dpi: p.dpi, FieldRules.letterSpacing)
            if let n = o.optional("outline") {
                if case .null = n.value { patch.outline = .some(nil) } else if let v = Outline.decode(n, dpi: p.dpi) { patch.outline = .some(v) }
            }
            patch.frame = o.optional("frame")?.choice(PhotoContent.Frame.self)
            patch.radius = o.optional("radius")?.length(dpi: p.dpi, FieldRules.radius)
            patch.shadow = o.optional("shadow")?.bool()
            for (name, rule) in zip(PhotoContent.adjustmentRanges.map(\.0), FieldRules.adjustments) {
                if let v = o.optional(name)?.number(rule) { patch.adjustments[name] = v }
            }
            o.finish()
            try ctx.throwIfProblems()
            // `?keep=top-left|top|top-right`: that point of a text's box stays where it is on
            // the page while the box is laid out anew (edited in place, a side handle dragged).
            if let keep {
                try PageEdits.keeping(keep, of: eid, on: &p, renderer: renderer) { (q: inout Page) throws(EditError) in
                    try PageEdits.set(patch, on: eid, of: &q)
                }
            } else {
                try PageEdits.set(patch, on: eid, of: &p)
            }
        }
    }

    /// A text anchor from the query (`anchor`, `keep`), or nil when it is not given.
    func textAnchor(_ request: HTTPRequest, _ key: String) throws -> TextAnchor? {
        guard let v = request.query[key] else { return nil }
        guard let a = TextAnchor(rawValue: v) else {
            throw EditError(.invalid, "\(key): expected \(TextAnchor.allCases.map(\.rawValue).joined(separator: ", ")), got '\(v.prefix(40))'")
        }
        return a
    }

    func flip(_ id: String, _ eid: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let (ctx, root) = try body(request)
        var axis: FlipAxis?
        if let o = root.object() { axis = o.required("axis")?.choice(FlipAxis.self); o.finish() }
        try ctx.throwIfProblems()
        guard let axis else { throw EditError(.invalid, "request body: missing axis") }
        return try editPage(id, "gesture \(eid)") { p in try PageEdits.move(eid, on: &p, by: [.flip(axis)]) }
    }

    func restack(_ id: String, _ eid: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let (ctx, root) = try body(request)
        var target: StackTarget?
        if let o = root.object() {
            if o.has("by") && o.has("to") { root.report("give \"by\" or \"to\", not both") }
            if let n = o.optional("by"), let v = n.integer(in: -1_000_000...1_000_000) {
                if v == 0 { n.report("must not be 0") } else { target = .by(v) }
            }
            if let n = o.optional("to"), let v = n.string() {
                if v == "top" { target = .top } else if v == "bottom" { target = .bottom } else { n.report("expected \"top\" or \"bottom\", got \"\(v)\"") }
            }
            if !o.has("by") && !o.has("to") { root.report("missing \"by\" (places up, or down when negative) or \"to\" (\"top\" or \"bottom\")") }
            o.finish()
        }
        try ctx.throwIfProblems()
        guard let target else { throw EditError(.invalid, "request body: say where with by or to") }
        return try editPage(id, "\(PageEdits.isRaise(target) ? "raise" : "lower") \(eid)") { p in
            PageEdits.restack(try PageEdits.elementIndex(eid, on: p), on: &p, to: target)
        }
    }

    func removeElement(_ id: String, _ eid: String) throws -> HTTPResponse {
        try editPage(id, "rm \(eid)") { p in try PageEdits.remove([eid], from: &p) }
    }

    // MARK: Page-wide changes

    func background(_ id: String, _ request: HTTPRequest) throws -> HTTPResponse {
        if request.query["image"] != nil {
            let name = try displayName(request, key: "image")
            let mode =
                try request.query["mode"].map { m -> BackgroundImage.Mode in
                    guard let v = BackgroundImage.Mode(rawValue: m) else {
                        throw EditError(.invalid, "mode: expected one of \(BackgroundImage.Mode.allCases.map(\.rawValue).joined(separator: ", ")), got '\(m)'")
                    }
                    return v
                } ?? .tile
            let opacity = try queryNumber(request, "opacity", in: FieldRules.opacity.range) ?? 1
            let s = try snapshot()
            _ = try page(id, in: s)
            let picture = try PageEdits.preparePicture(request.body, name: name)
            var patch = BackgroundPatch()
            patch.image = picture.asset.ref
            patch.mode = mode
            patch.opacity = opacity
            return try editPage(id, "background \(id)", importing: [picture.asset]) { p in try PageEdits.setBackground(patch, of: &p) }
        }
        let (ctx, root) = try body(request)
        return try editPage(id, "background \(id)") { p in
            guard let o = root.object() else { try ctx.throwIfProblems(); return }
            var patch = BackgroundPatch()
            if let n = o.optional("color") {
                if case .null = n.value { patch.color = .some(nil) } else if let c = n.color() { patch.color = .some(c) }
            }
            if let n = o.optional("image") {
                if case .null = n.value { patch.removeImage = true } else { n.report("only null (remove the image) here; upload an image with ?image=FILE") }
            }
            patch.mode = o.optional("mode")?.choice(BackgroundImage.Mode.self)
            patch.opacity = o.optional("opacity")?.number(FieldRules.opacity)
            if let n = o.optional("paper") {
                if case .null = n.value {
                    patch.removePaper = true
                } else if let po = n.object() {
                    // A paper object without a pattern keeps the ruling there is, or dots.
                    patch.paper = po.optional("pattern")?.choice(Paper.Pattern.self) ?? p.background.paper?.pattern ?? .dots
                    patch.paperSpacing = po.optional("spacing")?.length(dpi: p.dpi, FieldRules.paperSpacing)
                    patch.paperColor = po.optional("color")?.color()
                    patch.paperMargin = po.optional("margin")?.length(dpi: p.dpi, FieldRules.margin)
                    po.finish()
                }
            }
            o.finish()
            try ctx.throwIfProblems()
            try PageEdits.setBackground(patch, of: &p)
        }
    }

    func clear(_ id: String, _ request: HTTPRequest) throws -> HTTPResponse {
        var scope = ClearScope.ink
        if !request.body.isEmpty {
            let (ctx, root) = try body(request)
            if let o = root.object() {
                if let s = o.optional("what")?.choice(ClearScope.self) { scope = s }
                o.finish()
            }
            try ctx.throwIfProblems()
        }
        return try editPage(id, PageEdits.description(of: scope)) { p in PageEdits.clear(scope, on: &p) }
    }

    func addPage(_ request: HTTPRequest) throws -> HTTPResponse {
        var wanted: String?, template: String?, after: String?
        if !request.body.isEmpty {
            let (ctx, root) = try body(request)
            if let o = root.object() {
                wanted = o.optional("id")?.identifier()
                template = o.optional("template")?.string()
                after = o.optional("after")?.string()
                o.finish()
            }
            try ctx.throwIfProblems()
        }
        let id = try PageEdits.addPage(to: store, id: wanted, after: after, builtinTemplate: template)
        return .json(200, ["revision": .number(Double(watcher.refresh())), "id": .string(id)])
    }

    func movePage(_ id: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let (ctx, root) = try body(request)
        var to: Int?
        if let o = root.object() { to = o.required("to")?.integer(in: 0...1_000_000); o.finish() }
        try ctx.throwIfProblems()
        guard let to else { throw EditError(.invalid, "request body: missing to") }
        return try changed { try PageEdits.movePage(id, to: to, in: store) }
    }

    func undo(redo: Bool) throws -> HTTPResponse {
        let step = try PageEdits.undo(store, redo: redo)
        return .json(
            200,
            [
                "revision": .number(Double(watcher.refresh())),
                redo ? "redid" : "undid": ["n": .number(Double(step.number)), "description": .string(step.description)],
            ])
    }
}
