// The view, with real input: Ctrl+wheel, keys, buttons, space+drag, scrolling and two fingers zoom
// and pan it about the pointer, and every input still lands where it points; zoomed in, what is
// on screen is techo's render at the screen's resolution; at 1440x900, 1024x1366 and 390x844
// every tool, colour and action is on screen, inside its panel, the selection's actions beside
// the selection, and the page most of the window. Each of these failed on the editor before the
// view existed (no zoom at all; at 390x844 the rail was cut after the ellipse, the white swatch
// cut off, the page 23 % of the window and Delete below the fold).

import Foundation
import TechoCodecs
import TechoTestSupport
import Testing

extension BrowserTab {
    /// A wheel turn at (x, y); `modifiers` 2 is Ctrl (a trackpad pinch arrives so in Chromium).
    func wheel(_ x: Double, _ y: Double, deltaX: Double = 0, deltaY: Double, modifiers: Int = 0) throws {
        try send(
            "Input.dispatchMouseEvent",
            ["type": "mouseWheel", "x": x, "y": y, "deltaX": deltaX, "deltaY": deltaY, "modifiers": modifiers, "pointerType": "mouse"])
    }

    /// Holds a key down (no key up), as a person holding Space.
    func keyDown(_ key: String, code: String, keyCode: Int) throws {
        try send(
            "Input.dispatchKeyEvent",
            ["type": "rawKeyDown", "key": key, "code": code, "windowsVirtualKeyCode": keyCode, "nativeVirtualKeyCode": keyCode])
    }

    func keyUp(_ key: String, code: String, keyCode: Int) throws {
        try send("Input.dispatchKeyEvent", ["type": "keyUp", "key": key, "code": code, "windowsVirtualKeyCode": keyCode, "nativeVirtualKeyCode": keyCode])
    }
}

extension EditorFixture {
    var zoom: Double { (try? tab.number("Number(document.querySelector('[data-techo-page]').dataset.techoZoom || 'NaN')")) ?? .nan }

    func waitZoom(_ what: String, _ condition: String) throws {
        try tab.waitFor("(() => { const z = Number(document.querySelector('[data-techo-page]').dataset.techoZoom); return \(condition); })()", what: what)
    }

    /// Waits until the sharp render for the view on screen is shown.
    func waitSharp() throws {
        try tab.waitFor(
            "(() => { const p = document.querySelector('[data-techo-page]'); const want = Math.min(4, techoEditor.view.k * devicePixelRatio);"
                + " return Math.abs(Number(p.dataset.techoSharp) - (want <= techoEditor.view.scale * 1.02 ? techoEditor.view.scale : want)) < 1e-3; })()",
            what: "the sharp render of the zoomed view")
    }

    func transform(_ id: String) throws -> [Double] {
        let info = try tab.evaluate("techoEditor.elementById('\(id)').transform") as? [NSNumber] ?? []
        return info.map(\.doubleValue)
    }
}

