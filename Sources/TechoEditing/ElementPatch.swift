// Changing an element's fields, and adding an element: the two operations `techo set` / `techo
// add`, the editor's PATCH and POST of an element, the manifest builder and the library decode
// their input into. Which field applies to which kind, the range of each number (read from
// `FieldRules`), the rule that ink has no transform and that an id is unique on its page are
// checked here, so every front end refuses the same values with the same words. A refusal names
// the field by its JSON name (`lineHeight`); a front end that calls it otherwise (`--line-height`)
// relabels it with `EditError.relabelled`.
import Foundation
import TechoGeometry
import TechoModel
import TechoRender

/// A change of an element's fields: each field that is nil stays as it is. Fields are named as in
/// page files and the editor's API.
public struct ElementPatch: Sendable, Equatable {
    // Every element.
    /// Opacity, `FieldRules.opacity`.
    public var opacity: Double?
    /// Kept but not drawn.
    public var hidden: Bool?
    /// Drawn but not picked in the editor, and never moved by a gesture.
    public var locked: Bool?
    // Placement (not ink).
    /// The centre on the page, pixels.
    public var at: Point?
    /// `FieldRules.scale`.
    public var scale: Double?
    /// Degrees clockwise, `FieldRules.rotation`.
    public var rotate: Double?
    // Text.
    /// The text itself.
    public var text: String?
    /// An installed family (checked through fontconfig when the change is written); clears a
    /// font file.
    public var font: String?
    /// A font file already imported into the journal (see `FontRules.prepareFontFile`).
    public var fontFile: AssetRef?
    /// Font size, pixels.
    public var size: Double?
    public var color: RGBA?
    public var align: TextContent.Align?
    public var weight: Int?
    public var italic: Bool?
    /// The wrapping width, pixels; `.some(nil)` removes it.
    public var maxWidth: Double??
    /// A multiple of the size.
    public var lineHeight: Double?
    /// Pixels.
    public var letterSpacing: Double?
    // Text, image and photo.
    /// The die-cut (image, photo) or glyph (text) outline; `.some(nil)` removes it.
    public var outline: Outline??
    // Photo.
    public var frame: PhotoContent.Frame?
    /// Corner radius, pixels.
    public var radius: Double?
    public var shadow: Bool?
    /// Film adjustments by name (`brightness`, … as in `PhotoContent.adjustmentRanges`).
    public var adjustments: [String: Double] = [:]

    public init() {}

    /// The fields only text elements have, by name.
    public static let textFields = ["text", "font", "fontFile", "size", "color", "align", "weight", "italic", "maxWidth", "lineHeight", "letterSpacing"]
    /// The fields only photos have, by name.
    public static let photoFields = ["frame", "radius", "shadow"] + PhotoContent.adjustmentRanges.map(\.0)

    /// The names of the fields this patch sets, in the order of the page format.
    public var fieldsSet: [String] {
        var names: [String] = []
        func add(_ name: String, _ isSet: Bool) { if isSet { names.append(name) } }
        add("opacity", opacity != nil)
        add("hidden", hidden != nil)
        add("locked", locked != nil)
        add("at", at != nil)
        add("scale", scale != nil)
        add("rotate", rotate != nil)
        add("text", text != nil)
        add("font", font != nil)
        add("fontFile", fontFile != nil)
        add("size", size != nil)
        add("color", color != nil)
        add("align", align != nil)
        add("weight", weight != nil)
        add("italic", italic != nil)
        add("maxWidth", maxWidth != nil)
        add("lineHeight", lineHeight != nil)
        add("letterSpacing", letterSpacing != nil)
        add("outline", outline != nil)
        add("frame", frame != nil)
        add("radius", radius != nil)
        add("shadow", shadow != nil)
        for (name, _, _) in PhotoContent.adjustmentRanges where adjustments[name] != nil { names.append(name) }
        return names
    }

    /// Whether the patch changes nothing.
    public var isEmpty: Bool { fieldsSet.isEmpty }

