// The selection's handles, snapping, locking and the layers list (§13 "Selecting", "Handles"),
// with real input: a corner handle dragged with a mouse scales as `techo gesture --pinch S
// --around` the opposite corner does, in one history step; the rotate knob dragged with a pen
// and Shift turns to a multiple of 15° and the frame turns with it; two fingers spread around a
// sticker smaller than their spread scale it; a dragged sticker snaps to the page's centre line
// (not with Alt); a locked element is not picked on the page and the server refuses to move it.

import Foundation
import TechoTestSupport
import Testing

extension EditorBrowserTests {
    /// The centre of a handle's box, in client pixels, rounded to whole pixels (as input lands).
    func handleCentre(_ f: EditorFixture, _ name: String) throws -> (Double, Double) {
        let b = try f.tab.box("[data-techo-handle=\(name)]")
        return ((b.x + b.w / 2).rounded(), (b.y + b.h / 2).rounded())
    }

    /// A client point to page pixels, as the editor maps it through `[data-techo-page]`'s box.
    func pagePoint(_ f: EditorFixture, _ c: (Double, Double)) throws -> (Double, Double) {
        let b = try f.tab.box("[data-techo-page]")
        return ((c.0 - b.x) * 600 / b.w, (c.1 - b.y) * 800 / b.h)
    }

    func historyCount(_ f: EditorFixture) throws -> Int {
        try Techo.run(["history", f.journal.path], in: f.folder).split(separator: "\n").count
    }

    /// A copy of the journal as it is now, to replay a CLI gesture on.
    func copyJournal(_ f: EditorFixture) throws -> URL {
        let copy = f.folder.appendingPathComponent("copy-\(UUID().uuidString).techo")
        try FileManager.default.copyItem(at: f.journal, to: copy)
        return copy
    }

    func shown(_ f: EditorFixture, _ journal: URL, _ id: String) throws -> [String: Any] {
        let text = try Techo.run(["show", journal.path, "p1", id, "--json"], in: f.folder)
        return try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
    }

    @Test func aCornerHandleScalesAboutTheOppositeCornerAsTheCLIPinchDoes() throws {
        let f = try EditorFixture()
        let c = try f.client(200, 250)
        try f.tab.click(c.0, c.1)
        try f.tab.waitFor(
            "document.querySelector('[data-techo-handle=se]') && !document.querySelector('.selection-frame').hidden", what: "the selection's handles")
        try f.waitSettled()
        // Every handle is a target of at least 44 px.
        for name in ["nw", "ne", "se", "sw", "rotate"] {
            let b = try f.tab.box("[data-techo-handle=\(name)]")
            #expect(b.w >= 44 && b.h >= 44, "\(name): \(b.w)x\(b.h)")
        }
        let copy = try copyJournal(f)
        let steps = try historyCount(f)
        let a = try handleCentre(f, "se"), b = (a.0 + 61, a.1 + 40)
        try f.tab.drag(from: a, to: b, steps: 10)
        try f.waitForJournal("the corner drag") { number(try f.element("tomato")["scale"]) != 1.5 }
        try f.waitSettled()
        #expect(try historyCount(f) == steps + 1, "one history step")
        // The CLI gesture it stands for: pinch S about the opposite (nw) corner, S the drag's
        // projection on the diagonal from that corner to where the pointer went down.
        let anchor = (200 - 72.0, 250 - 72.0)
        let p0 = try pagePoint(f, a), p1 = try pagePoint(f, b)
        let v = (p0.0 - anchor.0, p0.1 - anchor.1)
        let s = ((p1.0 - anchor.0) * v.0 + (p1.1 - anchor.1) * v.1) / (v.0 * v.0 + v.1 * v.1)
        try Techo.run(["gesture", copy.path, "p1", "tomato", "--pinch", String(s), "--around", "\(anchor.0),\(anchor.1)"], in: f.folder)
        let cli = try shown(f, copy, "tomato"), editor = try f.element("tomato")
        let cs = try #require(number(cli["scale"])), es = try #require(number(editor["scale"]))
        #expect(abs(cs - es) / cs < 1e-6, "scale: editor \(es), CLI \(cs)")
        let ca = try #require(point(cli["at"])), ea = try #require(point(editor["at"]))
        #expect(abs(ca.0 - ea.0) < 1e-3 && abs(ca.1 - ea.1) < 1e-3, "at: editor \(ea), CLI \(ca)")
        // The opposite corner stayed where it was.
        #expect(abs(ea.0 - es * 48 - anchor.0) < 1e-3 && abs(ea.1 - es * 48 - anchor.1) < 1e-3, "nw corner moved: at \(ea), scale \(es)")
        // With Alt, about the centre: the centre stays.
        let a2 = try handleCentre(f, "ne")
        try f.tab.mouse("mouseMoved", a2.0, a2.1)
        try f.tab.mouse("mousePressed", a2.0, a2.1, buttons: 1, clickCount: 1)
        for i in 1...8 { try f.tab.mouse("mouseMoved", a2.0 + 3 * Double(i), a2.1 - 3 * Double(i), buttons: 1, modifiers: 1) }
        try f.tab.mouse("mouseReleased", a2.0 + 24, a2.1 - 24, clickCount: 1, modifiers: 1)
        try f.waitForJournal("the Alt corner drag") { (number(try f.element("tomato")["scale"]) ?? es) > es * 1.05 }
        try f.waitSettled()
        let centred = try #require(point(try f.element("tomato")["at"]))
        #expect(abs(centred.0 - ea.0) < 1e-6 && abs(centred.1 - ea.1) < 1e-6, "Alt scaled about \(centred), not the centre \(ea)")
        #expect(try historyCount(f) == steps + 2)
    }

