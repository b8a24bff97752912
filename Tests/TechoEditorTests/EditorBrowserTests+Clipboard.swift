// The clipboard with real key presses at the three sizes: Ctrl+C, X, V and D go through
// Input.dispatchKeyEvent with the editing command the browser runs for them (`commands`), so the
// document's own copy, cut and paste events fire and the system clipboard (the browser's) holds
// what was copied. Setting up the clipboard (a PNG written through the async Clipboard API) is
// setup; every paste is a key press.

import Foundation
import TechoTestSupport
import Testing

extension BrowserTab {
    /// Ctrl (modifiers 2) + `key`, carrying the browser's editing command for it (`copy`, `cut`,
    /// `paste`), as a key press in a real window does; nil `command` for a shortcut only.
    func chord(_ key: String, command: String?, modifiers: Int = 2) throws {
        let upper = key.uppercased()
        let code = Int(upper.unicodeScalars.first!.value)
        var base: [String: Any] = [
            "key": key, "code": "Key\(upper)", "windowsVirtualKeyCode": code, "nativeVirtualKeyCode": code, "modifiers": modifiers,
        ]
        if let command { base["commands"] = [command] }
        try send("Input.dispatchKeyEvent", base.merging(["type": "rawKeyDown"]) { $1 })
        base["commands"] = nil
        try send("Input.dispatchKeyEvent", base.merging(["type": "keyUp"]) { $1 })
    }

