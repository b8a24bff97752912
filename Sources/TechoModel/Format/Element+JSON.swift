// Element ⇄ JSON. Page files and manifests share one decoder: a manifest adds sugar (`src`,
// `width`/`height`, `gestures`, washi ends in page coordinates) that it resolves into the same
// model a page file stores (docs/format.md, docs/manifest.md).

import Foundation

/// What element decoding needs from its surroundings.
struct ElementEnvironment {
    /// The page's dpi, for unit strings.
    var dpi: Double
    /// Where elements without `at` go.
    var pageCenter: Point
    /// Set when decoding a manifest: resolves `src` paths. Nil for page files.
    var sources: ManifestSources?
    /// The page's template slots, which manifest elements fill by name (`"slot"`). Default none.
    var slots: [Slot] = []
}

extension Placement {
    /// The placement's fields as JSON, into `o`; defaults are left out.
    func encode(into o: inout [String: JSONValue]) {
        o["at"] = [.number(center.x), .number(center.y)]
        if scale != 1 { o["scale"] = .number(scale) }
        if rotation != 0 { o["rotate"] = .number(rotation) }
        if flipH || flipV { o["flip"] = .string((flipH ? "h" : "") + (flipV ? "v" : "")) }
    }
}

extension Element {
    /// The element as page-file JSON; defaults are left out.
    public var json: JSONValue {
        var o: [String: JSONValue] = ["id": .string(id), "type": .string(kind.rawValue)]
        if opacity != 1 { o["opacity"] = .number(opacity) }
        if hidden { o["hidden"] = true }
        if locked { o["locked"] = true }
        if kind != .ink { placement.encode(into: &o) }
        if let clip { o["clip"] = clip.json }
        func image(_ i: ImageContent) {
            o["asset"] = .string(i.asset.path)
            o["naturalSize"] = [.number(i.naturalWidth), .number(i.naturalHeight)]
            if let ol = i.outline { o["outline"] = ol.json }
        }
        switch content {
        case .image(let i): image(i)
        case .photo(let p):
            image(p.image)
            if let c = p.crop { o["crop"] = [.number(c.x), .number(c.y), .number(c.width), .number(c.height)] }
            if p.frame != .none { o["frame"] = .string(p.frame.rawValue) }
            if p.radius != 0 { o["radius"] = .number(p.radius) }
            if p.shadow { o["shadow"] = true }
            for (name, _, kp) in PhotoContent.adjustmentRanges where p[keyPath: kp] != 0 { o[name] = .number(p[keyPath: kp]) }
        case .text(let t):
            o["text"] = .string(t.text)
            o["font"] = .string(t.font)
            if let f = t.fontFile { o["fontFile"] = .string(f.path) }
            o["size"] = .number(t.size)
            if t.weight != 400 { o["weight"] = .number(Double(t.weight)) }
            if t.italic { o["italic"] = true }
            if t.color != .black { o["color"] = .string(t.color.description) }
            if t.align != .left { o["align"] = .string(t.align.rawValue) }
            if t.lineHeight != 1.2 { o["lineHeight"] = .number(t.lineHeight) }
            if let w = t.maxWidth { o["maxWidth"] = .number(w) }
            if t.letterSpacing != 0 { o["letterSpacing"] = .number(t.letterSpacing) }
            if let ol = t.outline { o["outline"] = ol.json }
        case .ink(let ink):
            o["strokes"] = .array(ink.strokes.map(\.json))
        case .washi(let w):
            o["from"] = [.number(w.from.x), .number(w.from.y)]
            o["to"] = [.number(w.to.x), .number(w.to.y)]
            o["width"] = .number(w.width)
            switch w.fill {
            case .color(let c): o["color"] = .string(c.description)
            case .pattern(let a): o["pattern"] = .string(a.path)
            }
            if w.ends != .torn { o["ends"] = .string(w.ends.rawValue) }
        }
        return .object(o)
    }