    /// The fixture at the tablet size with touch, the tomato tapped with a finger: its handles shown.
    func tappedTomatoAtTabletSize() throws -> EditorFixture {
        let f = try EditorFixture(width: 1024, height: 1366, touch: true)
        let c = try f.client(200, 250)
        try f.tab.touches("touchStart", [(0, c.0, c.1)])
        try f.tab.touches("touchEnd", [])
        try f.tab.waitFor(
            "document.querySelector('[data-techo-handle=rotate]') && !document.querySelector('.selection-frame').hidden", what: "the selection's handles")
        try f.waitSettled()
        return f
    }

    /// With fingers there is no Alt: a second finger held on the paper while one drags a corner
    /// scales about the centre; one finger alone scales about the opposite corner.
    @Test func aSecondFingerHeldScalesAboutTheCentreByTouch() throws {
        let f = try tappedTomatoAtTabletSize()
        let touches = f.tab.touches
        let before = try #require(point(try f.element("tomato")["at"]))
        let steps = try historyCount(f)
        // The ne corner dragged outward by one finger while another rests on the paper far away.
        let a = try handleCentre(f, "ne"), rest = try f.client(500, 700)
        try touches("touchStart", [(0, a.0, a.1)])
        try touches("touchStart", [(0, a.0, a.1), (1, rest.0, rest.1)])
        for i in 1...8 { try touches("touchMove", [(0, a.0 + 4 * Double(i), a.1 - 4 * Double(i)), (1, rest.0, rest.1)]) }
        // The dragging finger lifts first (touchEnd names the points that end), then the other.
        try touches("touchEnd", [(0, a.0 + 32, a.1 - 32)])
        try touches("touchEnd", [(1, rest.0, rest.1)])
        try f.waitForJournal("the corner drag") { (number(try f.element("tomato")["scale"]) ?? 1.5) > 1.6 }
        try f.waitSettled()
        let centred = try #require(point(try f.element("tomato")["at"]))
        #expect(abs(centred.0 - before.0) < 1e-6 && abs(centred.1 - before.1) < 1e-6, "scaled about \(centred), not the centre \(before)")
        #expect(try historyCount(f) == steps + 1)
        // The same drag with one finger alone scales about the opposite (sw) corner: the centre moves.
        let scale = try #require(number(try f.element("tomato")["scale"]))
        let b = try handleCentre(f, "ne")
        try touches("touchStart", [(0, b.0, b.1)])
        for i in 1...8 { try touches("touchMove", [(0, b.0 + 4 * Double(i), b.1 - 4 * Double(i))]) }
        try touches("touchEnd", [])
        try f.waitForJournal("the second corner drag") { (number(try f.element("tomato")["scale"]) ?? scale) > scale * 1.05 }
        try f.waitSettled()
        let moved = try #require(point(try f.element("tomato")["at"]))
        #expect(moved.0 > centred.0 + 1 && moved.1 < centred.1 - 1, "one finger kept the centre at \(moved)")
    }

