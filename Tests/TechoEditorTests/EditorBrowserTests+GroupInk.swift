// Strokes in a group, with real input: a marquee (a mouse on the laptop, a pen on the tablet)
// or a finger's lasso (the phone) takes two strokes and the tomato, and a stroke whose box the
// marquee overlaps but whose ink it does not touch stays out; one drag moves the three by
// (+60, +40) page px, the strokes drawn moving on the overlay with the sticker, as one request
// and one history step, and one Ctrl+Z puts all three back. Shift+click adds a stroke to a
// selected sticker, and Delete removes both in one step.

import Foundation
import TechoCodecs
import TechoTestSupport
import Testing

extension EditorBrowserTests {
    /// The fixture with two more pencil strokes: s2 (100,420 → 180,460 → 260,430, tomato red)
    /// under the tomato, and s3 (390,150 → 480,240) by the title, whose box reaches into the
    /// marquee's top right corner while its ink passes 7 px outside it.
    func inkAndTomato(width: Int, height: Int) throws -> EditorFixture {
        let f = try EditorFixture(width: width, height: height, touch: true)
        for points in ["100,420 180,460 260,430", "390,150 480,240"] {
            try Techo.run(["draw", f.journal.path, "p1", "--tool", "pencil", "--color", "#e07a5f", "--width", "8", "--points", points], in: f.folder)
        }
        try f.tab.waitFor(
            "techoEditor.pageData && techoEditor.pageData.page.elements.some((e) => e.type === 'ink' && e.strokes === 3)", what: "the two strokes")
        try f.waitSettled()
        return f
    }

    /// Every stroke's points by id, as `techo show --json` gives them.
    func strokePoints(_ f: EditorFixture) throws -> [String: [(Double, Double)]] {
        var out: [String: [(Double, Double)]] = [:]
        for s in try f.strokes() {
            let pts = (s["points"] as? [[NSNumber]] ?? []).map { ($0[0].doubleValue, $0[1].doubleValue) }
            out[s["id"] as? String ?? ""] = pts
        }
        return out
    }

    /// The selection hook's ids, sorted.
    func selectedSet(_ f: EditorFixture) throws -> [String] {
        (try f.selectionHook()).split(separator: " ").map(String.init).sorted()
    }

    /// A touch event with keyboard modifiers (1: Alt), for a finger's drag that does not snap.
    func touch(_ f: EditorFixture, _ type: String, _ points: [(Double, Double)], modifiers: Int = 0) throws {
        let list: [[String: Any]] = points.enumerated().map { i, p in ["x": p.0, "y": p.1, "id": i, "radiusX": 4, "radiusY": 4, "force": 1] }
        _ = try f.tab.send("Input.dispatchTouchEvent", ["type": type, "touchPoints": list, "modifiers": modifiers])
    }