extension EditorBrowserTests {
    @Test func ctrlWheelKeysAndButtonsZoomAboutThePointerAndInputFollows() throws {
        let f = try EditorFixture()
        #expect(f.zoom == 1, "the page shows data-techo-zoom = 1 when fitted")
        // Ctrl+wheel over the tomato: the view grows and the tomato stays under the pointer.
        let at = try f.client(200, 250)
        for _ in 0..<3 { try f.tab.wheel(at.0, at.1, deltaY: -100, modifiers: 2) }
        try f.waitZoom("Ctrl+wheel to zoom in", "z > 1.5")
        let still = try f.client(200, 250)
        #expect(abs(still.0 - at.0) < 2 && abs(still.1 - at.1) < 2, "the point under the pointer moved from \(at) to \(still)")
        // The page box is the page as zoomed.
        let b = try f.tab.box("[data-techo-page]")
        #expect(abs(b.w / b.h - 600.0 / 800.0) < 0.01)
        let k = try f.tab.number("techoEditor.view.k")
        #expect(abs(b.w - 600 * k) < 1)
        // A drag at this zoom moves the tomato by the screen distance over the zoom.
        let before = try f.transform("tomato")
        try f.tab.drag(from: still, to: (still.0 + 120, still.1 + 60), steps: 8)
        try f.tab.waitFor("techoEditor.elementById('tomato').transform[4] > \(before[4] + 10)", what: "the zoomed drag to move the tomato")
        try f.waitSettled()
        let after = try f.transform("tomato")
        #expect(
            abs((after[4] - before[4]) - 120 / k) < 2 && abs((after[5] - before[5]) - 60 / k) < 2,
            "moved by \(after[4] - before[4]),\(after[5] - before[5]) at k \(k)")
        // Keys: Ctrl+0 fits, Ctrl+= and Ctrl+- step, Ctrl+1 is the paper's real size.
        try f.tab.key("0", code: "Digit0", keyCode: 48, modifiers: 2)
        try f.waitZoom("Ctrl+0 to fit", "z === 1")
        try f.tab.key("=", code: "Equal", keyCode: 187, modifiers: 2)
        try f.waitZoom("Ctrl+= to zoom in a step", "Math.abs(z - 1.25) < 0.01")
        try f.tab.key("-", code: "Minus", keyCode: 189, modifiers: 2)
        try f.waitZoom("Ctrl+- to zoom out a step", "Math.abs(z - 1) < 0.01")
        try f.tab.key("1", code: "Digit1", keyCode: 49, modifiers: 2)
        try f.tab.waitFor("Math.abs(techoEditor.zoom.percent - 100) < 1", what: "Ctrl+1 to show 100 %")
        // Shift+1 fits and Shift+0 is 100 % (a browser keeps Ctrl+1 for its first tab).
        try f.tab.key("!", code: "Digit1", keyCode: 49, modifiers: 8)
        try f.waitZoom("Shift+1 to fit", "z === 1")
        try f.tab.key(")", code: "Digit0", keyCode: 48, modifiers: 8)
        try f.tab.waitFor("Math.abs(techoEditor.zoom.percent - 100) < 1", what: "Shift+0 to show 100 %")
        // 100 % is the paper's real size: 600 px at 300 dpi is 2 inches, 192 CSS px.
        #expect(abs(try f.tab.box("[data-techo-page]").w - 192) <= 1)
        #expect(try f.tab.evaluate("document.querySelector('[data-techo-zoom-label]').textContent") as? String == "100 %")
        // Buttons, and the range: 25–800 %.
        try f.tab.click("[data-techo-action=zoom-fit]")
        try f.waitZoom("the fit button", "z === 1")
        try f.tab.click("[data-techo-action=zoom-in]")
        try f.waitZoom("the zoom-in button", "Math.abs(z - 1.25) < 0.01")
        try f.tab.click("[data-techo-action=zoom-out]")
        try f.waitZoom("the zoom-out button", "Math.abs(z - 1) < 0.01")
        try f.tab.click("[data-techo-action=zoom-100]")
        try f.tab.waitFor("Math.abs(techoEditor.zoom.percent - 100) < 1", what: "the 100 % button")
        for _ in 0..<20 { try f.tab.key("=", code: "Equal", keyCode: 187, modifiers: 2) }
        try f.tab.waitFor("Math.abs(techoEditor.zoom.percent - 800) < 0.5", what: "the zoom to stop at 800 %")
        for _ in 0..<30 { try f.tab.key("-", code: "Minus", keyCode: 189, modifiers: 2) }
        try f.tab.waitFor("Math.abs(techoEditor.zoom.percent - 25) < 0.5", what: "the zoom to stop at 25 %")
        #expect(try f.tab.evaluate("document.getElementById('status').classList.contains('error')") as? Bool == false)
    }

    @Test func spaceDragScrollAndWheelPanTheViewAndMoveNothing() throws {
        let f = try EditorFixture()
        for _ in 0..<3 { try f.tab.key("=", code: "Equal", keyCode: 187, modifiers: 2) }
        try f.waitZoom("three steps in", "z > 1.9")
        let start = try f.tab.evaluate("[document.getElementById('stage').scrollLeft, document.getElementById('stage').scrollTop]") as? [NSNumber] ?? []
        let tomato = try f.transform("tomato")
        let revision = try f.tab.evaluate("document.querySelector('[data-techo-page]').dataset.techoRevision") as? String
        // Space held, a drag over the tomato pans the view instead of moving it.
        let on = try f.client(200, 250)
        try f.tab.keyDown(" ", code: "Space", keyCode: 32)
        try f.tab.drag(from: on, to: (on.0 - 150, on.1 - 100), steps: 6)
        try f.tab.keyUp(" ", code: "Space", keyCode: 32)
        let panned = try f.tab.evaluate("[document.getElementById('stage').scrollLeft, document.getElementById('stage').scrollTop]") as? [NSNumber] ?? []
        #expect(panned.count == 2 && start.count == 2)
        #expect(
            abs(panned[0].doubleValue - start[0].doubleValue - 150) < 3 && abs(panned[1].doubleValue - start[1].doubleValue - 100) < 3,
            "space+drag scrolled \(start) to \(panned)")
        try f.waitSettled()
        #expect(try f.transform("tomato") == tomato)
        #expect(
            try f.tab.evaluate("document.querySelector('[data-techo-page]').dataset.techoRevision") as? String == revision, "space+drag changed the journal")
        // A plain wheel scrolls (pans) without zooming.
        let z = f.zoom
        try f.tab.wheel(on.0, on.1, deltaY: 120)
        try f.tab.waitFor("document.getElementById('stage').scrollTop > \(panned[1].doubleValue + 50)", what: "the wheel to scroll the view")
        #expect(f.zoom == z)
    }

    /// Two fingers on the paper zoom and pan the view; on the selection they pinch it, as before.
    @Test func twoFingersOnThePaperZoomTheViewAndOnTheSelectionPinchIt() throws {
        let f = try EditorFixture(width: 1024, height: 1366, touch: true)
        let tomato = try f.transform("tomato")
        let a0 = try f.client(250, 560), b0 = try f.client(350, 700)
        let mid = ((a0.0 + b0.0) / 2, (a0.1 + b0.1) / 2)
        let pageMid = (300.0, 630.0)
        try f.tab.touch("touchStart", [a0])
        try f.tab.touch("touchStart", [a0, b0])
        for i in 1...10 {
            let t = Double(i) / 10 * 60
            try f.tab.touch("touchMove", [(a0.0 - t, a0.1 - t), (b0.0 + t, b0.1 + t)])
        }
        try f.tab.touch("touchEnd", [])
        try f.waitZoom("two fingers spread on the paper to zoom in", "z > 1.3")
        // About the fingers' midpoint: the page point there stays there.
        let now = try f.client(pageMid.0, pageMid.1)
        // Within a few pixels over twenty steps (scroll positions are whole pixels; without the
        // pinch centre kept, the point would move by hundreds).
        #expect(abs(now.0 - mid.0) < 8 && abs(now.1 - mid.1) < 8, "the pinch centre moved from \(mid) to \(now)")
        try f.waitSettled()
        #expect(try f.transform("tomato") == tomato, "the view's pinch moved the tomato")
        // Two fingers moved together pan the view.
        let before = try f.client(300, 630)
        try f.tab.touch("touchStart", [a0])
        try f.tab.touch("touchStart", [a0, b0])
        for i in 1...6 { try f.tab.touch("touchMove", [(a0.0 - Double(i) * 10, a0.1), (b0.0 - Double(i) * 10, b0.1)]) }
        try f.tab.touch("touchEnd", [])
        let moved = try f.client(300, 630)
        #expect(abs(moved.0 - (before.0 - 60)) < 3 && abs(moved.1 - before.1) < 3, "two fingers panned from \(before) to \(moved)")
        // Fit again, select the tomato: two fingers on it pinch the tomato, not the view.
        try f.tab.click("[data-techo-action=zoom-fit]")
        try f.waitZoom("fit", "z === 1")
        let c = try f.client(200, 250)
        try f.tab.touch("touchStart", [c])
        try f.tab.touch("touchEnd", [])
        try f.tab.waitFor("techoEditor.selection === 'tomato'", what: "a tap to select the tomato")
        try f.waitSettled()
        let p = (c.0 - 20, c.1), q = (c.0 + 20, c.1)
        try f.tab.touch("touchStart", [p])
        try f.tab.touch("touchStart", [p, q])
        for i in 1...8 { try f.tab.touch("touchMove", [(p.0 - Double(i) * 4, p.1), (q.0 + Double(i) * 4, q.1)]) }
        try f.tab.touch("touchEnd", [])
        try f.waitForJournal("the tomato pinched") { abs(((try f.element("tomato")["scale"] as? NSNumber)?.doubleValue ?? 1.5) - 1.5) > 0.3 }
        #expect(f.zoom == 1, "a pinch on the selection zoomed the view")
    }

    /// Zoomed in, what is on screen is techo's render at the screen's resolution, not the fitted
    /// render stretched; the figure (zoom to sharp, ms) is printed for the bench notes.
    /// Zoomed to 400 % and to 800 % with the keys, the sharp render's time from the last zoom
    /// (the editor's own clock, `techoEditor.zoom.timings`) and what was fetched for it, from the
    /// last key press. Printed (`zoom to sharp …`), not asserted: a figure on a shared machine.
    @Test func zoomToSharpIsMeasured() throws {
        let f = try EditorFixture()
        for target in [400.0, 800.0] {
            try f.tab.evaluate("performance.clearResourceTimings()")
            while try f.tab.number("techoEditor.zoom.percent") < target - 0.5 {
                try f.tab.evaluate("window.techoKeyAt = performance.now()")
                try f.tab.key("=", code: "Equal", keyCode: 187, modifiers: 2)
            }
            try f.waitSharp()
            let fetched =
                try f.tab.evaluate(
                    "performance.getEntriesByType('resource').map((e) => new URL(e.name).search.replace(/[?&]token=[^&]*/, '') + ' ' + Math.round(e.startTime - window.techoKeyAt) + '-' + Math.round(e.responseEnd - window.techoKeyAt)).join(', ')"
                ) as? String ?? ""
            let timings = try #require(try f.tab.evaluate("techoEditor.zoom.timings") as? [NSNumber]).map(\.doubleValue)
            #expect(!timings.isEmpty)
            print("zoom to sharp at \(Int(target)) % (1440x900): \(String(format: "%.1f", timings.last ?? 0)) ms; fetched (ms after the last key): \(fetched)")
        }
    }

    @Test func aZoomedViewIsTechosRenderAtTheScreensResolution() throws {
        let f = try EditorFixture()
        // 800 %: the fixture's small page (2 x 2.7 inches) at 8 times its real size.
        for _ in 0..<12 { try f.tab.key("=", code: "Equal", keyCode: 187, modifiers: 2) }
        try f.tab.waitFor("Math.abs(techoEditor.zoom.percent - 800) < 0.5", what: "800 %")
        try f.waitSharp()
        let k = try f.tab.number("techoEditor.view.k")
        let page = try f.tab.box("[data-techo-page]"), stage = try f.tab.box("#stage")
        // The visible part of the page, whole CSS pixels inside both boxes (the zoom bar aside).
        let x0 = max(page.x, stage.x).rounded(.up), y0 = max(page.y, stage.y).rounded(.up)
        let x1 = min(page.x + page.w, stage.x + stage.w).rounded(.down), y1 = min(page.y + page.h, stage.y + stage.h - 80).rounded(.down)
        let shot = try f.tab.screenshot(x: x0, y: y0, w: x1 - x0, h: y1 - y0)
        let dir = Fixtures.artifactsDirectory("editor")
        try shot.write(to: dir.appendingPathComponent("zoom-800-screen.png"))
        let ref = f.folder.appendingPathComponent("zoom-800-export.png")
        try Techo.run(["export", f.journal.path, "--page", "p1", "--scale", String(k), "-o", ref.path], in: f.folder)
        let screen = try ImageDecoder.decodeStraight([UInt8](shot), name: "screenshot").pixels
        let export = try ImageDecoder.decodeStraight([UInt8](try Data(contentsOf: ref)), name: "export").pixels
        // Screen pixel (i, j) shows page device pixel (x0 - page.x + i, y0 - page.y + j).
        let ox = Int((x0 - page.x).rounded()), oy = Int((y0 - page.y).rounded())
        var off = 0, total = 0
        for j in stride(from: 0, to: screen.height, by: 2) {
            for i in stride(from: 0, to: screen.width, by: 2) {
                let ex = ox + i, ey = oy + j
                guard ex < export.width, ey < export.height else { continue }
                let a = (j * screen.width + i) * 4, b = (ey * export.width + ex) * 4
                var d = 0
                for c in 0..<3 {
                    let s: Int = Int(screen.bytes[a + c]), e: Int = Int(export.bytes[b + c])
                    d = max(d, abs(s - e))
                }
                if d > 24 { off += 1 }
                total += 1
            }
        }
        #expect(total > 10000)
        // The fitted render stretched 2.7 times differs along every edge (dots, letters, the
        // tomato's outline); techo's own render at this scale differs by a pixel's placement at most.
        #expect(Double(off) / Double(max(1, total)) < 0.01, "\(off) of \(total) pixels differ from techo export --scale \(k)")
        let timings = try f.tab.evaluate("techoEditor.zoom.timings") as? [NSNumber] ?? []
        print("zoom-to-sharp ms (1440x900, 800 %): \(timings.map(\.doubleValue))")
        #expect(!timings.isEmpty)
    }
}