    /// Lets the page use the async Clipboard API as a focused window the user clicked in would,
    /// and empties the clipboard: it is the browser's, shared by every tab, so a value an earlier
    /// test copied would otherwise pass `waitForClipboardValue` before this test's copy lands.
    func allowClipboard() throws {
        try send("Emulation.setFocusEmulationEnabled", ["enabled": true])
        let origin = try evaluate("location.origin") as? String ?? ""
        try browser.send(
            "Browser.grantPermissions", ["origin": origin, "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]])
        _ = try evaluate("navigator.clipboard.writeText('').then(() => true)")
    }

    /// The system clipboard's text, read in the page.
    func clipboardText() throws -> String { try evaluate("navigator.clipboard.readText()") as? String ?? "" }

    /// Waits until the system clipboard holds a techo value (the copy's answer has arrived).
    func waitForClipboardValue() throws {
        try waitFor(
            "(async () => { const t = await navigator.clipboard.readText(); return t.includes('\"techo\":\"clipboard\"') && t.includes('\"elements\"'); })()",
            what: "the copy on the system clipboard")
    }
}

extension EditorBrowserTests {
    static func elements(_ f: EditorFixture, page: String) throws -> [[String: Any]] {
        (try f.pageJSON(page)["elements"] as? [[String: Any]]) ?? []
    }

    /// Selects the tomato sticker with a press on it (a click or a tap).
    static func pickTomato(_ f: EditorFixture, touch: Bool) throws {
        let p = try f.client(200, 250)
        if touch {
            try f.tab.touches("touchStart", [(0, p.0, p.1)])
            try f.tab.touches("touchEnd", [])
        } else {
            try f.tab.click(p.0, p.1)
        }
        try f.tab.waitFor("techoEditor.selection === 'tomato'", what: "the tomato selected")
        try f.waitSettled()
    }

    /// The PNG of element `id` alone on `page` as the server renders it, as base64.
    static func sprite(_ f: EditorFixture, page: String, id: String) throws -> String {
        try f.tab.evaluate(
            """
            (async () => { const r = await techoEditor.api.sprite('\(page)', '\(id)', 1);
              const b = new Uint8Array(await r.blob.arrayBuffer()); let s = ''; for (const x of b) s += String.fromCharCode(x); return btoa(s); })()
            """) as? String ?? ""
    }
}

/// The clipboard is one for the whole machine's browser session: these run one at a time.
@Suite(.serialized) struct ClipboardBrowserTests {
    @Test(arguments: ["1440x900", "1024x1366", "390x844"])
    func copyOnOnePageAndPasteOnAnotherThenUndo(size: String) throws {
        let (width, height) = EditorBrowserTests.size(size)
        let touch = width < 1400
        let f = try EditorFixture(width: width, height: height, touch: touch)
        try f.tab.allowClipboard()
        try f.waitSettled()
        try EditorBrowserTests.pickTomato(f, touch: touch)
        try f.tab.chord("c", command: "copy")
        try f.tab.waitForClipboardValue()
        #expect(try EditorBrowserTests.elements(f, page: "p1").count == 3, "a copy changes nothing")

        try f.tab.evaluate("techoEditor.openPage('p2')")
        try f.tab.waitFor("techoEditor.pageId === 'p2' && techoEditor.pageData && techoEditor.pageData.page.id === 'p2'", what: "page p2")
        try f.waitSettled()
        // With a mouse over the page the group's centre lands under it; a finger leaves no
        // pointer over the page, so the first paste on another page lands where the original was.
        let target = touch ? (200.0, 250.0) : (330.0, 520.0)
        if !touch {
            let p = try f.client(target.0, target.1)
            try f.tab.mouse("mouseMoved", p.0, p.1)
        }
        try f.tab.chord("v", command: "paste")
        try f.waitForJournal("the sticker pasted on p2") { try EditorBrowserTests.elements(f, page: "p2").count == 1 }
        try f.waitSettled()
        let pasted = try #require(try EditorBrowserTests.elements(f, page: "p2").first)
        let original = try f.element("tomato")
        let at = try #require(point(pasted["at"]))
        #expect(abs(at.0 - target.0) < 0.02 && abs(at.1 - target.1) < 0.02, "pasted at \(at), expected \(target)")
        #expect(pasted["type"] as? String == "image")
        #expect(number(pasted["scale"]) == 1.5)
        #expect(pasted["asset"] as? String == original["asset"] as? String)
        let id = try #require(pasted["id"] as? String)
        #expect(try f.tab.evaluate("techoEditor.selection") as? String == id, "the pasted sticker is selected")
        let a = try EditorBrowserTests.sprite(f, page: "p1", id: "tomato"), b = try EditorBrowserTests.sprite(f, page: "p2", id: id)
        #expect(!a.isEmpty && a == b, "the pasted sticker renders as the original")
        let shot = try f.pageShot()
        try shot.write(to: Fixtures.artifactsDirectory("editor").appendingPathComponent("clipboard-pasted-\(size).png"))

        // One undo (Ctrl+Z, a real key) takes the whole paste back.
        try f.tab.chord("z", command: nil)
        try f.waitForJournal("the paste undone") { try EditorBrowserTests.elements(f, page: "p2").isEmpty }
        #expect(try EditorBrowserTests.elements(f, page: "p1").count == 3)
    }

    /// Two stickers picked with Shift+click and duplicated: both copies in one step, and the two
    /// copies (not one of them) are the selection afterwards, so the next drag moves them both.
    @Test func severalDuplicatedAreSelectedTogether() throws {
        let f = try EditorFixture()
        try f.tab.allowClipboard()
        let star = EditorFixture.fixtures.appendingPathComponent("star.png").path
        try Techo.run(["add", "image", f.journal.path, "p1", star, "--id", "star-a", "--at", "150,450"], in: f.folder)
        try f.tab.waitFor("!!techoEditor.elementById('star-a')", what: "the star")
        try f.waitSettled()
        for (x, y, shift) in [(200.0, 250.0, false), (150.0, 450.0, true)] {
            let c = try f.client(x, y)
            try f.tab.mouse("mouseMoved", c.0, c.1)
            try f.tab.mouse("mousePressed", c.0, c.1, buttons: 1, clickCount: 1, modifiers: shift ? 8 : 0)
            try f.tab.mouse("mouseReleased", c.0, c.1, clickCount: 1, modifiers: shift ? 8 : 0)
        }
        let hook = "document.querySelector('[data-techo-page]').dataset.techoSelection"
        try f.tab.waitFor("\(hook) === 'tomato star-a'", what: "the two picked")
        try f.waitSettled()
        let before = try EditorBrowserTests.elements(f, page: "p1").count
        try f.tab.chord("d", command: nil)
        try f.waitForJournal("the two duplicates") { try EditorBrowserTests.elements(f, page: "p1").count == before + 2 }
        try f.waitSettled()
        let copies = try EditorBrowserTests.elements(f, page: "p1").suffix(2).compactMap { $0["id"] as? String }
        try f.tab.waitFor("\(hook) === '\(copies.joined(separator: " "))'", what: "both copies selected")
        #expect(try Techo.run(["history", f.journal.path], in: f.folder).contains("paste 2 elements"))
    }

    @Test func cutThenPasteAndDuplicateAreOneStepEach() throws {
        let f = try EditorFixture()
        try f.tab.allowClipboard()
        try f.waitSettled()
        try EditorBrowserTests.pickTomato(f, touch: false)
        // Ctrl+D: a copy 5 mm down and right, selected, one step.
        try f.tab.chord("d", command: nil)
        try f.waitForJournal("the duplicate") { try EditorBrowserTests.elements(f, page: "p1").count == 4 }
        try f.waitSettled()
        let dup = try #require(try EditorBrowserTests.elements(f, page: "p1").last)
        let step = 5 / 25.4 * 300
        let at = try #require(point(dup["at"]))
        #expect(abs(at.0 - (200 + step)) < 0.02 && abs(at.1 - (250 + step)) < 0.02, "duplicate at \(at)")
        #expect(try f.tab.evaluate("techoEditor.selection") as? String == dup["id"] as? String)
        #expect(try Techo.run(["history", f.journal.path], in: f.folder).contains("paste 1 element"))

        // Ctrl+X of the duplicate: gone from the page in one step, on the clipboard.
        try f.tab.chord("x", command: "cut")
        try f.waitForJournal("the cut") { try EditorBrowserTests.elements(f, page: "p1").count == 3 }
        try f.tab.waitForClipboardValue()
        try f.waitSettled()
        // The mouse is away from the page: a paste after a cut puts it back where it was.
        try f.tab.mouse("mouseMoved", 2, 2)
        try f.tab.chord("v", command: "paste")
        try f.waitForJournal("the cut pasted") { try EditorBrowserTests.elements(f, page: "p1").count == 4 }
        let back = try #require(point(try EditorBrowserTests.elements(f, page: "p1").last?["at"]))
        #expect(abs(back.0 - at.0) < 0.02 && abs(back.1 - at.1) < 0.02, "pasted back at \(back), cut from \(at)")
        // A second paste of the same copy lands 5 mm further.
        try f.waitSettled()
        try f.tab.chord("v", command: "paste")
        try f.waitForJournal("the second paste") { try EditorBrowserTests.elements(f, page: "p1").count == 5 }
        let again = try #require(point(try EditorBrowserTests.elements(f, page: "p1").last?["at"]))
        #expect(abs(again.0 - (at.0 + step)) < 0.02 && abs(again.1 - (at.1 + step)) < 0.02, "second paste at \(again)")
        let history = try Techo.run(["history", f.journal.path], in: f.folder)
        #expect(history.contains("cut "), "\(history)")
    }

    @Test func aStrokeIsCopiedAndPasted() throws {
        let f = try EditorFixture()
        try f.tab.allowClipboard()
        try f.waitSettled()
        // The blue stroke runs 80,600 → 300,640 → 520,600: a press on it picks it.
        let p = try f.client(300, 640)
        try f.tab.click(p.0, p.1)
        try f.tab.waitFor("techoEditor.strokes.id === 's1'", what: "the stroke picked")
        try f.waitSettled()
        try f.tab.chord("c", command: "copy")
        try f.tab.waitForClipboardValue()
        try f.tab.mouse("mouseMoved", 2, 2)
        try f.tab.chord("v", command: "paste")
        func strokes() throws -> [[String: Any]] {
            let ink = try EditorBrowserTests.elements(f, page: "p1").first { $0["type"] as? String == "ink" }
            return (ink?["strokes"] as? [[String: Any]]) ?? []
        }
        try f.waitForJournal("the stroke pasted") { try strokes().count == 2 }
        try f.waitSettled()
        let s = try strokes()
        let a = try #require(s[0]["points"] as? [[Double]]), b = try #require(s[1]["points"] as? [[Double]])
        let step = 5 / 25.4 * 300
        #expect(a.count == b.count)
        #expect(zip(a, b).allSatisfy { abs($1[0] - $0[0] - step) < 0.02 && abs($1[1] - $0[1] - step) < 0.02 })
        #expect(s[1]["color"] as? String == s[0]["color"] as? String && number(s[1]["width"]) == number(s[0]["width"]))
        #expect(try f.tab.evaluate("techoEditor.strokes.id") as? String == s[1]["id"] as? String, "the pasted stroke is picked")
    }

    /// Two journals, each served by its own `techo serve` on its own port (another origin), in two
    /// tabs of one browser: a sticker copied in the first is pasted into the second with its
    /// picture's bytes, through the system clipboard.
    @Test func copyInOneJournalPasteInAnotherServedApart() throws {
        let f = try EditorFixture()
        // A second journal, its own `techo serve` on its own port, in a second tab.
        let other = f.folder.appendingPathComponent("other")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        let journal2 = other.appendingPathComponent("k.techo")
        try Techo.run(["init", journal2.path, "--size", "600x800"], in: other)
        let server2 = try Server(journal: journal2, folder: other)
        defer { server2.stop() }
        let tab2 = try BrowserTab(f.browser, width: 1440, height: 900)
        defer { tab2.close() }
        try tab2.open(server2.url)
        try tab2.allowClipboard()
        try f.tab.allowClipboard()
        try f.waitSettled()
        try EditorBrowserTests.pickTomato(f, touch: false)
        try f.tab.chord("c", command: "copy")
        try f.tab.waitForClipboardValue()
        try tab2.send("Page.bringToFront")
        try tab2.chord("v", command: "paste")
        try tab2.waitFor("techoEditor.pageData && techoEditor.pageData.elements.length === 1", what: "the paste in the other tab")
        func pasted() throws -> [[String: Any]] {
            let text = try Techo.run(["show", journal2.path, "p1", "--json"], in: other)
            let o = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
            return (o?["elements"] as? [[String: Any]]) ?? []
        }
        try f.waitForJournal("the sticker in the other journal") { try pasted().count == 1 }
        let e = try #require(try pasted().first)
        #expect(e["asset"] as? String == (try f.element("tomato"))["asset"] as? String)
        let asset = try #require(e["asset"] as? String)
        let copied = try Data(contentsOf: journal2.appendingPathComponent(asset))
        let source = try Data(contentsOf: f.journal.appendingPathComponent(asset))
        #expect(copied == source, "the picture's bytes travelled with the clipboard")
        let check = try Techo.run(["check", journal2.path], in: other)
        #expect(!check.lowercased().contains("error"), "\(check)")
    }

    /// A tablet on the network over plain HTTP (`techo serve --lan`): no secure context, so no
    /// async Clipboard API. The copy event's marker still pastes in the same tab (on another
    /// page), and a second tab of the same editor says why it cannot paste it, adding nothing.
    @Test func copyAndPasteOverPlainHTTPOnTheNetworkAddress() throws {
        let f = try EditorFixture(width: 1024, height: 1366, touch: true, serve: ["--lan"])
        let url = try #require(URLComponents(string: f.server.url))
        let host = url.host ?? ""
        #expect(url.scheme == "http")
        #expect(!["127.0.0.1", "localhost", "[::1]", "::1"].contains(host), "served at a network address, not loopback: \(f.server.url)")
        #expect(try f.tab.evaluate("window.isSecureContext === false && !navigator.clipboard") as? Bool == true, "plain HTTP off loopback is no secure context")
        try f.tab.send("Emulation.setFocusEmulationEnabled", ["enabled": true])
        try f.waitSettled()
        try EditorBrowserTests.pickTomato(f, touch: true)
        try f.tab.chord("c", command: "copy")
        try f.tab.waitFor("document.getElementById('status').textContent.startsWith('copied')", what: "the copy's answer")
        try f.tab.evaluate("techoEditor.openPage('p2')")
        try f.tab.waitFor("techoEditor.pageId === 'p2' && techoEditor.pageData && techoEditor.pageData.page.id === 'p2'", what: "page p2")
        try f.waitSettled()
        try f.tab.chord("v", command: "paste")
        try f.waitForJournal("the sticker pasted on p2") { try EditorBrowserTests.elements(f, page: "p2").count == 1 }
        let pasted = try #require(try EditorBrowserTests.elements(f, page: "p2").first)
        #expect(pasted["asset"] as? String == (try f.element("tomato"))["asset"] as? String)
        let at = try #require(point(pasted["at"]))
        #expect(abs(at.0 - 200) < 0.02 && abs(at.1 - 250) < 0.02, "a touch paste on another page lands where the original was: \(at)")

        // A second tab of the same editor: the clipboard holds the first tab's marker only.
        let tab2 = try BrowserTab(f.browser, width: 1024, height: 1366)
        defer { tab2.close() }
        try tab2.open(f.server.url)
        try tab2.send("Emulation.setFocusEmulationEnabled", ["enabled": true])
        try tab2.send("Page.bringToFront")
        let before = try EditorBrowserTests.elements(f, page: "p1").count
        try tab2.chord("v", command: "paste")
        try tab2.waitFor(
            "document.getElementById('status').classList.contains('error') && document.getElementById('status').textContent.includes('HTTPS')",
            what: "the second tab saying why it cannot paste")
        #expect(try EditorBrowserTests.elements(f, page: "p1").count == before, "the second tab added nothing")
        #expect(try EditorBrowserTests.elements(f, page: "p2").count == 1)
    }

    @Test(arguments: ["1440x900", "1024x1366", "390x844"])
    func aPictureOnTheClipboardIsPastedAsASticker(size: String) throws {
        let (width, height) = EditorBrowserTests.size(size)
        let f = try EditorFixture(width: width, height: height, touch: width < 1400)
        try f.tab.allowClipboard()
        try f.waitSettled()
        // Setup: a 40x30 PNG (a screenshot, say) on the system clipboard.
        try f.tab.evaluate(
            """
            (async () => { const c = document.createElement('canvas'); c.width = 40; c.height = 30;
              const g = c.getContext('2d'); g.fillStyle = '#d1495b'; g.fillRect(0, 0, 40, 30);
              const blob = await new Promise((r) => c.toBlob(r, 'image/png'));
              await navigator.clipboard.write([new ClipboardItem({ 'image/png': blob })]); return true; })()
            """)
        let before = try EditorBrowserTests.elements(f, page: "p1").count
        try f.tab.chord("v", command: "paste")
        try f.waitForJournal("the picture pasted") { try EditorBrowserTests.elements(f, page: "p1").count == before + 1 }
        try f.waitSettled()
        let e = try #require(try EditorBrowserTests.elements(f, page: "p1").last)
        #expect(e["type"] as? String == "image")
        #expect((e["naturalSize"] as? [Double]) == [40, 30])
        #expect((e["asset"] as? String)?.hasSuffix(".png") == true)
        #expect(try f.tab.evaluate("techoEditor.selection") as? String == e["id"] as? String)
        let shot = try f.pageShot()
        try shot.write(to: Fixtures.artifactsDirectory("editor").appendingPathComponent("clipboard-picture-\(size).png"))
        try f.tab.chord("z", command: nil)
        try f.waitForJournal("the pasted picture undone") { try EditorBrowserTests.elements(f, page: "p1").count == before }
    }

    @Test func copyAndPasteInATextFieldAreTheBrowsers() throws {
        let f = try EditorFixture()
        try f.tab.allowClipboard()
        try f.waitSettled()
        try EditorBrowserTests.pickTomato(f, touch: false)
        // With the sticker still selected, the user types in the new-text field and copies
        // and pastes there: text, not the sticker.
        try f.tab.click("#text-new")
        try f.tab.send("Input.insertText", ["text": "hello"])
        #expect(try f.tab.evaluate("techoEditor.selection") as? String == "tomato")
        try f.tab.chord("a", command: "selectAll")
        try f.tab.chord("c", command: "copy")
        try f.tab.waitFor("(async () => (await navigator.clipboard.readText()) === 'hello')()", what: "the field's text on the clipboard")
        try f.tab.key("End", code: "End", keyCode: 35)
        try f.tab.chord("v", command: "paste")
        try f.tab.waitFor("document.getElementById('text-new').value === 'hellohello'", what: "the text pasted into the field")
        try f.tab.chord("d", command: nil)
        try f.waitSettled()
        #expect(try EditorBrowserTests.elements(f, page: "p1").count == 3, "nothing was added to the page")
    }
}
