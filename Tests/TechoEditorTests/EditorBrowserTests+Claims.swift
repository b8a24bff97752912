// What docs/editor.md says the editor does, each with real input: a press on a layer button
// survives a refresh landing before its release; a cancelled touch puts the sticker back and sends
// nothing; Shift keeps a line to 15° steps; washi is 15 mm wide at 80 % alpha; a dropped JPEG,
// HEIC or AVIF is a photo and anything else a sticker; a slider sends one change when let go; a
// refresh announced during a drag waits for its end.

import Foundation
import TechoTestSupport
import Testing

extension EditorBrowserTests {
    /// The centre of the element's focusable handle (its keyboard stand-in) on screen, in client px.
    func elementHandleCentre(_ f: EditorFixture, _ id: String) throws -> (Double, Double) {
        let b = try f.tab.box("[data-techo-element=\"\(id)\"]")
        return (b.x + b.w / 2, b.y + b.h / 2)
    }

    func revisionOnScreen(_ f: EditorFixture) throws -> String {
        try f.tab.evaluate("String(techoEditor.state.revision)") as? String ?? ""
    }

    /// A terminal edit lands (and the layers list is redrawn) while the mouse is held on the
    /// tomato's lock: the release still clicks it. (Redrawing the button's icon under the pointer
    /// lost the click: the browser sends none when the pressed node is gone.)
    @Test func aPressOnALayerButtonIsNotLostToARefreshBeforeItsRelease() throws {
        let f = try EditorFixture()
        try clickInPanel(f, "#layers-panel > summary")
        try f.tab.waitFor("document.querySelectorAll('[data-techo-layer]').length === 3", what: "three layer rows")
        try f.waitSettled()
        let lock = "[data-techo-layer=tomato] [data-techo-action=lock]"
        try f.tab.evaluate("document.querySelector(\"\(lock)\").scrollIntoView({ block: 'center' })")
        let b = try f.tab.box(lock)
        let c = (b.x + b.w / 2, b.y + b.h / 2)
        let before = try revisionOnScreen(f)
        try f.tab.mouse("mouseMoved", c.0, c.1)
        try f.tab.mouse("mousePressed", c.0, c.1, buttons: 1, clickCount: 1)
        // The title moves from the terminal; the editor loads it and redraws the list.
        try Techo.run(["gesture", f.journal.path, "p1", "title", "--pan", "0,30"], in: f.folder)
        try f.tab.waitFor(
            "String(techoEditor.state.revision) !== \(jsString(before)) && !techoEditor.refreshing", what: "the terminal's edit loaded")
        try f.tab.mouse("mouseReleased", c.0, c.1, clickCount: 1)
        try f.waitForJournal("the tomato locked by the press that began before the refresh") {
            try f.element("tomato")["locked"] as? Bool == true
        }
        try f.tab.waitFor("document.querySelector(\"\(lock)\").getAttribute('aria-pressed') === 'true'", what: "the lock shown pressed")
    }

    /// A finger drags the tomato, then the system cancels the touch (`pointercancel`): the
    /// sticker's handle goes back where it was, nothing reaches the journal, no step is added.
    @Test func aCancelledTouchPutsTheStickerBackAndSendsNothing() throws {
        let f = try EditorFixture(width: 1024, height: 1366, touch: true)
        try f.waitSettled()
        let steps = try historyCount(f)
        let home = try elementHandleCentre(f, "tomato")
        let c = try f.client(200, 250)
        try f.tab.touches("touchStart", [(0, c.0, c.1)])
        for i in 1...8 { try f.tab.touches("touchMove", [(0, c.0 + Double(i) * 10, c.1 + Double(i) * 5)]) }
        try f.tab.waitFor("techoEditor.inGesture > 0", what: "the drag to be under way")
        // The handle follows the finger (the gesture is live, so a cancel has something to undo).
        try f.tab.waitFor(
            "(() => { const r = document.querySelector('[data-techo-element=\"tomato\"]').getBoundingClientRect(); return r.x + r.width / 2 > \(home.0 + 40); })()",
            what: "the handle to follow the finger")
        try f.tab.touches("touchCancel", [])
        try f.tab.waitFor("techoEditor.inGesture === 0", what: "the gesture to end")
        try f.waitSettled()
        let back = try elementHandleCentre(f, "tomato")
        #expect(abs(back.0 - home.0) <= 1 && abs(back.1 - home.1) <= 1, "handle at \(back), was \(home)")
        #expect(point(try f.element("tomato")["at"])! == (200, 250))
        #expect(try historyCount(f) == steps)
    }

