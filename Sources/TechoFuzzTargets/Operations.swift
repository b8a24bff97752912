// Whatever is accepted renders: each input is a short sequence of changes to a small journal,
// each made through one of the four ways in — CLI arguments, a manifest, an editor HTTP body, a
// library call — with values drawn from the edges of every field's rule (FieldRules) and the
// fonts a user might type. After every change:
// - accepted (exit 0, a 2xx, no throw): every page renders and `techo check` passes;
// - refused: every file of the journal is byte for byte what it was.
// Either broken is a finding (the target traps with what was done). The journal is put back
// before each input, so an input means the same thing every time it runs.
import Foundation
import Techo
import TechoCodecs
import TechoCommands
import TechoEditing
import TechoModel
import TechoRaster
import TechoRender
import TechoServer

/// Reads an input's bytes as choices; past the end every choice is the first one.
struct ChoiceReader {
    let bytes: [UInt8]
    var at = 0
    var isDone: Bool { at >= bytes.count }

    mutating func byte() -> UInt8 {
        defer { at += 1 }
        return at < bytes.count ? bytes[at] : 0
    }

    mutating func pick<T>(_ items: [T]) -> T { items[Int(byte()) % items.count] }

    /// A value for `rule`: mostly its edges and just past them, sometimes anywhere.
    mutating func value(_ rule: FieldRule) -> Double {
        let lo = rule.lower, hi = rule.upper
        let edges = [
            rule.range.lowerBound, lo.nextDown, lo, hi, hi.nextUp, hi * 2, 0, 1, -1, 0.5, 1e308, -1e308, (lo + hi) / 2,
            lo + (hi - lo) * Double(byte()) / 255,
        ]
        return pick(edges)
    }

    mutating func text(_ d: Double) -> String {
        if d.isNaN { return "nan" }
        if d.isInfinite { return d > 0 ? "inf" : "-inf" }
        return FieldRule.text(d)
    }
}

/// The journal the operations change, its pristine copy, and the front ends over it.
final class OperationsJournal {
    let journal: FuzzJournalFolder
    let server: EditorServer
    let token: String
    var root: URL { journal.root }
    var live: URL { journal.live }
    var sticker: URL { journal.sticker }

    init(scratch: URL) throws {
        journal = try FuzzJournalFolder(scratch: scratch, name: "operations")
        // A font file beside the journal, for manifests that import one.
        try? FileManager.default.copyItem(
            atPath: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", toPath: journal.root.appendingPathComponent("Mine.ttf").path)
        (server, token) = try journal.serve(editorFolder: nil)
    }

    static func cli(_ args: [String], in folder: String? = nil) -> (Int32, String) {
        var err = ""
        let io = CommandIO(out: { _ in }, err: { err += $0 }, currentDirectory: folder ?? FileManager.default.currentDirectoryPath)
        return (TechoCommands.Techo.main(["techo"] + args, io: io), err)
    }

    /// Puts the live journal back as the pristine one is.
    func restore() { _ = journal.restore() }

    /// Every page renders and `check` passes; else what failed.
    func problem() -> String? { OperationsJournal.problem(journalAt: live) }

    /// The invariant of an accepted change: every page of the journal at `live` renders and
    /// `techo check` passes; else what failed (`techo-fuzz operations --check-journal DIR`).
    static func problem(journalAt live: URL) -> String? {
        do {
            let store = try JournalStore.open(live)
            let (journal, pages) = try store.read()
            let renderer = PageRenderer(assetURL: store.assetURL, composeThreads: 1)
            for id in journal.pageOrder {
                guard let page = pages[id] else { return "page \(id) is in the order but not stored" }
                _ = try renderer.render(page, scale: 0.25)
            }
        } catch {
            return "does not render: \(error)"
        }
        let (code, err) = OperationsJournal.cli(["check", live.path])
        return code == 0 ? nil : "check exits \(code): \(err.prefix(300))"
    }
}

extension OperationsJournal {
    /// The invariant of a refused change: every file of the journal (path → bytes, as
    /// `FuzzJournalFolder.read` gives them) is what it was; else which changed.
    static func refusalProblem(before: [String: [UInt8]], after: [String: [UInt8]]) -> String? {
        let changed = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()
        return changed.isEmpty ? nil : "refused, but changed \(changed.joined(separator: ", "))"
    }

}

extension Targets {
    /// The operations target's invariant for an accepted change, on the journal at `journal`
    /// (`techo-fuzz operations --check-journal DIR`): nil, or what is broken.
    public static func operationsAcceptedProblem(journal: URL) -> String? { OperationsJournal.problem(journalAt: journal) }

    /// The operations target's invariant for a refused change, on two copies of a journal
    /// folder (`techo-fuzz operations --check-refused BEFORE AFTER`): nil, or what changed.
    public static func operationsRefusedProblem(before: URL, after: URL) throws -> String? {
        OperationsJournal.refusalProblem(before: try FuzzJournalFolder.read(before), after: try FuzzJournalFolder.read(after))
    }
}

extension Targets {
    nonisolated(unsafe) static var operationsJournal: OperationsJournal?

