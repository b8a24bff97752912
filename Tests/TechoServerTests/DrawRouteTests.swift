// `POST /api/pages/ID/draw` is `techo draw` (docs/editor-api.md): each kind of stroke sent to the
// editor's route writes the page bytes the command writes for it, and reads back with the
// fields it was sent.
import Foundation
import TechoCommands
import Testing

@testable import TechoModel

@Suite struct DrawRouteTests {
    func pageBytes(_ s: ServedJournal) throws -> [UInt8] { try #require(try JournalStore.open(s.journal).readWhole("pages/p1.json")?.bytes) }

    /// Each stroke as JSON for the route and as the CLI's options.
    static let strokes: [(json: String, cli: [String])] = [
        (
            "{\"tool\": \"pencil\", \"color\": \"#224488\", \"width\": 6, \"opacity\": 0.5, \"points\": [[10, 10, 0.2], [60, 40, 0.9], [120, 20]]}",
            ["--tool", "pencil", "--color", "#224488", "--width", "6", "--opacity", "0.5", "--points", "10,10,0.2 60,40,0.9 120,20"]
        ),
        (
            "{\"tool\": \"dash\", \"color\": \"#aa0000\", \"width\": 3, \"from\": [20, 100], \"to\": [180, 140], \"dash\": [9, 4]}",
            ["--tool", "dash", "--color", "#aa0000", "--width", "3", "--from", "20,100", "--to", "180,140", "--dash", "9,4"]
        ),
        (
            "{\"tool\": \"rect\", \"color\": \"#000000\", \"width\": 2, \"from\": [30, 150], \"to\": [90, 190], \"fill\": \"#ffcc00\"}",
            ["--tool", "rect", "--color", "#000000", "--width", "2", "--from", "30,150", "--to", "90,190", "--fill", "#ffcc00"]
        ),
        (
            "{\"tool\": \"highlighter\", \"color\": \"#ffee00\", \"width\": 14, \"points\": [[10, 60], [190, 60]]}",
            ["--tool", "highlighter", "--color", "#ffee00", "--width", "14", "--points", "10,60 190,60"]
        ),
        (
            "{\"tool\": \"eraser\", \"width\": 10, \"points\": [[50, 0], [50, 200]]}",
            ["--tool", "eraser", "--width", "10", "--points", "50,0 50,200"]
        ),
    ]

    @Test func eachStrokeSentToTheRouteWritesWhatTechoDrawWrites() throws {
        let s = try ServedJournal()
        for (i, stroke) in Self.strokes.enumerated() {
            let before = try pageBytes(s)
            let r = try s.client.post("/api/pages/p1/draw", json: stroke.json)
            #expect(r.status == 200, "stroke \(i): \(r.text)")
            let api = try pageBytes(s)
            #expect(api != before, "stroke \(i) changed nothing")
            try s.techo("undo", s.journal.path)
            #expect(try pageBytes(s) == before)
            try ServedJournal.techo(["draw", s.journal.path, "p1"] + stroke.cli)
            let cli = try pageBytes(s)
            #expect(api == cli, "stroke \(i): the route and techo draw wrote different pages")
            // What was sent reads back from the stored stroke.
            let sent = try #require(try JSONSerialization.jsonObject(with: Data(stroke.json.utf8)) as? [String: Any])
            let strokes = try s.page().elements.flatMap { e -> [Stroke] in
                if case .ink(let ink) = e.content { return ink.strokes }
                return []
            }
            let stored = try #require(strokes.last)
            #expect(stored.tool.rawValue == sent["tool"] as? String)
            #expect(stored.width == (sent["width"] as? NSNumber)?.doubleValue)
            if let from = sent["from"] as? [NSNumber] { #expect(stored.from.map { [$0.x, $0.y] } == from.map(\.doubleValue)) }
            if let points = sent["points"] as? [[NSNumber]] { #expect(stored.points.map(\.x) == points.map { $0[0].doubleValue }) }
        }
        // Each stroke is one step named as the CLI names it.
        let steps = try JournalStore.open(s.journal).history().map(\.description)
        #expect(steps.suffix(5) == ["draw pencil", "draw dash", "draw rect", "draw highlighter", "draw eraser"], "\(steps)")
    }
}
