// The clipboard's routes (docs/editor-api.md, "Clipboard"): `copy` gathers what is selected on a
// page into one self-contained JSON value (the elements as the page file stores them, the strokes
// whole, the bytes of their pictures and fonts), which the editor puts on the system clipboard;
// with `cut` it also removes them, one history step. `paste` adds such a value to any page of any
// journal, moved by a vector, as one history step: pictures and fonts are probed as any upload,
// every id is new on the page, and anything wrong refuses the whole paste.
import Foundation
import TechoEditing
import TechoGeometry
import TechoModel

extension EditorServer {
    /// At most this many elements, strokes and pictures in one copy or paste.
    static let clipboardMaxElements = 1000
    static let clipboardMaxStrokes = PageEdits.maxStrokesPerRemoval
    static let clipboardMaxAssets = 100
    /// The bytes of pictures and fonts a copy carries in all (base64 makes them a third larger,
    /// and the whole value must stay within the 8 MB of a JSON body); a picture past this
    /// travels by its name only, so it pastes into this journal but not another.
    static let clipboardAssetBytes = 5 * 1024 * 1024

    /// `POST /api/pages/ID/copy` with `{"elements": [EID, …], "strokes": [SID, …], "cut": bool}`:
    /// `{"clipboard": VALUE}` (and, for a cut, the new `revision`).
    func copy(_ id: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let (ctx, root) = try body(request)
        var elementIDs: [String] = []
        var strokeIDs: [String] = []
        var cut = false
        if let o = root.object() {
            elementIDs = idList(o.optional("elements"), max: EditorServer.clipboardMaxElements)
            strokeIDs = idList(o.optional("strokes"), max: EditorServer.clipboardMaxStrokes)
            cut = o.optional("cut")?.bool() ?? false
            o.finish()
        }
        try ctx.throwIfProblems()
        guard !elementIDs.isEmpty || !strokeIDs.isEmpty else { throw EditError(.invalid, "request body: nothing to copy: give elements or strokes") }
        let s = try snapshot()
        let p = try page(id, in: s)
        let value = try clipboardValue(of: p, elements: elementIDs, strokes: strokeIDs)
        guard cut else { return .json(200, ["clipboard": value]) }
        let step = "cut " + (elementIDs + strokeIDs).prefix(3).joined(separator: ", ") + (elementIDs.count + strokeIDs.count > 3 ? ", …" : "")
        return try editPage(id, step, extra: { $0["clipboard"] = value }) { q in
            try PageEdits.removeItems(elementIDs + strokeIDs, from: &q)
        }
    }

    /// A list of ids (each 1-64 characters), reported on its node when it is not one.
    func idList(_ node: JSONNode?, max: Int) -> [String] {
        guard let node else { return [] }
        if case .array(let items) = node.value, items.count > max {
            node.report("\(items.count) ids is over the limit of \(max)")
            return []
        }
        return node.array()?.compactMap { $0.string() } ?? []
    }

    /// The clipboard value of `elements` and `strokes` of page `p` (each id checked to be there):
    /// elements in stacking order, an ink layer as its strokes.
    func clipboardValue(of p: Page, elements ids: [String], strokes sids: [String]) throws -> JSONValue {
        var seen = Set<String>()
        for id in ids + sids where !seen.insert(id).inserted { throw EditError(.invalid, "'\(id)' is listed twice") }
        for id in ids { _ = try PageEdits.elementIndex(id, on: p) }
        for sid in sids { _ = try PageEdits.strokeLocation(sid, on: p) }
        let wanted = Set(ids)
        let wantedStrokes = Set(sids)
        var elements: [JSONValue] = []
        var strokes: [JSONValue] = []
        var box = Rect.null
        var refs = Set<AssetRef>()
        for e in p.elements {
            if case .ink(let ink) = e.content {
                for st in ink.strokes where wanted.contains(e.id) || st.id.map(wantedStrokes.contains) == true {
                    var o = st.json
                    if case .object(var d) = o { d["id"] = nil; o = .object(d) }
                    strokes.append(o)
                    let b = try renderer.strokeBounds(st)
                    if !b.isNull { box = box.union(b) }
                }
                continue
            }
            guard wanted.contains(e.id) else { continue }
            var o = e.json
            if case .object(var d) = o { d["id"] = nil; o = .object(d) }
            elements.append(o)
            if case .object(let sum) = try summary(e), case .array(let b)? = sum["bounds"], b.count == 4,
                case .number(let x) = b[0], case .number(let y) = b[1], case .number(let w) = b[2], case .number(let h) = b[3]
            {
                box = box.union(Rect(x: x, y: y, width: w, height: h))
            }
            refs.formUnion(e.assets)
        }
        // Each picture's bytes while they fit the budget; past it, its name alone.
        var assets: [String: JSONValue] = [:]
        var budget = EditorServer.clipboardAssetBytes
        for ref in refs.sorted() {
            let url = try EditError.wrapping { try store.assetURL(ref) }
            let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? nil
            if let size, size <= budget {
                let bytes = try InputFile.read(ref.path, path: url.path, limit: size)
                budget -= bytes.count
                assets[ref.path] = .string(Data(bytes).base64EncodedString())
            } else {
                assets[ref.path] = .null
            }
        }
        let center: JSONValue = box.isNull ? .null : [.number(box.x + box.width / 2), .number(box.y + box.height / 2)]
        return [
            "techo": "clipboard", "version": 1, "page": .string(p.id), "dpi": .number(p.dpi), "center": center,
            "elements": .array(elements), "strokes": .array(strokes), "assets": .object(assets),
        ]
    }

