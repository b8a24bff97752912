// The text tool (§13 "Text"), with real input through the DevTools protocol: T or its button, a
// click or a tap on the paper places a box THERE, typing (Input.insertText) and IME composition
// (Input.imeSetComposition) go into it on the page, and editing ends with Escape or a click
// elsewhere as one history step. A double-click edits a text in place; a side handle changes
// its wrap width. The measured defects are regressions here: new text at the page centre in
// the ink colour, a paragraph wider than the page, a 3,000-character text with no live preview
// while dragged, a 100,000-character text that took seconds to show.

import Foundation
import TechoTestSupport
import Testing

/// The three sizes §13 names; the two smaller ones with touch.
let textSizes: [(Int, Int)] = [(1440, 900), (1024, 1366), (390, 844)]

extension BrowserTab {
    func insertText(_ text: String) throws { try send("Input.insertText", ["text": text]) }

    /// An IME composition in progress showing `text` (the caret at its end).
    func compose(_ text: String) throws {
        let n = text.utf16.count
        try send("Input.imeSetComposition", ["text": text, "selectionStart": n, "selectionEnd": n])
    }
}

extension EditorBrowserTests {
    /// A fixture at `size`, touch below 1200 px wide.
    func textFixture(_ size: (Int, Int)) throws -> EditorFixture {
        try EditorFixture(width: size.0, height: size.1, touch: size.0 < 1200)
    }

    /// A click with the mouse, or a tap with a finger on a touch fixture.
    func tap(_ f: EditorFixture, _ c: (Double, Double), touch: Bool) throws {
        if touch {
            try f.tab.touches("touchStart", [(0, c.0, c.1)])
            try f.tab.touches("touchEnd", [])
        } else {
            try f.tab.click(c.0, c.1)
        }
    }

    /// Takes the text tool: the T key with a mouse, its button with a finger (so it is on screen).
    func takeTextTool(_ f: EditorFixture, touch: Bool) throws {
        if touch {
            let b = try f.tab.box("[data-techo-tool=text]")
            let vw = try f.tab.number("window.innerWidth"), vh = try f.tab.number("window.innerHeight")
            #expect(b.w >= 44 && b.h >= 44 && b.x >= 0 && b.y >= 0 && b.x + b.w <= vw && b.y + b.h <= vh, "the text button \(b) in \(vw)x\(vh)")
            try tap(f, (b.x + b.w / 2, b.y + b.h / 2), touch: true)
        } else {
            try f.tab.key("t", code: "KeyT", keyCode: 84)
        }
        try f.tab.waitFor("techoEditor.tool.name === 'text'", what: "the text tool in hand")
    }

    /// The open box's text, or null.
    static let boxText = "(() => { const b = document.querySelector('[data-techo-text-box]'); return b ? b.innerText : null; })()"

    /// The ids of the page's text elements.
    func textIDs(_ f: EditorFixture) throws -> [String] {
        (try f.pageJSON()["elements"] as? [[String: Any]] ?? []).filter { $0["type"] as? String == "text" }.compactMap { $0["id"] as? String }
    }

    /// The top-left corner (page px) of element `id`'s box, as the editor's page answer has it.
    func topLeft(_ f: EditorFixture, _ id: String) throws -> (Double, Double) {
        let r = try f.tab.evaluate(
            "(() => { const e = techoEditor.elementById('\(id)'); const m = e.transform; const [w, h] = e.size; return [m[0] * -w / 2 + m[2] * -h / 2 + m[4], m[1] * -w / 2 + m[3] * -h / 2 + m[5]]; })()"
        )
        return try #require(point(r))
    }