    /// With fingers there is no Shift: a second finger held on the paper while one turns the knob
    /// snaps the turn to 15° steps; one finger alone turns freely.
    @Test func aSecondFingerHeldSnapsTheKnobTo15DegreeStepsByTouch() throws {
        let f = try tappedTomatoAtTabletSize()
        let touches = f.tab.touches
        let steps = try historyCount(f)
        // From above the centre round to about 40° clockwise with one finger, another resting on the paper.
        func turn(by degrees: Double, holding: Bool) throws {
            let knob = try handleCentre(f, "rotate"), centre = try f.client(200, 250), rest = try f.client(520, 720)
            let r = hypot(knob.0 - centre.0, knob.1 - centre.1), a0 = atan2(knob.1 - centre.1, knob.0 - centre.0)
            func at(_ i: Int) -> (Double, Double) {
                let a = a0 + degrees * Double(i) / 10 * .pi / 180
                return ((centre.0 + r * cos(a)).rounded(), (centre.1 + r * sin(a)).rounded())
            }
            try touches("touchStart", [(0, knob.0, knob.1)])
            if holding { try touches("touchStart", [(0, knob.0, knob.1), (1, rest.0, rest.1)]) }
            for i in 1...10 {
                let p = at(i)
                try touches("touchMove", holding ? [(0, p.0, p.1), (1, rest.0, rest.1)] : [(0, p.0, p.1)])
            }
            let end = at(10)
            try touches("touchEnd", [(0, end.0, end.1)])
            if holding { try touches("touchEnd", [(1, rest.0, rest.1)]) }
        }
        try turn(by: 40, holding: true)
        try f.waitForJournal("the held turn") { number(try f.element("tomato")["rotate"]) != nil }
        try f.waitSettled()
        let snapped = try #require(number(try f.element("tomato")["rotate"]))
        #expect(abs(snapped - 45) < 1e-9, "turned to \(snapped)°, not the 15° step nearest 40°")
        #expect(try historyCount(f) == steps + 1, "one history step")
        // One finger alone: 20° more, not snapped to a step.
        try turn(by: 20, holding: false)
        try f.waitForJournal("the free turn") { abs((number(try f.element("tomato")["rotate"]) ?? 45) - 45) > 1 }
        try f.waitSettled()
        let free = try #require(number(try f.element("tomato")["rotate"]))
        #expect(abs(free - 65) < 2 && abs(free - 60) > 1e-6, "one finger turned to \(free)°")
    }

    @Test func theRotateKnobWithAPenAndShiftTurnsBy15DegreeStepsAndTheFrameTurns() throws {
        let f = try EditorFixture()
        let c = try f.client(200, 250)
        try f.tab.click(c.0, c.1)
        try f.tab.waitFor("document.querySelector('[data-techo-handle=rotate]') && !document.querySelector('.selection-frame').hidden", what: "the rotate knob")
        try f.waitSettled()
        let steps = try historyCount(f)
        let copy = try copyJournal(f)
        // From above the centre round to about 40° clockwise, with a pen, Shift held.
        let knob = try handleCentre(f, "rotate")
        let r = knob.1 - c.1
        try f.tab.mouse("mouseMoved", knob.0, knob.1, pointerType: "pen")
        try f.tab.mouse("mousePressed", knob.0, knob.1, buttons: 1, clickCount: 1, pointerType: "pen", force: 0.5)
        for i in 1...10 {
            let t = 40.0 * Double(i) / 10 * .pi / 180
            try f.tab.mouse("mouseMoved", (c.0 - r * sin(t)).rounded(), (c.1 + r * cos(t)).rounded(), buttons: 1, pointerType: "pen", force: 0.5, modifiers: 8)
        }
        let t = 40.0 * .pi / 180
        try f.tab.mouse("mouseReleased", (c.0 - r * sin(t)).rounded(), (c.1 + r * cos(t)).rounded(), clickCount: 1, pointerType: "pen", modifiers: 8)
        try f.waitForJournal("the knob's turn") { number(try f.element("tomato")["rotate"]) != nil }
        try f.waitSettled()
        let turned = try #require(number(try f.element("tomato")["rotate"]))
        #expect(abs(turned - 45) < 1e-9, "turned to \(turned)°, not the 15° step nearest 40°")
        #expect(try historyCount(f) == steps + 1, "one history step")
        // The same as techo gesture --rotate about the centre.
        try Techo.run(["gesture", copy.path, "p1", "tomato", "--rotate", "45"], in: f.folder)
        let cli = try shown(f, copy, "tomato"), editor = try f.element("tomato")
        let ca = try #require(point(cli["at"])), ea = try #require(point(editor["at"]))
        #expect(abs(ca.0 - ea.0) < 1e-6 && abs(ca.1 - ea.1) < 1e-6 && abs((number(cli["rotate"]) ?? 0) - turned) < 1e-9)
        // The frame turned with the sticker: its nw handle is on the turned corner.
        let nw = try handleCentre(f, "nw")
        let a = 45.0 * .pi / 180, u = -72.0, v = -72.0
        let corner = try f.client(200 + u * cos(a) - v * sin(a), 250 + u * sin(a) + v * cos(a))
        #expect(abs(nw.0 - corner.0) <= 1.5 && abs(nw.1 - corner.1) <= 1.5, "nw handle at \(nw), turned corner at \(corner)")
        let shot = try f.tab.screenshot(x: 0, y: 0, w: 1440, h: 900)
        try shot.write(to: Fixtures.artifactsDirectory("editor").appendingPathComponent("handles-turned-1440x900.png"))
    }