extension EditorBrowserTests {
    /// Each tool letter (real key presses) picks its tool, W washi and L the lasso among them;
    /// the same letters typed into a text field stay text.
    @Test func everyToolLetterPicksItsTool() throws {
        let f = try EditorFixture()
        try f.waitSettled()
        let letters: [(String, String)] = [
            ("p", "pencil"), ("h", "highlighter"), ("l", "lasso"), ("r", "rect"), ("o", "ellipse"), ("e", "eraser"), ("t", "text"),
            ("w", "washi"), ("v", "select"),
        ]
        for (key, tool) in letters {
            try f.tab.key(key, code: "Key\(key.uppercased())", keyCode: Int(key.uppercased().unicodeScalars.first!.value))
            try f.tab.waitFor("techoEditor.tool.name === '\(tool)'", what: "\(key.uppercased()) picking \(tool)")
            #expect(try f.tab.evaluate("document.querySelector('[data-techo-tool=\(tool)]').getAttribute('aria-pressed')") as? String == "true")
        }
        try f.tab.click("#text-new")
        try f.tab.send("Input.insertText", ["text": "w"])
        try f.tab.key("w", code: "KeyW", keyCode: 87)
        #expect(try f.tab.evaluate("techoEditor.tool.name") as? String == "select", "a letter typed into a field is text")
    }