    /// `POST /api/pages/ID/paste` with `{"elements": […], "strokes": […], "assets": {PATH: BASE64
    /// | null}, "move": [dx, dy]}` (what `copy` gave, less its other keys): everything added,
    /// moved by `move`, as one history step. Answers the new elements' and strokes' ids.
    func paste(_ id: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let (ctx, root) = try body(request)
        var elementNodes: [JSONNode] = []
        var strokeNodes: [JSONNode] = []
        var move = (0.0, 0.0)
        var imports: [String: AssetImport] = [:]
        var named: Set<String> = []
        if let o = root.object() {
            if let n = o.optional("elements") {
                if case .array(let a) = n.value, a.count > EditorServer.clipboardMaxElements {
                    n.report("\(a.count) elements is over the limit of \(EditorServer.clipboardMaxElements)")
                } else {
                    elementNodes = n.array() ?? []
                }
            }
            if let n = o.optional("strokes") {
                if case .array(let a) = n.value, a.count > EditorServer.clipboardMaxStrokes {
                    n.report("\(a.count) strokes is over the limit of \(EditorServer.clipboardMaxStrokes)")
                } else {
                    strokeNodes = n.array() ?? []
                }
            }
            if let m = o.optional("move"), let v = m.point(in: -Placement.maxCoordinate...Placement.maxCoordinate) { move = v }
            // What `copy` gave besides: taken as it is, so the value can be sent back whole.
            if let v = o.optional("version"), let n = v.number(in: 0...1e9), n > 1 {
                v.report("a clipboard of version \(numberText(n)) is newer than this techo reads (version 1)")
            }
            if let t = o.optional("techo"), let name = t.string(), name != "clipboard" { t.report("expected \"clipboard\", got '\(name.prefix(40))'") }
            o.accept("page", "dpi", "center")
            if let n = o.optional("assets"), let a = n.object() {
                a.acceptAll()
                guard case .object(let dict) = n.value else { throw EditError(.invalid, "request body: assets: expected an object") }
                guard dict.count <= EditorServer.clipboardMaxAssets else {
                    throw EditError(.invalid, "request body: assets: \(dict.count) files is over the limit of \(EditorServer.clipboardMaxAssets)")
                }
                for key in dict.keys.sorted() {
                    let field = "request body: assets.\(key.prefix(80))"
                    guard let ref = try? AssetRef(path: key) else { throw EditError(.invalid, "\(field): expected a name assets/<sha256>.<ext>") }
                    named.insert(ref.path)
                    switch dict[key] {
                    case .null?: continue
                    case .string(let text)?:
                        guard let data = Data(base64Encoded: text) else { throw EditError(.invalid, "\(field): expected the file's bytes in base64") }
                        let bytes = [UInt8](data)
                        if ["ttf", "otf", "ttc"].contains(ref.ext) {
                            imports[ref.path] = try FontRules.prepareFontFile(bytes, name: field)
                        } else {
                            imports[ref.path] = try PageEdits.preparePicture(bytes, name: field).asset
                        }
                    default: throw EditError(.invalid, "\(field): expected the file's bytes in base64, or null")
                    }
                }
            }
            o.finish()
        }
        try ctx.throwIfProblems()
        guard !elementNodes.isEmpty || !strokeNodes.isEmpty else { throw EditError(.invalid, "request body: nothing to paste: no elements or strokes") }
        _ = try page(id, in: try snapshot())
        var added: [String] = []
        var newStrokes: [String] = []
        let count = [
            elementNodes.isEmpty ? nil : "\(elementNodes.count) element\(elementNodes.count == 1 ? "" : "s")",
            strokeNodes.isEmpty ? nil : "\(strokeNodes.count) stroke\(strokeNodes.count == 1 ? "" : "s")",
        ].compactMap { $0 }.joined(separator: ", ")
        let step = "paste \(count)"
        return try editPage(
            id, step, importing: Array(imports.values),
            extra: {
                $0["ids"] = .array(added.map { .string($0) }); $0["strokes"] = .array(newStrokes.map { .string($0) })
            }
        ) { p in
            // A picture that came by name only must already be in this journal.
            func asset(_ ref: AssetRef, _ field: String) throws -> AssetRef {
                if let imported = imports[ref.path] { return imported.ref }
                guard store.hasAsset(ref) else {
                    let why =
                        named.contains(ref.path)
                        ? "was too large to travel on the clipboard (over \(EditorServer.clipboardAssetBytes / 1024 / 1024) MiB of pictures) and is not in this journal; add the file itself"
                        : "is not in this journal and the clipboard did not carry its bytes"
                    throw EditError(.invalid, "\(field): \(ref.path) \(why)")
                }
                return ref
            }
            let strokesBefore = Set(p.strokeIDs)
            for (n, node) in strokeNodes.enumerated() {
                var value = node.value
                if case .object(var d) = value { d["id"] = nil; value = .object(d) }
                let field = "request body: strokes[\(n)]"
                let sctx = DecodingContext(file: field)
                guard var s = Stroke.decode(sctx.root(value), dpi: p.dpi) else {
                    try sctx.throwIfProblems()
                    throw EditError(.invalid, "\(field): not a stroke")
                }
                try sctx.throwIfProblems()
                if move != (0, 0) {
                    guard s.tool != .path else { throw EditError(.invalid, "\(field): a path stroke (SVG data) is pasted only where it was (move [0, 0])") }
                    s.points = s.points.map { StrokePoint($0.x + move.0, $0.y + move.1, pressure: $0.pressure) }
                    s.from = s.from.map { Point($0.x + move.0, $0.y + move.1) }
                    s.to = s.to.map { Point($0.x + move.0, $0.y + move.1) }
                }
                if let (f, message) = s.problems().first { throw EditError(.invalid, "\(field).\(f): \(message)") }
                _ = try PageEdits.draw(s, on: &p)
            }
            newStrokes = p.strokeIDs.filter { !strokesBefore.contains($0) }
            for (n, node) in elementNodes.enumerated() {
                let field = "request body: elements[\(n)]"
                var value = node.value
                guard case .object(var d) = value else { throw EditError(.invalid, "\(field): expected an element object") }
                if case .string("ink")? = d["type"] { throw EditError(.invalid, "\(field).type: ink comes as strokes, not as an element") }
                d["id"] = nil
                value = .object(d)
                let ectx = DecodingContext(file: field)
                guard var e = Element.decode(ectx.root(value), addingTo: p) else {
                    try ectx.throwIfProblems()
                    throw EditError(.invalid, "\(field): not an element")
                }
                try ectx.throwIfProblems()
                switch e.content {
                case .image(var i):
                    i.asset = try asset(i.asset, "\(field).asset")
                    e.content = .image(i)
                case .photo(var ph):
                    ph.image.asset = try asset(ph.image.asset, "\(field).asset")
                    e.content = .photo(ph)
                case .text(var t):
                    if let f = t.fontFile { t.fontFile = try asset(f, "\(field).fontFile") }
                    e.content = .text(t)
                case .washi(var w):
                    if case .pattern(let a) = w.fill { w.fill = .pattern(try asset(a, "\(field).pattern")) }
                    e.content = .washi(w)
                case .ink: break
                }
                var placement = e.placement
                if move != (0, 0) {
                    do { try placement.apply(.pan(dx: move.0, dy: move.1)) } catch { throw EditError(.invalid, "move: \(error)") }
                }
                var clip = e.clip
                if let c = clip {
                    clip = try EditError.wrapping {
                        try SlotFrame(rect: Rect(x: c.rect.x + move.0, y: c.rect.y + move.1, width: c.rect.width, height: c.rect.height), rotation: c.rotation)
                    }
                }
                var new = NewElement(id: e.id, content: e.content, placement: placement, opacity: e.opacity, hidden: e.hidden, clip: clip)
                new.locked = e.locked
                added.append(try PageEdits.add(new, to: &p, renderer: renderer))
            }
        }
    }
}