    @Test(arguments: textSizes) func theTextToolPlacesABoxWhereClickedAndTypesOnThePage(size: (Int, Int)) throws {
        let f = try textFixture(size)
        let touch = size.0 < 1200
        try f.waitSettled()
        let steps = try historyCount(f)
        try takeTextTool(f, touch: touch)
        let at = try f.client(100, 450)
        try tap(f, at, touch: touch)
        try f.tab.waitFor("document.activeElement && document.activeElement.dataset.techoTextBox === 'new'", what: "a focused text box")
        // The box is where the click was, in the text's size on screen (1/24 of the page's width,
        // 25 px, under the page's zoom).
        let b = try f.tab.box("[data-techo-text-box]")
        #expect(abs(b.x - at.0) <= 2 && abs(b.y - at.1) <= 2, "the box at \(b.x),\(b.y), the click at \(at)")
        let k = try f.tab.number("techoEditor.view.k")
        try f.tab.insertText("Dear diary,")
        try f.tab.waitFor("\(Self.boxText) === 'Dear diary,'", what: "the typing in the box")
        let typed = try f.tab.box("[data-techo-text-box]")
        #expect(abs(typed.h - 25 * 1.2 * k) <= 2, "one line of 25 px text is \(typed.h) CSS px at k \(k)")
        // Nothing reaches the journal while typing.
        #expect(try historyCount(f) == steps)
        let shot = try f.tab.screenshot(x: 0, y: 0, w: Double(size.0), h: Double(size.1))
        try shot.write(to: Fixtures.artifactsDirectory("editor").appendingPathComponent("text-typing-\(size.0)x\(size.1).png"))
        try f.tab.key("Escape", code: "Escape", keyCode: 27)
        try f.waitForJournal("the new text") { try textIDs(f).count == 2 }
        try f.waitSettled()
        #expect(try historyCount(f) == steps + 1, "one history step")
        let id = try #require(try textIDs(f).first { $0 != "title" })
        let e = try f.element(id)
        #expect(e["text"] as? String == "Dear diary,")
        // Not the ink colour (walnut): the text colour, ink black until chosen.
        #expect((e["color"] as? String)?.lowercased().hasPrefix("#2b2b2b") == true, "colour \(String(describing: e["color"]))")
        #expect(try f.tab.evaluate("techoEditor.style.color") as? String == "#5b3a29")
        // It wraps at the right margin (10 mm in from the edge at 300 dpi) from where it was placed.
        #expect(abs((number(e["maxWidth"]) ?? 0) - (600 - 10 / 25.4 * 300 - 100)) <= 1, "maxWidth \(String(describing: e["maxWidth"]))")
        // The render lands where the box was: its top-left corner at the click.
        let corner = try topLeft(f, id)
        #expect(abs(corner.0 - 100) <= 1 && abs(corner.1 - 450) <= 1, "the text's top-left at \(corner)")
        let after = try f.tab.screenshot(x: 0, y: 0, w: Double(size.0), h: Double(size.1))
        try after.write(to: Fixtures.artifactsDirectory("editor").appendingPathComponent("text-placed-\(size.0)x\(size.1).png"))
        // An empty box adds nothing; a click elsewhere ends it.
        try tap(f, try f.client(100, 700), touch: touch)
        try f.tab.waitFor("!!document.querySelector('[data-techo-text-box]')", what: "a second box")
        try tap(f, try f.client(500, 700), touch: touch)
        try f.tab.waitFor("!document.querySelector('[data-techo-text-box]')", what: "the empty box gone")
        try f.waitSettled()
        #expect(try historyCount(f) == steps + 1, "an empty box added a step")
    }

    @Test(arguments: textSizes) func imeCompositionIsShownInPlaceAndCommittedOnce(size: (Int, Int)) throws {
        let f = try textFixture(size)
        let touch = size.0 < 1200
        try f.waitSettled()
        let steps = try historyCount(f)
        try takeTextTool(f, touch: touch)
        try tap(f, try f.client(100, 450), touch: touch)
        try f.tab.waitFor("document.activeElement && document.activeElement.dataset.techoTextBox === 'new'", what: "a focused text box")
        // A Japanese input method: the reading grows, then converts; shown in the box as it goes.
        for reading in ["に", "にっ", "にっき"] {
            try f.tab.compose(reading)
            try f.tab.waitFor("\(Self.boxText) === '\(reading)'", what: "the composition '\(reading)' in the box")
        }
        try f.tab.compose("日記")
        try f.tab.waitFor("\(Self.boxText) === '日記'", what: "the conversion in the box")
        #expect(try f.tab.number("document.querySelectorAll('[data-techo-text-box]').length") == 1, "one box, not one per update")
        #expect(try historyCount(f) == steps, "nothing saved mid-composition")
        try f.tab.insertText("日記")
        try f.tab.compose("です")
        try f.tab.insertText("です")
        try f.tab.waitFor("\(Self.boxText) === '日記です'", what: "the committed text")
        // A click elsewhere ends the box: one text, one step.
        try tap(f, try f.client(500, 760), touch: touch)
        try f.waitForJournal("the Japanese text") { try textIDs(f).count == 2 }
        try f.waitSettled()
        #expect(try historyCount(f) == steps + 1)
        let id = try #require(try textIDs(f).first { $0 != "title" })
        #expect(try f.element(id)["text"] as? String == "日記です")
        #expect(try textIDs(f).count == 2)
    }