    /// At each size every tool, colour and action is on screen, not covered, inside its bar or
    /// panel; the selection's actions sit beside the selection; the page takes most of the window.
    /// Screenshots are kept with the test artifacts, to be looked at.
    @Test(arguments: [(1440, 900), (1024, 1366), (390, 844)])
    func everyToolColourAndActionIsOnScreenBesideThePage(width: Int, height: Int) throws {
        let f = try EditorFixture(width: width, height: height, touch: width < 1200)
        let dir = Fixtures.artifactsDirectory("editor")
        let c = try f.client(200, 250)
        try f.tab.click(c.0, c.1)
        try f.tab.waitFor("techoEditor.selection === 'tomato'", what: "the tomato selected")
        try f.tab.waitFor("!document.getElementById('selection-bar').hidden", what: "the selection's actions")
        try f.waitSettled()
        // One frame for the bar to take its place.
        try f.tab.waitFor("new Promise((r) => requestAnimationFrame(() => r(true)))", what: "a frame")
        try f.tab.screenshot(x: 0, y: 0, w: Double(width), h: Double(height)).write(to: dir.appendingPathComponent("layout-\(width)x\(height).png"))
        // Where each control is, whether it shows there (not covered) and which box holds it.
        let probe = """
            ((selector) => [...document.querySelectorAll(selector)].map((e) => {
              const r = e.getBoundingClientRect();
              const box = e.closest('.selection-bar, .bar, .panel');
              const b = box ? box.getBoundingClientRect() : { left: 0, top: 0, right: innerWidth, bottom: innerHeight };
              const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
              const shown = !!hit && (hit === e || e.contains(hit) || hit.contains(e) || (e.labels && [...e.labels].some((l) => l.contains(hit))));
              return [e.dataset.techoTool || e.dataset.techoAction || e.dataset.color || e.id || e.className,
                r.left, r.top, r.right, r.bottom, b.left, b.top, b.right, b.bottom, shown, innerWidth, innerHeight];
            }))
            """
        func check(_ selector: String, _ what: String) throws -> Int {
            let rows =
                try f.tab.evaluate("\(probe)(\(String(data: try JSONSerialization.data(withJSONObject: [selector]), encoding: .utf8)!)[0])") as? [[Any]] ?? []
            for r in rows {
                let name = r[0] as? String ?? "?"
                let v = r[1...8].map { number($0) ?? .nan }
                let W = number(r[10]) ?? 0, H = number(r[11]) ?? 0
                #expect(v[0] >= -0.5 && v[1] >= -0.5 && v[2] <= W + 0.5 && v[3] <= H + 0.5, "\(width)x\(height): \(what) \(name) at \(v[0...3]) is off screen")
                #expect(
                    v[0] >= v[4] - 0.5 && v[1] >= v[5] - 0.5 && v[2] <= v[6] + 0.5 && v[3] <= v[7] + 0.5,
                    "\(width)x\(height): \(what) \(name) at \(v[0...3]) overflows its box \(v[4...7])")
                #expect(r[9] as? Bool == true, "\(width)x\(height): \(what) \(name) is covered")
            }
            return rows.count
        }
        #expect(try check("[data-techo-tool]", "tool") == 12)
        // Which page is open reads whole in the header, not clipped to a letter ("p…").
        let label =
            try f.tab.evaluate(
                "(() => { const l = document.getElementById('page-label'); return [l.innerText.trim(), l.scrollWidth - l.clientWidth]; })()") as? [Any] ?? []
        #expect(
            label.count == 2 && ["page 1 of 2", "1/2"].contains(label[0] as? String ?? "") && (number(label[1]) ?? 99) <= 1,
            "\(width)x\(height): the page label shows \(label)")
        for a in ["undo", "redo", "paste", "export-png", "export-pdf", "share", "zoom-in", "zoom-out", "zoom-fit", "zoom-100"] {
            #expect(try check("[data-techo-action=\(a)]", "action") == 1)
        }
        for a in ["flip-h", "flip-v", "rotate", "raise", "lower", "delete", "copy", "duplicate"] {
            #expect(try check("[data-techo-action=\(a)]", "selection action") == 1)
        }
        // The selection's actions beside the selection: their bar is within 24 px of the tomato's
        // frame with its handles (the rotate knob above, the corners), above or below, overlaps
        // it across, and covers none of the handles' 44 px targets.
        let near =
            try f.tab.evaluate(
                """
                (() => { const a = document.getElementById('selection-bar').getBoundingClientRect();
                  const rects = [document.querySelector('[data-techo-element=tomato]'),
                    ...document.querySelectorAll('.selection-frame:not([hidden]) [data-techo-handle]:not([hidden])')].map((e) => e.getBoundingClientRect());
                  const h = rects.reduce((u, r) => ({ left: Math.min(u.left, r.left), top: Math.min(u.top, r.top), right: Math.max(u.right, r.right), bottom: Math.max(u.bottom, r.bottom) }));
                  const gap = Math.max(a.top - h.bottom, h.top - a.bottom, 0);
                  const across = Math.min(a.right, h.right) - Math.max(a.left, h.left);
                  const covered = rects.slice(1).filter((r) => Math.min(a.right, r.right) > Math.max(a.left, r.left) && Math.min(a.bottom, r.bottom) > Math.max(a.top, r.top)).length;
                  return [gap, across, covered, rects.length - 1]; })()
                """) as? [NSNumber] ?? []
        #expect(near.count == 4 && near[0].doubleValue <= 24 && near[1].doubleValue > 0, "\(width)x\(height): the selection's actions are \(near) from it")
        #expect(near.count == 4 && near[3].intValue == 5 && near[2].intValue == 0, "\(width)x\(height): the bar covers \(near) handles of the tomato's frame")
        // Colours: on the phone one tap away in the rail, then all on screen.
        if width < 600 {
            #expect(try check("[data-techo-action=colours]", "colour button") == 1)
            try f.tab.click("[data-techo-action=colours]")
            try f.tab.waitFor("document.body.classList.contains('colours-open')", what: "the colours popover")
            try f.tab.screenshot(x: 0, y: 0, w: Double(width), h: Double(height)).write(to: dir.appendingPathComponent("layout-\(width)x\(height)-colours.png"))
        }
        #expect(try check(".swatch", "colour") == 9)
        #expect(try check("#color-picker", "custom colour") == 1)
        #expect(try check("#width", "width") == 1)
        #expect(try check("#fill", "fill") == 1)
        #expect(try check("[data-techo-action=pen-only]", "pen only") == 1)
        if width < 600 {
            // The journal panel is a sheet from the header: its controls are on screen once open.
            try f.tab.click("[data-techo-action=panel]")
            try f.tab.waitFor("document.body.classList.contains('panel-open')", what: "the journal panel")
            try f.tab.screenshot(x: 0, y: 0, w: Double(width), h: Double(height)).write(to: dir.appendingPathComponent("layout-\(width)x\(height)-panel.png"))
            #expect(try check("#page-add", "add page") == 1)
        }
        // The page is most of the window: it fills its stage's shorter side, and at the phone and
        // the tablet, half the window or more (at 390x844 it was 23 %).
        let page = try f.tab.box("[data-techo-page]")
        let share = page.w * page.h / Double(width * height)
        print("page share of the window at \(width)x\(height): \(share)")
        #expect(share >= (width > 1200 ? 0.3 : width > 600 ? 0.4 : 0.5), "\(width)x\(height): the page is \(share) of the window")
    }

    /// Frames during a drag on the crowded page (50 stickers, 5,000 strokes) and during a
    /// two-finger zoom, from requestAnimationFrame timestamps in the page: the figures are
    /// printed (the bench notes keep them); the test asserts only that frames kept coming.
    @Test func framesKeepComingDuringADragAndAPinchZoomOnACrowdedPage() throws {
        let crowded = FileManager.default.temporaryDirectory.appendingPathComponent("techo-crowded-\(UUID().uuidString).techo")
        let made = try ChildProcess.run(BuiltProducts.url("techo-bench"), ["--crowded-journal", crowded.path], in: FileManager.default.temporaryDirectory)
        try #require(made.code == 0, "techo-bench --crowded-journal: \(made.err)")
        defer { try? FileManager.default.removeItem(at: crowded) }
        let f = try EditorFixture(width: 1024, height: 1366, touch: true, journal: crowded)
        let start = """
            (() => { window.__frames = []; const tick = (t) => { window.__frames.push(t); if (window.__frames.length < 100000) window.__raf = requestAnimationFrame(tick); };
              window.__raf = requestAnimationFrame(tick); return true; })()
            """
        let stop = """
            (() => { cancelAnimationFrame(window.__raf); const f = window.__frames; const d = f.slice(1).map((t, i) => t - f[i]).sort((a, b) => a - b);
              return [f.length, (f[f.length - 1] - f[0]) / 1000, d.length ? 1000 / d[Math.floor(d.length / 2)] : 0, d.length ? d[d.length - 1] : 0]; })()
            """
        // The topmost sticker, pressed at its centre.
        let id = try #require(try f.tab.evaluate("techoEditor.pageData.elements.filter((e) => e.type === 'image').pop().id") as? String)
        let t = try #require(try f.tab.evaluate("techoEditor.elementById('\(id)').transform") as? [NSNumber])
        let b = try f.tab.box("[data-techo-page]")
        let k = try f.tab.number("techoEditor.view.k")
        let p = (b.x + t[4].doubleValue * k, b.y + t[5].doubleValue * k)
        try f.tab.click(p.0, p.1)
        try f.tab.waitFor("techoEditor.selection === '\(id)'", what: "the sticker selected")
        try f.waitSettled()
        _ = try f.tab.evaluate(start)
        try f.tab.mouse("mouseMoved", p.0, p.1)
        try f.tab.mouse("mousePressed", p.0, p.1, buttons: 1, clickCount: 1)
        for i in 1...90 {
            try f.tab.mouse("mouseMoved", p.0 + Double(i) * 2, p.1 + Double(i), buttons: 1)
            usleep(16_000)
        }
        try f.tab.mouse("mouseReleased", p.0 + 180, p.1 + 90, clickCount: 1)
        let drag = try f.tab.evaluate(stop) as? [NSNumber] ?? []
        try f.waitSettled()
        // Two fingers on the paper's corner (no selection there) spread: the view zooms.
        let a0 = (b.x + 40, b.y + b.h - 60), b0 = (b.x + 120, b.y + b.h - 140)
        _ = try f.tab.evaluate(start)
        try f.tab.touch("touchStart", [a0])
        try f.tab.touch("touchStart", [a0, b0])
        for i in 1...60 {
            let d = Double(i)
            try f.tab.touch("touchMove", [(a0.0 - d * 0.3, a0.1 + d * 0.3), (b0.0 + d, b0.1 - d)])
            usleep(16_000)
        }
        try f.tab.touch("touchEnd", [])
        let pinch = try f.tab.evaluate(stop) as? [NSNumber] ?? []
        print("frames during a drag on the crowded page [frames, s, median fps, longest ms]: \(drag.map(\.doubleValue))")
        print("frames during a pinch-zoom on the crowded page [frames, s, median fps, longest ms]: \(pinch.map(\.doubleValue))")
        #expect(f.zoom > 1.2, "the pinch did not zoom the view")
        #expect(drag.count == 4 && drag[0].doubleValue > 30, "too few frames during the drag: \(drag)")
        #expect(pinch.count == 4 && pinch[0].doubleValue > 30, "too few frames during the pinch: \(pinch)")
    }
}

