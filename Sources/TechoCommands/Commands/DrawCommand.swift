// techo draw: one stroke of ink on the page's topmost ink layer (created on first use).
import Foundation
import TechoEditing
import TechoGeometry
import TechoModel

enum DrawCommand: TechoCommand {
    static let names = ["draw"]
    static let usage =
        "draw JOURNAL PAGE --tool T [--color C] [--width W] [--opacity A] [--fill C] [--fill-rule R] [--cap C] [--join J] [--miter-limit M] [--dash A,B] [--dash-offset O] (--points \"x,y x,y …\" | --points-file F.json | --from X,Y --to X,Y | --path D)"
    static let summary = "draw a stroke: pencil, line, dash, rect, ellipse, path, highlighter or eraser"
    static let discussion = """
        Points are page pixels (or lengths such as 12mm); a third number per point is pen pressure
        from 0 to 1 ("x,y,p"). --points-file reads a JSON array [[x,y], [x,y,p], …]. The eraser
        clears the ink layer it is drawn on, so what lies beneath shows through. --layer new starts
        a new ink layer above everything.
        """
    static let options = [
        OptionSpec("tool", value: "T", help: "pencil, line, dash, rect, ellipse, path, highlighter or eraser"),
        OptionSpec("color", value: "C", help: "ink colour (default black; highlighter: #ffe45c)"),
        OptionSpec("width", value: "W", help: "pen width (default 4; highlighter 24; eraser 30)"),
        OptionSpec("opacity", value: "A", help: "stroke opacity from 0 to 1"),
        OptionSpec("fill", value: "C", help: "fill colour for rect, ellipse and path"),
        OptionSpec("fill-rule", value: "R", help: "nonzero (default) or evenodd"),
        OptionSpec("cap", value: "C", help: "butt, round (default) or square"),
        OptionSpec("join", value: "J", help: "miter, round (default) or bevel"),
        OptionSpec("miter-limit", value: "M", help: "miter limit (default 10)"),
        OptionSpec("dash", value: "ON,OFF,…", help: "dash pattern (the dash tool defaults to 3w,3w)"),
        OptionSpec("dash-offset", value: "O", help: "start offset into the dash pattern"),
        OptionSpec("points", value: "\"x,y …\"", help: "points for pencil, highlighter and eraser"),
        OptionSpec("points-file", value: "F.json", help: "points from a JSON file"),
        OptionSpec("from", value: "X,Y", help: "start (line, dash) or a corner (rect, ellipse)"),
        OptionSpec("to", value: "X,Y", help: "end (line, dash) or the opposite corner (rect, ellipse)"),
        OptionSpec("path", value: "D", help: "SVG path data for the path tool"),
        OptionSpec("layer", value: "new", help: "draw on a new ink layer instead of the topmost one"),
        OptionSpec("id", value: "ID", help: "id for a new ink layer"),
    ]

    static func run(_ args: ParsedArguments, io: CommandIO) throws {
        let pos = try args.positionals(["JOURNAL", "PAGE"], command: "draw")
        guard let toolArg = args.arg("tool") else {
            throw UsageError("draw: --tool is required (pencil, line, dash, rect, ellipse, path, highlighter or eraser)")
        }
        let tool = Stroke.Tool(rawValue: try toolArg.choice(Stroke.Tool.allCases.map(\.rawValue)))!
        try args.exclusive(["points", "points-file"], command: "draw")
        if let l = args.arg("layer") { _ = try l.choice(["new"]) }
        let store = try JournalAccess.open(pos[0], io: io)
        let pointsFile = try args.arg("points-file").map { try readPointsFile($0, io: io) }
        let id: String = try JournalAccess.editPage(pos[1], of: store, description: "draw \(tool.rawValue)") { page in
            let stroke = try makeStroke(tool, args: args, dpi: page.dpi, pointsFile: pointsFile)
            // The first stroke on a page starts its first layer, which --id may name.
            let newLayer = args.has("layer") || !page.elements.contains(where: { $0.kind == .ink })
            if args.has("id"), !newLayer { throw UsageError("draw: --id names a new ink layer; add --layer new") }
            do throws(EditError) { return try PageEdits.draw(stroke, on: &page, newLayer: newLayer, id: args.arg("id")?.text) } catch {
                throw optionRefusal(error)
            }
        }
        io.out("\(id)\n")
    }

