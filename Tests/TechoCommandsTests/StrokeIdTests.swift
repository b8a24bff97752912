// Strokes have ids (docs/format.md, "Stroke ids"): `show --json` lists them, `rm`, `set` and
// `gesture` take them, each change one undo step; a journal written before strokes had ids
// gets them as it is read, the same every time, and its pictures do not change.
import Foundation
import TechoModel
import Testing

@Suite struct StrokeIdTests {
    func ok(_ ws: Workspace, _ args: String...) throws -> String {
        let r = try ws.run(args)
        #expect(r.code == 0, "techo \(args.joined(separator: " ")): \(r.err)")
        return r.out
    }

    /// The `strokes` list of `show --json` for page p1: (id, tool, colour, width, bounds).
    func listed(_ ws: Workspace) throws -> [[String: Any]] {
        let out = try ok(ws, "show", "j.techo", "p1", "--json")
        let o = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        return try #require(o["strokes"] as? [[String: Any]], "no strokes list in \(out)")
    }

    func ids(_ ws: Workspace) throws -> [String] { try listed(ws).map { $0["id"] as? String ?? "?" } }

    func strokes(_ ws: Workspace) throws -> [Stroke] {
        let page = try ws.storedPage("j.techo/pages/p1.json")
        return page.elements.flatMap { e -> [Stroke] in
            if case .ink(let ink) = e.content { return ink.strokes }
            return []
        }
    }

    /// A journal with three strokes: a pencil at 0.8 opacity, a line and a rect.
    func journal() throws -> Workspace {
        let ws = try Workspace()
        _ = try ok(ws, "init", "j.techo", "--size", "300x200")
        _ = try ok(ws, "draw", "j.techo", "p1", "--tool", "pencil", "--points", "10,10 50,40 90,20", "--color", "#336699", "--opacity", "0.8")
        _ = try ok(ws, "draw", "j.techo", "p1", "--tool", "line", "--from", "20,100", "--to", "200,100", "--width", "6")
        _ = try ok(ws, "draw", "j.techo", "p1", "--tool", "rect", "--from", "150,20", "--to", "250,80")
        return ws
    }

    @Test func showJSONListsEveryStrokeWithItsIdToolColourWidthAndBounds() throws {
        let ws = try journal()
        let list = try listed(ws)
        #expect(list.map { $0["id"] as? String } == ["s1", "s2", "s3"])
        #expect(list.map { $0["tool"] as? String } == ["pencil", "line", "rect"])
        #expect(list[0]["color"] as? String == "#336699")
        #expect(list[1]["width"] as? Double == 6)
        #expect(list.allSatisfy { $0["layer"] as? String == "ink-1" })
        // The line from (20,100) to (200,100), 6 wide: its bounds hold both ends and the pen.
        let b = try #require(list[1]["bounds"] as? [Double])
        #expect(b.count == 4 && b[0] <= 17 && b[1] <= 97 && b[0] + b[2] >= 203 && b[1] + b[3] >= 103)
        // The ids are in the page file too, and `show PAGE STROKEID` gives one stroke.
        #expect(try strokes(ws).map(\.id) == ["s1", "s2", "s3"])
        let one = try ok(ws, "show", "j.techo", "p1", "s2", "--json")
        #expect(one.contains("\"id\": \"s2\"") && one.contains("\"tool\": \"line\""))
    }

