// Stroke ⇄ JSON (docs/format.md, "Strokes").

extension Stroke {
    /// The stroke as JSON; defaults are left out.
    public var json: JSONValue {
        var o: [String: JSONValue] = ["tool": .string(tool.rawValue), "width": .number(width)]
        if let id { o["id"] = .string(id) }
        if tool != .eraser || color != .black { o["color"] = .string(color.description) }
        if opacity != 1 { o["opacity"] = .number(opacity) }
        if tool.usesPoints {
            o["points"] = .array(
                points.map { p in
                    .array(p.pressure.map { [.number(p.x), .number(p.y), .number($0)] } ?? [.number(p.x), .number(p.y)])
                })
        }
        if let f = from { o["from"] = [.number(f.x), .number(f.y)] }
        if let t = to { o["to"] = [.number(t.x), .number(t.y)] }
        if let d { o["d"] = .string(d) }
        if let fill { o["fill"] = .string(fill.description) }
        if fillRule != .nonZero { o["fillRule"] = .string(fillRule.rawValue) }
        if cap != .round { o["cap"] = .string(cap.rawValue) }
        if join != .round { o["join"] = .string(join.rawValue) }
        if miterLimit != 10 { o["miterLimit"] = .number(miterLimit) }
        if let dash { o["dash"] = .array(dash.map { .number($0) }) }
        if dashOffset != 0 { o["dashOffset"] = .number(dashOffset) }
        return .object(o)
    }

    /// Decodes a stroke at `node`, lengths through `dpi`; nil after reporting.
    public static func decode(_ node: JSONNode, dpi: Double) -> Stroke? {
        guard let o = node.object() else { return nil }
        defer { o.finish() }
        let ctx = node.context
        let before = ctx.problems.count
        let id = o.optional("id")?.identifier()
        let tool = o.required("tool")?.choice(Tool.self)
        let color = o.optional("color")?.color()
        let width = o.required("width")?.length(dpi: dpi, FieldRules.strokeWidth)
        let opacity = o.optional("opacity")?.number(FieldRules.opacity)
        var points: [StrokePoint] = []
        if let pn = o.optional("points") {
            if case .array(let items) = pn.value, items.count > ctx.limits.maxStrokePoints {
                pn.report("\(items.count) points is over the limit of \(ctx.limits.maxStrokePoints)")
            } else if let items = pn.array() {
                points.reserveCapacity(items.count)
                for item in items {
                    // Fast path for the common [x, y] / [x, y, p] of plain numbers.
                    if case .array(let xs) = item.value, xs.count == 2 || xs.count == 3,
                        case .number(let x) = xs[0], case .number(let y) = xs[1], abs(x) <= 1e7, abs(y) <= 1e7
                    {
                        if xs.count == 2 { points.append(StrokePoint(x, y)); continue }
                        if case .number(let p) = xs[2], p >= 0, p <= 1 { points.append(StrokePoint(x, y, pressure: p)); continue }
                    }
                    guard let xs = item.array() else { continue }
                    guard xs.count == 2 || xs.count == 3 else { item.report("expected [x, y] or [x, y, pressure]"); continue }
                    let x = xs[0].length(dpi: dpi), y = xs[1].length(dpi: dpi)
                    let p = xs.count == 3 ? xs[2].number(FieldRules.pressure) : nil
                    if let x, let y { points.append(StrokePoint(x, y, pressure: p)) }
                }
            }
        }
        let from = o.optional("from")?.lengthPoint(dpi: dpi)
        let to = o.optional("to")?.lengthPoint(dpi: dpi)
        let d = o.optional("d")?.string()
        if let d, d.utf8.count > 1_000_000 { o.optional("d")?.report("path data over 1000000 bytes") }
        let fill = o.optional("fill")?.color()
        let fillRule = o.optional("fillRule")?.choice(FillRule.self)
        let cap = o.optional("cap")?.choice(LineCap.self)
        let join = o.optional("join")?.choice(LineJoin.self)
        let miter = o.optional("miterLimit")?.number(FieldRules.miterLimit)
        var dash: [Double]?
        if let dn = o.optional("dash"), let items = dn.array() {
            let vals = items.compactMap { $0.length(dpi: dpi, FieldRules.dashLength) }
            if vals.count == items.count { dash = vals }
        }
        let dashOffset = o.optional("dashOffset")?.length(dpi: dpi, FieldRules.dashOffset)
        guard let tool, let width, ctx.problems.count == before else { return nil }
        do {
            return try Stroke(
                tool: tool, color: color ?? .black, width: width, opacity: opacity ?? 1, points: points,
                from: from, to: to, d: d, fill: fill, fillRule: fillRule ?? .nonZero, cap: cap ?? .round,
                join: join ?? .round, miterLimit: miter ?? 10, dash: dash, dashOffset: dashOffset ?? 0,
                id: id, limits: ctx.limits)
        } catch {
            // Report each broken guarantee at its own field.
            let probe = Stroke(unchecked: tool, width: width, points: points, from: from, to: to, d: d, dash: dash)
            for (field, message) in probe.problems(limits: ctx.limits) { ctx.report(node.path(field), message) }
            return nil
        }
    }

    private init(unchecked tool: Tool, width: Double, points: [StrokePoint], from: Point?, to: Point?, d: String?, dash: [Double]?) {
        id = nil; self.tool = tool; color = .black; self.width = width; opacity = 1; self.points = points; self.from = from; self.to = to
        self.d = d; fill = nil; fillRule = .nonZero; cap = .round; join = .round; miterLimit = 10; self.dash = dash; dashOffset = 0
    }
}
