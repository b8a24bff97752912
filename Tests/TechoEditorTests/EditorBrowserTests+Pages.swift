// The pages list with real input at the three sizes: every row shows its page's thumbnail, a
// page edited (in the editor or from the terminal) shows its new thumbnail while the others are
// only revalidated, a row dragged (mouse, or a finger after a hold) to a new place moves the page
// in one history step while a swipe only scrolls, and a removed page comes back with Ctrl+Z with
// its thumbnail. A 30-page journal's rows on screen get their thumbnails within 2 s (the figure
// is printed for docs/editor.md and scripts/editor-figures.sh), and rows off screen are not drawn.

import Foundation
import TechoTestSupport
import Testing

extension EditorBrowserTests {
    /// The page ids in the journal's order (from `techo page list`).
    static func pageOrder(_ f: EditorFixture) throws -> [String] {
        try Techo.run(["page", "list", f.journal.path], in: f.folder).split(separator: "\n").map { String($0.split(separator: "\t")[0]) }
    }

    static func historyCount(_ f: EditorFixture) throws -> Int {
        try Techo.run(["history", f.journal.path], in: f.folder).split(separator: "\n").count
    }

    /// The ETag of the thumbnail the row of `page` shows ('' while it has none).
    static func shownThumbnail(_ f: EditorFixture, _ page: String) throws -> String {
        try f.tab.evaluate("(document.querySelector('[data-techo-page-row=\"\(page)\"]') || { dataset: {} }).dataset.techoThumbnail || ''") as? String ?? ""
    }

    /// The ETag the server answers now for the thumbnail of `page`.
    static func serverThumbnail(_ f: EditorFixture, _ page: String) throws -> String {
        try f.tab.evaluate(
            """
            new Promise((ok) => fetch(techoEditor.api.url('/api/pages/\(page)/thumbnail', { h: 160 }), { cache: 'no-store' })
              .then((r) => ok(r.headers.get('ETag') || '')))
            """) as? String ?? ""
    }

    /// The RGB of the thumbnail of `page` at (fx, fy), fractions of its width and height.
    static func thumbnailPixel(_ f: EditorFixture, _ page: String, _ fx: Double, _ fy: Double) throws -> [Int] {
        try f.tab.evaluate(
            """
            (() => { const img = document.querySelector('[data-techo-page-row="\(page)"] .page-thumb img');
              const c = document.createElement('canvas'); c.width = img.naturalWidth; c.height = img.naturalHeight;
              const g = c.getContext('2d'); g.drawImage(img, 0, 0);
              return [...g.getImageData(Math.floor(c.width * \(fx)), Math.floor(c.height * \(fy)), 1, 1).data].slice(0, 3); })()
            """) as? [Int] ?? []
    }

    /// Opens the pages list as a person would at this size (on a phone, the header's ☰).
    static func showPagesList(_ f: EditorFixture, phone: Bool) throws {
        guard phone else { return }
        let b = try f.tab.box("[data-techo-action=panel]")
        try f.tab.touches("touchStart", [(0, b.x + b.w / 2, b.y + b.h / 2)])
        try f.tab.touches("touchEnd", [])
        try f.tab.waitFor("document.body.classList.contains('panel-open')", what: "the journal panel")
    }

    /// Drags the row of `page` by its thumbnail to the vertical middle of `y` (client px), with
    /// the mouse or a finger that holds first.
    static func dragRow(_ f: EditorFixture, _ page: String, toY y: Double, touch: Bool) throws {
        let r = try f.tab.box("[data-techo-page-link=\"\(page)\"] .page-thumb")
        let a = (r.x + r.w / 2, r.y + r.h / 2)
        if touch {
            try f.tab.touches("touchStart", [(0, a.0, a.1)])
            usleep(450_000)  // the hold that lifts the row (250 ms)
            try f.tab.waitFor("!!document.querySelector('[data-techo-page-row].lifted')", what: "the row lifted")
            for i in 1...10 { try f.tab.touches("touchMove", [(0, a.0, a.1 + (y - a.1) * Double(i) / 10)]) }
            try f.tab.touches("touchEnd", [])
        } else {
            try f.tab.drag(from: a, to: (a.0, y), steps: 10)
        }
    }