    @Test(arguments: textSizes) func aDoubleClickEditsATextInPlaceAndEscapeCancels(size: (Int, Int)) throws {
        let f = try textFixture(size)
        let touch = size.0 < 1200
        try f.waitSettled()
        let steps = try historyCount(f)
        let before = try topLeft(f, "title")
        let c = try f.client(430, 120)
        func doubleTap() throws {
            if touch {
                for _ in 0..<2 { try tap(f, c, touch: true) }
            } else {
                try f.tab.click(c.0, c.1, count: 1)
                try f.tab.click(c.0, c.1, count: 2)
            }
            try f.tab.waitFor("document.activeElement && document.activeElement.dataset.techoTextBox === 'title'", what: "the title edited in place")
        }
        try doubleTap()
        #expect(try f.tab.evaluate(Self.boxText) as? String == "techo")
        // The box lies over the text as drawn (its top-left corner on the title's).
        let b = try f.tab.box("[data-techo-text-box]"), corner = try f.client(before.0, before.1)
        #expect(abs(b.x - corner.0) <= 2 && abs(b.y - corner.1) <= 2, "the box at \(b.x),\(b.y), the title at \(corner)")
        try f.tab.insertText(" diary")
        try f.tab.key("Escape", code: "Escape", keyCode: 27)
        try f.tab.waitFor("!document.querySelector('[data-techo-text-box]')", what: "the edit cancelled")
        try f.waitSettled()
        #expect(try f.element("title")["text"] as? String == "techo")
        #expect(try historyCount(f) == steps, "a cancelled edit made a step")
        // Again, kept by a click elsewhere: one `set`, the corner stays.
        try doubleTap()
        try f.tab.insertText(" diary")
        try tap(f, try f.client(500, 760), touch: touch)
        try f.waitForJournal("the title edited") { try f.element("title")["text"] as? String == "techo diary" }
        try f.waitSettled()
        #expect(try historyCount(f) == steps + 1)
        let history = try Techo.run(["history", f.journal.path], in: f.folder)
        #expect(history.contains("set title"), "\(history)")
        let after = try topLeft(f, "title")
        #expect(abs(after.0 - before.0) <= 0.5 && abs(after.1 - before.1) <= 0.5, "the title's corner moved from \(before) to \(after)")
    }

    @Test(arguments: textSizes) func aSideHandleDragsTheWrapWidth(size: (Int, Int)) throws {
        let f = try textFixture(size)
        let touch = size.0 < 1200
        try Techo.run(
            ["add", "text", f.journal.path, "p1", "a morning walk by the river, then tea", "--id", "note", "--at", "300,520", "--size", "24"], in: f.folder)
        try f.tab.waitFor("!!techoEditor.elementById('note')", what: "the note to show")
        try f.waitSettled()
        let wrap = try #require(number(try f.element("note")["maxWidth"]))
        try tap(f, try f.client(300, 520), touch: touch)
        try f.tab.waitFor("techoEditor.selection === 'note'", what: "the note selected")
        try f.tab.waitFor(
            "(() => { const h = document.querySelector('[data-techo-handle=e]'); return h && !h.hidden && h.getBoundingClientRect().width > 0; })()",
            what: "the side handle")
        for name in ["e", "w"] {
            let hb = try f.tab.box("[data-techo-handle=\(name)]")
            #expect(hb.w >= 44 && hb.h >= 44, "\(name): \(hb.w)x\(hb.h)")
        }
        let steps = try historyCount(f)
        let left = try topLeft(f, "note")
        let width0 = try f.tab.number("techoEditor.elementById('note').size[0]")
        // The e handle dragged left to 40 % of the line: the text wraps there, the left edge stays.
        let h = try handleCentre(f, "e")
        let k = try f.tab.number("document.querySelector('[data-techo-page]').getBoundingClientRect().width / 600")
        let dx = -(width0 * 0.6 * k).rounded()
        if touch {
            try f.tab.touches("touchStart", [(0, h.0, h.1)])
            for i in 1...8 { try f.tab.touches("touchMove", [(0, h.0 + dx * Double(i) / 8, h.1)]) }
            try f.tab.touches("touchEnd", [])
        } else {
            try f.tab.drag(from: h, to: (h.0 + dx, h.1), steps: 8)
        }
        try f.waitForJournal("the new wrap width") { (number(try f.element("note")["maxWidth"]) ?? wrap) < wrap }
        try f.waitSettled()
        #expect(try historyCount(f) == steps + 1, "one history step")
        let got = try #require(number(try f.element("note")["maxWidth"]))
        let want = width0 + dx / k
        #expect(abs(got - want) <= 2 / k + 1, "maxWidth \(got), dragged to \(want)")
        let lines = try f.tab.number("techoEditor.elementById('note').size[1]") / (24 * 1.2)
        #expect(lines.rounded() >= 2, "the text did not reflow: \(lines) lines")
        let after = try topLeft(f, "note")
        #expect(abs(after.0 - left.0) <= 0.5 && abs(after.1 - left.1) <= 0.5, "the left edge moved from \(left) to \(after)")
    }