    /// The ruler line with Shift held ends on a 15° ray from its start (the pointer went at
    /// 19.3°); without Shift it ends where the pointer did. Washi is laid 15 mm wide (at the
    /// page's dpi) in the colour at 80 % alpha.
    @Test func shiftKeepsALineTo15DegreeStepsAndWashiIs15mmAt80Percent() throws {
        let f = try EditorFixture()
        let strokes: () throws -> [[String: Any]] = { (try? f.element("ink-1")["strokes"] as? [[String: Any]]) ?? [] }
        let count = try strokes().count
        try f.tab.click("[data-techo-tool=line]")
        let a = try f.client(100, 500), b = try f.client(300, 570)
        try f.tab.mouse("mouseMoved", a.0, a.1, modifiers: 8)
        try f.tab.mouse("mousePressed", a.0, a.1, buttons: 1, clickCount: 1, modifiers: 8)
        for i in 1...6 {
            let t = Double(i) / 6
            try f.tab.mouse("mouseMoved", a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t, buttons: 1, modifiers: 8)
        }
        try f.tab.mouse("mouseReleased", b.0, b.1, clickCount: 1, modifiers: 8)
        try f.waitForJournal("the line drawn") { try strokes().count == count + 1 }
        let line = try #require(try strokes().last)
        let from = try #require(point(line["from"])), to = try #require(point(line["to"]))
        let degrees = atan2(to.1 - from.1, to.0 - from.0) * 180 / .pi
        #expect(abs(degrees - 15) < 0.1, "Shift line at \(degrees)°")
        // Its length is the pointer's (the angle snaps, the reach does not).
        #expect(abs(hypot(to.0 - from.0, to.1 - from.1) - hypot(200, 70)) < 2)
        try f.waitSettled()
        // Without Shift, the same drag keeps its own angle.
        try f.tab.drag(from: a, to: b, steps: 6)
        try f.waitForJournal("the second line drawn") { try strokes().count == count + 2 }
        let free = try #require(try strokes().last)
        let f2 = try #require(point(free["from"])), t2 = try #require(point(free["to"]))
        #expect(abs(atan2(t2.1 - f2.1, t2.0 - f2.0) * 180 / .pi - atan2(70, 200) * 180 / .pi) < 0.5)
        try f.waitSettled()

        // Washi in the current colour.
        try f.tab.click("[data-techo-tool=washi]")
        let colour = try #require(try f.tab.evaluate("techoEditor.style.color.slice(0, 7)") as? String)
        try f.tab.drag(from: try f.client(100, 700), to: try f.client(400, 700), steps: 6)
        let washi: () throws -> [String: Any]? = {
            (try f.pageJSON()["elements"] as? [[String: Any]] ?? []).first { $0["type"] as? String == "washi" }
        }
        try f.waitForJournal("the washi strip") { try washi() != nil }
        let strip = try #require(try washi())
        let dpi = try #require(number(try f.pageJSON()["dpi"]))
        let width = try #require(number(strip["width"]))
        #expect(abs(width - (15 / 25.4 * dpi).rounded()) < 0.01, "washi \(width) px at \(dpi) dpi")
        let stored = try #require(strip["color"] as? String).lowercased()
        #expect(stored == colour.lowercased() + "cc", "washi colour \(stored), ink \(colour)")
    }

