// The routes on single strokes (docs/editor-api.md, "Strokes"): list, restyle, move and remove
// one stroke by its id, and remove a set of whole strokes (the stroke eraser's drag) as one
// history step; bad ids, duplicates and too many are refused with a 4xx naming them, and
// nothing changes.
import Foundation
import Testing

@testable import TechoModel

@Suite struct StrokeRouteTests {
    func strokes(_ s: ServedJournal) throws -> [Stroke] {
        try s.page().elements.flatMap { e -> [Stroke] in
            if case .ink(let ink) = e.content { return ink.strokes }
            return []
        }
    }

    /// A served journal with four pencil strokes, s1…s4, left to right.
    func served() throws -> ServedJournal {
        let s = try ServedJournal()
        for x in [20, 80, 140, 200] {
            _ = try s.techo("draw", s.journal.path, "p1", "--tool", "pencil", "--points", "\(x),20 \(x + 30),60")
        }
        return s
    }

    @Test func theListNamesEveryStrokeWithItsBounds() throws {
        let s = try served()
        let r = try s.client.get("/api/pages/p1/strokes")
        #expect(r.status == 200, "\(r.text)")
        guard case .object(let o) = try json(r), case .array(let items)? = o["strokes"] else {
            Issue.record("no strokes in \(r.text)")
            return
        }
        #expect(items.count == 4)
        guard case .object(let first) = items[0], case .array(let b)? = first["bounds"] else {
            Issue.record("no bounds in \(r.text)")
            return
        }
        #expect(first["id"] == .string("s1") && first["layer"] == .string("ink-1") && first["tool"] == .string("pencil"))
        if case .number(let x) = b[0], case .number(let w) = b[2] { #expect(x < 20 && x + w > 50) }
    }

    @Test func restyleMoveAndRemoveOneStrokeEachOneUndoableStep() throws {
        let s = try served()
        let steps = try s.historyCount()
        var r = try s.client.request("PATCH", "/api/pages/p1/strokes/s2", body: Array(##"{"color": "#ff0000", "width": 9}"##.utf8))
        #expect(r.status == 200, "\(r.text)")
        #expect(try strokes(s)[1].color == RGBA(r: 255, g: 0, b: 0) && strokes(s)[1].width == 9 && strokes(s)[0].width == 4)
        r = try s.client.post("/api/pages/p1/strokes/s3/gesture", json: #"{"events": [{"gesture": "pan", "state": "changed", "translation": [5, 7]}]}"#)
        #expect(r.status == 200, "\(r.text)")
        #expect(try strokes(s)[2].points.map(\.point) == [Point(145, 27), Point(175, 67)])
        r = try s.client.request("DELETE", "/api/pages/p1/strokes/s1")
        #expect(r.status == 200, "\(r.text)")
        #expect(try strokes(s).map(\.id) == ["s2", "s3", "s4"])
        #expect(try s.historyCount() == steps + 3)
        for _ in 0..<3 { #expect(try s.client.post("/api/undo", json: "{}").status == 200) }
        let back = try strokes(s)
        #expect(back.map(\.id) == ["s1", "s2", "s3", "s4"] && back[1].width == 4 && back[2].points.first?.point == Point(140, 20))
        #expect(try s.client.post("/api/redo", json: "{}").status == 200)
        #expect(try strokes(s)[1].width == 9)
    }

    @Test func eraseRemovesASetOfWholeStrokesAsOneStep() throws {
        let s = try served()
        let steps = try s.historyCount()
        let r = try s.client.post("/api/pages/p1/strokes/erase", json: #"{"ids": ["s4", "s2"]}"#)
        #expect(r.status == 200, "\(r.text)")
        #expect(try strokes(s).map(\.id) == ["s1", "s3"])
        #expect(try s.historyCount() == steps + 1)
        #expect(try s.client.post("/api/undo", json: "{}").status == 200)
        #expect(try strokes(s).map(\.id) == ["s1", "s2", "s3", "s4"])
    }

    @Test func badIdsDuplicatesAndTooManyAreRefusedAndChangeNothing() throws {
        let s = try served()
        let before = try JournalStore.open(s.journal).readWhole("pages/p1.json")?.bytes
        let many = "[" + (1...10_001).map { "\"s\($0)\"" }.joined(separator: ",") + "]"
        let cases: [(String, String, String, Int, String)] = [
            ("POST", "/api/pages/p1/strokes/erase", #"{"ids": ["s1", "s9"]}"#, 404, "'s9'"),
            ("POST", "/api/pages/p1/strokes/erase", #"{"ids": ["s1", "s1"]}"#, 400, "'s1' is listed twice"),
            ("POST", "/api/pages/p1/strokes/erase", #"{"ids": ["ink-1"]}"#, 400, "'ink-1' is an element"),
            ("POST", "/api/pages/p1/strokes/erase", #"{"ids": []}"#, 400, "at least one"),
            ("POST", "/api/pages/p1/strokes/erase", "{\"ids\": \(many)}", 400, "over the limit of 10000"),
            ("PATCH", "/api/pages/p1/strokes/s9", #"{"width": 3}"#, 404, "'s9'"),
            ("PATCH", "/api/pages/p1/strokes/s1", #"{"width": -1}"#, 400, "width"),
            ("PATCH", "/api/pages/p1/strokes/s1", #"{"scale": 2}"#, 400, "scale"),
            ("DELETE", "/api/pages/p1/strokes/s9", "", 404, "'s9'"),
            ("POST", "/api/pages/p1/strokes/s9/gesture", #"{"events": [{"gesture": "doubleTap"}]}"#, 404, "'s9'"),
        ]
        for (method, path, body, status, words) in cases {
            let r = try s.client.request(method, path, body: Array(body.utf8), headers: body.isEmpty ? [:] : ["Content-Type": "application/json"])
            #expect(r.status == status, "\(method) \(path) \(body.prefix(60)): \(r.status) \(r.text)")
            #expect(r.text.contains(words), "\(method) \(path): \(r.text)")
        }
        #expect(try JournalStore.open(s.journal).readWhole("pages/p1.json")?.bytes == before)
    }
}