    /// Decodes an element; `existing` holds the ids already used on the page (for generated ids).
    /// Returns nil after reporting.
    static func decode(_ node: JSONNode, env: ElementEnvironment, existing: [String]) -> Element? {
        guard let o = node.object() else { return nil }
        defer { o.finish() }
        let ctx = node.context
        let before = ctx.problems.count
        let dpi = env.dpi
        let manifest = env.sources != nil
        guard let kind = o.required("type")?.choice(Kind.self) else { o.acceptAll(); return nil }
        var id: String?
        if manifest, !o.has("id") {
            id = Identifier.next(prefix: kind.rawValue, existing: existing)
        } else {
            id = o.required("id")?.identifier()
        }
        let opacity = o.optional("opacity")?.number(FieldRules.opacity) ?? 1
        let hidden = o.optional("hidden")?.bool() ?? false
        let locked = o.optional("locked")?.bool() ?? false
        var clip = o.optional("clip").flatMap { SlotFrame.decode($0, dpi: dpi) }
        let slotFill = manifest ? decodeSlotFill(o, kind: kind, slots: env.slots) : nil

        // Content first: width/height sugar needs the natural size.
        var content: Content?
        var natural: (Double, Double)?
        var washiCenter: Point?
        var shown: (Double, Double)?  // a photo's crop: the part a slot is filled with
        func outline() -> Outline? { o.optional("outline").flatMap { Outline.decode($0, dpi: dpi) } }
        func imageContent() -> ImageContent? {
            var asset: AssetRef?
            if let sources = env.sources {
                o.accept("asset", "naturalSize")
                if o.has("asset") { o.optional("asset")?.report("a manifest names files with \"src\", not \"asset\"") }
                if kind == .image, o.has("sticker") {
                    // A sticker from a pack, named PACK/NAME as `techo add sticker` names it.
                    if o.has("src") { o.optional("src")?.report("give \"src\" or \"sticker\", not both") }
                    if let sn = o.optional("sticker"), let s = sn.string(), let r = sources.sticker(s, at: sn) {
                        asset = r.asset; natural = r.size
                    }
                } else if let src = o.required("src"), let s = src.string(), let r = sources.image(s, at: src) {
                    asset = r.asset; natural = r.size
                }
            } else {
                if let an = o.required("asset"), let s = an.string() {
                    do { asset = try AssetRef(path: s) } catch { an.report("\(error)") }
                }
                if let n = o.required("naturalSize"), let (w, h) = n.point(in: 1...ctx.limits.maxImageSide) { natural = (w, h) }
            }
            let ol = outline()
            guard let asset, let (w, h) = natural else { return nil }
            do { return try ImageContent(asset: asset, naturalWidth: w, naturalHeight: h, outline: ol, limits: ctx.limits) } catch {
                node.report("\(error)")
                return nil
            }
        }
        switch kind {
        case .image:
            content = imageContent().map(Content.image)
        case .photo:
            let img = imageContent()
            var crop: Rect?
            if let cn = o.optional("crop"), let items = cn.array() {
                if items.count != 4 {
                    cn.report("expected [x, y, width, height]")
                } else {
                    let v = items.compactMap { $0.number(in: 0...1e6) }
                    if v.count == 4 { crop = Rect(x: v[0], y: v[1], width: v[2], height: v[3]); shown = (v[2], v[3]) }
                }
            }
            let frame = o.optional("frame")?.choice(PhotoContent.Frame.self)
            let radius = o.optional("radius")?.length(dpi: dpi, FieldRules.radius)
            let shadow = o.optional("shadow")?.bool()
            var adjust: [(WritableKeyPath<PhotoContent, Double>, Double)] = []
            for ((name, _, kp), rule) in zip(PhotoContent.adjustmentRanges, FieldRules.adjustments) {
                if let v = o.optional(name)?.number(rule) { adjust.append((kp, v)) }
            }
            if let img {
                var p = PhotoContent(image: img)
                p.crop = crop; p.frame = frame ?? .none; p.radius = radius ?? 0; p.shadow = shadow ?? false
                for (kp, v) in adjust { p[keyPath: kp] = v }
                do { try p.validate(); content = .photo(p) } catch {
                    if let e = error as? ValueError, let f = e.field, let n = o.optional(f) {
                        n.report(e.detail)
                    } else {
                        (o.optional("crop") ?? node).report("\(error)")
                    }
                }
            }
        case .text:
            let text = o.required("text")?.string()
            var t = TextContent(text: text ?? "")
            if let n = o.optional("font"), let f = n.string() { t.font = f }
            if let n = o.optional("fontFile"), let f = n.string() {
                if let sources = env.sources {
                    t.fontFile = sources.font(f, at: n)
                } else {
                    do { t.fontFile = try AssetRef(path: f) } catch { n.report("\(error)") }
                }
            }
            if let n = o.optional("weight") {
                if case .string("bold") = n.value {
                    t.weight = 700
                } else if case .string("normal") = n.value {
                    t.weight = 400
                } else if let w = n.integer(FieldRules.weight) {
                    t.weight = w
                }
            }
            if let b = o.optional("italic")?.bool() { t.italic = b }
            if let n = o.optional("size"), let s = n.length(dpi: dpi, FieldRules.fontSize) { t.size = s }
            if let c = o.optional("color")?.color() { t.color = c }
            if let a = o.optional("align")?.choice(TextContent.Align.self) { t.align = a }
            if let l = o.optional("lineHeight")?.number(FieldRules.lineHeight) { t.lineHeight = l }
            if let w = o.optional("maxWidth")?.length(dpi: dpi, FieldRules.maxWidth) { t.maxWidth = w }
            if let s = o.optional("letterSpacing")?.length(dpi: dpi, FieldRules.letterSpacing) { t.letterSpacing = s }
            if let (slot, _) = slotFill {
                // A text slot gives the wrap width and, unless the element says otherwise, centring.
                if !o.has("maxWidth") { t.maxWidth = slot.frame.rect.width }
                if !o.has("align") { t.align = .center }
            }
            t.outline = outline()
            if text != nil {
                do { try t.validate(limits: ctx.limits); content = .text(t) } catch {
                    // Reported at the field at fault when the error names one.
                    if let e = error as? ValueError, let f = e.field, let n = o.optional(f) {
                        n.report(e.detail)
                    } else {
                        o.optional("text")?.report("\(error)")
                    }
                }
            }
        case .ink:
            if let sn = o.required("strokes"), let items = sn.array() {
                let strokes = items.compactMap { Stroke.decode($0, dpi: dpi) }
                if strokes.count == items.count { content = .ink(InkContent(strokes: strokes)) }
            }
        case .washi:
            let from = o.required("from")?.lengthPoint(dpi: dpi)
            let to = o.required("to")?.lengthPoint(dpi: dpi)
            let width = o.optional("width")?.length(dpi: dpi, FieldRules.washiWidth) ?? Length(15, .mm).pixels(dpi: dpi)
            var fill = WashiContent.Fill.color(WashiContent.defaultColor)
            if let c = o.optional("color")?.color() { fill = .color(c) }
            if let pn = o.optional("pattern"), let s = pn.string() {
                if o.has("color") { pn.report("give \"color\" or \"pattern\", not both") }
                if let sources = env.sources {
                    if let r = sources.image(s, at: pn)?.asset { fill = .pattern(r) }
                } else {
                    do { fill = .pattern(try AssetRef(path: s)) } catch { pn.report("\(error)") }
                }
            }
            let ends = o.optional("ends")?.choice(WashiContent.Ends.self) ?? .torn
            if var from, var to {
                if manifest {
                    // Manifest ends are page points: centre the element between them.
                    let mid = (from + to) / 2
                    from = from - mid; to = to - mid
                    natural = nil
                    if !o.has("at") { washiCenter = mid }
                }
                do { content = .washi(try WashiContent(from: from, to: to, width: width, fill: fill, ends: ends)) } catch {
                    node.report("\(error)")
                }
            }
        }

        // Placement.
        var placement = Placement.identity
        if kind == .ink {
            for key in ["at", "scale", "rotate", "flip", "width", "height", "gestures"] where o.has(key) {
                o.optional(key)?.report("ink has no transform; its strokes are in page coordinates")
            }
        } else {
            var base: Placement?
            if let (slot, fit) = slotFill {
                do {
                    if kind == .text {
                        base = try Placement(center: slot.frame.rect.center, rotation: slot.frame.rotation)
                    } else if let (w, h) = shown ?? natural {
                        base = try slot.placement(width: w, height: h, fit: fit)
                        if fit == .cover {
                            if o.has("clip") { o.optional("clip")?.report("a photo in a slot is clipped to the slot; give \"slot\" or \"clip\", not both") }
                            clip = slot.frame
                        }
                    }
                } catch {
                    o.optional("slot")?.report("\(error)")
                }
            }
            placement =
                decodePlacement(
                    o, env: env, natural: kind == .washi ? nil : natural, sized: kind == .image || kind == .photo,
                    washiCenter: washiCenter, slotBase: base) ?? .identity
        }
        guard let id, let content, ctx.problems.count == before else { return nil }
        do { return try Element(id: id, content: content, placement: placement, opacity: opacity, hidden: hidden, clip: clip, locked: locked) } catch {
            node.report("\(error)")
            return nil
        }
    }
}