    static let fontChoices = [
        "DejaVu Sans", "sans-serif", "serif", "dejavu serif", "Noto Sans CJK JP", "/etc/passwd", "/proc/self/environ",
        "nonexistent/x.ttf", "Hand.otf", "No Such Family", "DejaVu Snas", "", "monospace", "a\\b",
    ]

    /// One change through one way in; returns (what was done, whether it was accepted).
    static func operation(_ r: inout ChoiceReader, _ j: OperationsJournal) -> (String, Bool) {
        let path = j.live.path
        let page = r.pick(["p1", "p1", "p2", "p9"])
        let element = r.pick(["text-1", "image-1", "washi-1", "ink-1", "nope"])
        func cli(_ args: [String]) -> (String, Bool) {
            let (code, _) = OperationsJournal.cli(args, in: j.root.path)
            return ("cli \(args.prefix(2).joined(separator: " ")) \(args.dropFirst(3).prefix(8).joined(separator: " "))", code == 0)
        }
        func http(_ method: String, _ route: String, _ body: String) -> (String, Bool) {
            let request = HTTPRequest(
                method: method, path: route, query: [:], headers: ["host": "127.0.0.1:\(j.server.port)", "x-techo-token": j.token],
                cookies: [:], body: Array(body.utf8))
            let response = j.server.respond(to: request)
            if response.status >= 500, case .bytes(let b) = response.body {
                fatalError("\(method) \(route) \(body) answered \(response.status): \(String(decoding: b.prefix(300), as: UTF8.self))")
            }
            return ("http \(method) \(route) \(body.prefix(160))", response.status < 400)
        }
        // A text field and a value for it, as each front end names it.
        let textFields: [(cli: String, json: String, rule: FieldRule)] = [
            ("--line-height", "lineHeight", FieldRules.lineHeight), ("--size", "size", FieldRules.fontSize),
            ("--max-width", "maxWidth", FieldRules.maxWidth), ("--letter-spacing", "letterSpacing", FieldRules.letterSpacing),
            ("--opacity", "opacity", FieldRules.opacity), ("--scale", "scale", FieldRules.scale), ("--rotate", "rotate", FieldRules.rotation),
        ]
        let field = r.pick(textFields)
        let v = r.value(field.rule)
        let font = r.pick(fontChoices)
        let json = v.isFinite ? FieldRule.text(v) : "1e999"
        switch r.byte() % 12 {
        case 0: return cli(["add", "text", path, page, "hi", field.cli, r.text(v), "--font", font])
        case 1: return cli(["set", path, page, element, field.cli, r.text(v)])
        case 2: return cli(["set", path, page, element, "--font", font])
        case 3:
            let g = r.pick([("--pan", "\(r.text(v)),1"), ("--pinch", r.text(v)), ("--rotate", r.text(v)), ("--double-tap", ""), ("--flip", "h")])
            return cli(["gesture", path, page, element, g.0] + (g.1.isEmpty ? [] : [g.1]))
        case 4:
            let tool = r.pick(["pencil", "highlighter", "eraser", "line", "dash", "rect", "ellipse"])
            let geometry =
                ["pencil", "highlighter", "eraser"].contains(tool)
                ? ["--points", "10,10,0.3 40,30 \(r.text(v)),20"] : ["--from", "5,5", "--to", "60,\(r.text(v))"]
            let style = r.pick([
                ["--width", r.text(r.value(FieldRules.strokeWidth))], ["--miter-limit", r.text(r.value(FieldRules.miterLimit))],
                ["--dash", "\(r.text(r.value(FieldRules.dashLength))),3"], ["--opacity", r.text(v)],
            ])
            return cli(["draw", path, page, "--tool", tool] + geometry + style)
        case 5:
            return cli(["add", "washi", path, page, "--from", "10,10", "--to", "\(r.text(v)),40", "--width", r.text(r.value(FieldRules.washiWidth))])
        case 6:
            let o = r.pick([
                ["--paper", "grid", "--spacing", r.text(r.value(FieldRules.paperSpacing))],
                ["--paper", "lines", "--paper-margin", r.text(r.value(FieldRules.margin))], ["--color", "#fff8e0"],
            ])
            return cli(["background", path, page] + o)
        case 7:
            // A manifest rebuilds the journal from one page holding one text.
            let manifest = j.root.appendingPathComponent("m.json")
            let extra = r.pick([
                #""fontFile": "Mine.ttf""#, #""fontFile": "sticker.png""#, "\"font\": \"\(font)\"", "\"weight\": \(r.pick([100, 900, 950, 0, 401, -5]))",
            ])
            let text =
                "{\"techo\": 1, \"pages\": [{\"id\": \"p1\", \"size\": \"300x200\", \"dpi\": 100, \"elements\": [{\"type\": \"text\", \"text\": \"m\", \"\(field.json)\": \(json), \(extra)}]}]}"
            try? Data(text.utf8).write(to: manifest)
            let (code, _) = OperationsJournal.cli(["build", manifest.path, "--journal", path, "--no-export"], in: j.root.path)
            return ("manifest \(text.prefix(200))", code == 0)
        case 8:
            return http("PATCH", "/api/pages/\(page)/elements/\(element)", "{\"\(field.json)\": \(json)\(r.byte() & 1 == 0 ? "" : ", \"font\": \"\(font)\"")}")
        case 9:
            let body = r.pick([
                "{\"type\": \"text\", \"text\": \"h\", \"\(field.json)\": \(json), \"font\": \"\(font)\"}",
                "{\"type\": \"washi\", \"from\": [0, 0], \"to\": [\(json), 10], \"width\": \(FieldRule.text(r.value(FieldRules.washiWidth)))}",
            ])
            return http("POST", "/api/pages/\(page)/elements", body)
        case 10:
            let body = r.pick([
                "{\"element\": \"\(element)\", \"events\": [{\"gesture\": \"pinch\", \"scale\": \(json), \"location\": [10, 10]}, {\"gesture\": \"rotation\", \"rotation\": \(json)}]}",
                "{\"element\": \"\(element)\", \"events\": [{\"gesture\": \"pan\", \"translation\": [\(json), 1]}, {\"gesture\": \"doubleTap\"}]}",
            ])
            let route = body.contains("events") ? "gesture" : "draw"
            return http("POST", "/api/pages/\(page)/\(route)", body)
        default:
            // The library.
            do {
                let editor = try JournalEditor.open(j.live)
                switch r.byte() % 4 {
                case 0:
                    var t = TextContent(text: "lib")
                    t.font = font
                    switch field.json {
                    case "lineHeight": t.lineHeight = v
                    case "size": t.size = v
                    case "maxWidth": t.maxWidth = v
                    case "letterSpacing": t.letterSpacing = v
                    default: break
                    }
                    _ = try editor.addText(t, to: page)
                    return ("library addText \(field.json)=\(v) font=\(font)", true)
                case 1:
                    try editor.apply([.pinch(scale: v, around: nil), .rotate(degrees: v, around: Point(v, 1))], to: element, on: page)
                    return ("library apply pinch/rotate \(v) to \(element)", true)
                case 2:
                    _ = try editor.draw(try Stroke(tool: .pencil, width: v, points: [StrokePoint(1, 1), StrokePoint(v, 2)]), on: page)
                    return ("library draw width \(v)", true)
                default:
                    _ = try editor.addPicture(j.sticker, to: page, at: Point(v, 10), width: v)
                    return ("library addPicture at \(v)", true)
                }
            } catch {
                return ("library refused: \(String(describing: error).prefix(120))", false)
            }
        }
    }

