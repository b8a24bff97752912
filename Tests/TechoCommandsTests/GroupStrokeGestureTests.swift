// `techo gesture J PAGE ID SID…`: stroke ids mixed with element ids move as one group, one undo
// step (their points moved, as one stroke's gesture moves them); a bad stroke among several is
// blamed on its argument and changes nothing.
import Foundation
import TechoModel
import Testing

@Suite struct GroupStrokeGestureTests {
    /// A 40×20 picture at (100, 80) and two pencil strokes, s1 and s2, on a 400×300 page.
    func pictureAndTwoStrokes() throws -> Workspace {
        let ws = try Workspace()
        try ws.png("cat.png", 40, 20, rgba: (200, 30, 30, 255))
        #expect(try ws.run("init", "j.techo", "--size", "400x300", "--dpi", "100").code == 0)
        #expect(try ws.run("add", "image", "j.techo", "p1", "cat.png", "--at", "100,80").code == 0)
        #expect(try ws.run("draw", "j.techo", "p1", "--tool", "pencil", "--points", "20,200 60,230 90,210").code == 0)
        #expect(try ws.run("draw", "j.techo", "p1", "--tool", "pencil", "--points", "200,150 260,190").code == 0)
        return ws
    }

    func strokes(_ ws: Workspace) throws -> [String: Stroke] {
        var out: [String: Stroke] = [:]
        for e in try ws.storedPage("j.techo/pages/p1.json").elements {
            if case .ink(let ink) = e.content { for s in ink.strokes { out[s.id ?? ""] = s } }
        }
        return out
    }

    @Test func strokeIdsMixedWithAnElementPanTogetherAsOneUndoStep() throws {
        let ws = try pictureAndTwoStrokes()
        let before = try ws.storedPage("j.techo/pages/p1.json")
        let old = try strokes(ws)
        let image0 = try ws.storedPage("j.techo/pages/p1.json").elements[0].placement
        let r = try ws.run("gesture", "j.techo", "p1", "image-1", "s1", "s2", "--pan", "60,40")
        #expect(r.code == 0, "\(r.err)")
        let new = try strokes(ws)
        for id in ["s1", "s2"] {
            for (p, q) in zip(old[id]!.points.map(\.point), new[id]!.points.map(\.point)) {
                #expect(q.x == p.x + 60 && q.y == p.y + 40, "\(id): \(p) → \(q)")
            }
        }
        let image1 = try ws.storedPage("j.techo/pages/p1.json").elements[0].placement
        #expect(image1.center.x == image0.center.x + 60 && image1.center.y == image0.center.y + 40)
        #expect(try ws.run("history", "j.techo").out.hasSuffix("\tgesture image-1 s1 s2\n"))
        let undo = try ws.run("undo", "j.techo").out
        #expect(undo.hasPrefix("undid ") && undo.hasSuffix(": gesture image-1 s1 s2\n"), "\(undo)")
        #expect(try ws.storedPage("j.techo/pages/p1.json").elements == before.elements)
    }

    @Test func aBadStrokeAmongSeveralIsBlamedOnItsArgumentAndChangesNothing() throws {
        let ws = try pictureAndTwoStrokes()
        let stored = try ws.storedPage("j.techo/pages/p1.json")
        let unknown = try ws.run("gesture", "j.techo", "p1", "image-1", "s1", "s9", "--pan", "1,1")
        #expect(unknown.code != 0 && unknown.err.contains("ID (argument 6)") && unknown.err.contains("'s9'"), "\(unknown.err)")
        let twice = try ws.run("gesture", "j.techo", "p1", "s1", "s1", "--pan", "1,1")
        #expect(twice.code != 0 && twice.err.contains("'s1' is listed twice"), "\(twice.err)")
        #expect(try ws.run("set", "j.techo", "p1", "ink-1", "--lock").code == 0)
        let locked = try ws.run("gesture", "j.techo", "p1", "image-1", "s2", "--pan", "1,1")
        #expect(locked.code != 0 && locked.err.contains("ID (argument 5)") && locked.err.contains("'ink-1' is locked"), "\(locked.err)")
        var page = try ws.storedPage("j.techo/pages/p1.json")
        for i in page.elements.indices { page.elements[i].locked = stored.elements[i].locked }
        #expect(page.elements == stored.elements, "nothing moved")
    }
}
