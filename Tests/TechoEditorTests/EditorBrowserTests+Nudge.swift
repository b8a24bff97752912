// Arrow keys nudge the selection (§13 "Keys"), with real key events through the DevTools
// protocol: one element and a group of two move by whole millimetres on the page (Shift: 10),
// the screen follows each press before anything is sent, a run of presses and a held key's
// auto-repeat are one history step that one Ctrl+Z takes back, and a locked element stays where
// it is with the server's refusal shown.

import Foundation
import TechoTestSupport
import Testing

extension EditorBrowserTests {
    /// The fixture page's page pixels per millimetre (600x800 at 300 dpi).
    static let pxPerMM = 300 / 25.4

    /// Holds `key` down: one press and `repeats` auto-repeated key downs, then the release.
    func hold(_ f: EditorFixture, _ key: String, keyCode: Int, repeats: Int, modifiers: Int = 0) throws {
        let base: [String: Any] = [
            "key": key, "code": key, "windowsVirtualKeyCode": keyCode, "nativeVirtualKeyCode": keyCode, "modifiers": modifiers,
        ]
        try f.tab.send("Input.dispatchKeyEvent", base.merging(["type": "rawKeyDown"]) { $1 })
        for _ in 0..<repeats { try f.tab.send("Input.dispatchKeyEvent", base.merging(["type": "rawKeyDown", "autoRepeat": true]) { $1 }) }
        try f.tab.send("Input.dispatchKeyEvent", base.merging(["type": "keyUp"]) { $1 })
    }

    /// The journal's applied history steps (undone ones, still listed for redo, not counted).
    func appliedSteps(_ f: EditorFixture) throws -> Int {
        // `*` marks the step the journal is at; the steps after it are undone.
        let lines = try Techo.run(["history", f.journal.path], in: f.folder).split(separator: "\n")
        return (lines.lastIndex { $0.hasPrefix("*") } ?? -1) + 1
    }

