// The sticker tray with real input at the three sizes: it opens with every built-in pack, fits
// the window, finds stickers by name, adds one by a click or a tap (centred) and by a drag from
// the tray with a mouse or a finger (where it is dropped, through the camera), and keeps the
// recently used first. The figures (open and search times) are printed for docs/editor.md.

import Foundation
import TechoTestSupport
import Testing

extension EditorBrowserTests {
    /// The built-in stickers there are (from `techo stickers list`).
    static func builtinStickerCount(in folder: URL) throws -> Int {
        let list = try Techo.run(["stickers", "list"], in: folder)
        var total = 0
        for line in list.split(separator: "\n") {
            let cells = line.split(separator: "\t").map(String.init)
            guard cells.count == 3, cells[2] == "built-in", let n = Int(cells[1].split(separator: " ")[0]) else { continue }
            total += n
        }
        return total
    }

    /// Opens the tray as a person would at this size (the panel's Stickers section, or on a
    /// phone the header's sticker button) and waits for every thumbnail; returns the ms it took.
    static func openTray(_ f: EditorFixture, phone: Bool, touch: Bool) throws -> Double {
        let selector = phone ? "[data-techo-action=stickers]" : "#sticker-tray > summary"
        let b = try f.tab.box(selector)
        if touch {
            try f.tab.touches("touchStart", [(0, b.x + b.w / 2, b.y + b.h / 2)])
            try f.tab.touches("touchEnd", [])
        } else {
            try f.tab.click(b.x + b.w / 2, b.y + b.h / 2)
        }
        try f.tab.waitFor("techoEditor.panels.stickers.timings.open !== null", what: "the tray's thumbnails")
        return try f.tab.number("techoEditor.panels.stickers.timings.open")
    }

    static func elementCount(_ f: EditorFixture) throws -> Int { (try f.pageJSON()["elements"] as? [Any])?.count ?? 0 }

    /// The last element of page p1 (the one just added).
    static func lastElement(_ f: EditorFixture) throws -> [String: Any] {
        try #require((try f.pageJSON()["elements"] as? [[String: Any]])?.last)
    }

    /// "WxH" as two numbers.
    static func size(_ s: String) -> (Int, Int) {
        let p = s.split(separator: "x").compactMap { Int($0) }
        return (p[0], p[1])
    }

    @Test(arguments: ["1440x900", "1024x1366", "390x844"])
    func theStickerTrayOpensFitsSearchesAndAddsByTap(size: String) throws {
        let (width, height) = Self.size(size)
        let phone = width < 600, touch = width < 1400
        let f = try EditorFixture(width: width, height: height, touch: touch)
        try f.waitSettled()
        let builtin = try Self.builtinStickerCount(in: f.folder)
        #expect(builtin >= 48)
        // The packs and thumbnails come in when the browser is first idle after the page shows.
        try f.tab.waitFor("techoEditor.panels.stickers.timings.load !== null", what: "the tray's prefetch")
        let loaded = try f.tab.number("techoEditor.panels.stickers.timings.load")
        let opened = try Self.openTray(f, phone: phone, touch: touch)
        print(
            "sticker tray (\(width)x\(height)), \(builtin) stickers: open to every thumbnail on screen \(String(format: "%.0f", opened)) ms; "
                + "packs and thumbnails fetched and decoded (a first open before the prefetch) \(String(format: "%.0f", loaded)) ms")

        // One item per sticker, each named PACK/NAME, every thumbnail drawn.
        let items = try f.tab.evaluate("[...document.querySelectorAll('[data-techo-sticker]')].map((e) => e.dataset.techoSticker)") as? [String] ?? []
        #expect(items.count == builtin)
        #expect(Set(items).count == items.count)
        #expect(items.allSatisfy { $0.split(separator: "/").count == 2 })
        // Each shows its tile of the atlas (or, a picture that is not SVG, its own decoded image).
        #expect(
            try f.tab.evaluate(
                "[...document.querySelectorAll('[data-techo-sticker]')].every((b) => b.firstChild.tagName === 'IMG' ? b.firstChild.complete && b.firstChild.naturalWidth > 0 : getComputedStyle(b.firstChild).backgroundImage.includes('atlas'))"
            ) as? Bool == true)