    /// The measured defects: a 201-character paragraph 7,660 px wide on a 1,748 px page; a
    /// 3,000-character text with no live preview while dragged; a 100,000-character text that
    /// took 7.5 s to show. Typed through the text tool, as a person pastes a long entry.
    @Test(arguments: textSizes) func longTextsWrapPreviewAndAreRefusedOverTheLimit(size: (Int, Int)) throws {
        let f = try textFixture(size)
        let touch = size.0 < 1200
        try f.waitSettled()
        let words = ["journal", "morning", "coffee", "walk", "river", "light", "paper", "ink", "quiet", "garden", "train", "window"]
        func prose(_ n: Int) -> String {
            var s = "", i = 0
            while s.count < n { s += (s.isEmpty ? "" : " ") + words[(i * 7 + i / 3) % words.count]; i += 1 }
            return String(s.prefix(n))
        }
        func type(_ text: String, at p: (Double, Double), end: Bool = true) throws {
            try takeTextTool(f, touch: touch)
            try tap(f, try f.client(p.0, p.1), touch: touch)
            try f.tab.waitFor("document.activeElement && document.activeElement.dataset.techoTextBox === 'new'", what: "a focused text box")
            try f.tab.insertText(text)
            if end { try f.tab.key("Escape", code: "Escape", keyCode: 27) }
        }
        // 201 characters wrap inside the page.
        let count0 = try textIDs(f).count
        try type(prose(201), at: (40, 300))
        try f.waitForJournal("the paragraph") { try textIDs(f).count == count0 + 1 }
        try f.waitSettled()
        let para = try #require(try textIDs(f).last)
        let w = try f.tab.number("techoEditor.elementById('\(para)').size[0]")
        #expect(w <= 600 - 40, "the paragraph is \(w) px wide on a 600 px page")
        // 3,000 characters sent with no wrap width (as the Add panel's form and scripts add text):
        // the server wraps them at the page's content width, and the live preview follows a drag.
        try f.tab.evaluate(
            "techoEditor.api.addElement(techoEditor.pageId, { type: 'text', text: '\(prose(3000))', size: 25, at: [300, 400] }).then(() => techoEditor.refresh())"
        )
        try f.waitForJournal("the long text") { try textIDs(f).count == count0 + 2 }
        try f.tab.waitFor("techoEditor.pageData.elements.length === 5", what: "the long text on screen")
        try f.waitSettled()
        let long = try #require(try textIDs(f).last)
        #expect(abs((number(try f.element(long)["maxWidth"]) ?? 0) - (600 - 2 * min(10 / 25.4 * 300, 600 / 8)).rounded(.down)) < 0.01, "the default wrap width")
        let box = try f.tab.evaluate("techoEditor.elementById('\(long)').size") as? [NSNumber] ?? []
        #expect(box.count == 2 && box[0].doubleValue <= 600, "the long text's box \(box)")
        try f.tab.key("v", code: "KeyV", keyCode: 86)
        let grab = try f.client(300, 400)
        if touch {
            try f.tab.touches("touchStart", [(0, grab.0, grab.1)])
            for i in 1...6 { try f.tab.touches("touchMove", [(0, grab.0 + 4 * Double(i), grab.1 + 3 * Double(i))]) }
            try f.tab.waitFor("document.querySelector('[data-techo-page]').classList.contains('live')", what: "the live preview of a 3,000-character text")
            try f.tab.touches("touchEnd", [])
        } else {
            try f.tab.mouse("mouseMoved", grab.0, grab.1)
            try f.tab.mouse("mousePressed", grab.0, grab.1, buttons: 1, clickCount: 1)
            for i in 1...6 { try f.tab.mouse("mouseMoved", grab.0 + 4 * Double(i), grab.1 + 3 * Double(i), buttons: 1) }
            try f.tab.waitFor("document.querySelector('[data-techo-page]').classList.contains('live')", what: "the live preview of a 3,000-character text")
            try f.tab.mouse("mouseReleased", grab.0 + 24, grab.1 + 18, clickCount: 1)
        }
        try f.waitSettled()
        // 100,000 characters at the new text's size would be laid out taller than a page may
        // be: refused at once, naming the field; nothing added.
        let steps = try historyCount(f)
        try type(prose(100_000), at: (40, 500), end: false)
        let t0 = Date()
        try f.tab.key("Escape", code: "Escape", keyCode: 27)
        try f.tab.waitFor("document.getElementById('status').classList.contains('error')", what: "the refusal shown", timeout: 30)
        let took = Date().timeIntervalSince(t0)
        let message = try f.tab.evaluate("document.getElementById('status').textContent") as? String ?? ""
        print("100,000 characters typed, then refused \(String(format: "%.2f", took)) s after Escape: \(message)")
        #expect(message.hasPrefix("text:") && message.contains("16384"), "\(message)")
        // Measured, not bounded (other suites share the cores: 0.4-1.3 s seen); it took 7.5 s to
        // show before, and was accepted.
        try f.waitSettled()
        #expect(try historyCount(f) == steps)
        // The same text from the CLI: refused at once, exit 65, naming the field.
        let c0 = Date()
        let r = try ChildProcess.run(Techo.binary, ["add", "text", f.journal.path, "p1", prose(100_000), "--size", "25"], in: f.folder)
        let cli = Date().timeIntervalSince(c0)
        #expect(r.code == 65 && r.err.contains("text:") && r.err.contains("16384"), "exit \(r.code): \(r.err)")
        print("the CLI refused it in \(String(format: "%.2f", cli)) s")
        // A sprite larger than every engine takes is fetched smaller, so it still previews.
        let scale =
            try f.tab.evaluate(
                "import('./live-gesture.js').then((m) => [m.spriteScale({ drawn: [0, 0, 20000, 100] }, 1), m.spriteScale({ drawn: [0, 0, 4000, 6000] }, 4), m.spriteScale({ drawn: [0, 0, 100, 100] }, 2)])"
            ) as? [NSNumber] ?? []
        #expect(
            scale.count == 3 && scale[0].doubleValue * 20000 <= 8192 && scale[1].doubleValue * scale[1].doubleValue * 24e6 <= 16 * 1024 * 1024 + 1
                && scale[2] == 2, "sprite scales \(scale)")
    }

    /// The figure: from the click that places a new box to the frame that shows the first
    /// character typed in it (the editor's own clock), median of 9.
    @Test func placingABoxToTheFirstTypedCharacterOnScreen() throws {
        let f = try EditorFixture()
        try f.waitSettled()
        try takeTextTool(f, touch: false)
        for i in 0..<9 {
            let c = try f.client(60, 300 + Double(i) * 40)
            try f.tab.click(c.0, c.1)
            try f.tab.insertText("x")
            try f.tab.waitFor("techoEditor.textTimings.length === \(i + 1)", what: "typing \(i + 1) timed")
            try f.tab.key("Escape", code: "Escape", keyCode: 27)
        }
        let times = (try f.tab.evaluate("techoEditor.textTimings") as? [NSNumber] ?? []).map(\.doubleValue).sorted()
        #expect(times.count == 9)
        let median = times[times.count / 2]
        print("new text box to the first typed character on screen: median \(String(format: "%.0f", median)) ms, all \(times.map { Int($0.rounded()) })")
        #expect(median < 250, "\(median) ms")
    }
}