    @Test(arguments: [(1440, 900, "mouse"), (1024, 1366, "pen"), (390, 844, "finger")])
    func strokesAndAStickerMoveAsOneGroup(size: (Int, Int, String)) throws {
        let (w, h, pointer) = size
        let f = try inkAndTomato(width: w, height: h)
        let dir = Fixtures.artifactsDirectory("editor")
        if pointer == "finger" {
            // The lasso, a finger's loop round the tomato's centre and the two strokes' box
            // centres (s1 about 300,620; s2 about 180,440), not s3's (435,195) nor the title's.
            try f.tool("lasso")
            let corners: [(Double, Double)] = [(60, 170), (340, 170), (340, 360), (560, 560), (560, 700), (60, 700), (60, 175)]
            var loop: [(Double, Double)] = []
            for (a, b) in zip(corners, corners.dropFirst()) {
                for i in 0..<8 { let t = Double(i) / 8; loop.append(try f.client(a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t)) }
            }
            try f.tab.touch("touchStart", [loop[0]])
            for p in loop.dropFirst() { try f.tab.touch("touchMove", [p]) }
            try f.tab.touch("touchEnd", [])
        } else {
            // The marquee from the empty paper above left of the tomato to x = 400: s2 lies
            // inside it, s1 runs out of it (its outline crosses the right edge), s3's box
            // overlaps its top right corner but its ink does not.
            try f.tab.drag(from: try f.client(60, 170), to: try f.client(400, 690), steps: 14, pointerType: pointer)
        }
        let hookHas = "document.querySelector('[data-techo-page]').dataset.techoSelection.split(' ').includes(id)"
        try f.tab.waitFor("['s1', 's2', 'tomato'].every((id) => \(hookHas))", what: "the tomato and two strokes selected")
        try f.waitSettled()
        // In stacking order: the tomato, then the ink layer's strokes in their order.
        #expect(try f.selectionHook() == "tomato s1 s2", "\(w)x\(h)")
        #expect(try f.tab.evaluate("techoEditor.tool.name") as? String == "select")
        // One frame round the tomato's box and both strokes' drawn bounds, with its handles.
        let union =
            try f.tab.evaluate(
                "(() => { const b = [techoEditor.elementById('tomato').bounds, ...['s1', 's2'].map((id) => techoEditor.state.strokeInfo(id).bounds)]; return [Math.min(...b.map((r) => r[0])), Math.min(...b.map((r) => r[1])), Math.max(...b.map((r) => r[0] + r[2])), Math.max(...b.map((r) => r[1] + r[3]))]; })()"
            ) as? [Double] ?? []
        try #require(union.count == 4)
        let frame = try f.tab.box(".selection-frame .frame-box")
        let lo = try f.client(union[0], union[1]), hi = try f.client(union[2], union[3])
        #expect(
            abs(frame.x - lo.0) < 2 && abs(frame.y - lo.1) < 2 && abs(frame.x + frame.w - hi.0) < 2 && abs(frame.y + frame.h - hi.1) < 2,
            "frame \(frame) vs \(lo) \(hi)")
        #expect(try f.tab.evaluate("!document.querySelector('[data-techo-handle=se]').hidden") as? Bool == true)
        // Each stroke outlined over its drawn bounds.
        let outlines = try f.tab.evaluate("document.querySelectorAll('[data-techo-stroke-outline]').length") as? Int ?? -1
        #expect(outlines == 2, "\(w)x\(h): \(outlines) stroke outlines")
        try f.tab.screenshot(x: 0, y: 0, w: Double(w), h: Double(h)).write(to: dir.appendingPathComponent("group-ink-\(w)x\(h).png"))