extension EditorBrowserTests {
    /// Zoomed in, a sticker dragged is drawn at the screen's resolution while it moves (the layers
    /// under and over it and its sprite rendered again for the visible part), and the view stays
    /// sharp from the release until the new revision's sharp render is shown. Before, the live
    /// view was the fitted render stretched 2.7 times, soft along every edge, and went soft again
    /// between the release and the new sharp render.
    @Test func aDragWhileZoomedInIsSharpAndStaysSharp() throws {
        let f = try EditorFixture()
        let at = try f.client(200, 250)
        // 800 %: the fixture's small page at 2.7 times its fitted size.
        for _ in 0..<12 { try f.tab.wheel(at.0, at.1, deltaY: -100, modifiers: 2) }
        try f.tab.waitFor("Math.abs(techoEditor.zoom.percent - 800) < 0.5", what: "Ctrl+wheel to zoom in to 800 %")
        try f.waitSharp()
        let page = try f.tab.box("[data-techo-page]"), stage = try f.tab.box("#stage")
        let x0 = max(page.x, stage.x).rounded(.up), y0 = max(page.y, stage.y).rounded(.up)
        let x1 = min(page.x + page.w, stage.x + stage.w).rounded(.down), y1 = min(page.y + page.h, stage.y + stage.h - 80).rounded(.down)
        // Whether a sharp picture is on screen at the moment the old sharp render is taken away.
        try f.tab.evaluate(
            """
            window.techoSharpAtDrop = [];
            new MutationObserver((records) => { for (const r of records) for (const n of r.removedNodes)
              if (n.classList && n.classList.contains('tile')) { const c = document.querySelector('canvas.live-sharp');
                window.techoSharpAtDrop.push(!!document.querySelector('img.tile') || !!(c && !c.hidden)); } })
              .observe(document.querySelector('[data-techo-page]'), { childList: true });
            """)
        let start = try f.client(200, 250)
        try f.tab.mouse("mouseMoved", start.0, start.1)
        try f.tab.mouse("mousePressed", start.0, start.1, buttons: 1, clickCount: 1)
        for i in 1...10 { try f.tab.mouse("mouseMoved", start.0 + Double(i) * 6, start.1 + Double(i) * 3, buttons: 1) }
        try f.tab.waitFor("(() => { const c = document.querySelector('canvas.live-sharp'); return !!c && !c.hidden; })()", what: "the sharp live view")
        try f.tab.evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
        // The page alone: the selection's frame and actions (shown after the release) are hidden for the shots.
        try f.tab.evaluate(
            "const s = document.createElement('style'); s.id = 'shot'; s.textContent = '.selection-frame, .selection-bar, .handle { visibility: hidden !important; }'; document.head.append(s)"
        )
        let live = try f.tab.screenshot(x: x0, y: y0, w: x1 - x0, h: y1 - y0)
        let revision = try f.tab.evaluate("document.querySelector('[data-techo-page]').dataset.techoRevision") as? String ?? ""
        try f.tab.mouse("mouseReleased", start.0 + 60, start.1 + 30, clickCount: 1)
        try f.tab.waitFor("document.querySelector('[data-techo-page]').dataset.techoRevision !== '\(revision)'", what: "the drag's new render")
        try f.waitSettled()
        try f.waitSharp()
        let settled = try f.tab.screenshot(x: x0, y: y0, w: x1 - x0, h: y1 - y0)
        let dir = Fixtures.artifactsDirectory("editor")
        try live.write(to: dir.appendingPathComponent("zoomed-drag-live.png"))
        try settled.write(to: dir.appendingPathComponent("zoomed-drag-settled.png"))
        let a = try ImageDecoder.decodeStraight([UInt8](live), name: "live").pixels
        let b = try ImageDecoder.decodeStraight([UInt8](settled), name: "settled").pixels
        #expect(a.width == b.width && a.height == b.height)
        var off = 0, total = 0
        for i in stride(from: 0, to: min(a.bytes.count, b.bytes.count), by: 4) {
            var d = 0
            for c in 0..<3 { d = max(d, abs(Int(a.bytes[i + c]) - Int(b.bytes[i + c]))) }
            if d > 16 { off += 1 }
            total += 1
        }
        print("zoomed drag: \(off) of \(total) pixels of the live view differ by more than 16 from the render after it")
        // The live view is the render that follows it, up to a few edge pixels (26 of 803,976 when
        // written); the fitted render stretched differed at the edge of every dot (2,490).
        #expect(off * 2000 < total, "\(off) of \(total) pixels of the live view differ from the render after it")
        let drops = try #require(try f.tab.evaluate("window.techoSharpAtDrop") as? [Bool])
        #expect(!drops.isEmpty && drops.allSatisfy { $0 }, "the view went soft between the release and the new sharp render: \(drops)")
        let moved = try f.transform("tomato")
        #expect(abs(moved[4] - 200 - 60 / (try f.tab.number("techoEditor.view.k"))) < 2, "\(moved)")
    }
}
