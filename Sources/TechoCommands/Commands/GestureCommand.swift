// techo gesture: move a sticker the way a phone app does. All gestures of one command, or a
// whole recorded stream, are one undo step. Several ids (elements and strokes) move as a group
// (GroupEdits).
import Foundation
import TechoEditing
import TechoGeometry
import TechoModel
import TechoRender

enum GestureCommand: TechoCommand {
    static let names = ["gesture"]
    static let usage =
        "gesture JOURNAL PAGE ID|STROKEID [ID...] [--pan DX,DY] [--pinch S] [--rotate DEG] [--around X,Y] [--double-tap] [--flip h|v] [--replay FILE.jsonl]"
    static let summary = "pan, pinch, rotate, double-tap or flip an element or a stroke, or replay a recorded gesture stream"
    static let discussion = """
        Gestures apply in the order they are typed. --around X,Y is the focal point of pinch and
        rotate (that page point stays where it is); without it they act about the element's centre.
        --replay reads JSON lines of recognizer events, e.g.
          {"gesture":"pinch","state":"changed","scale":1.04,"location":[812,640]}
          {"gesture":"rotation","state":"changed","rotation":0.02}
          {"gesture":"pan","state":"changed","translation":[3,-1]}
          {"gesture":"doubleTap"}
        with incremental values, as UIKit reports them. A gesture that would make the transform
        singular or not finite is refused and nothing changes.
        A stroke id (see 'techo show --json') moves that stroke's points: pinch scales its width
        too; a path stroke is not moved, a rect or ellipse turns by quarter turns only.
        Several ids (elements and strokes, mixed) move together as one group, one undo step:
        each gesture applies to every one of them; without --around, pinch and rotate act about
        the centre of the group's box (the union of the elements' boxes and the strokes' drawn
        bounds), --double-tap turns the group +90° about it, and --flip mirrors the group across
        that centre (each element mirrored on the page, each stroke's points mirrored).
        """
    static let options = [
        OptionSpec("pan", value: "DX,DY", help: "move by (dx, dy) page pixels"),
        OptionSpec("pinch", value: "S", help: "scale by S"),
        OptionSpec("rotate", value: "DEG", help: "rotate by DEG degrees, clockwise"),
        OptionSpec("around", value: "X,Y", help: "focal point of pinch and rotate"),
        OptionSpec("double-tap", help: "rotate by +90° about the centre"),
        OptionSpec("flip", value: "h|v", help: "mirror in the element's own frame"),
        OptionSpec("replay", value: "FILE.jsonl", help: "replay a recorded gesture stream"),
    ]

    static func run(_ args: ParsedArguments, io: CommandIO) throws {
        let names = ["JOURNAL", "PAGE", "ID"]
        let pos =
            args.positionals.count > 3
            ? zip(args.positionals.prefix(3), names).map { Arg(token: $0, name: $1) } : try args.positionals(names, command: "gesture")
        let ids = args.positionals.dropFirst(2).map { Arg(token: $0, name: "ID") }
        let kinds = ["pan", "pinch", "rotate", "double-tap", "flip"]
        if args.has("replay"), let other = kinds.first(where: args.has) {
            throw UsageError("gesture: --replay and --\(other) cannot be used together")
        }
        guard args.has("replay") || kinds.contains(where: args.has) else {
            throw UsageError("gesture: give at least one of --pan, --pinch, --rotate, --double-tap, --flip or --replay")
        }
        if args.has("around"), !args.has("pinch"), !args.has("rotate") { throw UsageError("gesture: --around needs --pinch or --rotate") }
        let store = try JournalAccess.open(pos[0], io: io)
        if ids.count > 1 { return try runGroup(args, ids: ids, page: pos[1], store: store, io: io) }
        var replay: [Gesture]?
        if let r = args.arg("replay") {
            let bytes = try InputFile.read(r, io: io, limit: JSONLimits.default.maxBytes)
            do { replay = try GestureReplay.parse(String(decoding: bytes, as: UTF8.self)) } catch {
                throw EditError(.invalid, "\(r.text): \(error)")
            }
        }
        try JournalAccess.editPage(pos[1], of: store, description: "gesture \(pos[2].text)") { page in
            let isStroke = try JournalAccess.isStroke(pos[2], on: page)
            let gestures = try replay ?? typedGestures(args, dpi: page.dpi)
            let file = args.value("replay")?.text
            let label: (Int, Gesture) -> String = { n, g in file.map { "\($0): gesture \(n + 1)" } ?? "--\(optionName(g))" }
            do {
                if isStroke {
                    try PageEdits.moveStroke(pos[2].text, on: &page, by: gestures, label: label)
                } else {
                    try PageEdits.move(pos[2].text, on: &page, by: gestures, label: label)
                }
            } catch let e as EditError where e.message.hasPrefix("'") || e.message.hasPrefix("stroke '") {
                throw pos[2].blame(e)
            }
        }
    }

