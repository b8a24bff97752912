// The template chooser (§13 "Pages"): "▦ Templates" opens a grid of every template the journal
// lists, each as a picture of the page it would add; one tap (a finger on the tablet and the
// phone) or click adds a page from it, the same page `techo page add --template` makes.

import Foundation
import TechoTestSupport
import Testing

extension EditorBrowserTests {
    @Test(arguments: [(1440, 900, false), (1024, 1366, true), (390, 844, true)])
    func theTemplateChooserShowsPicturesAndAddsAPageFromOne(size: (Int, Int, Bool)) throws {
        let (w, h, finger) = size
        let f = try EditorFixture(width: w, height: h, touch: finger)
        if w < 600 {
            try f.tab.click("[data-techo-action=panel]")
            try f.tab.waitFor("document.body.classList.contains('panel-open')", what: "the journal panel")
        }
        let names = try f.tab.evaluate("techoEditor.journal.templates") as? [String] ?? []
        #expect(names.count >= 3, "\(names)")
        try f.tab.evaluate("document.getElementById('template-open').scrollIntoView({ block: 'start' })")
        try f.tab.click("#template-open")
        try f.tab.waitFor(
            "!document.getElementById('template-chooser').hidden && document.querySelectorAll('[data-techo-template]').length === \(names.count)",
            what: "the chooser with every template")
        try f.tab.waitFor(
            "[...document.querySelectorAll('[data-techo-template] img')].every((i) => i.complete && i.naturalWidth > 0)",
            what: "every template's picture")
        #expect(try f.tab.evaluate("document.getElementById('template-open').getAttribute('aria-expanded')") as? String == "true")
        // Each picture is the server's drawing of that template, 160 px tall.
        let heights = try f.tab.evaluate("[...document.querySelectorAll('[data-techo-template] img')].map((i) => i.naturalHeight)") as? [Int] ?? []
        #expect(heights == Array(repeating: 160, count: names.count), "\(heights)")
        // Every tile is a touch target.
        let small = try f.tab.number(
            "[...document.querySelectorAll('[data-techo-template], #template-open')].filter((b) => { const r = b.getBoundingClientRect(); return r.width < 43.5 || r.height < 43.5; }).length"
        )
        #expect(small == 0)
        let name = names.contains("travel-day") ? "travel-day" : names[0]
        try f.tab.evaluate("document.querySelector('[data-techo-template=\"\(name)\"]').scrollIntoView({ block: 'center' })")
        try f.tab.screenshot(x: 0, y: 0, w: Double(w), h: Double(h)).write(
            to: Fixtures.artifactsDirectory("editor").appendingPathComponent("templates-\(w)x\(h).png"))

        let before = try f.tab.number("techoEditor.journal.pages.length")
        let tile = try f.tab.box("[data-techo-template=\"\(name)\"]")
        let c = (tile.x + tile.w / 2, tile.y + tile.h / 2)
        if finger {
            try f.tab.touch("touchStart", [c])
            try f.tab.touch("touchEnd", [])
        } else {
            try f.tab.click(c.0, c.1)
        }
        try f.tab.waitFor("techoEditor.journal.pages.length === \(Int(before) + 1)", what: "a new page")
        try f.waitSettled()
        let added = try #require(try f.tab.evaluate("techoEditor.journal.pages[techoEditor.journal.pages.length - 1].id") as? String)
        #expect(try f.tab.evaluate("techoEditor.pageId") as? String == added, "the new page opens")
        #expect(try f.tab.evaluate("document.getElementById('template-chooser').hidden") as? Bool == true, "the chooser closes")
        // The same page the CLI makes from that template.
        try Techo.run(["page", "add", f.journal.path, "--template", name, "--id", "reference"], in: f.folder)
        func withoutID(_ o: [String: Any]) throws -> Data {
            var o = o
            o["id"] = nil
            return try JSONSerialization.data(withJSONObject: o, options: [.sortedKeys])
        }
        #expect(try withoutID(f.pageJSON(added)) == withoutID(f.pageJSON("reference")), "the page from \(name) is the one techo page add makes")
    }
}