    /// Sequences of changes through the four ways in (docs/fuzzing.md).
    static func operations(scratch: URL) -> FuzzTarget {
        let seeds: [[UInt8]] = [
            [0, 0, 0, 0, 3, 0], [1, 0, 0, 0, 1, 1], [2, 0, 0, 5, 0, 2], [7, 0, 0, 0, 4, 8, 0], [11, 0, 0, 0, 0, 0, 0],
            [8, 0, 0, 0, 5, 8], [9, 1, 1, 2, 3, 9, 0], [10, 1, 0, 6, 6, 10, 1], [3, 1, 1, 0, 0, 3, 1], [4, 0, 2, 0, 0, 4, 2, 0, 3],
            [5, 0, 0, 0, 4, 5], [6, 0, 0, 0, 0, 6, 0], [0, 0, 0, 0, 0, 0, 1, 0, 1, 4, 0, 1, 2, 0, 0, 1, 5, 0, 1],
        ]
        return FuzzTarget(
            name: "operations", summary: "changes through the CLI, manifests, the editor's routes and the library: accepted renders, refused changes nothing",
            seeds: seeds, extensions: [], dictionary: [], maxLength: 96,
            run: { bytes in
                if Targets.operationsJournal == nil {
                    do { Targets.operationsJournal = try OperationsJournal(scratch: scratch) } catch {
                        fatalError("the operations target's journal could not be made: \(error)")
                    }
                }
                let j = Targets.operationsJournal!
                j.restore()
                var r = ChoiceReader(bytes: bytes)
                var outcome: [String] = []
                var done: [String] = []
                for _ in 0..<6 where !r.isDone {
                    let before = (try? FuzzJournalFolder.read(j.live)) ?? [:]
                    let (what, accepted) = operation(&r, j)
                    done.append(what)
                    if accepted {
                        if let p = j.problem() { fatalError("accepted, then \(p)\nafter: \(done.joined(separator: "\n  then "))") }
                    } else {
                        let after = (try? FuzzJournalFolder.read(j.live)) ?? [:]
                        if let p = OperationsJournal.refusalProblem(before: before, after: after) {
                            fatalError("\(p)\nafter: \(done.joined(separator: "\n  then "))")
                        }
                    }
                    outcome.append("\(what.prefix(12)) \(accepted ? "ok" : "no")")
                }
                return outcome.joined(separator: "; ")
            })
    }
}