    /// Several ids: one group gesture (GroupEdits.move), one undo step. Element and stroke ids
    /// may be mixed: the strokes' points move with the elements, about the group's box.
    static func runGroup(_ args: ParsedArguments, ids: [Arg], page pageArg: Arg, store: JournalStore, io: CommandIO) throws {
        var replay: [Gesture]?
        if let r = args.arg("replay") {
            let bytes = try InputFile.read(r, io: io, limit: JSONLimits.default.maxBytes)
            do { replay = try GestureReplay.parse(String(decoding: bytes, as: UTF8.self)) } catch {
                throw EditError(.invalid, "\(r.text): \(error)")
            }
        }
        let texts = ids.map(\.text)
        try JournalAccess.editPage(pageArg, of: store, description: GroupEdits.describe("gesture", texts)) { page in
            var seen = Set<String>()
            var elements: [String] = [], strokes: [String] = []
            for id in ids {
                if !seen.insert(id.text).inserted { throw id.blame(EditError(.invalid, "'\(id.text)' is listed twice")) }
                if try JournalAccess.isStroke(id, on: page) { strokes.append(id.text) } else { elements.append(id.text) }
            }
            let gestures = try replay ?? typedGestures(args, dpi: page.dpi)
            let file = args.value("replay")?.text
            let label: (Int, Gesture) -> String = { n, g in file.map { "\($0): gesture \(n + 1)" } ?? "--\(optionName(g))" }
            do {
                try GroupEdits.move(
                    elements, strokes: strokes, on: &page, by: gestures, renderer: PageRenderer(assetURL: store.assetURL), label: label)
            } catch let e as EditError where e.message.hasPrefix("'") {
                let culprit = ids.first { e.message.hasPrefix("'\($0.text)'") } ?? ids[0]
                throw culprit.blame(e)
            }
        }
    }

    /// The typed gestures in command-line order.
    static func typedGestures(_ args: ParsedArguments, dpi: Double) throws -> [Gesture] {
        let around = try args.arg("around")?.point(dpi: dpi)
        var items: [(Int, Gesture)] = []
        for (name, occurrences) in args.options {
            for (tok, value) in occurrences {
                let a = value.map { Arg(token: $0, name: "--\(name)") }
                switch name {
                case "pan":
                    let v = try a!.numbers(count: 2)
                    items.append((tok.index, .pan(dx: v[0], dy: v[1])))
                case "pinch": items.append((tok.index, .pinch(scale: try a!.number(in: -1e6...1e6), around: around)))
                case "rotate": items.append((tok.index, .rotate(degrees: try a!.number(FieldRules.rotation), around: around)))
                case "double-tap": items.append((tok.index, .doubleTap))
                case "flip": items.append((tok.index, .flip(try a!.choice(["h", "v"]) == "h" ? .h : .v)))
                default: break
                }
            }
        }
        return items.sorted { $0.0 < $1.0 }.map(\.1)
    }

    static func optionName(_ g: Gesture) -> String {
        switch g {
        case .pan: return "pan"
        case .pinch: return "pinch"
        case .rotate: return "rotate"
        case .doubleTap: return "double-tap"
        case .flip: return "flip"
        }
    }
}