        // It fits the window: nothing overflows sideways, every edge on screen; on a phone the
        // sheet leaves most of the page in sight.
        let tray = try f.tab.box("#sticker-tray")
        let packs = try f.tab.box("#sticker-packs")
        #expect(tray.x >= 0 && tray.x + tray.w <= Double(width) + 0.5, "tray \(tray) in \(width)x\(height)")
        #expect(packs.y + packs.h <= Double(height) + 0.5, "sticker grid \(packs) in \(width)x\(height)")
        #expect(try f.tab.evaluate("(() => { const p = document.getElementById('sticker-packs'); return p.scrollWidth <= p.clientWidth; })()") as? Bool == true)
        #expect(try f.tab.evaluate("(() => { const p = document.querySelector('.panel'); return p.scrollWidth <= p.clientWidth; })()") as? Bool == true)
        let panel = try f.tab.box(".panel")
        let stage = try f.tab.box("#stage")
        if phone {
            #expect(panel.h <= Double(height) * 0.5, "the sticker sheet is \(panel.h) px of \(height)")
            #expect(panel.y - stage.y >= stage.h * 0.4, "page area above the sheet: \(panel.y - stage.y) of \(stage.h)")
        } else {
            // Beside the page, never over it.
            #expect(panel.x >= stage.x + stage.w - 0.5, "panel \(panel) overlaps the stage \(stage)")
        }
        let dir = Fixtures.artifactsDirectory("editor")
        try f.tab.screenshot(x: 0, y: 0, w: Double(width), h: Double(height)).write(to: dir.appendingPathComponent("sticker-tray-\(width)x\(height).png"))

        // Search by name: typed into the field, answered at once.
        let field = try f.tab.box("input[data-techo-sticker-search]")
        try f.tab.click(field.x + field.w / 2, field.y + field.h / 2)
        try f.tab.send("Input.insertText", ["text": "sun"])
        try f.tab.waitFor("techoEditor.panels.stickers.timings.search.length >= 1", what: "the search")
        let shown =
            try f.tab.evaluate(
                "[...document.querySelectorAll('[data-techo-sticker]')].filter((e) => e.offsetParent !== null).map((e) => e.dataset.techoSticker).sort()")
            as? [String]
        #expect(shown == ["flowers/sunflower", "weather/sun"])
        let searched = try f.tab.number("techoEditor.panels.stickers.timings.search[techoEditor.panels.stickers.timings.search.length - 1]")
        print("sticker search answered (\(width)x\(height)): \(String(format: "%.1f", searched)) ms")
        if width == 1440 {
            try f.tab.screenshot(x: 0, y: 0, w: Double(width), h: Double(height)).write(to: dir.appendingPathComponent("sticker-tray-search.png"))
        }
        for _ in 0..<3 { try f.tab.key("Backspace", code: "Backspace", keyCode: 8) }
        try f.tab.waitFor("document.querySelector('input[data-techo-sticker-search]').value === ''", what: "the search cleared")
        #expect(try f.tab.evaluate("[...document.querySelectorAll('[data-techo-sticker]')].filter((e) => e.offsetParent !== null).length") as? Int == builtin)

