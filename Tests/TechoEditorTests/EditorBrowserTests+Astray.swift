// Edits that used to go astray, with real input: a property typed for one element and saved by
// clicking another (or the paper, or Escape) reaches the element it was typed for; Ctrl+Z right
// after arrow nudges takes back the nudges; a sticker dragged under another stays under it while
// it moves.

import Foundation
import TechoTestSupport
import Testing

extension EditorBrowserTests {
    /// Text typed into the selection panel for `title`, then saved by what the user does next.
    func typeIntoTitle(_ f: EditorFixture, _ text: String) throws {
        let c = try f.client(420, 120)
        try f.tab.click(c.0, c.1)
        try f.tab.waitFor("techoEditor.selection === 'title' && !document.getElementById('text-props').hidden", what: "the title's properties")
        try f.tab.click("#text-edit")
        try f.tab.key("a", code: "KeyA", keyCode: 65, modifiers: 2)
        try f.tab.send("Input.insertText", ["text": text])
    }

    @Test func aTextEditReachesItsElementWhateverIsClickedNext() throws {
        let f = try EditorFixture()
        try Techo.run(["add", "text", f.journal.path, "p1", "second", "--id", "second", "--at", "300,450", "--size", "40"], in: f.folder)
        try f.tab.waitFor("!!techoEditor.elementById('second')", what: "the second text to show")
        let text: (String) throws -> String? = { try f.element($0)["text"] as? String }
        // Another text clicked: the edit is the title's, the other keeps its words.
        try typeIntoTitle(f, "Nara")
        let other = try f.client(300, 450)
        try f.tab.click(other.0, other.1)
        try f.waitForJournal("the title's edit") { try text("title") == "Nara" }
        try f.waitSettled()
        #expect(try text("second") == "second")
        try f.tab.waitFor("techoEditor.selection === 'second'", what: "the second text selected")
        // A sticker clicked: no error, the edit is the title's.
        try typeIntoTitle(f, "Kyoto")
        let tomato = try f.client(200, 250)
        try f.tab.click(tomato.0, tomato.1)
        try f.waitForJournal("the title's second edit") { try text("title") == "Kyoto" }
        try f.waitSettled()
        let status = try f.tab.evaluate("document.getElementById('status').classList.contains('error') ? document.getElementById('status').textContent : ''")
        #expect(status as? String == "", "an error was shown: \(String(describing: status))")
        // The paper clicked, and Escape: both save.
        try typeIntoTitle(f, "Osaka")
        let paper = try f.client(560, 760)
        try f.tab.click(paper.0, paper.1)
        try f.waitForJournal("saved by clicking the paper") { try text("title") == "Osaka" }
        try f.waitSettled()
        try typeIntoTitle(f, "Kobe")
        try f.tab.key("Escape", code: "Escape", keyCode: 27)
        try f.waitForJournal("saved by Escape") { try text("title") == "Kobe" }
        try f.waitSettled()
        #expect(try text("second") == "second")
    }

    @Test func ctrlZRightAfterNudgesTakesBackTheNudges() throws {
        let f = try EditorFixture()
        let c = try f.client(200, 250)
        try f.tab.click(c.0, c.1)
        try f.tab.waitFor("document.activeElement && document.activeElement.dataset.techoElement === 'tomato'", what: "the tomato's handle to take focus")
        let step = Self.pxPerMM
        let before = try Techo.run(["history", f.journal.path], in: f.folder)
        for _ in 0..<3 { try f.tab.key("ArrowRight", code: "ArrowRight", keyCode: 39) }
        // At once, before the nudges would have been sent on their own.
        try f.tab.key("z", code: "KeyZ", keyCode: 90, modifiers: 2)
        try f.waitSettled()
        try f.waitForJournal("the nudges sent and taken back") {
            try Techo.run(["history", f.journal.path], in: f.folder).contains("gesture tomato")
        }
        try f.waitSettled()
        let at = try #require(point(try f.element("tomato")["at"]))
        #expect(at == (200, 250), "at \(at)")
        // The step before the nudges (the second page) is still there, and redo brings the nudges back.
        #expect(try f.pageJSON("p2")["id"] as? String == "p2")
        try f.tab.key("Z", code: "KeyZ", keyCode: 90, modifiers: 2 | 8)
        try f.waitForJournal("redo brought the nudges back") {
            let at = point(try f.element("tomato")["at"])!
            return abs(at.0 - (200 + 3 * step)) < 1e-6 && at.1 == 250
        }
        #expect(before != (try Techo.run(["history", f.journal.path], in: f.folder)))
    }