    /// Four files dropped at once: the JPEG, the HEIC and the AVIF become photos, the WebP a
    /// sticker (an image element).
    @Test func droppedPhotosBecomePhotosAndTheRestStickers() throws {
        let f = try EditorFixture()
        let devices = EditorFixture.fixtures.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("TechoCodecsTests/Fixtures")
        let files = [
            devices.appendingPathComponent("jpeg/generated/gen_422.jpg"),
            devices.appendingPathComponent("devices/quad.heic"),
            devices.appendingPathComponent("devices/quad.avif"),
            devices.appendingPathComponent("devices/quad-alpha.webp"),
        ].map(\.path)
        for p in files { #expect(FileManager.default.fileExists(atPath: p), "fixture \(p)") }
        let at = try f.client(450, 650)
        try f.tab.dropFiles(files, at: at.0, at.1)
        let elements: () throws -> [[String: Any]] = { try f.pageJSON()["elements"] as? [[String: Any]] ?? [] }
        try f.waitForJournal("the four dropped files", timeout: 60) { try elements().count == 7 }
        let added = Array(try elements().dropFirst(3))
        let kinds = added.compactMap { $0["type"] as? String }.sorted()
        #expect(kinds == ["image", "photo", "photo", "photo"], "kinds \(kinds)")
        // The sticker is the WebP: its asset is the one the photos are not.
        let sticker = try #require(added.first { $0["type"] as? String == "image" })
        #expect((sticker["asset"] as? String ?? "").hasSuffix(".webp"), "sticker asset \(sticker["asset"] ?? "none")")
    }

    /// The opacity slider dragged across with the mouse in ten moves sends one change when let
    /// go: one history step, the value where it was let go.
    @Test func aSliderSendsOneChangeWhenLetGo() throws {
        let f = try EditorFixture()
        let c = try f.client(200, 259)
        try f.tab.click(c.0, c.1)
        try f.tab.waitFor("techoEditor.selection === 'tomato'", what: "the tomato selected")
        try f.waitSettled()
        try f.tab.evaluate("document.getElementById('opacity').scrollIntoView({ block: 'center' })")
        let steps = try historyCount(f)
        let s = try f.tab.box("#opacity")
        let y = s.y + s.h / 2
        // The thumb sits at the right end (opacity 1); it is taken there and let go halfway.
        try f.tab.drag(from: (s.x + s.w - 4, y), to: (s.x + s.w / 2, y), steps: 10)
        try f.waitForJournal("the opacity set") { (number(try f.element("tomato")["opacity"]) ?? 1) < 0.8 }
        try f.waitSettled()
        let opacity = try #require(number(try f.element("tomato")["opacity"]))
        #expect(opacity > 0.3 && opacity < 0.7, "opacity \(opacity)")
        #expect(try historyCount(f) == steps + 1)
    }

    /// A terminal edit announced while a finger drags the tomato is not loaded mid-drag (the
    /// page on screen keeps its revision, the drag goes on undisturbed); at the release both the
    /// drag and the terminal's edit are on screen and in the journal.
    @Test func aRefreshAnnouncedDuringADragWaitsForItsEnd() throws {
        let f = try EditorFixture()
        try f.waitSettled()
        let before = try revisionOnScreen(f)
        let title0 = try #require(try f.tab.evaluate("techoEditor.elementById('title').transform[5]") as? NSNumber).doubleValue
        let c = try f.client(200, 250)
        try f.tab.mouse("mouseMoved", c.0, c.1)
        try f.tab.mouse("mousePressed", c.0, c.1, buttons: 1, clickCount: 1)
        for i in 1...4 { try f.tab.mouse("mouseMoved", c.0 + Double(i) * 10, c.1, buttons: 1) }
        try f.tab.waitFor("techoEditor.inGesture > 0", what: "the drag under way")
        try Techo.run(["gesture", f.journal.path, "p1", "title", "--pan", "0,40"], in: f.folder)
        // The server's announcement arrives during the drag …
        try f.tab.waitFor(
            "techoEditor.state.announced !== null && String(techoEditor.state.announced) !== \(jsString(before))",
            what: "the terminal's revision announced")
        // … and is not loaded while the finger is down.
        for i in 5...8 { try f.tab.mouse("mouseMoved", c.0 + Double(i) * 10, c.1, buttons: 1) }
        #expect(try revisionOnScreen(f) == before)
        #expect(try f.tab.evaluate("techoEditor.inGesture") as? NSNumber == 1)
        let title1 = try #require(try f.tab.evaluate("techoEditor.elementById('title').transform[5]") as? NSNumber).doubleValue
        #expect(title1 == title0)
        try f.tab.mouse("mouseReleased", c.0 + 80, c.1, clickCount: 1)
        try f.waitForJournal("the drag saved") { (point(try f.element("tomato")["at"])?.0 ?? 200) > 250 }
        try f.tab.waitFor(
            "techoEditor.elementById('title').transform[5] > \(title0 + 30) && techoEditor.elementById('tomato').transform[4] > 250",
            what: "the terminal's edit and the drag both on screen")
    }

    /// A press on the tomato while its pixels (its sprite) are held back by the network: the
    /// press waits a moment, then the sticker's box decides, and the drag goes through as one
    /// step. (An unbounded wait would leave the press, and the drag, pending for ever.)
    @Test func aPressWhoseSpriteIsNotInYetWaitsOnlyAMoment() throws {
        let f = try EditorFixture()
        try f.waitSettled()
        let session = f.tab.session
        try f.tab.send("Fetch.enable", ["patterns": [["urlPattern": "*/elements/tomato/render*", "requestStage": "Request"]]])
        defer { _ = try? f.tab.send("Fetch.disable") }
        // A new look (a new scale) makes the editor fetch the tomato's sprite again.
        try Techo.run(["set", f.journal.path, "p1", "tomato", "--scale", "1.1"], in: f.folder)
        let held = try f.browser.waitForEvent("Fetch.requestPaused", session: session, timeout: 60)
        let heldId = try #require(held["requestId"] as? String)
        try f.waitSettled()
        let c = try f.client(200, 259)
        try f.tab.drag(from: c, to: (c.0 + 60, c.1), steps: 6)
        // Requests after the held one (the drag's own overlay) go on.
        let release = {
            for e in f.browser.takeEvents("Fetch.requestPaused", session: session) {
                if let id = e["requestId"] as? String { _ = try? f.tab.send("Fetch.continueRequest", ["requestId": id]) }
            }
        }
        try f.waitForJournal("the drag to land with the sprite still held") {
            release()
            return (point(try f.element("tomato")["at"])?.0 ?? 200) > 250
        }
        #expect(try f.tab.evaluate("techoEditor.selection") as? String == "tomato")
        try f.tab.send("Fetch.continueRequest", ["requestId": heldId])
    }
}

/// `s` as a JavaScript string literal (a JSON string is one).
func jsString(_ s: String) -> String {
    var out = "\""
    for u in s.unicodeScalars {
        switch u {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case _ where u.value < 0x20 || u.value == 0x2028 || u.value == 0x2029: out += String(format: "\\u%04x", u.value)
        default: out.unicodeScalars.append(u)
        }
    }
    return out + "\""
}