    @Test func rmRemovesOneStrokeAsOneStepAndUndoRedoWork() throws {
        let ws = try journal()
        let before = try ws.bytes("j.techo/pages/p1.ink.json")
        _ = try ok(ws, "rm", "j.techo", "p1", "s2")
        #expect(try ids(ws) == ["s1", "s3"])
        #expect(try strokes(ws).map(\.tool) == [.pencil, .rect])
        #expect(try ok(ws, "history", "j.techo").hasSuffix("* 4\trm s2\n"))
        #expect(try ok(ws, "undo", "j.techo") == "undid 4: rm s2\n")
        #expect(try ws.bytes("j.techo/pages/p1.ink.json") == before)
        #expect(try ids(ws) == ["s1", "s2", "s3"])
        _ = try ok(ws, "redo", "j.techo")
        #expect(try ids(ws) == ["s1", "s3"])
        // A stroke drawn next takes a number no stroke on the page has.
        _ = try ok(ws, "draw", "j.techo", "p1", "--tool", "pencil", "--points", "5,5 6,6")
        #expect(try ids(ws) == ["s1", "s3", "s4"])
        // Strokes and elements in one rm, as one step.
        _ = try ok(ws, "add", "text", "j.techo", "p1", "hi")
        _ = try ok(ws, "rm", "j.techo", "p1", "s1", "text-1", "s4")
        #expect(try ids(ws) == ["s3"])
        #expect(try ws.storedPage("j.techo/pages/p1.json").index(of: "text-1") == nil)
        _ = try ok(ws, "undo", "j.techo")
        #expect(try ids(ws) == ["s1", "s3", "s4"])
    }

    @Test func setRestylesOneStrokeOnly() throws {
        let ws = try journal()
        _ = try ok(ws, "set", "j.techo", "p1", "s1", "--color", "red", "--width", "9", "--opacity", "0.5")
        let s = try strokes(ws)
        #expect(s[0].color == RGBA(r: 255, g: 0, b: 0) && s[0].width == 9 && s[0].opacity == 0.5)
        #expect(s[0].points.map(\.point) == [Point(10, 10), Point(50, 40), Point(90, 20)])
        #expect(s[1].width == 6 && s[1].color == .black && s[2].width == 4)
        // Options that are not a stroke's are refused by name, and nothing changes.
        let bad = try ws.run("set", "j.techo", "p1", "s1", "--scale", "2")
        #expect(bad.code == 64 && bad.err.contains("--scale") && bad.err.contains("s1"))
        let wide = try ws.run("set", "j.techo", "p1", "s2", "--width", "0")
        #expect(wide.code != 0 && wide.err.contains("width"))
        #expect(try strokes(ws)[1].width == 6)
        _ = try ok(ws, "undo", "j.techo")
        #expect(try strokes(ws)[0].width == 4 && strokes(ws)[0].color == RGBA(r: 0x33, g: 0x66, b: 0x99) && strokes(ws)[0].opacity == 0.8)
    }

    @Test func gestureMovesOneStrokesPoints() throws {
        let ws = try journal()
        _ = try ok(ws, "gesture", "j.techo", "p1", "s2", "--pan", "10,5")
        var s = try strokes(ws)
        #expect(s[1].from == Point(30, 105) && s[1].to == Point(210, 105))
        #expect(s[0].points.map(\.point) == [Point(10, 10), Point(50, 40), Point(90, 20)], "the other strokes stay")
        // Pinch about the stroke's centre (120,105): the ends and the width scale.
        _ = try ok(ws, "gesture", "j.techo", "p1", "s2", "--pinch", "0.5")
        s = try strokes(ws)
        #expect(s[1].from == Point(75, 105) && s[1].to == Point(165, 105) && s[1].width == 3)
        // A quarter turn about the centre stands the line up.
        _ = try ok(ws, "gesture", "j.techo", "p1", "s2", "--rotate", "90")
        s = try strokes(ws)
        let from = try #require(s[1].from), to = try #require(s[1].to)
        #expect(abs(from.x - 120) < 1e-9 && abs(to.x - 120) < 1e-9 && abs(abs(to.y - from.y) - 90) < 1e-9)
        // A rect stays a box: it turns by quarter turns only.
        let turn = try ws.run("gesture", "j.techo", "p1", "s3", "--rotate", "30")
        #expect(turn.code == 65 && turn.err.contains("quarter turns"))
        // Each gesture command was one step.
        _ = try ok(ws, "undo", "j.techo")
        _ = try ok(ws, "undo", "j.techo")
        #expect(try strokes(ws)[1].from == Point(30, 105))
    }