    func at(_ f: EditorFixture, _ id: String) throws -> (Double, Double) { try #require(point(try f.element(id)["at"])) }

    func expectMoved(_ now: (Double, Double), from was: (Double, Double), mm: (Double, Double), _ what: String) {
        let want = (was.0 + mm.0 * Self.pxPerMM, was.1 + mm.1 * Self.pxPerMM)
        #expect(abs(now.0 - want.0) < 1e-6 && abs(now.1 - want.1) < 1e-6, "\(what): at \(now), expected \(want) (\(mm) mm from \(was))")
    }

    @Test(arguments: [(1440, 900), (1024, 1366), (390, 844)])
    func arrowKeysNudgeTheSelectionByMillimetresInOneStep(size: (Int, Int)) throws {
        let (w, h) = size
        let f = try EditorFixture(width: w, height: h)
        let star = EditorFixture.fixtures.appendingPathComponent("star.png").path
        try Techo.run(["add", "image", f.journal.path, "p1", star, "--id", "star-a", "--at", "150,450"], in: f.folder)
        try f.tab.waitFor("!!techoEditor.elementById('star-a')", what: "the star")
        try f.waitSettled()

        // One element: three taps right, then Shift+Left, then Down held (a press and four repeats).
        let c = try f.client(200, 250)
        try f.tab.click(c.0, c.1)
        try f.tab.waitFor("techoEditor.state.selectedIds().join(' ') === 'tomato'", what: "the tomato selected")
        try f.waitSettled()
        let tomato0 = try at(f, "tomato")
        let steps0 = try appliedSteps(f)
        let frame0 = try f.tab.box(".selection-frame .frame-box")
        for _ in 0..<3 { try f.tab.key("ArrowRight", code: "ArrowRight", keyCode: 39) }
        try f.tab.key("ArrowLeft", code: "ArrowLeft", keyCode: 37, modifiers: 8)
        try hold(f, "ArrowDown", keyCode: 40, repeats: 4)
        // The screen followed every press before the run was sent: the frame moved by -7, +5 mm.
        _ = try f.tab.evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
        let k = try f.tab.number("techoEditor.view.k")
        let frame1 = try f.tab.box(".selection-frame .frame-box")
        #expect(try f.tab.evaluate("!!techoEditor.nudge.run") as? Bool == true, "the run is still gathering")
        #expect(try appliedSteps(f) == steps0, "nothing sent yet")
        let moved = (frame1.x - frame0.x, frame1.y - frame0.y)
        #expect(abs(moved.0 - (-7 * Self.pxPerMM * k)) < 1.5 && abs(moved.1 - 5 * Self.pxPerMM * k) < 1.5, "frame moved \(moved), k \(k)")
        try f.waitForJournal("the tomato was nudged") { try at(f, "tomato") != tomato0 }
        try f.waitSettled()
        expectMoved(try at(f, "tomato"), from: tomato0, mm: (-7, 5), "the tomato")
        #expect(try appliedSteps(f) == steps0 + 1, "one history step")
        try f.tab.screenshot(x: 0, y: 0, w: Double(w), h: Double(h)).write(
            to: Fixtures.artifactsDirectory("editor").appendingPathComponent("nudge-\(w)x\(h).png"))
        try f.tab.key("z", code: "KeyZ", keyCode: 90, modifiers: 2)
        try f.waitForJournal("one undo took the run back") { try at(f, "tomato") == tomato0 }
        try f.waitSettled()

        // A group of two (the tomato, then the star with Shift+click): Up twice, then Shift+Right held.
        try f.tab.click(c.0, c.1)
        let s = try f.client(150, 450)
        try f.tab.mouse("mouseMoved", s.0, s.1)
        try f.tab.mouse("mousePressed", s.0, s.1, buttons: 1, clickCount: 1, modifiers: 8)
        try f.tab.mouse("mouseReleased", s.0, s.1, clickCount: 1, modifiers: 8)
        try f.tab.waitFor("techoEditor.state.selectedIds().join(' ') === 'tomato star-a'", what: "the two selected")
        try f.waitSettled()
        let star0 = try at(f, "star-a")
        let steps1 = try appliedSteps(f)
        for _ in 0..<2 { try f.tab.key("ArrowUp", code: "ArrowUp", keyCode: 38) }
        try hold(f, "ArrowRight", keyCode: 39, repeats: 1, modifiers: 8)
        try f.waitForJournal("the group was nudged") { try at(f, "star-a") != star0 }
        try f.waitSettled()
        expectMoved(try at(f, "tomato"), from: tomato0, mm: (20, -2), "the group's tomato")
        expectMoved(try at(f, "star-a"), from: star0, mm: (20, -2), "the group's star")
        #expect(try appliedSteps(f) == steps1 + 1, "one history step for the group")
        try f.tab.key("z", code: "KeyZ", keyCode: 90, modifiers: 2)
        try f.waitForJournal("one undo took the group's run back") { try at(f, "tomato") == tomato0 && at(f, "star-a") == star0 }
        try f.waitSettled()

        // Two runs back to back, the second begun as soon as the first is sent (its render
        // perhaps not back yet): no press is lost, two history steps.
        try f.tab.key("Escape", code: "Escape", keyCode: 27)
        try f.tab.click(c.0, c.1)
        try f.tab.waitFor("techoEditor.state.selectedIds().join(' ') === 'tomato'", what: "the tomato selected again")
        try f.waitSettled()
        let steps2 = try appliedSteps(f)
        for _ in 0..<2 { try f.tab.key("ArrowRight", code: "ArrowRight", keyCode: 39) }
        try f.tab.waitFor("!techoEditor.nudge.run", what: "the first run sent")
        for _ in 0..<3 { try f.tab.key("ArrowRight", code: "ArrowRight", keyCode: 39) }
        try f.waitForJournal("both runs") { try appliedSteps(f) == steps2 + 2 }
        try f.waitSettled()
        expectMoved(try at(f, "tomato"), from: tomato0, mm: (5, 0), "two runs")

        // Locked: the tomato (selected as its layers-list row selects it, since a click on the
        // page passes through a locked element) stays put and the server's refusal is shown.
        try Techo.run(["set", f.journal.path, "p1", "tomato", "--lock"], in: f.folder)
        try f.tab.waitFor("techoEditor.elementById('tomato').locked === true", what: "the tomato locked")
        try f.waitSettled()
        _ = try f.tab.evaluate("techoEditor.select('tomato'), true")
        let steps3 = try appliedSteps(f)
        let locked0 = try at(f, "tomato")
        try f.tab.key("ArrowRight", code: "ArrowRight", keyCode: 39)
        try f.tab.waitFor(
            "document.getElementById('status').classList.contains('error') && /locked/.test(document.getElementById('status').textContent)",
            what: "the server's refusal shown")
        try f.waitSettled()
        #expect(try at(f, "tomato") == locked0)
        #expect(try appliedSteps(f) == steps3)
    }
}
