// A stroke to be drawn, as the editor's API receives it: the page-file form (docs/format.md,
// "Strokes"), where a field left out takes the tool's default as `techo draw` gives it, so the
// same stroke sent to either front end writes the same page (a highlighter without `cap` or
// `opacity` is flat-ended and half strength from both, not round and opaque from one).

extension Stroke.Tool {
    /// The width a stroke of this tool has when none is given: highlighter 24, eraser 30, else 4.
    public var defaultWidth: Double { self == .highlighter ? 24 : self == .eraser ? 30 : 4 }
    /// The colour a stroke of this tool has when none is given: highlighter #ffe45c, else black.
    public var defaultColor: RGBA { self == .highlighter ? RGBA(r: 0xFF, g: 0xE4, b: 0x5C) : .black }
    /// The ends a stroke of this tool has when none are given: a highlighter's are flat.
    public var defaultCap: LineCap { self == .highlighter ? .butt : .round }
    /// The opacity a stroke of this tool has when none is given: a highlighter's is 0.5.
    public var defaultOpacity: Double { self == .highlighter ? 0.5 : 1 }
}

extension Stroke {
    /// Decodes one stroke to be drawn: as `decode(_:dpi:)`, with the tool's defaults for a
    /// `width`, `color`, `cap` or `opacity` left out, and no `id` (the page gives one). Nil after reporting into `node`'s context.
    public static func decode(drawing node: JSONNode, dpi: Double) -> Stroke? {
        var value = node.value
        if case .object(var o) = value, case .string(let name)? = o["tool"], let tool = Tool(rawValue: name) {
            if o["width"] == nil { o["width"] = .number(tool.defaultWidth) }
            if o["color"] == nil, tool != .eraser { o["color"] = .string(tool.defaultColor.description) }
            if o["cap"] == nil { o["cap"] = .string(tool.defaultCap.rawValue) }
            if o["opacity"] == nil { o["opacity"] = .number(tool.defaultOpacity) }
            o["id"] = nil  // the page gives a drawn stroke its id
            value = .object(o)
        }
        return decode(JSONNode(value: value, path: node.path, context: node.context), dpi: dpi)
    }
}
