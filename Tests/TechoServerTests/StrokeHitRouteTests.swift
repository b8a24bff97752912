// `POST /api/pages/ID/strokes/hit` (docs/editor-api.md, "Strokes"): which strokes lie within a
// radius of a point or a polyline, by the outline the renderer fills, topmost first; bounded
// input, 4xx naming the field, and nothing changes.
import Foundation
import Testing

@testable import TechoModel

@Suite struct StrokeHitRouteTests {
    /// A served journal: s1 a 4 px pencil line from (20,20) to (200,20), s2 a 40 px highlighter
    /// over it from (100,20) to (300,20), s3 a pencil line from (20,200) to (200,200) with
    /// pressure falling from 1 to 0 and width 40 (20 px wide at its end), s4 a filled rect.
    func served() throws -> ServedJournal {
        let s = try ServedJournal()
        let j = s.journal.path
        _ = try s.techo("draw", j, "p1", "--tool", "pencil", "--width", "4", "--points", "20,20 200,20")
        _ = try s.techo("draw", j, "p1", "--tool", "highlighter", "--width", "40", "--points", "100,20 300,20")
        _ = try s.techo("draw", j, "p1", "--tool", "pencil", "--width", "40", "--points", "20,200,1 200,200,0")
        _ = try s.techo("draw", j, "p1", "--tool", "rect", "--from", "300,300", "--to", "400,400", "--fill", "#ff0000")
        return s
    }

    func hits(_ s: ServedJournal, _ body: String) throws -> [String] {
        let r = try s.client.post("/api/pages/p1/strokes/hit", json: body)
        #expect(r.status == 200, "\(body): \(r.text)")
        guard case .object(let o) = try json(r), case .array(let items)? = o["hits"] else { return ["?"] }
        return items.compactMap { if case .object(let h) = $0, case .string(let id)? = h["id"] { return id } else { return nil } }
    }

    @Test func aPointHitsTheStrokesWhoseOutlineIsUnderItTopmostFirst() throws {
        let s = try served()
        // On both lines: the pen stroke is above the highlighter (the renderer draws it so).
        #expect(try hits(s, #"{"points": [[150, 20]]}"#) == ["s1", "s2"])
        // Inside the highlighter's 40 px band but 15 px off the 4 px pencil line.
        #expect(try hits(s, #"{"points": [[150, 35]]}"#) == ["s2"])
        // Within the radius of the pencil line's edge (2 px half width + 3 px).
        #expect(try hits(s, #"{"points": [[50, 25]], "radius": 3.5}"#) == ["s1"])
        #expect(try hits(s, #"{"points": [[50, 25]], "radius": 2}"#) == [])
        // The highlighter's ends are cut square: just past its end there is nothing.
        #expect(try hits(s, #"{"points": [[305, 20]]}"#) == [])
        // The pressure outline narrows: 18 px off the line hits near the heavy start, not the light end.
        #expect(try hits(s, #"{"points": [[30, 218]]}"#) == ["s3"])
        #expect(try hits(s, #"{"points": [[190, 218]]}"#) == [])
        // A filled rect is ink inside too.
        #expect(try hits(s, #"{"points": [[350, 350]]}"#) == ["s4"])
        #expect(try hits(s, #"{"points": [[600, 600]], "radius": 10}"#) == [])
    }

    @Test func aPolylineHitsEveryStrokeItCrosses() throws {
        let s = try served()
        // A drag straight down at x = 120 crosses s1, s2 and s3 between its samples.
        #expect(try Set(hits(s, #"{"points": [[120, 0], [120, 500]]}"#)) == ["s1", "s2", "s3"])
        // One down beside the rect (its 4 px outline ends at x = 402): within a radius of 4, not of 2.
        #expect(try hits(s, #"{"points": [[405, 250], [405, 350]], "radius": 4}"#) == ["s4"])
        #expect(try hits(s, #"{"points": [[405, 250], [405, 350]], "radius": 2}"#) == [])
    }

    @Test func badPointsAndRadiiAreRefusedWithTheFieldNamed() throws {
        let s = try served()
        let before = try JournalStore.open(s.journal).readWhole("pages/p1.json")?.bytes
        let many = "[" + Array(repeating: "[1, 1]", count: 2_001).joined(separator: ",") + "]"
        let cases: [(String, String, Int, String)] = [
            ("/api/pages/p1/strokes/hit", #"{"points": []}"#, 400, "points"),
            ("/api/pages/p1/strokes/hit", #"{"radius": 3}"#, 400, "points"),
            ("/api/pages/p1/strokes/hit", #"{"points": [[1]]}"#, 400, "points[0]"),
            ("/api/pages/p1/strokes/hit", #"{"points": [[1, "a"]]}"#, 400, "points[0][1]"),
            ("/api/pages/p1/strokes/hit", #"{"points": [[1, 1]], "radius": -1}"#, 400, "radius"),
            ("/api/pages/p1/strokes/hit", #"{"points": [[1, 1]], "radius": 5000}"#, 400, "radius"),
            ("/api/pages/p1/strokes/hit", #"{"points": [[1, 1]], "r": 5}"#, 400, "unknown field"),
            ("/api/pages/p1/strokes/hit", "{\"points\": \(many)}", 400, "over the limit of 2000"),
            ("/api/pages/p1/strokes/hit", "[", 400, "request body"),
            ("/api/pages/p9/strokes/hit", #"{"points": [[1, 1]]}"#, 404, "p9"),
        ]
        for (path, body, status, words) in cases {
            let r = try s.client.post(path, json: body)
            #expect(r.status == status, "\(path) \(body.prefix(60)): \(r.status) \(r.text)")
            #expect(r.text.contains(words), "\(path) \(body.prefix(60)): \(r.text)")
        }
        #expect(try JournalStore.open(s.journal).readWhole("pages/p1.json")?.bytes == before)
    }
}