    /// Two fingers that go down on the paper either side of a small selected sticker and spread
    /// scale it (the first finger used to have to land on it).
    @Test func twoFingersPinchASelectionSmallerThanTheirSpread() throws {
        let f = try EditorFixture(width: 1024, height: 1366, touch: true)
        let star = EditorFixture.fixtures.appendingPathComponent("star.png").path
        try Techo.run(["add", "image", f.journal.path, "p1", star, "--id", "small", "--at", "400,500", "--scale", "0.5"], in: f.folder)
        try f.tab.waitFor("!!techoEditor.elementById('small')", what: "the small sticker")
        let c = try f.client(400, 500)
        try f.tab.touch("touchStart", [c])
        try f.tab.touch("touchEnd", [])
        try f.tab.waitFor("techoEditor.selection === 'small'", what: "a tap to select the small sticker")
        try f.waitSettled()
        let steps = try historyCount(f)
        let k = try f.tab.number("document.querySelector('[data-techo-page]').getBoundingClientRect().width / 600")
        // The sticker is 32 page px wide; the fingers start 60 page px either side of its centre.
        let d0 = 60 * k
        try f.tab.touch("touchStart", [(c.0 - d0, c.1), (c.0 + d0, c.1)])
        for i in 1...10 {
            let d = d0 * (1 + Double(i) / 10)
            try f.tab.touch("touchMove", [(c.0 - d, c.1), (c.0 + d, c.1)])
        }
        try f.tab.touch("touchEnd", [])
        try f.waitForJournal("the pinch") { number(try f.element("small")["scale"]) != 0.5 }
        try f.waitSettled()
        let s = try #require(number(try f.element("small")["scale"]))
        #expect(abs(s - 1) < 0.02, "scale \(s), expected 0.5 × 2")
        #expect(try historyCount(f) == steps + 1)
        let shot = try f.tab.screenshot(x: 0, y: 0, w: 1024, h: 1366)
        try shot.write(to: Fixtures.artifactsDirectory("editor").appendingPathComponent("handles-1024x1366.png"))
    }