    /// Applies the patch to `element`, all or nothing.
    /// - Throws: `EditError` `.invalid` naming the field: a value out of its range, a field the
    ///   element's kind does not have, a placement on an ink layer.
    public func apply(to element: inout Element) throws(EditError) {
        var e = element
        let fields = fieldsSet
        try checkAdjustmentNames()
        func refuse(_ names: [String], kind: String) throws(EditError) {
            if let n = fields.first(where: names.contains) {
                throw EditError(.invalid, field: n, "applies to \(kind) elements; '\(e.id)' is \(e.kind.rawValue)")
            }
        }
        if let v = opacity { e.opacity = try Self.checked(v, FieldRules.opacity) }
        if let v = hidden { e.hidden = v }
        if let v = locked { e.locked = v }
        if at != nil || scale != nil || rotate != nil {
            guard e.kind != .ink else { throw PageEdits.inkHasNoTransform(e.id).relabelled(field: ["at", "scale", "rotate"].first(where: fields.contains)!) }
            let p = e.placement
            let s = try scale.map { v throws(EditError) in try Self.checked(v, FieldRules.scale, field: "scale") } ?? p.scale
            let r = try rotate.map { v throws(EditError) in try Self.checked(v, FieldRules.rotation, field: "rotate") } ?? p.rotation
            do { e.placement = try Placement(center: at ?? p.center, scale: s, rotation: r, flipH: p.flipH, flipV: p.flipV) } catch {
                throw EditError(.invalid, field: at != nil ? "at" : "scale", "\(error)")
            }
        }
        switch e.content {
        case .text(var t):
            try refuse(Self.photoFields, kind: "photo")
            try apply(to: &t)
            e.content = .text(t)
        case .photo(var ph):
            try refuse(Self.textFields, kind: "text")
            try apply(to: &ph)
            e.content = .photo(ph)
        case .image(var img):
            try refuse(Self.textFields, kind: "text")
            try refuse(Self.photoFields, kind: "photo")
            if let o = outline { img.outline = o }
            e.content = .image(img)
        case .ink, .washi:
            try refuse(Self.textFields, kind: "text")
            try refuse(Self.photoFields, kind: "photo")
            if outline != nil { throw EditError(.invalid, field: "outline", "applies to text, image and photo elements; '\(e.id)' is \(e.kind.rawValue)") }
        }
        element = e
    }

    /// Applies the text fields (and the outline) to `t`, and checks the result.
    public func apply(to t: inout TextContent) throws(EditError) {
        if let v = text { t.text = v }
        if let v = font {
            t.font = v
            t.fontFile = nil
        }
        if let v = fontFile { t.fontFile = v }
        if let v = size { t.size = try Self.checked(v, FieldRules.fontSize) }
        if let v = color { t.color = v }
        if let v = align { t.align = v }
        if let v = weight {
            guard FieldRules.weight.range.contains(v) else { throw EditError(.invalid, field: "weight", FieldRules.weight.refusal(v)) }
            t.weight = v
        }
        if let v = italic { t.italic = v }
        if let v = maxWidth { t.maxWidth = try v.map { w throws(EditError) in try Self.checked(w, FieldRules.maxWidth) } }
        if let v = lineHeight { t.lineHeight = try Self.checked(v, FieldRules.lineHeight) }
        if let v = letterSpacing { t.letterSpacing = try Self.checked(v, FieldRules.letterSpacing) }
        if let o = outline { t.outline = o }
        do { try t.validate() } catch { throw EditError(from: error) }
    }

    /// Applies the photo fields (and the outline) to `ph`, and checks the result.
    public func apply(to ph: inout PhotoContent) throws(EditError) {
        try checkAdjustmentNames()
        if let v = frame { ph.frame = v }
        if let v = radius { ph.radius = try Self.checked(v, FieldRules.radius) }
        if let v = shadow { ph.shadow = v }
        for ((name, _, kp), rule) in zip(PhotoContent.adjustmentRanges, FieldRules.adjustments) {
            if let v = adjustments[name] { ph[keyPath: kp] = try Self.checked(v, rule, field: name) }
        }
        if let o = outline { ph.image.outline = o }
        do { try ph.validate() } catch { throw EditError(from: error) }
    }

    private func checkAdjustmentNames() throws(EditError) {
        for name in adjustments.keys.sorted() where !PhotoContent.adjustmentRanges.contains(where: { $0.0 == name }) {
            throw EditError(.invalid, field: name, "no such field; photo adjustments are \(PhotoContent.adjustmentRanges.map(\.0).joined(separator: ", "))")
        }
    }

    /// `value` when `rule` allows it; otherwise a refusal naming the field.
    static func checked(_ value: Double, _ rule: FieldRule, field: String? = nil) throws(EditError) -> Double {
        guard rule.contains(value) else { throw EditError(.invalid, field: field ?? rule.name, rule.refusal(value)) }
        return value
    }
}

/// A new element to put on a page with `PageEdits.add`.
public struct NewElement: Sendable {
    /// The id; nil gives the next free `<kind>-<n>`.
    public var id: String?
    public var content: Element.Content
    /// Where it goes; nil is the default: centred on the page (a picture on a page that grows
    /// with its content at the top), at its natural size.
    public var placement: Placement?
    /// With the default placement, a picture larger than 80 % of the page comes in fitted to it,
    /// as a phone app brings one in (the editor's uploads); otherwise at its natural size (the
    /// CLI, the library and manifests, whose users say the size they want).
    public var fitToPage: Bool
    /// The centre for the default placement (when `placement` is nil), instead of the page's.
    public var center: Point?
    public var opacity: Double
    /// Kept but not drawn.
    public var hidden: Bool
    /// A page-space clip (a template slot), images and photos only.
    public var clip: SlotFrame?
    /// Drawn but never moved by a gesture.
    public var locked: Bool = false

    public init(
        id: String? = nil, content: Element.Content, placement: Placement? = nil, center: Point? = nil, fitToPage: Bool = false, opacity: Double = 1,
        hidden: Bool = false, clip: SlotFrame? = nil
    ) {
        self.fitToPage = fitToPage
        self.hidden = hidden
        self.id = id
        self.content = content
        self.placement = placement
        self.center = center
        self.opacity = opacity
        self.clip = clip
    }
}