    @Test(arguments: ["1440x900", "1024x1366", "390x844"])
    func thePagesListShowsThumbnailsUpdatedAfterEditsAndReordersByDrag(size: String) throws {
        let (width, height) = Self.size(size)
        let phone = width < 600, touch = width < 1400
        let f = try EditorFixture(width: width, height: height, touch: touch)
        try Techo.run(["page", "add", f.journal.path, "--background", "#e8f0d8"], in: f.folder)
        try f.waitSettled()
        try f.tab.waitFor("document.querySelectorAll('[data-techo-page-row]').length === 3", what: "three rows")
        try Self.showPagesList(f, phone: phone)
        // Every row has its page's thumbnail, 160 px tall, the page's shape.
        try f.tab.waitFor(
            "[...document.querySelectorAll('[data-techo-page-row] .page-thumb img')].filter((i) => i.naturalHeight === 160).length === 3",
            what: "the three thumbnails")
        for p in ["p1", "p2", "p3"] { #expect(try Self.shownThumbnail(f, p) == (try Self.serverThumbnail(f, p)), "\(p)'s thumbnail") }
        #expect(try Self.thumbnailPixel(f, "p3", 0.02, 0.02) == [0xe8, 0xf0, 0xd8])
        // Inside the window and the panel, each control a 44 px target.
        let list = try f.tab.box("#pages")
        #expect(list.x >= 0 && list.x + list.w <= Double(width) + 0.5, "pages list \(list) in \(width)x\(height)")
        #expect(try f.tab.evaluate("(() => { const p = document.querySelector('.panel'); return p.scrollWidth <= p.clientWidth; })()") as? Bool == true)
        let small =
            try f.tab.evaluate(
                "[...document.querySelectorAll('#pages button, #page-add, #template')].filter((b) => { const r = b.getBoundingClientRect(); return r.width < 43.5 || r.height < 43.5; }).length"
            ) as? Int
        #expect(small == 0, "controls under 44 px in the pages list")
        let dir = Fixtures.artifactsDirectory("editor")
        try f.tab.screenshot(x: 0, y: 0, w: Double(width), h: Double(height)).write(to: dir.appendingPathComponent("pages-\(width)x\(height).png"))

        // An edit from the terminal (seen through the live updates): p1's thumbnail is new, the
        // others are revalidated and kept.
        let p2Before = try Self.shownThumbnail(f, "p2"), p1Before = try Self.shownThumbnail(f, "p1")
        let fetched = try f.tab.number("techoEditor.panels.pages.timings.fetched")
        try Techo.run(["background", f.journal.path, "p1", "--color", "#335577"], in: f.folder)
        try f.tab.waitFor(
            "document.querySelector('[data-techo-page-row=\"p1\"]').dataset.techoThumbnail !== \(p1Before.debugDescription)", what: "p1's new thumbnail")
        #expect(try Self.shownThumbnail(f, "p1") == (try Self.serverThumbnail(f, "p1")))
        #expect(try Self.thumbnailPixel(f, "p1", 0.02, 0.02) == [0x33, 0x55, 0x77])
        try f.waitSettled()
        try f.tab.waitFor("techoEditor.panels.pages.timings.revalidated >= 2", what: "the unchanged pages revalidated")
        #expect(try Self.shownThumbnail(f, "p2") == p2Before)
        #expect(try f.tab.number("techoEditor.panels.pages.timings.fetched") == fetched + 1, "only p1's thumbnail was fetched again")

        // An edit in the editor with real input: the tomato dragged, the thumbnail follows.
        let p1Edited = try Self.shownThumbnail(f, "p1")
        if !phone {
            let a = try f.client(200, 250), b = try f.client(360, 420)
            if touch {
                try f.tab.touches("touchStart", [(0, a.0, a.1)])
                for i in 1...10 { try f.tab.touches("touchMove", [(0, a.0 + (b.0 - a.0) * Double(i) / 10, a.1 + (b.1 - a.1) * Double(i) / 10)]) }
                try f.tab.touches("touchEnd", [])
            } else {
                try f.tab.drag(from: a, to: b)
            }
            try f.waitForJournal("the tomato moved") { (point(try f.element("tomato")["at"])?.0 ?? 0) > 300 }
            try f.tab.waitFor(
                "document.querySelector('[data-techo-page-row=\"p1\"]').dataset.techoThumbnail !== \(p1Edited.debugDescription)",
                what: "p1's thumbnail after the drag")
            #expect(try Self.shownThumbnail(f, "p1") == (try Self.serverThumbnail(f, "p1")))
            try f.waitSettled()
        }

        // A swipe over a row (a finger that does not hold) moves nothing.
        if touch {
            try Self.showPagesList(f, phone: phone && !(try f.tab.evaluate("document.body.classList.contains('panel-open')") as? Bool ?? false))
            let r = try f.tab.box("[data-techo-page-link=\"p1\"] .page-thumb")
            try f.tab.touches("touchStart", [(0, r.x + r.w / 2, r.y + r.h / 2)])
            for i in 1...6 { try f.tab.touches("touchMove", [(0, r.x + r.w / 2, r.y + r.h / 2 + Double(i) * 14)]) }
            try f.tab.touches("touchEnd", [])
            try f.waitSettled()
            #expect(try Self.pageOrder(f) == ["p1", "p2", "p3"])
        }

        // p1 dragged below p2: one step, "page move".
        let steps = try Self.historyCount(f)
        let p2 = try f.tab.box("[data-techo-page-row=\"p2\"]")
        try Self.dragRow(f, "p1", toY: p2.y + p2.h * 0.8, touch: touch)
        try f.waitForJournal("p1 moved below p2") { try Self.pageOrder(f) == ["p2", "p1", "p3"] }
        try f.waitSettled()
        #expect(try Self.historyCount(f) == steps + 1)
        #expect(try Techo.run(["history", f.journal.path], in: f.folder).split(separator: "\n").last?.contains("page move p1") == true)
        try f.tab.waitFor(
            "[...document.querySelectorAll('[data-techo-page-row]')].map((r) => r.dataset.techoPageRow).join() === 'p2,p1,p3'",
            what: "the rows in the new order")
        if phone {
            try f.tab.screenshot(x: 0, y: 0, w: Double(width), h: Double(height)).write(to: dir.appendingPathComponent("pages-moved-\(width)x\(height).png"))
        }
        if !touch {
            // A pen drags at once, as the mouse does: p3 to the top, one more step.
            let top = try f.tab.box("[data-techo-page-row=\"p2\"]")
            let r = try f.tab.box("[data-techo-page-link=\"p3\"] .page-thumb")
            try f.tab.drag(from: (r.x + r.w / 2, r.y + r.h / 2), to: (r.x + r.w / 2, top.y + top.h * 0.2), steps: 10, pointerType: "pen")
            try f.waitForJournal("p3 moved to the top by the pen") { try Self.pageOrder(f) == ["p3", "p2", "p1"] }
            try f.waitSettled()
            #expect(try Self.historyCount(f) == steps + 2)
            try f.tab.key("z", code: "KeyZ", keyCode: 90, modifiers: 2)
            try f.waitForJournal("the pen's move undone in one step") { try Self.pageOrder(f) == ["p2", "p1", "p3"] }
            try f.waitSettled()
        }

        // p3 removed, then brought back by Ctrl+Z, with its thumbnail.
        let rm = try f.tab.box("[aria-label='Remove page p3']")
        if touch {
            try f.tab.touches("touchStart", [(0, rm.x + rm.w / 2, rm.y + rm.h / 2)])
            try f.tab.touches("touchEnd", [])
        } else {
            try f.tab.click(rm.x + rm.w / 2, rm.y + rm.h / 2)
        }
        try f.waitForJournal("p3 removed") { try Self.pageOrder(f) == ["p2", "p1"] }
        try f.tab.waitFor("document.querySelectorAll('[data-techo-page-row]').length === 2", what: "two rows")
        try f.tab.key("z", code: "KeyZ", keyCode: 90, modifiers: 2)
        try f.waitForJournal("p3 back") { try Self.pageOrder(f) == ["p2", "p1", "p3"] }
        try f.tab.waitFor(
            "(() => { const i = document.querySelector('[data-techo-page-row=\"p3\"] .page-thumb img'); return !!i && i.naturalHeight === 160; })()",
            what: "p3's thumbnail back")
        #expect(try Self.thumbnailPixel(f, "p3", 0.02, 0.02) == [0xe8, 0xf0, 0xd8])
    }

    /// A journal of 30 pages from the built-in templates: the rows on screen have their
    /// thumbnails within 2 s of the list's first show, rows far off screen are not drawn until
    /// scrolled to, and the last one then comes.
    @Test func thumbnailsOfAThirtyPageJournalAreLazyAndTimed() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("techo-pages30-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let j = folder.appendingPathComponent("j.techo")
        try Techo.run(["init", j.path, "--title", "Thirty", "--paper", "dots"], in: folder)
        let templates = ["weekly", "travel-day", "photo-grid"]
        for i in 0..<29 { try Techo.run(["page", "add", j.path, "--template", templates[i % 3]], in: folder) }
        let f = try EditorFixture(width: 1440, height: 900, journal: j)
        try f.tab.waitFor("document.querySelectorAll('[data-techo-page-row]').length === 30", what: "thirty rows")
        try f.tab.waitFor("techoEditor.panels.pages.timings.shown !== null", what: "the thumbnails on screen", timeout: 30)
        let shown = try f.tab.number("techoEditor.panels.pages.timings.shown")
        let onScreen = try f.tab.number("[...document.querySelectorAll('[data-techo-page-row] .page-thumb img')].length")
        print(
            "page thumbnails (1440x900), 30-page journal: the rows on screen drawn \(String(format: "%.0f", shown)) ms after the list shows; \(Int(onScreen)) of 30 asked for"
        )
        // The time is the bench's figure (target 2 s, scripts/editor-figures.sh), not bounded here:
        // the test run shares the machine with other browsers.
        // Lazily: the last rows, far below, have not been drawn.
        #expect(onScreen < 30)
        #expect(try Self.shownThumbnail(f, "p30") == "")
        try f.tab.screenshot(x: 0, y: 0, w: 1440, h: 900).write(to: Fixtures.artifactsDirectory("editor").appendingPathComponent("pages-30.png"))
        // Scrolled to with the wheel, the last row's thumbnail comes.
        let list = try f.tab.box("#pages")
        for _ in 0..<20 {
            try f.tab.send(
                "Input.dispatchMouseEvent", ["type": "mouseWheel", "x": list.x + list.w / 2, "y": min(list.y + 100, 800), "deltaX": 0, "deltaY": 600])
        }
        try f.tab.waitFor(
            "(() => { const i = document.querySelector('[data-techo-page-row=\"p30\"] .page-thumb img'); return !!i && i.naturalHeight === 160; })()",
            what: "p30's thumbnail")
    }
}