    /// The ink layer lies above the tomato: dragged onto the ink, the tomato stays under it on
    /// the live overlay, as the page will render it after the drop.
    @Test func aStickerDraggedUnderAnotherStaysUnderItWhileItMoves() throws {
        let f = try EditorFixture()
        let a = try f.client(200, 250), b = try f.client(300, 600)
        try f.tab.mouse("mouseMoved", a.0, a.1)
        try f.tab.mouse("mousePressed", a.0, a.1, buttons: 1, clickCount: 1)
        for i in 1...10 {
            let t = Double(i) / 10
            try f.tab.mouse("mouseMoved", a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t, buttons: 1)
        }
        try f.tab.waitFor("document.querySelector('[data-techo-page]').classList.contains('live')", what: "the live overlay")
        // The overlay's pixel at a page point, once the tomato is drawn there.
        func overlayPixel(_ x: Double, _ y: Double) throws -> [Double] {
            let js = """
                (() => { const o = document.getElementById('overlay'); const s = o.width / techoEditor.view.page.width;
                  const d = o.getContext('2d').getImageData(Math.round(\(x) * s), Math.round(\(y) * s), 1, 1).data; return [d[0], d[1], d[2], d[3]]; })()
                """
            return (try f.tab.evaluate(js) as? [NSNumber] ?? []).map(\.doubleValue)
        }
        try f.tab.waitFor(
            "(() => { const o = document.getElementById('overlay'); const s = o.width / techoEditor.view.page.width; return o.getContext('2d').getImageData(Math.round(300 * s), Math.round(600 * s), 1, 1).data[0] > 150; })()",
            what: "the tomato on the overlay")
        // Where the ink crosses the tomato, the ink's blue (#3d85c6) is on top.
        let crossing = try overlayPixel(300, 640)
        #expect(crossing.count == 4 && crossing[2] > crossing[0] + 60, "overlay pixel at the crossing: \(crossing)")
        try f.tab.mouse("mouseReleased", b.0, b.1, clickCount: 1)
        try f.waitForJournal("the tomato moved") { (point(try f.element("tomato")["at"])?.1 ?? 0) > 550 }
        try f.waitSettled()
        // The stack is as it was: the tomato under the title and the ink.
        let order = (try f.pageJSON()["elements"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        #expect(order.first == "tomato", "\(order)")
    }
}

extension EditorBrowserTests {
    /// Alt+click (modifier 1 in the input protocol) picks the sticker under the selected one;
    /// again goes round the pile.
    @Test func altClickPicksTheStickerUnderneath() throws {
        let f = try EditorFixture()
        let tomato = EditorFixture.fixtures.appendingPathComponent("tomato.png").path
        try Techo.run(["add", "image", f.journal.path, "p1", tomato, "--id", "cover", "--at", "210,255"], in: f.folder)
        try f.tab.waitFor("!!techoEditor.elementById('cover')", what: "the covering sticker to show")
        let c = try f.client(205, 252)
        func altClick() throws {
            try f.tab.mouse("mouseMoved", c.0, c.1, modifiers: 1)
            try f.tab.mouse("mousePressed", c.0, c.1, buttons: 1, clickCount: 1, modifiers: 1)
            try f.tab.mouse("mouseReleased", c.0, c.1, clickCount: 1, modifiers: 1)
        }
        try f.tab.click(c.0, c.1)
        try f.tab.waitFor("techoEditor.selection === 'cover'", what: "a click to pick the top sticker")
        try altClick()
        try f.tab.waitFor("techoEditor.selection === 'tomato'", what: "Alt+click to pick the one under it")
        try altClick()
        try f.tab.waitFor("techoEditor.selection === 'cover'", what: "Alt+click again to go round to the top")
        try f.waitSettled()
        // Picking changes nothing in the journal.
        #expect(point(try f.element("tomato")["at"])! == (200, 250))
    }

    /// Tool letters work with a sticker's handle or a tool button focused; the washi tool stays
    /// in hand for the next strip.
    @Test func toolKeysWorkWhateverHasFocusAndWashiStaysInHand() throws {
        let f = try EditorFixture()
        let c = try f.client(200, 250)
        try f.tab.click(c.0, c.1)
        try f.tab.waitFor("document.activeElement && document.activeElement.dataset.techoElement === 'tomato'", what: "the tomato's handle to take focus")
        try f.tab.key("p", code: "KeyP", keyCode: 80)
        try f.tab.waitFor("techoEditor.tool.name === 'pencil'", what: "P with a handle focused to take the pencil")
        try f.tab.click("[data-techo-tool=washi]")
        try f.tab.key("v", code: "KeyV", keyCode: 86)
        try f.tab.waitFor("techoEditor.tool.name === 'select'", what: "V with a tool button focused to take select")
        try f.tab.click("[data-techo-tool=washi]")
        let strips: () throws -> Int = {
            (try f.pageJSON()["elements"] as? [[String: Any]] ?? []).filter { $0["type"] as? String == "washi" }.count
        }
        try f.tab.drag(from: try f.client(80, 420), to: try f.client(300, 430), steps: 6)
        try f.waitForJournal("the first strip") { try strips() == 1 }
        try f.waitSettled()
        #expect(try f.tab.evaluate("techoEditor.tool.name") as? String == "washi")
        try f.tab.drag(from: try f.client(80, 480), to: try f.client(300, 490), steps: 6)
        try f.waitForJournal("a second strip with the same tool") { try strips() == 2 }
    }
}

extension EditorBrowserTests {
    /// The selection panel's text box, font menu and size field stay inside the panel and the
    /// window (the font menu grew to its longest family name, past a 1440 px window's edge).
    @Test(arguments: [(1440, 900), (1024, 1366)])
    func theTextPropertiesFitTheirPanel(width: Int, height: Int) throws {
        let f = try EditorFixture(width: width, height: height, touch: width < 1200)
        let c = try f.client(420, 120)
        try f.tab.click(c.0, c.1)
        try f.tab.waitFor("techoEditor.selection === 'title' && !document.getElementById('text-props').hidden", what: "the title's properties")
        let js = """
            (() => { const p = document.getElementById('selection-panel').getBoundingClientRect();
              const right = Math.min(p.right, window.innerWidth) + 0.5;
              return ['text-edit', 'font', 'text-size'].map((id) => [id, document.getElementById(id).getBoundingClientRect().right, right]); })()
            """
        let rows = try f.tab.evaluate(js) as? [[Any]] ?? []
        // Kept with the test artifacts, to be looked at.
        let shot = try f.tab.screenshot(x: 0, y: 0, w: Double(width), h: Double(height))
        try shot.write(to: Fixtures.artifactsDirectory("editor").appendingPathComponent("text-props-\(width)x\(height).png"))
        #expect(rows.count == 3)
        for r in rows {
            let id = r[0] as? String ?? "?", edge = number(r[1]) ?? .infinity, limit = number(r[2]) ?? 0
            #expect(edge <= limit, "\(width)x\(height): #\(id) ends at \(edge), the panel at \(limit)")
        }
    }
}

extension EditorBrowserTests {
    /// §13's hook: `[data-techo-page]` carries the selection (`data-techo-selection`), empty when
    /// nothing is selected: a click on a sticker, a click on the paper, Escape, a Delete.
    @Test func thePageElementCarriesTheSelection() throws {
        let f = try EditorFixture()
        func shows(_ id: String, after what: String) throws {
            let hook = "document.querySelector('[data-techo-page]').dataset.techoSelection"
            try f.tab.waitFor("\(hook) === '\(id)'", what: "'\(id)' in data-techo-selection after \(what)")
        }
        try shows("", after: "opening")
        let tomato = try f.client(200, 250), paper = try f.client(500, 450)
        for (point, id, what) in [(tomato, "tomato", "a click on it"), (paper, "", "a click on the paper"), (tomato, "tomato", "a click on it again")] {
            try f.tab.click(point.0, point.1)
            try shows(id, after: what)
        }
        try f.tab.key("Escape", code: "Escape", keyCode: 27)
        try shows("", after: "Escape")
        try f.tab.click(tomato.0, tomato.1)
        try shows("tomato", after: "a click on it once more")
        try f.tab.key("Delete", code: "Delete", keyCode: 46)
        try f.waitForJournal("the tomato deleted") { (try f.pageJSON()["elements"] as? [[String: Any]])?.contains { $0["id"] as? String == "tomato" } == false }
        try shows("", after: "Delete")
    }
}