    /// A drag that ends a few screen pixels off the page's vertical centre line lands on it, with a
    /// guide shown during the drag; with Alt it lands where the pointer put it.
    @Test func aDraggedStickerSnapsToThePageCentreLineButNotWithAlt() throws {
        let f = try EditorFixture()
        let k = try f.tab.number("document.querySelector('[data-techo-page]').getBoundingClientRect().width / 600")
        func drag(alt: Bool) throws -> Double {
            let at = try #require(point(try f.element("tomato")["at"]))
            let a = try f.client(at.0, at.1)
            let from = (a.0.rounded(), a.1.rounded())
            // 3 screen pixels short of the centre line.
            let dx = ((300 - at.0) * k - 3).rounded()
            try f.tab.mouse("mouseMoved", from.0, from.1)
            try f.tab.mouse("mousePressed", from.0, from.1, buttons: 1, clickCount: 1)
            for i in 1...12 { try f.tab.mouse("mouseMoved", from.0 + dx * Double(i) / 12, from.1, buttons: 1, modifiers: alt ? 1 : 0) }
            if !alt {
                try f.tab.waitFor("!!document.querySelector('[data-techo-guide=x]')", what: "the snapping guide")
                let g = try f.tab.box("[data-techo-guide=x]")
                let line = try f.client(300, 0)
                #expect(abs(g.x + g.w / 2 - line.0) <= 1, "guide at \(g.x), the centre line at \(line.0)")
            }
            try f.tab.mouse("mouseReleased", from.0 + dx, from.1, clickCount: 1, modifiers: alt ? 1 : 0)
            try f.waitForJournal("the drag") { (point(try f.element("tomato")["at"])?.0 ?? 0) != at.0 }
            try f.waitSettled()
            #expect(try f.tab.evaluate("document.querySelectorAll('[data-techo-guide]').length") as? Int == 0, "the guide stays after the drop")
            return try #require(point(try f.element("tomato")["at"])).0
        }
        let snapped = try drag(alt: false)
        #expect(abs(snapped - 300) < 1e-9, "centre at x = \(snapped), not on the centre line")
        // Back off the line, then the same drag with Alt.
        try Techo.run(["set", f.journal.path, "p1", "tomato", "--at", "200,250"], in: f.folder)
        try f.tab.waitFor("techoEditor.elementById('tomato').transform[4] === 200", what: "the tomato back at 200")
        try f.waitSettled()
        let free = try drag(alt: true)
        #expect(abs(free - 300) > 1.5, "with Alt the centre snapped to x = \(free)")
    }
}

extension EditorBrowserTests {
    func layerOrder(_ f: EditorFixture) throws -> [String] {
        try f.tab.evaluate("[...document.querySelectorAll('[data-techo-layer]')].map((r) => r.dataset.techoLayer)") as? [String] ?? []
    }

    /// Clicks a control of the side panel, scrolled into view first as a person scrolls the panel.
    func clickInPanel(_ f: EditorFixture, _ selector: String) throws {
        try f.tab.evaluate("document.querySelector(\"\(selector)\").scrollIntoView({ block: 'center' })")
        try f.tab.click(selector)
    }

    func pressed(_ f: EditorFixture, _ id: String, _ action: String) throws -> String? {
        try f.tab.evaluate("document.querySelector('[data-techo-layer=\"\(id)\"] [data-techo-action=\(action)]').getAttribute('aria-pressed')") as? String
    }