        let steps = try historyCount(f)
        let before = try strokePoints(f)
        let tomato0 = try #require(point(try f.element("tomato")["at"]))
        // The drag: pressed on the tomato, moved with Alt held (no snapping) by (+60, +40).
        let from = try f.client(200, 250)
        let path = try (1...12).map { i in try f.client(200 + 5 * Double(i), 250 + 10 * Double(i) / 3) }
        if pointer == "finger" {
            try touch(f, "touchStart", [from])
            for p in path { try touch(f, "touchMove", [p], modifiers: 1) }
        } else {
            try f.tab.mouse("mouseMoved", from.0, from.1, pointerType: pointer)
            try f.tab.mouse("mousePressed", from.0, from.1, buttons: 1, clickCount: 1, pointerType: pointer)
            for p in path { try f.tab.mouse("mouseMoved", p.0, p.1, buttons: 1, pointerType: pointer, modifiers: 1) }
        }
        // The strokes follow on the overlay: s2's ink is drawn at its new place, none at its old.
        try f.tab.waitFor("document.querySelector('[data-techo-page]').classList.contains('live')", what: "the live overlay")
        try f.tab.waitFor(
            "[...techoEditor.gestures.cache.keys()].some((k) => k.includes('group:tomato,s'))", what: "the group's pictures")
        _ = try f.tab.evaluate("new Promise((r) => setTimeout(() => requestAnimationFrame(() => requestAnimationFrame(r)), 300))")
        let live = try ImageDecoder.decode([UInt8](try f.pageShot()), name: "live").pixels
        func redness(_ x: Double, _ y: Double) -> Double {
            // The least distance to the stroke's colour over a 5 px square about page point (x, y).
            let px = Int(x * Double(live.width) / 600), py = Int(y * Double(live.height) / 800)
            var best = Double.infinity
            for dy in -2...2 {
                for dx in -2...2 {
                    let c = live.pixel(px + dx, py + dy)
                    let r = Double(c.r) - 224, g = Double(c.g) - 122, b = Double(c.b) - 95
                    let d: Double = (r * r + g * g + b * b).squareRoot()
                    best = min(best, d)
                }
            }
            return best
        }
        #expect(redness(240, 500) < 40, "\(w)x\(h): s2 drawn at its new place on the overlay (\(redness(240, 500)))")
        #expect(redness(180, 460) > 80, "\(w)x\(h): s2 still drawn at its old place on the overlay (\(redness(180, 460)))")
        try f.pageShot().write(to: dir.appendingPathComponent("group-ink-live-\(w)x\(h).png"))
        if pointer == "finger" {
            try touch(f, "touchEnd", [], modifiers: 1)
        } else {
            let end = path[path.count - 1]
            try f.tab.mouse("mouseReleased", end.0, end.1, clickCount: 1, pointerType: pointer, modifiers: 1)
        }
        try f.waitForJournal("the group's drag") { (point(try f.element("tomato")["at"])?.0 ?? 0) > tomato0.0 + 30 }
        try f.waitSettled()
        #expect(try historyCount(f) == steps + 1, "one history step")
        let last = try Techo.run(["history", f.journal.path], in: f.folder).split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.contains("gesture tomato ") && last.contains("s1") && last.contains("s2") && !last.contains("s3"), "\(last)")
        let tomato1 = try #require(point(try f.element("tomato")["at"]))
        #expect(abs(tomato1.0 - tomato0.0 - 60) <= 0.5 && abs(tomato1.1 - tomato0.1 - 40) <= 0.5, "\(w)x\(h): tomato \(tomato0) → \(tomato1)")
        let after = try strokePoints(f)
        for id in ["s1", "s2"] {
            let old = before[id] ?? [], new = after[id] ?? []
            #expect(old.count == new.count && !old.isEmpty)
            for (p, q) in zip(old, new) {
                #expect(abs(q.0 - p.0 - 60) <= 0.5 && abs(q.1 - p.1 - 40) <= 0.5, "\(w)x\(h) \(id): \(p) → \(q)")
            }
        }
        #expect((after["s3"] ?? []).map { [$0.0, $0.1] } == (before["s3"] ?? []).map { [$0.0, $0.1] }, "s3 stayed")
        #expect(try selectedSet(f) == ["s1", "s2", "tomato"], "the group stays selected")
        try f.tab.screenshot(x: 0, y: 0, w: Double(w), h: Double(h)).write(to: dir.appendingPathComponent("group-ink-moved-\(w)x\(h).png"))

        // One Ctrl+Z: all three back.
        try f.tab.key("z", code: "KeyZ", keyCode: 90, modifiers: 2)
        try f.waitForJournal("the undo") { point(try f.element("tomato")["at"])?.0 == tomato0.0 }
        try f.waitSettled()
        #expect(try historyCount(f) == steps + 1)
        let undone = try strokePoints(f)
        for id in ["s1", "s2", "s3"] {
            #expect((undone[id] ?? []).map { [$0.0, $0.1] } == (before[id] ?? []).map { [$0.0, $0.1] }, "\(id) back")
        }
    }

    /// Shift+click on a stroke adds it to the selected tomato; Delete removes both, one step.
    @Test func shiftClickAStrokeOntoASelectedStickerThenDeleteBoth() throws {
        let f = try EditorFixture(width: 1440, height: 900, touch: false)
        func click(_ x: Double, _ y: Double, shift: Bool = false) throws {
            let c = try f.client(x, y)
            try f.tab.mouse("mouseMoved", c.0, c.1)
            try f.tab.mouse("mousePressed", c.0, c.1, buttons: 1, clickCount: 1, modifiers: shift ? 8 : 0)
            try f.tab.mouse("mouseReleased", c.0, c.1, clickCount: 1, modifiers: shift ? 8 : 0)
        }
        try click(200, 250)
        try f.tab.waitFor("document.querySelector('[data-techo-page]').dataset.techoSelection === 'tomato'", what: "the tomato")
        try f.waitSettled()
        try click(300, 640, shift: true)
        try f.tab.waitFor("document.querySelector('[data-techo-page]').dataset.techoSelection === 'tomato s1'", what: "the tomato and s1")
        try f.waitSettled()
        #expect(try f.tab.evaluate("!document.querySelector('.selection-frame').hidden") as? Bool == true, "the group's frame")
        let shot = Fixtures.artifactsDirectory("editor").appendingPathComponent("group-ink-shift-1440x900.png")
        try f.tab.screenshot(x: 0, y: 0, w: 1440, h: 900).write(to: shot)
        // Shift+click on s1 again takes it out; once more puts it back.
        try click(300, 640, shift: true)
        try f.tab.waitFor("document.querySelector('[data-techo-page]').dataset.techoSelection === 'tomato'", what: "s1 taken out")
        try f.waitSettled()
        try click(300, 640, shift: true)
        try f.tab.waitFor("document.querySelector('[data-techo-page]').dataset.techoSelection === 'tomato s1'", what: "s1 back in")
        try f.waitSettled()
        let steps = try historyCount(f)
        try f.tab.key("Delete", code: "Delete", keyCode: 46)
        try f.waitForJournal("the tomato and s1 deleted") {
            let ids = (try f.pageJSON()["elements"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            let left = try f.strokes()
            return !ids.contains("tomato") && left.isEmpty
        }
        try f.waitSettled()
        #expect(try historyCount(f) == steps + 1, "one history step")
        let last = try Techo.run(["history", f.journal.path], in: f.folder).split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.hasSuffix("rm tomato s1"), "\(last)")
        #expect(try f.selectionHook() == "")
        try f.tab.key("z", code: "KeyZ", keyCode: 90, modifiers: 2)
        try f.waitForJournal("the undo") {
            let ids = (try f.pageJSON()["elements"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            let back = try f.strokes()
            return ids.contains("tomato") && back.count == 1
        }
    }

    /// A group of strokes only is a group: two strokes picked with Shift+click flip across their
    /// centre line with the bar's button, one step; the tomato added with Shift+click, arrow keys
    /// nudge all three in one step and Ctrl+D duplicates the sticker and both strokes in one step.
    @Test func aGroupOfStrokesFlipsAndAMixedGroupDuplicates() throws {
        let f = try EditorFixture(width: 1024, height: 1366, touch: false)
        try Techo.run(["draw", f.journal.path, "p1", "--tool", "pencil", "--width", "8", "--points", "100,420 180,460 260,430"], in: f.folder)
        try f.tab.waitFor("techoEditor.pageData && techoEditor.pageData.page.elements.some((e) => e.type === 'ink' && e.strokes === 2)", what: "s2")
        try f.waitSettled()
        func click(_ x: Double, _ y: Double, shift: Bool = false) throws {
            let c = try f.client(x, y)
            try f.tab.mouse("mouseMoved", c.0, c.1)
            try f.tab.mouse("mousePressed", c.0, c.1, buttons: 1, clickCount: 1, modifiers: shift ? 8 : 0)
            try f.tab.mouse("mouseReleased", c.0, c.1, clickCount: 1, modifiers: shift ? 8 : 0)
        }
        try click(300, 640)
        try f.tab.waitFor("document.querySelector('[data-techo-page]').dataset.techoSelection === 's1'", what: "s1")
        try f.waitSettled()
        try click(180, 460, shift: true)
        try f.tab.waitFor("document.querySelector('[data-techo-page]').dataset.techoSelection === 's1 s2'", what: "s1 and s2")
        try f.waitSettled()
        try f.tab.waitFor(
            "!document.querySelector('.selection-frame').hidden && !document.getElementById('selection-bar').hidden", what: "the group's frame and bar")
        let bounds = try f.tab.evaluate("['s1', 's2'].map((id) => techoEditor.state.strokeInfo(id).bounds)") as? [[Double]] ?? []
        try #require(bounds.count == 2)
        let cx = (min(bounds[0][0], bounds[1][0]) + max(bounds[0][0] + bounds[0][2], bounds[1][0] + bounds[1][2])) / 2
        let before = try strokePoints(f)
        var steps = try historyCount(f)
        try f.tab.click("#selection-bar [data-techo-action=flip-h]")
        try f.waitForJournal("the strokes' flip") { (try strokePoints(f)["s1"]?.first?.0 ?? 80) != before["s1"]?.first?.0 }
        try f.waitSettled()
        #expect(try historyCount(f) == steps + 1)
        steps += 1
        let flipped = try strokePoints(f)
        for id in ["s1", "s2"] {
            for (p, q) in zip(before[id] ?? [], flipped[id] ?? []) {
                #expect(abs(q.0 - (2 * cx - p.0)) < 1e-3 && abs(q.1 - p.1) < 1e-3, "\(id): \(p) → \(q) about x = \(cx)")
            }
        }
        #expect(try f.selectionHook() == "s1 s2", "still selected")
        // The tomato joins; Ctrl+D duplicates all three in one step.
        try click(200, 250, shift: true)
        try f.tab.waitFor("document.querySelector('[data-techo-page]').dataset.techoSelection === 'tomato s1 s2'", what: "the tomato joined")
        try f.waitSettled()
        // Three presses of → nudge all three by 3 mm, one step (the run sent as one pan).
        let tomato0 = try #require(point(try f.element("tomato")["at"]))
        let beforeNudge = try strokePoints(f)
        steps = try historyCount(f)
        for _ in 0..<3 { try f.tab.key("ArrowRight", code: "ArrowRight", keyCode: 39) }
        try f.waitForJournal("the nudge") { (point(try f.element("tomato")["at"])?.0 ?? 0) > tomato0.0 + 1 }
        try f.waitSettled()
        #expect(try historyCount(f) == steps + 1, "one step")
        let mm3 = 3 * 300 / 25.4
        #expect(abs((point(try f.element("tomato")["at"])?.0 ?? 0) - tomato0.0 - mm3) <= 0.5)
        let nudged = try strokePoints(f)
        for id in ["s1", "s2"] {
            for (p, q) in zip(beforeNudge[id] ?? [], nudged[id] ?? []) {
                #expect(abs(q.0 - p.0 - mm3) <= 0.5 && abs(q.1 - p.1) <= 0.5, "\(id) nudged: \(p) → \(q)")
            }
        }
        #expect(try f.selectionHook() == "tomato s1 s2")
        steps += 1
        try f.tab.key("d", code: "KeyD", keyCode: 68, modifiers: 2)
        try f.waitForJournal("the duplicate") { try f.strokes().count == 4 }
        try f.waitSettled()
        let images = (try f.pageJSON()["elements"] as? [[String: Any]] ?? []).filter { $0["type"] as? String == "image" }
        #expect(images.count == 2, "the tomato duplicated")
        #expect(try historyCount(f) == steps + 1, "one step")
        // The three copies, not the originals, are the selection now (the next drag moves them).
        let copyID = try #require(images.last?["id"] as? String)
        let strokeIDs = try f.strokes().compactMap { $0["id"] as? String }
        let want = ([copyID] + strokeIDs.suffix(2)).sorted().joined(separator: " ")
        try f.tab.waitFor(
            "document.querySelector('[data-techo-page]').dataset.techoSelection.split(' ').sort().join(' ') === '\(want)'",
            what: "the three copies selected (\(want))")
    }
}