        // A click or a tap adds the sticker at the centre of the page's visible part.
        let before = try Self.elementCount(f)
        let item = try f.tab.box("[data-techo-sticker=\"flowers/daisy\"]")
        if touch {
            try f.tab.touches("touchStart", [(0, item.x + item.w / 2, item.y + item.h / 2)])
            try f.tab.touches("touchEnd", [])
        } else {
            try f.tab.click(item.x + item.w / 2, item.y + item.h / 2)
        }
        try f.waitForJournal("the daisy added") { try Self.elementCount(f) == before + 1 }
        try f.waitSettled()
        let added = try Self.lastElement(f)
        let at = try #require(point(added["at"]))
        let page = try f.tab.box("[data-techo-page]"), s = try f.tab.box("#stage")
        let l = max(page.x, s.x), t = max(page.y, s.y), r = min(page.x + page.w, s.x + s.w), b = min(page.y + page.h, s.y + s.h)
        let centre = ((l + r) / 2 - page.x) * 600 / page.w, middle = ((t + b) / 2 - page.y) * 800 / page.h
        #expect(abs(at.0 - centre) < 2 && abs(at.1 - middle) < 2, "daisy at \(at), the visible centre is \(centre),\(middle)")
        #expect(try Techo.run(["history", f.journal.path], in: f.folder).contains("add sticker flowers/daisy"))
        // Selected, and first in the tray (recently used), remembered by the browser.
        try f.tab.waitFor("techoEditor.selection === \(String(describing: added["id"] ?? "").debugDescription)", what: "the new sticker selected")
        if phone { _ = try Self.openTray(f, phone: true, touch: true) }
        #expect(try f.tab.evaluate("document.querySelector('[data-techo-sticker]').dataset.techoSticker") as? String == "flowers/daisy")
        #expect(try f.tab.evaluate("JSON.parse(localStorage.getItem('techo.stickers.recent'))[0]") as? String == "flowers/daisy")
    }

    @Test func aStickerDraggedFromTheTrayWithTheMouseLandsWhereItIsDropped() throws {
        let f = try EditorFixture()
        try f.waitSettled()
        _ = try Self.openTray(f, phone: false, touch: false)
        // Zoomed in, so the drop goes through the camera.
        try f.tab.click("[data-techo-action=zoom-in]")
        try f.tab.waitFor("Number(document.querySelector('[data-techo-page]').dataset.techoZoom) > 1.01", what: "the zoom")
        try f.waitSettled()
        let stage = try f.tab.box("#stage"), page = try f.tab.box("[data-techo-page]")
        let drop = (stage.x + stage.w * 0.4, stage.y + stage.h * 0.6)
        let expected = ((drop.0 - page.x) * 600 / page.w, (drop.1 - page.y) * 800 / page.h)
        let before = try Self.elementCount(f)
        let item = try f.tab.box("[data-techo-sticker=\"food/cake\"]")
        try f.tab.drag(from: (item.x + item.w / 2, item.y + item.h / 2), to: drop, steps: 16)
        try f.waitForJournal("the cake dropped") { try Self.elementCount(f) == before + 1 }
        let at = try #require(point(try Self.lastElement(f)["at"]))
        #expect(abs(at.0 - expected.0) < 2 && abs(at.1 - expected.1) < 2, "cake at \(at), dropped at \(expected)")
        // A drag that ends off the page adds nothing.
        try f.waitSettled()
        let off = try f.tab.box("[data-techo-sticker=\"food/lemon\"]")
        try f.tab.drag(from: (off.x + off.w / 2, off.y + off.h / 2), to: (off.x + off.w / 2, off.y + off.h + 120), steps: 8)
        try f.waitSettled()
        #expect(try Self.elementCount(f) == before + 1)
    }

    @Test(arguments: ["1024x1366", "390x844"])
    func aStickerHeldAndDraggedWithAFingerLandsWhereItIsDropped(size: String) throws {
        let (width, height) = Self.size(size)
        let phone = width < 600
        let f = try EditorFixture(width: width, height: height, touch: true)
        try f.waitSettled()
        _ = try Self.openTray(f, phone: phone, touch: true)
        let before = try Self.elementCount(f)
        // A quick swipe over the tray (a scroll) adds nothing.
        let first = try f.tab.box("[data-techo-sticker=\"food/coffee\"]")
        try f.tab.touches("touchStart", [(0, first.x + first.w / 2, first.y + first.h / 2)])
        for i in 1...6 { try f.tab.touches("touchMove", [(0, first.x + first.w / 2, first.y + first.h / 2 + Double(i) * 12)]) }
        try f.tab.touches("touchEnd", [])
        try f.waitSettled()
        #expect(try Self.elementCount(f) == before)
        // The swipe's fling comes to rest before the hold, as a hand pauses: a touch while the
        // tray still flings is the browser's scroll, and a hold there lifts nothing.
        try f.tab.waitFor(
            """
            new Promise((done) => {
              const el = document.querySelector('[data-techo-sticker="flowers/tulip"]');
              let last = NaN, still = 0;
              const look = () => {
                const y = el.getBoundingClientRect().top;
                still = y === last ? still + 1 : 0;
                last = y;
                if (still >= 15) done(true); else requestAnimationFrame(look);
              };
              requestAnimationFrame(look);
            })
            """, what: "the tray at rest after the swipe")

        // Press, hold, drag onto the page, lift.
        let item = try f.tab.box("[data-techo-sticker=\"flowers/tulip\"]")
        let a = (item.x + item.w / 2, item.y + item.h / 2)
        let stage = try f.tab.box("#stage")
        let drop = (stage.x + stage.w * 0.35, stage.y + stage.h * (phone ? 0.3 : 0.4))
        try f.tab.touches("touchStart", [(0, a.0, a.1)])
        usleep(400_000)  // the hold that lifts the sticker (220 ms)
        try f.tab.waitFor("!!document.querySelector('[data-techo-sticker].lifted')", what: "the sticker lifted")
        for i in 1...14 {
            let t = Double(i) / 14
            try f.tab.touches("touchMove", [(0, a.0 + (drop.0 - a.0) * t, a.1 + (drop.1 - a.1) * t)])
        }
        if phone {
            // The sheet stepped aside for the drop.
            #expect(try f.tab.evaluate("document.body.classList.contains('stickers-open')") as? Bool == false)
        }
        let page = try f.tab.box("[data-techo-page]")
        let expected = ((drop.0 - page.x) * 600 / page.w, (drop.1 - page.y) * 800 / page.h)
        try f.tab.touches("touchEnd", [])
        try f.waitForJournal("the tulip dropped") { try Self.elementCount(f) == before + 1 }
        let at = try #require(point(try Self.lastElement(f)["at"]))
        #expect(abs(at.0 - expected.0) < 2 && abs(at.1 - expected.1) < 2, "tulip at \(at), dropped at \(expected)")
        try f.waitSettled()
        try f.tab.screenshot(x: 0, y: 0, w: Double(width), h: Double(height))
            .write(to: Fixtures.artifactsDirectory("editor").appendingPathComponent("sticker-dropped-\(width)x\(height).png"))
    }
}