    /// The layers list shows the stack topmost first; its rows select, reorder, lock and hide. A
    /// locked sticker is not picked by a click on the page, a drag does not move it, and the
    /// server refuses a gesture on it (409).
    @Test func theLayersListSelectsReordersLocksAndHides() throws {
        let f = try EditorFixture()
        // The panel starts folded (one line under the selection); a click opens it.
        try clickInPanel(f, "#layers-panel > summary")
        try f.tab.waitFor("document.getElementById('layers-panel').open", what: "the layers panel to open")
        try f.tab.waitFor("document.querySelectorAll('[data-techo-layer]').length === 3", what: "three layer rows")
        #expect(try layerOrder(f) == ["ink-1", "title", "tomato"])
        // A click on a row selects its element.
        try clickInPanel(f, "[data-techo-layer=title] .layer-name")
        try f.tab.waitFor("techoEditor.selection === 'title'", what: "the row to select the title")
        // Bring the tomato forward: select its row, then one place up the stack.
        try clickInPanel(f, "[data-techo-layer=tomato] .layer-name")
        try f.tab.waitFor("techoEditor.selection === 'tomato'", what: "the row to select the tomato")
        try clickInPanel(f, "[data-techo-layer-move=up]")
        try f.waitForJournal("the tomato raised") {
            (try f.pageJSON()["elements"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String } == ["title", "tomato", "ink-1"]
        }
        try f.tab.waitFor(
            "[...document.querySelectorAll('[data-techo-layer]')].map((r) => r.dataset.techoLayer).join() === 'ink-1,tomato,title'", what: "the rows reordered")
        // Lock it.
        #expect(try pressed(f, "tomato", "lock") == "false")
        try clickInPanel(f, "[data-techo-layer=tomato] [data-techo-action=lock]")
        try f.waitForJournal("the tomato locked") { try f.element("tomato")["locked"] as? Bool == true }
        try f.tab.waitFor(
            "document.querySelector('[data-techo-layer=tomato] [data-techo-action=lock]').getAttribute('aria-pressed') === 'true'", what: "the lock pressed")
        try f.waitSettled()
        // Not picked on the page, not moved by a drag.
        let c = try f.client(200, 250)
        try f.tab.click(c.0, c.1)
        try f.waitSettled()
        #expect(try f.tab.evaluate("techoEditor.selection") as? String != "tomato")
        try f.tab.drag(from: c, to: (c.0 + 80, c.1 + 40), steps: 8)
        try f.waitSettled()
        #expect(point(try f.element("tomato")["at"])! == (200, 250))
        let status = try f.tab.number(
            "techoEditor.api.gesture('p1', 'tomato', [{gesture: 'pan', state: 'changed', translation: [5, 0]}]).then(() => 200, (e) => e.status)")
        #expect(status == 409)
        // Hide the title.
        try clickInPanel(f, "[data-techo-layer=title] [data-techo-action=hide]")
        try f.waitForJournal("the title hidden") { try f.element("title")["hidden"] as? Bool == true }
        try f.tab.waitFor(
            "document.querySelector('[data-techo-layer=title] [data-techo-action=hide]').getAttribute('aria-pressed') === 'true'", what: "the eye pressed")
        try f.waitSettled()
        // Kept with the test artifacts, to be looked at.
        for (w, h) in [(1440, 900)] {
            let shot = try f.tab.screenshot(x: 0, y: 0, w: Double(w), h: Double(h))
            try shot.write(to: Fixtures.artifactsDirectory("editor").appendingPathComponent("layers-\(w)x\(h).png"))
        }
    }
}

extension EditorBrowserTests {
    /// A second tomato over the first: a click on its transparent corner picks the tomato seen
    /// there, a click on its fruit picks it, and a click on a transparent part over the bare
    /// paper picks nothing.
    @Test func aClickOnATransparentCornerPicksWhatIsSeenThere() throws {
        let f = try EditorFixture()
        let tomato = EditorFixture.fixtures.appendingPathComponent("tomato.png").path
        try Techo.run(["add", "image", f.journal.path, "p1", tomato, "--id", "cover", "--at", "290,340", "--scale", "1.5"], in: f.folder)
        try f.tab.waitFor("!!techoEditor.elementById('cover')", what: "the covering sticker to show")
        try f.waitSettled()
        // (225, 275): inside the cover's box, 65 sprite px from its fruit's centre (radius 38);
        // 30 page px from the first tomato's fruit centre (200, 259; radius 57).
        let corner = try f.client(225, 275)
        try f.tab.click(corner.0, corner.1)
        try f.tab.waitFor("techoEditor.selection === 'tomato'", what: "the click to pick the tomato seen through the corner")
        let fruit = try f.client(290, 349)
        try f.tab.click(fruit.0, fruit.1)
        try f.tab.waitFor("techoEditor.selection === 'cover'", what: "a click on the cover's fruit to pick it")
        // (224, 349): the cover's left edge, 44 sprite px from its fruit's centre; only paper under it.
        let bare = try f.client(224, 349)
        try f.tab.click(bare.0, bare.1)
        try f.tab.waitFor("techoEditor.selection === null", what: "a click on a transparent part over the paper to pick nothing")
        try f.waitSettled()
        // Dragged by its corner, the tomato underneath moves, not the cover.
        try f.tab.drag(from: corner, to: (corner.0 - 30, corner.1), steps: 6)
        try f.waitForJournal("the tomato moved") { (point(try f.element("tomato")["at"])?.0 ?? 200) < 199 }
        try f.waitSettled()
        #expect(point(try f.element("cover")["at"])! == (290, 340))
    }