/// Reads `"slot"` and `"fit"` of a manifest element: the page slot it fills and how. Reports an
/// unknown slot (listing the page's slots), a slot of another kind, and keys the slot decides.
private func decodeSlotFill(_ o: ObjectReader, kind: Element.Kind, slots: [Slot]) -> (Slot, Slot.Fit)? {
    let fitNode = o.optional("fit")
    guard let sn = o.optional("slot") else {
        fitNode?.report("\"fit\" needs \"slot\"")
        return nil
    }
    guard let name = sn.string() else { return nil }
    guard kind == .image || kind == .photo || kind == .text else {
        sn.report("only images, photos and text fill slots, not \(kind.rawValue)")
        return nil
    }
    guard let slot = slots.first(where: { $0.name == name }) else {
        let names = slots.map(\.name)
        sn.report(
            "no slot \"\(name)\" on this page"
                + (names.isEmpty ? " (it has no slots; slots come from a \"template\")" : "; slots: \(names.joined(separator: ", "))"))
        return nil
    }
    let picture = kind == .image || kind == .photo
    if picture != (slot.kind == .image || slot.kind == .photo) {
        sn.report("slot \"\(name)\" is for \(slot.kind.rawValue), not \(kind.rawValue)")
        return nil
    }
    var fit = Slot.Fit.cover
    if let fitNode {
        if !picture { fitNode.report("\"fit\" applies to images and photos") } else if let f = fitNode.choice(Slot.Fit.self) { fit = f }
    }
    for key in ["at", "scale", "width", "height", "rotate"] where o.has(key) {
        o.optional(key)?.report("the slot decides the placement; leave out \"\(key)\" (\"flip\" and \"gestures\" still apply)")
    }
    return (slot, fit)
}

