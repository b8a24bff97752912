// Page, background and journal ⇄ JSON (docs/format.md).

import Foundation

extension Background {
    /// The background as JSON. A missing `color` means transparent.
    public var json: JSONValue {
        var o: [String: JSONValue] = [:]
        if let color { o["color"] = .string(color.description) }
        if let img = image {
            o["image"] = .string(img.asset.path)
            if img.mode != .tile { o["mode"] = .string(img.mode.rawValue) }
            if img.opacity != 1 { o["opacity"] = .number(img.opacity) }
        }
        if let p = paper {
            var po: [String: JSONValue] = [
                "pattern": .string(p.pattern.rawValue), "spacing": .number(p.spacing),
                "color": .string(p.color.description),
            ]
            if p.margin != 0 { po["margin"] = .number(p.margin) }
            o["paper"] = .object(po)
        }
        return .object(o)
    }

    /// Decodes a background; `image` is an asset path in page files and a file (resolved
    /// through `sources`) in manifests. A bare string is a colour.
    static func decode(_ node: JSONNode, dpi: Double, sources: ManifestSources?) -> Background? {
        if case .string = node.value { return node.color().map { Background(color: $0) } }
        guard let o = node.object() else { return nil }
        defer { o.finish() }
        let before = node.context.problems.count
        let color = o.optional("color")?.color()
        var image: BackgroundImage?
        let mode = o.optional("mode")?.choice(BackgroundImage.Mode.self)
        let opacity = o.optional("opacity")?.number(FieldRules.opacity)
        if let imn = o.optional("image"), let s = imn.string() {
            var asset: AssetRef?
            // Probed like any picture (`image`), so a damaged background is refused at import.
            if let sources {
                asset = sources.image(s, at: imn)?.asset
            } else {
                do { asset = try AssetRef(path: s) } catch { imn.report("\(error)") }
            }
            if let asset { image = try? BackgroundImage(asset: asset, mode: mode ?? .tile, opacity: opacity ?? 1) }
        } else if mode != nil || opacity != nil {
            (o.optional("mode") ?? o.optional("opacity"))?.report("\"mode\" and \"opacity\" apply to a background \"image\"")
        }
        var paper: Paper?
        if let pn = o.optional("paper") { paper = Paper.decode(pn, dpi: dpi) }
        guard node.context.problems.count == before else { return nil }
        return Background(color: color, image: image, paper: paper)
    }
}

extension Paper {
    static func decode(_ node: JSONNode, dpi: Double) -> Paper? {
        if case .string = node.value {
            return node.choice(Pattern.self).flatMap { try? Paper(pattern: $0, spacing: Paper.defaultSpacing.pixels(dpi: dpi)) }
        }
        guard let o = node.object() else { return nil }
        defer { o.finish() }
        let pattern = o.optional("pattern")?.choice(Pattern.self)
        let spacing = o.optional("spacing")?.length(dpi: dpi, FieldRules.paperSpacing)
        let color = o.optional("color")?.color()
        let margin = o.optional("margin")?.length(dpi: dpi, FieldRules.margin)
        return try? Paper(
            pattern: pattern ?? .dots, spacing: spacing ?? Paper.defaultSpacing.pixels(dpi: dpi),
            color: color ?? Paper.defaultColor, margin: margin ?? 0)
    }
}

extension Slot {
    var json: JSONValue {
        guard case .object(var o) = frame.json else { return .null }
        o["name"] = .string(name)
        o["kind"] = .string(kind.rawValue)
        return .object(o)
    }

    static func decode(_ node: JSONNode, dpi: Double) -> Slot? {
        guard case .object(var dict) = node.value else { node.report("expected an object, found \(node.value.kindName)"); return nil }
        let nameNode = dict["name"].map { JSONNode(value: $0, path: node.path("name"), context: node.context) }
        let kindNode = dict["kind"].map { JSONNode(value: $0, path: node.path("kind"), context: node.context) }
        dict["name"] = nil; dict["kind"] = nil
        let name = nameNode?.identifier()
        if nameNode == nil { node.context.report(node.path("name"), "missing required field \"name\"") }
        let kind = kindNode?.choice(Kind.self)
        let frame = SlotFrame.decode(JSONNode(value: .object(dict), path: node.path, context: node.context), dpi: dpi)
        guard let name, let frame else { return nil }
        return try? Slot(name: name, kind: kind ?? .photo, frame: frame)
    }
}

extension Page {
    /// The page as its file's JSON.
    public var json: JSONValue {
        var o = headerJSON
        o["elements"] = .array(elements.map(\.json))
        return .object(o)
    }

    /// Every key of the page file but `elements`.
    var headerJSON: [String: JSONValue] {
        var o: [String: JSONValue] = [
            "id": .string(id), "dpi": .number(dpi), "background": background.json,
            "width": size.width.map(JSONValue.number) ?? "auto", "height": size.height.map(JSONValue.number) ?? "auto",
        ]
        if margin != 0 { o["margin"] = .number(margin) }
        if !slots.isEmpty { o["slots"] = .array(slots.map(\.json)) }
        return o
    }

    /// The page file's bytes: the same page always gives the same bytes (those of
    /// `json.serializedBytes()`, written without building the JSON value; `PageFileWriter`).
    public func serialized() -> [UInt8] { PageFileWriter.serialize(self).bytes }

