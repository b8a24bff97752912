// `techo gesture J PAGE ID ID…`: several elements moved as one group, one undo step, about the
// group's box (the union of the elements' boxes) when no --around is given.
import Foundation
import TechoModel
import Testing

@Suite struct GroupGestureTests {
    /// Three 40×20 pictures (the middle one turned 30°) on a 400×300 page.
    func threeOnAPage() throws -> Workspace {
        let ws = try Workspace()
        try ws.png("cat.png", 40, 20, rgba: (200, 30, 30, 255))
        #expect(try ws.run("init", "j.techo", "--size", "400x300", "--dpi", "100").code == 0)
        for (at, rot) in [("100,80", "0"), ("200,150", "30"), ("300,100", "0")] {
            #expect(try ws.run("add", "image", "j.techo", "p1", "cat.png", "--at", at, "--rotate", rot).code == 0)
        }
        return ws
    }

    func placements(_ ws: Workspace) throws -> [String: Placement] {
        Dictionary(uniqueKeysWithValues: try ws.storedPage("j.techo/pages/p1.json").elements.map { ($0.id, $0.placement) })
    }

    /// The centre of the union of the elements' boxes (each 40×20 about its centre, turned).
    func groupCentre(_ ps: [Placement]) -> (Double, Double) {
        var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
        for p in ps {
            for (u, v) in [(-20.0, -10.0), (20, -10), (20, 10), (-20, 10)] {
                let q = p.transform.apply(.init(u, v))
                x0 = min(x0, q.x); y0 = min(y0, q.y); x1 = max(x1, q.x); y1 = max(y1, q.y)
            }
        }
        return ((x0 + x1) / 2, (y0 + y1) / 2)
    }

    @Test func severalIdsPanTogetherAsOneUndoStep() throws {
        let ws = try threeOnAPage()
        let before = try ws.bytes("j.techo/pages/p1.json")
        let old = try placements(ws)
        let r = try ws.run("gesture", "j.techo", "p1", "image-1", "image-2", "image-3", "--pan", "10,-5")
        #expect(r.code == 0, "\(r.err)")
        let new = try placements(ws)
        for id in ["image-1", "image-2", "image-3"] {
            #expect(new[id]!.center.x == old[id]!.center.x + 10 && new[id]!.center.y == old[id]!.center.y - 5)
            #expect(new[id]!.rotation == old[id]!.rotation && new[id]!.scale == old[id]!.scale)
        }
        #expect(try ws.run("history", "j.techo").out.hasSuffix("* 4\tgesture image-1 image-2 image-3\n"))
        #expect(try ws.run("undo", "j.techo").out == "undid 4: gesture image-1 image-2 image-3\n")
        #expect(try ws.bytes("j.techo/pages/p1.json") == before)
    }

    @Test func pinchRotateDoubleTapAndFlipActAboutTheGroupsCentre() throws {
        let ws = try threeOnAPage()
        let ids = ["image-1", "image-2", "image-3"]
        let old = try placements(ws)
        let c = groupCentre(ids.map { old[$0]! })
        #expect(try ws.run(["gesture", "j.techo", "p1"] + ids + ["--pinch", "2", "--rotate", "90"]).code == 0)
        let new = try placements(ws)
        for id in ids {
            // Scaled by 2 about c, then turned 90° clockwise about c (which the scale kept fixed).
            let sx = c.0 + (old[id]!.center.x - c.0) * 2, sy = c.1 + (old[id]!.center.y - c.1) * 2
            let ex = c.0 - (sy - c.1), ey = c.1 + (sx - c.0)
            #expect(abs(new[id]!.center.x - ex) < 1e-9 && abs(new[id]!.center.y - ey) < 1e-9, "\(id): \(new[id]!.center) vs \(ex),\(ey)")
            #expect(abs(new[id]!.scale - 2 * old[id]!.scale) < 1e-12)
        }
        // A double-tap turns the group +90° about its centre; a flip mirrors it across it.
        let mid = try placements(ws)
        let c2 = groupCentre(ids.map { mid[$0]! })
        #expect(try ws.run(["gesture", "j.techo", "p1"] + ids + ["--double-tap", "--flip", "h"]).code == 0)
        let end = try placements(ws)
        let c3 = groupCentre(ids.map { end[$0]! })
        #expect(abs(c3.0 - c2.0) < 1e-9 && abs(c3.1 - c2.1) < 1e-9, "the group's centre stays: \(c2) → \(c3)")
        for id in ids {
            let tx = c2.0 - (mid[id]!.center.y - c2.1), ty = c2.1 + (mid[id]!.center.x - c2.0)
            #expect(abs(end[id]!.center.x - (2 * c2.0 - tx)) < 1e-9 && abs(end[id]!.center.y - ty) < 1e-9)
            #expect(end[id]!.flipH != mid[id]!.flipH)
            // Mirrored on the page: the turned angle is negated.
            let turned = mid[id]!.rotation + 90
            #expect(abs(abs(end[id]!.rotation + turned).truncatingRemainder(dividingBy: 360)) < 1e-9, "\(id): \(end[id]!.rotation) vs \(turned)")
        }
        #expect(try ws.run("history", "j.techo").out.split(separator: "\n").count == 5)
    }

    @Test func aBadIdAmongSeveralIsTheSameErrorAndChangesNothing() throws {
        let ws = try threeOnAPage()
        let before = try placements(ws)
        let one = try ws.run("gesture", "j.techo", "p1", "nope", "--pan", "1,1")
        let many = try ws.run("gesture", "j.techo", "p1", "image-1", "nope", "--pan", "1,1")
        #expect(one.code != 0 && many.code == one.code)
        #expect(many.err.contains("ID (argument 5): no element 'nope' on page p1; elements: image-1, image-2, image-3"), "\(many.err)")
        #expect(one.err.contains("no element 'nope' on page p1; elements: image-1, image-2, image-3"))
        let twice = try ws.run("gesture", "j.techo", "p1", "image-1", "image-1", "--pan", "1,1")
        #expect(twice.code != 0 && twice.err.contains("'image-1' is listed twice"), "\(twice.err)")
        #expect(try ws.run("set", "j.techo", "p1", "image-2", "--lock").code == 0)
        let locked = try ws.run("gesture", "j.techo", "p1", "image-1", "image-2", "--pan", "1,1")
        #expect(locked.code != 0 && locked.err.contains("'image-2' is locked"), "\(locked.err)")
        #expect(try placements(ws) == before)
    }
}