    @Test func anUnknownStrokeIdIsRefusedByNameAndNothingChanges() throws {
        let ws = try journal()
        let page = try ws.bytes("j.techo/pages/p1.json"), ink = try ws.bytes("j.techo/pages/p1.ink.json")
        for args in [
            ["rm", "j.techo", "p1", "s9"], ["set", "j.techo", "p1", "s9", "--width", "3"], ["gesture", "j.techo", "p1", "s9", "--pan", "1,1"],
            ["show", "j.techo", "p1", "s9"], ["rm", "j.techo", "p1", "s1", "s9"],
        ] {
            let r = try ws.run(args)
            // As for an unknown element: exit 66, the id and the ids there are named.
            #expect(r.code == 66, "\(args): \(r.err)")
            #expect(r.err.contains("'s9'") && r.err.contains("strokes: s1, s2, s3"), "\(args): \(r.err)")
        }
        let twice = try ws.run("rm", "j.techo", "p1", "s1", "s1")
        #expect(twice.code == 65 && twice.err.contains("'s1' is listed twice"))
        #expect(try ws.bytes("j.techo/pages/p1.json") == page && ws.bytes("j.techo/pages/p1.ink.json") == ink)
    }

    /// A page as version 1 wrote it (strokes in the page file, no ids), written here rather than
    /// by techo, so that the render before any save does not depend on techo's writer.
    @Test func aJournalWithoutStrokeIdsGetsTheSameIdsEveryReadAndItsPicturesStay() throws {
        let ws = try Workspace()
        _ = try ok(ws, "init", "j.techo", "--size", "300x200")
        let old = """
            {"background": {"color": "#ffffff"}, "dpi": 300, "height": 200, "id": "p1", "width": 300,
             "elements": [{"id": "ink-1", "type": "ink", "strokes": [
               {"tool": "pencil", "color": "#336699", "opacity": 0.8, "width": 4, "points": [[10, 10], [50, 40, 0.5], [90, 20]]},
               {"tool": "line", "width": 6, "from": [20, 100], "to": [200, 100], "dash": [9, 4]},
               {"tool": "eraser", "width": 12, "points": [[60, 100], [70, 100]]},
               {"tool": "rect", "width": 4, "from": [150, 20], "to": [250, 80], "fill": "#ffcc0080"}]}]}
            """
        try Data(old.utf8).write(to: ws.url("j.techo/pages/p1.json"))
        let jpath = "j.techo/journal.json"
        let journal = String(decoding: try ws.bytes(jpath), as: UTF8.self)
        try Data(journal.replacingOccurrences(of: "\"techo\": 3", with: "\"techo\": 1").utf8).write(to: ws.url(jpath))

        _ = try ok(ws, "export", "j.techo", "-o", "before.png")
        #expect(try ids(ws) == ["s1", "s2", "s3", "s4"])
        #expect(try ids(ws) == ["s1", "s2", "s3", "s4"], "the same ids on every read")
        #expect(String(decoding: try ws.bytes("j.techo/pages/p1.json"), as: UTF8.self) == old, "reading writes nothing")
        // An id given on read is taken before any save, and that change writes them all.
        _ = try ok(ws, "set", "j.techo", "p1", "s2", "--width", "6")
        let ink = String(decoding: try ws.bytes("j.techo/pages/p1.ink.json"), as: UTF8.self)
        #expect(["s1", "s2", "s3", "s4"].allSatisfy { ink.contains("\"id\": \"\($0)\"") })
        #expect(try ids(ws) == ["s1", "s2", "s3", "s4"])
        _ = try ok(ws, "export", "j.techo", "-o", "after.png")
        #expect(try ws.bytes("before.png") == ws.bytes("after.png"), "giving strokes ids changes no pixel")
    }
}
