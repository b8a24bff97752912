// A journal page: size, dpi, background, template slots and ordered elements.

/// One page.
///
/// ## Guarantees
/// `id` is a valid id; `size` passes `PageSize.validationProblem`; `dpi` is in `Page.dpiRange`;
/// element ids are unique; slot names are unique; every stroke has an id, unique among the
/// page's strokes and elements (`Page+StrokeIDs`); every element keeps its own guarantees.
public struct Page: Hashable, Sendable {
    /// Page id, unique in the journal.
    public var id: String
    /// Size in pixels; a nil side grows with the content. Default A5 at 300 dpi.
    public var size: PageSize
    /// Resolution for unit conversion and print metadata. Default 300.
    public var dpi: Double
    /// Background. Default white.
    public var background: Background
    /// For an `auto` side: space kept beyond the content, pixels. Default 0.
    public var margin: Double
    /// Template slots. Default none.
    public var slots: [Slot]
    /// Elements, bottom to top. Default none.
    public var elements: [Element]

    /// Accepted resolutions.
    public static let dpiRange: ClosedRange<Double> = FieldRules.dpi.range
    /// The default resolution.
    public static let defaultDPI: Double = 300

    public init(
        id: String, size: PageSize? = nil, dpi: Double = Page.defaultDPI, background: Background = Background(),
        margin: Double = 0, slots: [Slot] = [], elements: [Element] = [], limits: ModelLimits = .default
    ) throws {
        try Identifier.validate(id, what: "page id")
        guard FieldRules.dpi.contains(dpi) else { throw ValueError(FieldRules.dpi, dpi) }
        let s = try size ?? PageSize(parsing: PageSize.defaultName, dpi: dpi)
        if let p = s.validationProblem(limits: limits) { throw ValueError("page size \(s): \(p)") }
        guard FieldRules.margin.contains(margin) else { throw ValueError(FieldRules.margin, margin) }
        var seen = Set<String>()
        for e in elements where !seen.insert(e.id).inserted { throw ValueError("duplicate element id \"\(e.id)\"") }
        var names = Set<String>()
        for s in slots where !names.insert(s.name).inserted { throw ValueError("duplicate slot name \"\(s.name)\"") }
        self.id = id; self.size = s; self.dpi = dpi; self.background = background; self.margin = margin
        self.slots = slots; self.elements = elements
        assignStrokeIDs()
        if let problem = strokeIDProblem { throw ValueError(problem) }
    }

    /// The index of the element with `id`.
    public func index(of id: String) -> Int? { elements.firstIndex { $0.id == id } }

    /// Appends `stroke` to the page's topmost ink layer, creating one (`ink-<n>`) on first use,
    /// as every drawing does (the CLI's `draw`, the editor, the library). A stroke without an
    /// id gets the page's next one (`assignStrokeIDs`). Returns the layer's id.
    @discardableResult
    public mutating func appendStroke(_ stroke: Stroke) throws -> String {
        defer { assignStrokeIDs() }
        if let i = elements.lastIndex(where: { $0.kind == .ink }), case .ink(var ink) = elements[i].content {
            ink.strokes.append(stroke)
            elements[i].content = .ink(ink)
            return elements[i].id
        }
        let id = nextElementID(for: .ink)
        elements.append(try Element(id: id, content: .ink(InkContent(strokes: [stroke]))))
        return id
    }

    /// A fresh element id `<kind>-<n>`.
    public func nextElementID(for kind: Element.Kind) -> String {
        Identifier.next(prefix: kind.rawValue, existing: elements.map(\.id))
    }

    /// Page centre, for elements placed without `at` (0 on an auto side).
    public var center: Point { Point((size.width ?? 0) / 2, (size.height ?? 0) / 2) }

    /// Every asset the page refers to.
    public var assets: Set<AssetRef> {
        var out = Set<AssetRef>()
        if let img = background.image { out.insert(img.asset) }
        for e in elements { out.formUnion(e.assets) }
        return out
    }

    /// Traps when a guarantee is broken.
    public func checkInvariants() {
        precondition(Identifier.isValid(id), "bad page id")
        precondition(size.validationProblem() == nil && Page.dpiRange.contains(dpi), "bad page size or dpi")
        precondition(Set(elements.map(\.id)).count == elements.count, "duplicate element ids")
        if let problem = strokeIDProblem { preconditionFailure(problem) }
        elements.forEach { $0.checkInvariants() }
    }
}
