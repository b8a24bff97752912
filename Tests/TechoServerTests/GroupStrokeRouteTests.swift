// Strokes in a group (docs/editor-api.md, the group routes): `POST …/gesture {"elements",
// "strokes"}` moves elements and strokes as one group and one history step, the same change
// `techo gesture J PAGE ID SID…` makes; `…/remove` takes strokes beside elements;
// `render?without=ID,SID,…` leaves both out (the page a group's drag is drawn over). Bad stroke
// lists are refused with a 4xx naming the field and the id, and change nothing.
import Foundation
import TechoCodecs
import Testing

@testable import TechoModel

@Suite struct GroupStrokeRouteTests {
    /// Texts `a` and `b`, and three pencil strokes s1 (left), s2 (middle), s3 (top right).
    func journal(_ name: String = #function) throws -> ServedJournal {
        let s = try ServedJournal(name)
        for (id, at) in [("a", "100,100"), ("b", "300,200")] {
            try s.techo("add", "text", s.journal.path, "p1", id, "--id", id, "--at", at)
        }
        for points in ["20,200 50,230 80,240", "150,200 250,260", "300,50 350,90"] {
            try s.techo("draw", s.journal.path, "p1", "--tool", "pencil", "--width", "6", "--points", points)
        }
        return s
    }

    func strokes(_ s: ServedJournal) throws -> [String: Stroke] {
        var out: [String: Stroke] = [:]
        for e in try s.page().elements {
            if case .ink(let ink) = e.content { for st in ink.strokes { out[st.id ?? ""] = st } }
        }
        return out
    }

    func history(_ s: ServedJournal) throws -> [Substring] { try s.techo("history", s.journal.path).split(separator: "\n") }

    func pixels(_ r: RawResponse) throws -> RGBAImage { try ImageDecoder.decodeStraight(r.body, name: "render").pixels }

