// The group routes of docs/editor-api.md: `POST …/gesture {"elements"}`, `…/restack` and
// `…/remove` change several elements in one history step, as `techo gesture J PAGE ID ID…`
// does, and refuse bad lists (unknown, doubled, empty, locked, both `element` and `elements`)
// with a 4xx naming the field, changing nothing.
import Foundation
import Testing

@testable import TechoModel

@Suite struct GroupRouteTests {
    func journal(_ name: String = #function) throws -> ServedJournal {
        let s = try ServedJournal(name)
        for (id, at) in [("a", "100,100"), ("b", "300,200"), ("c", "200,400")] {
            try s.techo("add", "text", s.journal.path, "p1", id, "--id", id, "--at", at)
        }
        return s
    }

    func history(_ s: ServedJournal) throws -> [Substring] { try s.techo("history", s.journal.path).split(separator: "\n") }

    @Test func oneGroupGestureIsOneStepAndTheSameAsTheCLIs() throws {
        let s = try journal()
        let steps = try history(s).count
        let b = try s.page().elements[1].placement
        let r = try s.client.post(
            "/api/pages/p1/gesture",
            json: #"{"elements": ["a", "c"], "events": [{"gesture": "pan", "translation": [10, -4]}, {"gesture": "pinch", "scale": 2}]}"#)
        #expect(r.status == 200, "\(r.text)")
        #expect(try history(s).count == steps + 1)
        #expect(try history(s).last?.hasSuffix("gesture a c") == true)
        let served = try s.page().elements.map(\.placement)
        try s.techo("undo", s.journal.path)
        try s.techo("gesture", s.journal.path, "p1", "a", "c", "--pan", "10,-4", "--pinch", "2")
        #expect(try s.page().elements.map(\.placement) == served, "the route and the CLI write the same placements")
        #expect(served[1] == b, "b did not move")
    }

    @Test func restackAndRemoveTakeSeveralInOneStep() throws {
        let s = try journal()
        var r = try s.client.post("/api/pages/p1/restack", json: #"{"elements": ["a", "b"], "by": 1}"#)
        #expect(r.status == 200, "\(r.text)")
        #expect(try s.page().elements.map(\.id) == ["c", "a", "b"], "each up one place, never past the other")
        r = try s.client.post("/api/pages/p1/restack", json: #"{"elements": ["b", "c"], "to": "bottom"}"#)
        #expect(try s.page().elements.map(\.id) == ["c", "b", "a"], "to the bottom in their own order")
        r = try s.client.post("/api/pages/p1/remove", json: #"{"elements": ["a", "c"]}"#)
        #expect(r.status == 200, "\(r.text)")
        #expect(try s.page().elements.map(\.id) == ["b"])
        #expect(try history(s).last?.hasSuffix("rm a c") == true)
    }

    @Test func badListsAreRefusedAndChangeNothing() throws {
        let s = try journal()
        let before = try s.page().elements
        let cases: [(String, String, Int, String)] = [
            ("gesture", #"{"elements": ["a", "nope"], "events": [{"gesture": "pan", "translation": [1, 1]}]}"#, 404, "no element 'nope' on page p1"),
            ("gesture", #"{"elements": ["a", "a"], "events": [{"gesture": "pan", "translation": [1, 1]}]}"#, 400, "listed twice"),
            ("gesture", #"{"elements": [], "events": [{"gesture": "pan", "translation": [1, 1]}]}"#, 400, "elements"),
            ("gesture", #"{"element": "a", "elements": ["b"], "events": []}"#, 400, "not both"),
            ("gesture", #"{"elements": [1], "events": []}"#, 400, "elements[0]"),
            ("restack", #"{"elements": ["a"], "by": 0}"#, 400, "by"),
            ("restack", #"{"elements": ["a"]}"#, 400, "places up"),
            ("remove", #"{"elements": ["a", "zz"]}"#, 404, "'zz'"),
        ]
        for (route, body, status, words) in cases {
            let r = try s.client.post("/api/pages/p1/\(route)", json: body)
            #expect(r.status == status && r.text.contains(words), "\(route) \(body): \(r.status) \(r.text)")
        }
        let many = "[" + (0..<10_001).map { "\"x\($0)\"" }.joined(separator: ",") + "]"
        let r = try s.client.post("/api/pages/p1/remove", json: #"{"elements": \#(many)}"#)
        #expect(r.status == 400 && r.text.contains("over the limit"), "\(r.status) \(r.text.prefix(200))")
        try s.techo("set", s.journal.path, "p1", "b", "--lock")
        let locked = try s.client.post("/api/pages/p1/gesture", json: #"{"elements": ["a", "b"], "events": [{"gesture": "pan", "translation": [1, 1]}]}"#)
        #expect(locked.status == 409, "\(locked.text)")
        #expect(try s.page().elements.map(\.placement) == before.map(\.placement))
    }
}
