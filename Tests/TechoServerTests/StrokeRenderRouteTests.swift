// GET /api/pages/ID/strokes/SID/render (docs/editor-api.md, "Strokes"): what it answers, and
// what it refuses: an unknown page or stroke is a 404 naming it, an element that is not a stroke
// a 404 saying what it is, a bad or out-of-range query value a 400 naming its field, and a
// stroke too large at the scale asked a 400 before anything is allocated; nothing changes.
import Foundation
import Testing

@testable import TechoModel

@Suite struct StrokeRenderRouteTests {
    /// A served journal 2400x300 with a short stroke s1, a stroke s2 across the whole width, and
    /// a picture `pic` over them.
    func served() throws -> ServedJournal {
        let s = try ServedJournal(size: "2400x300")
        _ = try s.techo("draw", s.journal.path, "p1", "--tool", "pencil", "--points", "20,20 60,60")
        _ = try s.techo("draw", s.journal.path, "p1", "--tool", "pencil", "--points", "10,150 2390,150")
        let png = FileManager.default.temporaryDirectory.appendingPathComponent("stroke-render-\(UUID().uuidString).png")
        try Data(try ServedJournal.png()).write(to: png)
        defer { try? FileManager.default.removeItem(at: png) }
        _ = try s.techo("add", "image", s.journal.path, "p1", png.path, "--id", "pic", "--at", "300,200")
        return s
    }

    @Test func theStrokeAloneAndThePageWithoutIt() throws {
        let s = try served()
        var r = try s.client.get("/api/pages/p1/strokes/s1/render?scale=2")
        #expect(r.status == 200, "\(r.text)")
        #expect(r.header("Content-Type") == "image/png")
        let sprite = (r.header("X-Techo-Sprite") ?? "").split(separator: ",").compactMap { Double($0) }
        #expect(sprite.count == 4 && sprite[0] < 20 && sprite[0] + sprite[2] > 60, "\(r.header("X-Techo-Sprite") ?? "none")")
        r = try s.client.get("/api/pages/p1/strokes/s1/render?scale=0.5&part=rest")
        #expect(r.status == 200, "\(r.text)")
        r = try s.client.get("/api/pages/p1/strokes/s1/render?scale=2&part=rest&region=0,0,100,100")
        #expect(r.status == 200 && r.header("X-Techo-Region") == "0,0,200,200", "\(r.status) \(r.header("X-Techo-Region") ?? "none")")
    }

    @Test func unknownPagesAndStrokesAreRefusedByName() throws {
        let s = try served()
        let cases: [(String, Int, [String])] = [
            ("/api/pages/p9/strokes/s1/render", 404, ["p9"]),
            ("/api/pages/p1/strokes/s9/render", 404, ["'s9'", "s1, s2"]),
            ("/api/pages/p1/strokes/s9/render?part=rest", 404, ["'s9'"]),
            // An element's id is not a stroke's: say what it is.
            ("/api/pages/p1/strokes/pic/render", 404, ["'pic' is an image", "not a stroke", "s1, s2"]),
            ("/api/pages/p1/strokes/ink-1/render?part=rest", 404, ["'ink-1' is an ink layer", "not a stroke"]),
        ]
        for (path, status, words) in cases {
            let r = try s.client.get(path)
            #expect(r.status == status, "\(path): \(r.status) \(r.text)")
            for w in words { #expect(r.text.contains(w), "\(path): \(r.text) lacks \(w)") }
        }
    }

    @Test func badQueryValuesAreRefusedNamingTheField() throws {
        let s = try served()
        let before = try JournalStore.open(s.journal).readWhole("pages/p1.json")?.bytes
        let steps = try s.historyCount()
        let base = "/api/pages/p1/strokes/s1/render"
        let cases: [(String, String)] = [
            ("?part=bogus", "part"), ("?part=", "part"), ("?part=REST", "part"), ("?part=rest%00", "part"),
            ("?scale=0", "scale"), ("?scale=-1", "scale"), ("?scale=-1e308", "scale"), ("?scale=nan", "scale"),
            ("?scale=inf", "scale"), ("?scale=1e400", "scale"), ("?scale=4.0001", "scale"), ("?scale=", "scale"),
            ("?scale=two", "scale"), ("?scale=99999999999999999999", "scale"),
            ("?region=0,0,10,10", "region"), ("?part=stroke&region=0,0,10,10", "region"),
            ("?part=rest&region=1,2,3", "region"), ("?part=rest&region=0,0,0,10", "region"), ("?part=rest&region=0,0,10,-1", "region"),
            ("?part=rest&region=0,0,1e9,1e9", "region"), ("?part=rest&region=0,0,99999999999999999999,10", "region"),
            ("?part=rest&region=-5000,-5000,10,10", "region"), ("?part=rest&region=90000,0,10,10", "region"),
            ("?part=rest&region=nan,0,10,10", "region"), ("?part=rest&scale=4&region=0,0,2400,300", "region"),
            // A misspelt or unknown parameter is not silently taken for the default.
            ("?sacle=2", "sacle"), ("?part=rest&regoin=0,0,10,10", "regoin"),
        ]
        for (query, field) in cases {
            let r = try s.client.get(base + query)
            #expect(r.status == 400, "\(query): \(r.status) \(r.text)")
            #expect(r.text.contains("\(field):") || r.text.contains("'\(field)'"), "\(query): \(r.text) does not name \(field)")
        }
        // The stroke across the page at scale 4 is 9,560 px wide: over a sprite's 8192 px side.
        let r = try s.client.get("/api/pages/p1/strokes/s2/render?scale=4")
        #expect(r.status == 400 && r.text.contains("scale:") && r.text.contains("8192"), "\(r.status) \(r.text)")
        #expect(try JournalStore.open(s.journal).readWhole("pages/p1.json")?.bytes == before)
        #expect(try s.historyCount() == steps)
    }
}