private func decodePlacement(
    _ o: ObjectReader, env: ElementEnvironment, natural: (Double, Double)?, sized: Bool,
    washiCenter: Point?, slotBase: Placement? = nil
) -> Placement? {
    let dpi = env.dpi
    let ctx = o.node.context
    let before = ctx.problems.count
    var at: Point?
    if env.sources != nil {
        at = o.optional("at").flatMap { $0.lengthPoint(dpi: dpi) } ?? washiCenter ?? env.pageCenter
    } else {
        at = o.required("at")?.lengthPoint(dpi: dpi)
    }
    var scale = o.optional("scale")?.number(FieldRules.scale)
    if env.sources != nil && sized {
        let wn = o.optional("width"), hn = o.optional("height")
        if wn != nil || hn != nil {
            if let (nw, nh) = natural {
                if scale != nil { o.optional("scale")?.report("give one of \"scale\", \"width\" or \"height\"") }
                if wn != nil && hn != nil { hn?.report("give \"width\" or \"height\", not both (the aspect is kept)") }
                if let w = wn?.length(dpi: dpi, in: 0.01...1e6) {
                    scale = w / nw
                } else if let h = hn?.length(dpi: dpi, in: 0.01...1e6) {
                    scale = h / nh
                }
            }
        }
    }
    var rotate = o.optional("rotate")?.number(FieldRules.rotation) ?? 0
    if let slotBase { at = slotBase.center; scale = slotBase.scale; rotate = slotBase.rotation }
    var flipH = false, flipV = false
    if let fn = o.optional("flip"), let s = fn.string() {
        switch s {
        case "h": flipH = true
        case "v": flipV = true
        case "hv", "vh": flipH = true; flipV = true
        case "none": break
        default: fn.report("unknown flip \"\(s)\"; expected \"h\", \"v\" or \"hv\"")
        }
    }
    guard let at, ctx.problems.count == before else { return nil }
    var p: Placement
    do { p = try Placement(center: at, scale: scale ?? 1, rotation: rotate, flipH: flipH, flipV: flipV) } catch {
        o.node.report("\(error)")
        return nil
    }
    if env.sources != nil, let gn = o.optional("gestures"), let items = gn.array() {
        for item in items {
            guard let g = Gesture.decode(item, dpi: dpi) else { continue }
            do { try p.apply(g) } catch { item.report("\(error)") }
        }
    }
    return p
}