    /// Decodes a page file's JSON, reporting every problem into `context`.
    static func decode(_ node: JSONNode) -> Page? {
        guard let o = node.object() else { return nil }
        defer { o.finish() }
        let ctx = node.context
        let before = ctx.problems.count
        let id = o.required("id")?.identifier()
        let dpi = o.required("dpi")?.number(FieldRules.dpi) ?? Page.defaultDPI
        func side(_ key: String) -> Double?? {
            guard let n = o.required(key) else { return nil }
            if case .string("auto") = n.value { return .some(nil) }
            return n.number(in: 1...ctx.limits.maxPageSide).map { .some($0) }
        }
        let w = side("width"), h = side("height")
        let background = o.optional("background").flatMap { Background.decode($0, dpi: dpi, sources: nil) } ?? Background(color: nil)
        let margin = o.optional("margin")?.number(FieldRules.margin) ?? 0
        let slots = o.optional("slots")?.array()?.compactMap { Slot.decode($0, dpi: dpi) } ?? []
        var elements: [Element] = []
        if let items = o.required("elements")?.array() {
            let env = ElementEnvironment(dpi: dpi, pageCenter: .zero, sources: nil)
            for item in items {
                if let e = Element.decode(item, env: env, existing: []) {
                    if elements.contains(where: { $0.id == e.id }) {
                        ctx.report(item.path("id"), "duplicate element id \"\(e.id)\"")
                    } else {
                        elements.append(e)
                    }
                }
            }
        }
        guard let id, let w, let h, ctx.problems.count == before else { return nil }
        do {
            return try Page(
                id: id, size: PageSize(width: w, height: h), dpi: dpi, background: background, margin: margin,
                slots: slots, elements: elements, limits: ctx.limits)
        } catch {
            node.report("\(error)")
            return nil
        }
    }

    /// Parses and decodes a page file; throws `JSONSyntaxError` or `JSONDecodingError` naming `file`.
    ///
    /// A page file as techo writes it is read by `PageFileReader`, which decodes ink strokes
    /// straight from the bytes; anything it does not take, and every file with a problem, is
    /// read by `decodeValue`, which reports the problems.
    public static func decode(bytes: [UInt8], file: String? = nil, limits: ModelLimits = .default) throws -> Page {
        if let read = PageFileReader.read(bytes, file: file, limits: limits) { return read.page }
        return try decodeValue(bytes: bytes, file: file, limits: limits)
    }

    /// `decode(bytes:file:limits:)` through a `JSONValue` of the whole file: the complete
    /// decoder, which the fast reader is checked against.
    static func decodeValue(bytes: [UInt8], file: String? = nil, limits: ModelLimits = .default) throws -> Page {
        let value = try JSONParser.parse(bytes, file: file, limits: limits.json)
        let ctx = DecodingContext(file: file, limits: limits)
        let page = decode(ctx.root(value))
        try ctx.throwIfProblems()
        guard let page else { throw JSONDecodingError(file: file, problems: [JSONProblem(path: "", message: "not a page")]) }
        return page
    }
}

/// A journal file written by a newer techo than this one.
public struct FormatVersionError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The file.
    public var file: String
    /// Its `"techo"` version.
    public var found: Int
    public var description: String {
        "\(file): format version \(found) is newer than this techo reads (version \(Journal.currentFormatVersion)); upgrade techo to open it"
    }
}

extension JournalSettings {
    /// Decodes `{"historyLimit": n}`; problems go to the node's context.
    static func decode(_ node: JSONNode) -> JournalSettings {
        guard let o = node.object() else { return .default }
        defer { o.finish() }
        let limit = o.optional("historyLimit")?.integer(in: 1...10_000)
        return limit.flatMap { try? JournalSettings(historyLimit: $0) } ?? .default
    }
}

extension Journal {
    /// The journal as `journal.json`.
    public var json: JSONValue {
        [
            "techo": .number(Double(formatVersion)), "title": .string(title),
            "pages": .array(pageOrder.map(JSONValue.string)),
            "settings": ["historyLimit": .number(Double(settings.historyLimit))],
        ]
    }

    /// `journal.json` bytes.
    public func serialized() -> [UInt8] { json.serializedBytes() }

    /// Parses and decodes `journal.json`; refuses future format versions with `FormatVersionError`.
    public static func decode(bytes: [UInt8], file: String = "journal.json", limits: ModelLimits = .default) throws -> Journal {
        let value = try JSONParser.parse(bytes, file: file, limits: limits.json)
        let ctx = DecodingContext(file: file, limits: limits)
        let root = ctx.root(value)
        guard let o = root.object() else { throw JSONDecodingError(file: file, problems: ctx.problems) }
        if let vn = o.required("techo"), let v = vn.integer(in: 1...Int(Int32.max)) {
            if v > currentFormatVersion { throw FormatVersionError(file: file, found: v) }
        }
        let title = o.optional("title")?.string() ?? ""
        var order: [String] = []
        if let items = o.required("pages")?.array() {
            for item in items {
                guard let id = item.identifier() else { continue }
                if order.contains(id) { item.report("page \"\(id)\" is listed twice") } else { order.append(id) }
            }
        }
        let settings = o.optional("settings").map(JournalSettings.decode) ?? .default
        o.finish()
        try ctx.throwIfProblems()
        return try Journal(title: title, pageOrder: order, settings: settings)
    }
}