extension PageEdits {
    /// Applies `patch` to element `id` on `page`, all or nothing.
    /// - Throws: `EditError` `.notFound` for an unknown element; `.invalid` naming the field.
    public static func set(_ patch: ElementPatch, on id: String, of page: inout Page) throws(EditError) {
        let i = try elementIndex(id, on: page)
        try patch.apply(to: &page.elements[i])
    }

    /// Puts `new` on top of `page` and returns its id. `renderer` lays out an auto-sized page
    /// for the default placement.
    /// - Throws: `EditError` `.invalid` naming the field: an id that is malformed or already on
    ///   the page, an ink layer (drawn, not added), a value out of range, a page at its element limit.
    @discardableResult
    public static func add(_ new: NewElement, to page: inout Page, renderer: PageRenderer) throws(EditError) -> String {
        let kind = new.content.kind
        if kind == .ink { throw EditError(.invalid, field: "type", "ink is drawn (techo draw, POST …/draw), not added") }
        let id = new.id ?? page.nextElementID(for: kind)
        guard Identifier.isValid(id) else { throw EditError(.invalid, field: "id", "expected an id of 1-64 letters, digits, - or _, got '\(id)'") }
        if page.index(of: id) != nil { throw EditError(.invalid, field: "id", "page \(page.id) already has an element '\(id)'") }
        _ = try ElementPatch.checked(new.opacity, FieldRules.opacity)
        switch new.content {
        case .text(let t): do { try t.validate() } catch { throw EditError(from: error) }
        case .photo(let p): do { try p.validate() } catch { throw EditError(from: error) }
        case .image, .ink, .washi: break
        }
        if new.clip != nil, kind != .image, kind != .photo { throw EditError(.invalid, field: "clip", "only images and photos are clipped to a slot") }
        // A new text wraps at the page's content width unless it says otherwise (TextRules).
        let content = TextRules.withDefaultWrap(new.content, on: page)
        let placement: Placement
        if let p = new.placement {
            placement = p
        } else {
            let size = try EditError.wrapping { try renderer.resolvedSize(of: page) }
            placement = try defaultPlacement(of: content, on: page, size: size, center: new.center, fitToPage: new.fitToPage)
        }
        var added = page
        added.elements.append(
            try EditError.wrapping {
                try Element(id: id, content: content, placement: placement, opacity: new.opacity, hidden: new.hidden, clip: new.clip, locked: new.locked)
            }
        )
        try EditError.wrapping { try added.checkElementCount(file: "pages/\(page.id).json", limits: .default) }
        page = added
        return id
    }

    /// Draws `stroke` on the page's topmost ink layer (made on first use, `ink-<n>`), or on a
    /// new layer above everything when `newLayer` (named `id`, or the next free id), and
    /// returns the layer's id.
    @discardableResult
    public static func draw(_ stroke: Stroke, on page: inout Page, newLayer: Bool = false, id: String? = nil) throws(EditError) -> String {
        if id != nil, !newLayer { throw EditError(.invalid, field: "id", "names a new ink layer; ask for a new layer") }
        guard newLayer else { return try EditError.wrapping { try page.appendStroke(stroke) } }
        let id = id ?? page.nextElementID(for: .ink)
        guard Identifier.isValid(id) else { throw EditError(.invalid, field: "id", "expected an id of 1-64 letters, digits, - or _, got '\(id)'") }
        if page.index(of: id) != nil { throw EditError(.invalid, field: "id", "page \(page.id) already has an element '\(id)'") }
        var drawn = page
        drawn.elements.append(try EditError.wrapping { try Element(id: id, content: .ink(InkContent(strokes: [stroke]))) })
        try EditError.wrapping { try drawn.checkElementCount(file: "pages/\(page.id).json", limits: .default) }
        page = drawn
        return id
    }

    /// Where an element goes when nothing says: `center`, or the page centre (a picture on a
    /// page with an auto side at the top, below the margin); at its natural size, or when
    /// `fitToPage` a picture larger than 80 % of the page fitted to it.
    public static func defaultPlacement(
        of content: Element.Content, on page: Page, size: (width: Double, height: Double), center: Point? = nil,
        fitToPage: Bool = false
    ) throws(EditError) -> Placement {
        let picture: ImageContent? = {
            switch content {
            case .image(let i): return i
            case .photo(let p): return p.image
            default: return nil
            }
        }()
        guard let picture else { return try EditError.wrapping { try Placement(center: center ?? Point(size.width / 2, size.height / 2)) } }
        var shown = (picture.naturalWidth, picture.naturalHeight)
        if case .photo(let p) = content, let c = p.crop { shown = (c.width, c.height) }
        var fit = 0.8 * size.width / shown.0
        if page.size.height != nil { fit = min(fit, 0.8 * size.height / shown.1) }
        let scale = fitToPage ? max(Placement.scaleRange.lowerBound, min(1, fit)) : 1
        let middle = page.size.height == nil ? Point(size.width / 2, shown.1 * scale / 2 + page.margin) : Point(size.width / 2, size.height / 2)
        return try EditError.wrapping { try Placement(center: center ?? middle, scale: scale) }
    }
}