    /// A layer row dragged by its grip onto another takes that one's place in the stack, one
    /// history step, with a mouse on a laptop and with a finger on a tablet.
    @Test(arguments: [false, true])
    func aLayerRowDraggedByItsGripMovesItInTheStack(touch: Bool) throws {
        let f = touch ? try EditorFixture(width: 1024, height: 1366, touch: true) : try EditorFixture()
        try clickInPanel(f, "#layers-panel > summary")
        try f.tab.waitFor("document.querySelectorAll('[data-techo-layer]').length === 3", what: "three layer rows")
        #expect(try layerOrder(f) == ["ink-1", "title", "tomato"])
        let before = try historyCount(f)
        try f.tab.evaluate("document.querySelector('#layers').scrollIntoView({ block: 'center' })")
        let grip = try f.tab.box("[data-techo-layer=tomato] [data-techo-action=grip]")
        let top = try f.tab.box("[data-techo-layer=ink-1]")
        let a = (grip.x + grip.w / 2, grip.y + grip.h / 2), b = (a.0, top.y + top.h / 2)
        if touch {
            try f.tab.touch("touchStart", [a])
            for i in 1...8 { try f.tab.touch("touchMove", [(a.0, a.1 + (b.1 - a.1) * Double(i) / 8)]) }
            try f.tab.touch("touchEnd", [])
        } else {
            try f.tab.drag(from: a, to: b, steps: 8)
        }
        // The tomato, at the bottom, now on top: the stack (bottom to top) title, ink-1, tomato.
        try f.waitForJournal("the tomato on top") {
            (try f.pageJSON()["elements"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String } == ["title", "ink-1", "tomato"]
        }
        try f.tab.waitFor(
            "[...document.querySelectorAll('[data-techo-layer]')].map((r) => r.dataset.techoLayer).join() === 'tomato,ink-1,title'", what: "the rows reordered")
        #expect(try historyCount(f) == before + 1)
        // A grip let go where it was taken moves nothing.
        try f.waitSettled()
        let g = try f.tab.box("[data-techo-layer=title] [data-techo-action=grip]")
        try f.tab.drag(from: (g.x + g.w / 2, g.y + g.h / 2), to: (g.x + g.w / 2, g.y + g.h / 2 + 2), steps: 2)
        try f.waitSettled()
        #expect(try historyCount(f) == before + 1)
    }

    /// The same with a finger on a tablet: a tap picks by drawn pixels as a click does, and a
    /// finger dragged from the transparent corner moves what is seen there.
    @Test func aTapOnATransparentCornerPicksWhatIsSeenThere() throws {
        let f = try EditorFixture(width: 1024, height: 1366, touch: true)
        let tomato = EditorFixture.fixtures.appendingPathComponent("tomato.png").path
        try Techo.run(["add", "image", f.journal.path, "p1", tomato, "--id", "cover", "--at", "290,340", "--scale", "1.5"], in: f.folder)
        try f.tab.waitFor("!!techoEditor.elementById('cover')", what: "the covering sticker to show")
        try f.waitSettled()
        func tap(_ p: (Double, Double)) throws {
            try f.tab.touch("touchStart", [p])
            try f.tab.touch("touchEnd", [])
        }
        // The points of the click test: the cover's corner over the first tomato, the cover's
        // fruit, the cover's edge over bare paper (each tap far from the one before, so no two
        // make a double-tap).
        let corner = try f.client(225, 275), fruit = try f.client(290, 349), bare = try f.client(224, 349)
        try tap(corner)
        try f.tab.waitFor("techoEditor.selection === 'tomato'", what: "the tap to pick the tomato seen through the corner")
        try tap(fruit)
        try f.tab.waitFor("techoEditor.selection === 'cover'", what: "a tap on the cover's fruit to pick it")
        try tap(bare)
        try f.tab.waitFor("techoEditor.selection === null", what: "a tap on a transparent part over the paper to pick nothing")
        try f.waitSettled()
        try f.tab.touch("touchStart", [corner])
        for i in 1...6 { try f.tab.touch("touchMove", [(corner.0 - 5 * Double(i), corner.1)]) }
        try f.tab.touch("touchEnd", [])
        try f.waitForJournal("the tomato moved by the finger") { (point(try f.element("tomato")["at"])?.0 ?? 200) < 199 }
        try f.waitSettled()
        #expect(point(try f.element("cover")["at"])! == (290, 340))
    }
}