extension Gesture {
    /// Decodes a manifest gesture: `{"pan": [dx, dy]}`, `{"pinch": s, "around": [x, y]}`,
    /// `{"rotate": deg, "around": [x, y]}`, `{"doubleTap": true}`, `{"flip": "h"}`.
    static func decode(_ node: JSONNode, dpi: Double) -> Gesture? {
        guard let o = node.object() else { return nil }
        defer { o.finish() }
        let around = o.optional("around")?.lengthPoint(dpi: dpi)
        let names = ["pan", "pinch", "rotate", "doubleTap", "flip"].filter { o.has($0) }
        guard names.count == 1 else {
            node.report(
                names.isEmpty
                    ? "expected one of \"pan\", \"pinch\", \"rotate\", \"doubleTap\", \"flip\""
                    : "one gesture per entry (found \(names.joined(separator: ", ")))")
            o.accept("pan", "pinch", "rotate", "doubleTap", "flip")
            return nil
        }
        guard let n = o.optional(names[0]) else { return nil }
        if around != nil && names[0] != "pinch" && names[0] != "rotate" { o.optional("around")?.report("\"around\" applies to pinch and rotate") }
        switch names[0] {
        case "pan": return n.lengthPoint(dpi: dpi).map { .pan(dx: $0.x, dy: $0.y) }
        case "pinch": return n.number(FieldRules.scale).map { .pinch(scale: $0, around: around) }
        case "rotate": return n.number(FieldRules.rotation).map { .rotate(degrees: $0, around: around) }
        case "doubleTap":
            guard let b = n.bool() else { return nil }
            if !b { n.report("\"doubleTap\" must be true") }
            return b ? .doubleTap : nil
        default: return n.choice(FlipAxis.self).map { .flip($0) }
        }
    }
}

extension Outline {
    var json: JSONValue { ["width": .number(width), "color": .string(color.description)] }

    /// Decodes `{"width": W, "color": C}` (width 8 and white when missing), as in a page file.
    public static func decode(_ node: JSONNode, dpi: Double) -> Outline? {
        guard let o = node.object() else { return nil }
        defer { o.finish() }
        let w = o.optional("width")?.length(dpi: dpi, FieldRules.outlineWidth)
        let c = o.optional("color")?.color()
        return try? Outline(width: w ?? 8, color: c ?? .white)
    }
}

extension SlotFrame {
    var json: JSONValue {
        var o: [String: JSONValue] = ["rect": [.number(rect.x), .number(rect.y), .number(rect.width), .number(rect.height)]]
        if rotation != 0 { o["rotate"] = .number(rotation) }
        return .object(o)
    }

    static func decode(_ node: JSONNode, dpi: Double) -> SlotFrame? {
        guard let o = node.object() else { return nil }
        defer { o.finish() }
        let rot = o.optional("rotate")?.number(in: -360...360) ?? 0
        guard let rn = o.required("rect"), let items = rn.array() else { return nil }
        guard items.count == 4 else { rn.report("expected [x, y, width, height]"); return nil }
        let v = items.compactMap { $0.length(dpi: dpi) }
        guard v.count == 4 else { return nil }
        do { return try SlotFrame(rect: Rect(x: v[0], y: v[1], width: v[2], height: v[3]), rotation: rot) } catch {
            rn.report("\(error)")
            return nil
        }
    }
}