    @Test func aGroupGestureMovesStrokesWithElementsInOneStepAsTheCLIDoes() throws {
        let s = try journal()
        let steps = try history(s).count
        let before = try strokes(s)
        let a0 = try s.page().elements.first { $0.id == "a" }!.placement
        let r = try s.client.post(
            "/api/pages/p1/gesture", json: #"{"elements": ["a"], "strokes": ["s1", "s2"], "events": [{"gesture": "pan", "translation": [10, -4]}]}"#)
        #expect(r.status == 200, "\(r.text)")
        #expect(try history(s).count == steps + 1, "one history step")
        let last = try history(s).last ?? ""
        #expect(last.hasSuffix("gesture a s1 s2"), "\(last)")
        let after = try strokes(s)
        for id in ["s1", "s2"] {
            let old = before[id]!.points.map(\.point), new = after[id]!.points.map(\.point)
            #expect(old.count == new.count)
            for (p, q) in zip(old, new) { #expect(q.x == p.x + 10 && q.y == p.y - 4, "\(id): \(p) → \(q)") }
            #expect(after[id]!.width == before[id]!.width)
        }
        #expect(after["s3"] == before["s3"], "s3 was not in the group")
        let a1 = try s.page().elements.first { $0.id == "a" }!.placement
        #expect(a1.center.x == a0.center.x + 10 && a1.center.y == a0.center.y - 4)

        // A pinch and a flip about the group's centre: the route and the CLI write the same page.
        let body = #"{"elements": ["a", "b"], "strokes": ["s2", "s3"], "events": [{"gesture": "pinch", "scale": 1.5}, {"gesture": "flip", "axis": "h"}]}"#
        #expect(try s.client.post("/api/pages/p1/gesture", json: body).status == 200)
        let served = try s.page()
        try s.techo("undo", s.journal.path)
        try s.techo("gesture", s.journal.path, "p1", "a", "b", "s2", "s3", "--pinch", "1.5", "--flip", "h")
        let cli = try s.page()
        #expect(cli.elements == served.elements, "the route and the CLI write the same page")
        #expect(try history(s).last?.hasSuffix("gesture a b s2 s3") == true)
    }

    /// A group of strokes only is a group too: a flip mirrors each point across the vertical line
    /// through the centre of the strokes' drawn bounds (what `GET …/strokes` lists).
    @Test func aGroupOfStrokesOnlyFlipsAboutTheCentreOfItsBounds() throws {
        let s = try journal()
        let list = try json(try s.client.get("/api/pages/p1/strokes"))
        var x0 = Double.infinity, x1 = -Double.infinity
        for item in list["strokes"]?.array ?? [] where ["s1", "s2"].contains(item["id"]?.string ?? "") {
            let b = item["bounds"]?.array?.compactMap(\.number) ?? []
            try #require(b.count == 4)
            x0 = min(x0, b[0])
            x1 = max(x1, b[0] + b[2])
        }
        let cx = (x0 + x1) / 2
        let before = try strokes(s)
        let r = try s.client.post("/api/pages/p1/gesture", json: #"{"strokes": ["s1", "s2"], "events": [{"gesture": "flip", "axis": "h"}]}"#)
        #expect(r.status == 200, "\(r.text)")
        let after = try strokes(s)
        for id in ["s1", "s2"] {
            for (p, q) in zip(before[id]!.points.map(\.point), after[id]!.points.map(\.point)) {
                #expect(abs(q.x - (2 * cx - p.x)) < 1e-9 && q.y == p.y, "\(id): \(p) → \(q) about x = \(cx)")
            }
        }
        #expect(try history(s).last?.hasSuffix("gesture s1 s2") == true)
    }

    @Test func removeTakesStrokesBesideElementsInOneStep() throws {
        let s = try journal()
        let steps = try history(s).count
        let r = try s.client.post("/api/pages/p1/remove", json: #"{"elements": ["a"], "strokes": ["s2"]}"#)
        #expect(r.status == 200, "\(r.text)")
        #expect(try history(s).count == steps + 1)
        #expect(try history(s).last?.hasSuffix("rm a s2") == true)
        #expect(try s.page().elements.map(\.id) == ["b", "ink-1"])
        #expect(try strokes(s).keys.sorted() == ["s1", "s3"])
        try s.techo("undo", s.journal.path)
        #expect(try strokes(s).keys.sorted() == ["s1", "s2", "s3"])
        #expect(try s.page().elements.map(\.id) == ["a", "b", "ink-1"])
        // Strokes alone.
        #expect(try s.client.post("/api/pages/p1/remove", json: #"{"strokes": ["s1", "s3"]}"#).status == 200)
        #expect(try strokes(s).keys.sorted() == ["s2"])
    }

    /// The page a group's drag is drawn over: without the elements and the strokes listed, the
    /// very pixels of the page once they are removed.
    @Test func renderWithoutTakesStrokeIDs() throws {
        let s = try journal()
        let without = try s.client.get("/api/pages/p1/render?scale=1&without=a,s1,s3")
        #expect(without.status == 200, "\(without.text)")
        let full = try s.client.get("/api/pages/p1/render?scale=1")
        #expect(try pixels(without).bytes != pixels(full).bytes)
        #expect(try s.client.post("/api/pages/p1/remove", json: #"{"elements": ["a"], "strokes": ["s1", "s3"]}"#).status == 200)
        let removed = try s.client.get("/api/pages/p1/render?scale=1")
        #expect(try pixels(without).bytes == pixels(removed).bytes)
        let bad = try s.client.get("/api/pages/p1/render?scale=1&without=b,s9")
        #expect(bad.status == 404 && bad.text.contains("without:") && bad.text.contains("'s9'"), "\(bad.status) \(bad.text)")
    }

    @Test func badStrokeListsAreRefusedNamingTheIdAndChangeNothing() throws {
        let s = try journal()
        let before = try s.page()
        let pan = #""events": [{"gesture": "pan", "translation": [1, 1]}]"#
        let cases: [(String, String, Int, [String])] = [
            ("gesture", #"{"elements": ["a"], "strokes": ["s1", "zz"], \#(pan)}"#, 404, ["strokes:", "no stroke 'zz' on page p1", "s1, s2, s3"]),
            ("gesture", #"{"strokes": ["s1", "b"], \#(pan)}"#, 400, ["strokes:", "'b' is an element, not a stroke"]),
            ("gesture", #"{"strokes": ["s1", "s1"], \#(pan)}"#, 400, ["listed twice"]),
            ("gesture", #"{"elements": ["a"], "strokes": [], \#(pan)}"#, 400, ["strokes", "at least one stroke id"]),
            ("gesture", #"{"strokes": [7], \#(pan)}"#, 400, ["strokes[0]"]),
            ("gesture", #"{"element": "a", "strokes": ["s1"], \#(pan)}"#, 400, ["not both"]),
            ("gesture", #"{"elements": ["a", "s1"], \#(pan)}"#, 404, ["no element 's1'"]),
            ("gesture", #"{"strokes": ["s1", "s2"], "events": [{"gesture": "pinch", "scale": -2}]}"#, 400, ["events[0].scale"]),
            ("remove", #"{"elements": ["a"], "strokes": ["zz"]}"#, 404, ["strokes:", "'zz'"]),
            ("remove", #"{"strokes": ["a"]}"#, 400, ["'a' is an element"]),
        ]
        for (route, body, status, words) in cases {
            let r = try s.client.post("/api/pages/p1/\(route)", json: body)
            #expect(r.status == status && words.allSatisfy(r.text.contains), "\(route) \(body): \(r.status) \(r.text)")
        }
        // A stroke of a locked layer: 409 naming the stroke and its layer.
        try s.techo("set", s.journal.path, "p1", "ink-1", "--lock")
        let locked = try s.client.post("/api/pages/p1/gesture", json: #"{"elements": ["a"], "strokes": ["s2"], \#(pan)}"#)
        #expect(locked.status == 409 && locked.text.contains("'s2'") && locked.text.contains("'ink-1' is locked"), "\(locked.text)")
        var now = try s.page()
        for i in now.elements.indices { now.elements[i].locked = before.elements[i].locked }
        #expect(now.elements == before.elements, "nothing changed")
    }
}