    static func makeStroke(_ tool: Stroke.Tool, args: ParsedArguments, dpi: Double, pointsFile: [StrokePoint]?) throws -> Stroke {
        // The tool's defaults are the ones a drawing request to the editor's API gets.
        let width = try args.arg("width")?.length(dpi: dpi, FieldRules.strokeWidth) ?? tool.defaultWidth
        let color = try args.arg("color")?.color() ?? tool.defaultColor
        var points: [StrokePoint] = []
        var from: Point?, to: Point?, d: String?
        if tool.usesPoints {
            for o in ["from", "to", "path"] where args.has(o) { throw UsageError("draw: --\(o) does not apply to the \(tool.rawValue) tool; give --points") }
            if let file = pointsFile {
                points = file
            } else if let a = args.arg("points") {
                points = try parsePoints(a, dpi: dpi)
            } else {
                throw UsageError("draw: the \(tool.rawValue) tool needs --points \"x,y x,y …\" or --points-file F.json")
            }
        } else if tool.usesEnds {
            for o in ["points", "points-file", "path"] where args.has(o) {
                throw UsageError("draw: --\(o) does not apply to the \(tool.rawValue) tool; give --from and --to")
            }
            guard let f = args.arg("from"), let t = args.arg("to") else { throw UsageError("draw: the \(tool.rawValue) tool needs --from X,Y and --to X,Y") }
            from = try f.point(dpi: dpi)
            to = try t.point(dpi: dpi)
        } else {
            guard let p = args.arg("path") else { throw UsageError("draw: the path tool needs --path with SVG path data") }
            do { _ = try Path(svgPathData: p.text) } catch { throw UsageError("--path (argument \(p.token.index)): \(error)") }
            d = p.text
        }
        let fill = try args.arg("fill")?.color()
        if fill != nil, ![.rect, .ellipse, .path].contains(tool) { throw UsageError("draw: --fill applies to rect, ellipse and path") }
        let fillRule = FillRule(rawValue: try args.arg("fill-rule")?.choice(["nonzero", "evenodd"]) ?? "nonzero")!
        let cap = LineCap(rawValue: try args.arg("cap")?.choice(LineCap.allCases.map(\.rawValue)) ?? tool.defaultCap.rawValue)!
        let join = LineJoin(rawValue: try args.arg("join")?.choice(LineJoin.allCases.map(\.rawValue)) ?? "round")!
        let miter = try args.arg("miter-limit")?.number(FieldRules.miterLimit) ?? 10
        let dash = try args.arg("dash").map { a -> [Double] in
            let v = try a.numbers(in: FieldRules.dashLength.range)
            guard v.contains(where: { $0 > 0 }) else { throw a.fail("expected dash lengths, not all zero") }
            return v
        }
        let dashOffset = try args.arg("dash-offset")?.number(FieldRules.dashOffset) ?? 0
        let opacity = try args.arg("opacity")?.number(FieldRules.opacity) ?? tool.defaultOpacity
        do {
            return try Stroke(
                tool: tool, color: color, width: width, opacity: opacity, points: points, from: from, to: to, d: d,
                fill: fill, fillRule: fillRule, cap: cap, join: join, miterLimit: miter, dash: dash, dashOffset: dashOffset)
        } catch {
            throw UsageError("draw: \(error)")
        }
    }

    /// `"x,y x,y,p …"`: points separated by spaces (or semicolons), coordinates by commas.
    static func parsePoints(_ a: Arg, dpi: Double) throws -> [StrokePoint] {
        var out: [StrokePoint] = []
        let items = a.text.split(whereSeparator: { $0 == " " || $0 == ";" || $0 == "\n" || $0 == "\t" })
        guard !items.isEmpty else { throw a.fail("expected points \"x,y x,y …\"") }
        guard items.count <= ModelLimits.default.maxStrokePoints else { throw a.fail("more than \(ModelLimits.default.maxStrokePoints) points") }
        for (i, item) in items.enumerated() {
            let parts = item.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2 || parts.count == 3 else {
                throw UsageError("\(a.name) (argument \(a.token.index)): point \(i + 1) '\(item)' is not x,y or x,y,pressure")
            }
            let bad = { (_: String) in UsageError("\(a.name) (argument \(a.token.index)): point \(i + 1) '\(item)' is not x,y or x,y,pressure") }
            let x = try Arg.length(parts[0], dpi: dpi, range: -1e7...1e7, fail: bad)
            let y = try Arg.length(parts[1], dpi: dpi, range: -1e7...1e7, fail: bad)
            var p: Double?
            if parts.count == 3 {
                guard let v = Double(parts[2]), v >= 0, v <= 1 else {
                    throw UsageError("\(a.name) (argument \(a.token.index)): point \(i + 1): pressure must be from 0 to 1, got '\(parts[2])'")
                }
                p = v
            }
            out.append(StrokePoint(x, y, pressure: p))
        }
        return out
    }

    /// A JSON array of `[x, y]` or `[x, y, pressure]`.
    static func readPointsFile(_ a: Arg, io: CommandIO) throws -> [StrokePoint] {
        let value: JSONValue
        do {
            value = try JSONParser.parse(try InputFile.read(a, io: io, limit: JSONLimits.default.maxBytes), file: a.text)
        } catch let e as JSONSyntaxError {
            throw EditError(.invalid, "\(e)")
        }
        guard case .array(let items) = value, !items.isEmpty else {
            throw EditError(.invalid, "\(a.text): expected a non-empty JSON array of [x, y] or [x, y, pressure]")
        }
        guard items.count <= ModelLimits.default.maxStrokePoints else {
            throw EditError(.invalid, "\(a.text): \(items.count) points is over the limit of \(ModelLimits.default.maxStrokePoints)")
        }
        return try items.enumerated().map { i, item in
            guard case .array(let xs) = item, xs.count == 2 || xs.count == 3,
                case .number(let x) = xs[0], case .number(let y) = xs[1], x.isFinite, y.isFinite, abs(x) <= 1e7, abs(y) <= 1e7
            else {
                throw EditError(.invalid, "\(a.text): [\(i)]: expected [x, y] or [x, y, pressure] with finite numbers")
            }
            var p: Double?
            if xs.count == 3 {
                guard case .number(let v) = xs[2], v >= 0, v <= 1 else { throw EditError(.invalid, "\(a.text): [\(i)][2]: pressure must be from 0 to 1") }
                p = v
            }
            return StrokePoint(x, y, pressure: p)
        }
    }
}
