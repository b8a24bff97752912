// Copy, Paste and Duplicate as buttons, for a tablet or phone without a keyboard: every press is
// a real touch tap (Input.dispatchTouchEvent) on the button, and every paste is checked in the
// journal's page file and its history.

import Foundation
import TechoTestSupport
import Testing

extension EditorBrowserTests {
    /// A finger's tap in the middle of the element matching `selector`.
    static func tap(_ f: EditorFixture, _ selector: String) throws {
        let b = try f.tab.box(selector)
        try f.tab.touches("touchStart", [(0, b.x + b.w / 2, b.y + b.h / 2)])
        try f.tab.touches("touchEnd", [])
    }

    static func openP2(_ f: EditorFixture) throws {
        try f.tab.evaluate("techoEditor.openPage('p2')")
        try f.tab.waitFor("techoEditor.pageId === 'p2' && techoEditor.pageData && techoEditor.pageData.page.id === 'p2'", what: "page p2")
        try f.waitSettled()
    }

    /// How many history entries the journal lists whose line contains `verb`.
    static func steps(_ f: EditorFixture, _ verb: String) throws -> Int {
        try Techo.run(["history", f.journal.path], in: f.folder).split(separator: "\n").filter { $0.contains(verb) }.count
    }
}

/// In the keys' serialized suite: the clipboard is one for the whole browser session, so these
/// run one at a time with those.
extension ClipboardBrowserTests {
    /// At tablet size: the tomato tapped, Copy tapped, page p2 opened, Paste tapped (one step, the
    /// tomato's picture), then Duplicate tapped on the pasted one.
    @Test func copyPasteAndDuplicateByTapAtTabletSize() throws {
        let f = try EditorFixture(width: 1024, height: 1366, touch: true)
        try f.tab.allowClipboard()
        try f.waitSettled()
        try EditorBrowserTests.pickTomato(f, touch: true)
        try f.tab.waitFor("!document.getElementById('selection-bar').hidden", what: "the selection's actions")
        try EditorBrowserTests.tap(f, "[data-techo-action=copy]")
        try f.tab.waitForClipboardValue()
        #expect(try EditorBrowserTests.elements(f, page: "p1").count == 3, "a copy changes nothing")

        try EditorBrowserTests.openP2(f)
        let pastes = try EditorBrowserTests.steps(f, "paste")
        try EditorBrowserTests.tap(f, "[data-techo-action=paste]")
        try f.waitForJournal("the sticker pasted on p2") { try EditorBrowserTests.elements(f, page: "p2").count == 1 }
        try f.waitSettled()
        let pasted = try #require(try EditorBrowserTests.elements(f, page: "p2").first)
        #expect(pasted["type"] as? String == "image")
        #expect(pasted["asset"] as? String == (try f.element("tomato"))["asset"] as? String)
        let at = try #require(point(pasted["at"]))
        #expect(abs(at.0 - 200) < 0.02 && abs(at.1 - 250) < 0.02, "a tapped paste on another page lands where the original was: \(at)")
        #expect(try EditorBrowserTests.steps(f, "paste") == pastes + 1, "the paste is one history step")
        let id = try #require(pasted["id"] as? String)
        #expect(try f.tab.evaluate("techoEditor.selection") as? String == id, "the pasted sticker is selected")

        try f.tab.waitFor("!document.getElementById('selection-bar').hidden", what: "the pasted sticker's actions")
        try EditorBrowserTests.tap(f, "[data-techo-action=duplicate]")
        try f.waitForJournal("the sticker duplicated on p2") { try EditorBrowserTests.elements(f, page: "p2").count == 2 }
        let two = try EditorBrowserTests.elements(f, page: "p2")
        #expect(Set(two.compactMap { $0["asset"] as? String }) == [pasted["asset"] as? String ?? "?"])
        #expect(try EditorBrowserTests.elements(f, page: "p1").count == 3)
    }

    /// At phone size the Duplicate button in the floating bar: one copy, one step.
    @Test func duplicateByTapAtPhoneSize() throws {
        let f = try EditorFixture(width: 390, height: 844, touch: true)
        try f.waitSettled()
        try EditorBrowserTests.pickTomato(f, touch: true)
        try f.tab.waitFor("!document.getElementById('selection-bar').hidden", what: "the selection's actions")
        try EditorBrowserTests.tap(f, "[data-techo-action=duplicate]")
        try f.waitForJournal("the tomato duplicated") { try EditorBrowserTests.elements(f, page: "p1").count == 4 }
        let tomato = try f.element("tomato")
        let copies = try EditorBrowserTests.elements(f, page: "p1").filter { $0["asset"] as? String == tomato["asset"] as? String }
        #expect(copies.count == 2, "the tomato and its duplicate")
        #expect(try EditorBrowserTests.steps(f, "paste") == 1, "the duplicate is one history step")
    }

    /// Plain HTTP on the network address (no secure context, no Clipboard API): the Copy button
    /// keeps the copy for this tab and the Paste button pastes it.
    @Test func copyAndPasteButtonsOverPlainHTTPOnTheNetworkAddress() throws {
        let f = try EditorFixture(width: 1024, height: 1366, touch: true, serve: ["--lan"])
        #expect(try f.tab.evaluate("window.isSecureContext === false && !navigator.clipboard") as? Bool == true, "plain HTTP off loopback is no secure context")
        try f.waitSettled()
        // Nothing copied yet: the Paste button says so.
        try EditorBrowserTests.tap(f, "[data-techo-action=paste]")
        try f.tab.waitFor("document.getElementById('status').classList.contains('error')", what: "the Paste button saying why it pasted nothing")
        try EditorBrowserTests.pickTomato(f, touch: true)
        try f.tab.waitFor("!document.getElementById('selection-bar').hidden", what: "the selection's actions")
        try EditorBrowserTests.tap(f, "[data-techo-action=copy]")
        try f.tab.waitFor("document.getElementById('status').textContent.startsWith('copied')", what: "the copy's answer")
        try EditorBrowserTests.openP2(f)
        try EditorBrowserTests.tap(f, "[data-techo-action=paste]")
        try f.waitForJournal("the sticker pasted on p2") { try EditorBrowserTests.elements(f, page: "p2").count == 1 }
        let pasted = try #require(try EditorBrowserTests.elements(f, page: "p2").first)
        #expect(pasted["asset"] as? String == (try f.element("tomato"))["asset"] as? String)
        #expect(try EditorBrowserTests.elements(f, page: "p1").count == 3)
    }
}
