// Decoding single elements and gesture events from JSON that is not a whole file: what the
// editor's HTTP API receives. The same decoders as page files and replays, so a request can hold
// exactly what a page file or a recording may, with the same checks and JSON paths in errors.

extension Element {
    /// Decodes one element written as in a page file (docs/format.md) to be added to `page`:
    /// a missing `id` gets the next free `<type>-<n>`, a missing `at` is the page centre, and
    /// washi without `at` has its `from` and `to` in page coordinates (as in a manifest).
    /// Returns nil after reporting into `node`'s context; an id already on the page is reported.
    public static func decode(_ node: JSONNode, addingTo page: Page) -> Element? {
        var value = node.value
        if case .object(var o) = value {
            if o["id"] == nil, case .string(let type)? = o["type"], let kind = Kind(rawValue: type) {
                o["id"] = .string(page.nextElementID(for: kind))
            }
            if o["at"] == nil, case .string("washi")? = o["type"], let f = o["from"], let t = o["to"] {
                // Tape is laid from one page point to another, as in a manifest: centre it between them.
                let scratch = DecodingContext()
                if let from = JSONNode(value: f, path: "", context: scratch).lengthPoint(dpi: page.dpi),
                    let to = JSONNode(value: t, path: "", context: scratch).lengthPoint(dpi: page.dpi)
                {
                    let mid = (from + to) / 2
                    o["at"] = [.number(mid.x), .number(mid.y)]
                    o["from"] = [.number(from.x - mid.x), .number(from.y - mid.y)]
                    o["to"] = [.number(to.x - mid.x), .number(to.y - mid.y)]
                }
            }
            if o["at"] == nil { o["at"] = [.number(page.center.x), .number(page.center.y)] }
            value = .object(o)
        }
        let filled = JSONNode(value: value, path: node.path, context: node.context)
        let env = ElementEnvironment(dpi: page.dpi, pageCenter: page.center, sources: nil, slots: page.slots)
        guard let e = decode(filled, env: env, existing: page.elements.map(\.id)) else { return nil }
        if page.index(of: e.id) != nil {
            node.context.report(node.path("id"), "page \(page.id) already has an element \"\(e.id)\"")
            return nil
        }
        return e
    }
}

extension GestureReplay {
    /// Decodes one recognizer event (one line of a recording, as an already parsed value).
    /// Returns nil for events that change nothing (cancelled or failed) and after reporting.
    public static func event(_ node: JSONNode) -> Gesture? { decodeEvent(node) }
}
