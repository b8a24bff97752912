// Ink with a real pen, fingers and a mouse (Chromium through CDP: pointerType "pen" with
// pressure, Input.dispatchTouchEvent, mouse events), at the three sizes: pen first (a resting
// hand ignored, fingers no longer draw once a pen has, the "pen only" switch kept in the
// browser), strokes as objects (the select tool picks one stroke to move, recolour, re-width and
// delete; the stroke eraser takes whole strokes, one step per drag), endless pages with paper
// below their content, previews that look like the render, and per-tool widths in mm (the time
// from a pointer event to the frame that shows it is in EditorBrowserTests+Latency).
//
// Each failed on the editor before this work: the pen's stroke was lost and the palm's smudge
// saved; a finger drew like the pen; a press on a stroke picked nothing; there was no stroke
// eraser; an empty endless page was 0.61 CSS px tall; the highlighter's preview was lighter than
// its render and a zoomed stroke previewed soft; the widest highlighter was 20 px.

import Foundation
import TechoCodecs
import TechoTestSupport
import Testing

/// The three window sizes every ink item is tried at.
let inkSizes: [(Int, Int)] = [(1440, 900), (1024, 1366), (390, 844)]

extension BrowserTab {
    /// A pen stroke through client points, with pressure per point, lifted at the end unless
    /// `lift` is false.
    func pen(_ points: [(Double, Double)], pressure: (Int) -> Double = { _ in 0.6 }, lift: Bool = true) throws {
        guard let a = points.first, let z = points.last else { return }
        try mouse("mouseMoved", a.0, a.1, pointerType: "pen")
        try mouse("mousePressed", a.0, a.1, buttons: 1, clickCount: 1, pointerType: "pen", force: pressure(0))
        for (i, p) in points.enumerated().dropFirst() {
            try mouse("mouseMoved", p.0, p.1, buttons: 1, pointerType: "pen", force: pressure(i))
        }
        if lift { try mouse("mouseReleased", z.0, z.1, clickCount: 1, pointerType: "pen", force: pressure(points.count - 1)) }
    }
}

extension EditorFixture {
    /// The strokes of ink layer `ink-1` on p1 as `techo show --json` gives them.
    func strokes() throws -> [[String: Any]] { (try element("ink-1")["strokes"] as? [[String: Any]]) ?? [] }

    /// Client points along page points from a to b in n steps.
    func line(_ a: (Double, Double), _ b: (Double, Double), steps: Int = 12) throws -> [(Double, Double)] {
        try (0...steps).map { i in
            let t = Double(i) / Double(steps)
            return try client(a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t)
        }
    }

    var appliedSteps: Int {
        (try? tab.number("techoEditor.journal.history.filter((h) => h.applied).length")).map { Int($0) } ?? -1
    }

    /// The "pen only" switch's aria-pressed, or "none" when there is no switch.
    var penOnlyPressed: String {
        let js = "(document.querySelector('[data-techo-action=pen-only]') || { getAttribute: () => 'none' }).getAttribute('aria-pressed')"
        return ((try? tab.evaluate(js)) as? String) ?? "none"
    }

    func selectionHook() throws -> String { try tab.evaluate("document.querySelector('[data-techo-page]').dataset.techoSelection") as? String ?? "?" }

    /// Picks a tool by its button (on the phone's rail too).
    func tool(_ name: String) throws {
        try tab.click("[data-techo-tool=\"\(name)\"]")
        try tab.waitFor("techoEditor.tool.name === '\(name)'", what: "the \(name) tool")
    }
}

extension EditorBrowserTests {
    // MARK: pen first

    /// A hand resting on the screen a moment before the pen and all through its stroke: the pen's
    /// stroke is kept whole (with its pressure), nothing of the hand is saved, and "pen only" is on.
    @Test(arguments: inkSizes) func aHandRestingWhileThePenDrawsIsIgnored(size: (Int, Int)) throws {
        let f = try EditorFixture(width: size.0, height: size.1, touch: true)
        try f.tool("pencil")
        #expect(f.penOnlyPressed == "false")
        let before = try f.strokes().count
        // The side of the hand lands below and right of where the pen will write, and drifts.
        let palm = try f.client(470, 720)
        try f.tab.touches("touchStart", [(id: 7, x: palm.0, y: palm.1)])
        try f.tab.touches("touchMove", [(id: 7, x: palm.0 + 3, y: palm.1 + 2)])
        let path = try f.line((120, 300), (380, 360), steps: 16)
        try f.tab.pen(Array(path.prefix(8)), pressure: { 0.3 + Double($0) * 0.04 }, lift: false)
        try f.tab.touches("touchMove", [(id: 7, x: palm.0 + 6, y: palm.1 + 5)])
        for (i, p) in path.enumerated().dropFirst(8) { try f.tab.mouse("mouseMoved", p.0, p.1, buttons: 1, pointerType: "pen", force: 0.3 + Double(i) * 0.04) }
        try f.tab.mouse("mouseReleased", path.last!.0, path.last!.1, clickCount: 1, pointerType: "pen", force: 0.9)
        try f.tab.touches("touchEnd", [(id: 7, x: palm.0 + 6, y: palm.1 + 5)])
        try f.waitForJournal("the pen's stroke") { try f.strokes().count > before }
        try f.waitSettled()
        let added = Array(try f.strokes().dropFirst(before))
        #expect(added.count == 1, "\(size): strokes saved: \(added.map { $0["points"] ?? "?" })")
        let points = (added.first?["points"] as? [[NSNumber]]) ?? []
        #expect(points.count >= 12, "\(size): the pen's stroke has \(points.count) points")
        #expect(points.allSatisfy { $0.count == 3 && $0[1].doubleValue < 400 }, "\(size): a point of the hand in \(points)")
        #expect(abs((points.first?[0].doubleValue ?? 0) - 120) < 3 && abs((points.last?[0].doubleValue ?? 0) - 380) < 3)
        #expect(f.penOnlyPressed == "true")
    }

    /// Once a pen has drawn, a finger no longer draws: it selects (the tomato), and the choice is
    /// kept in the browser; turned off, a finger draws again.
    @Test(arguments: inkSizes) func onceAPenHasDrawnFingersSelectAndDoNotDraw(size: (Int, Int)) throws {
        let f = try EditorFixture(width: size.0, height: size.1, touch: true)
        try f.tool("pencil")
        // Before any pen, a finger draws (a phone without a pen).
        let before = try f.strokes().count
        let finger = try f.line((100, 420), (250, 470), steps: 8)
        try f.tab.touch("touchStart", [finger[0]])
        for p in finger.dropFirst() { try f.tab.touch("touchMove", [p]) }
        try f.tab.touch("touchEnd", [])
        try f.waitForJournal("the finger's stroke") { try f.strokes().count == before + 1 }
        try f.tab.pen(try f.line((100, 300), (300, 330)))
        try f.waitForJournal("the pen's stroke") { try f.strokes().count == before + 2 }
        try f.waitSettled()
        // Now a finger's drag draws nothing, and its tap on the tomato selects it.
        try f.tab.touch("touchStart", [finger[0]])
        for p in finger.dropFirst() { try f.tab.touch("touchMove", [p]) }
        try f.tab.touch("touchEnd", [])
        let tomato = try f.client(200, 250)
        try f.tab.touch("touchStart", [tomato])
        try f.tab.touch("touchEnd", [])
        try f.tab.waitFor("techoEditor.selection === 'tomato'", what: "a finger's tap to select the tomato")
        try f.waitSettled()
        #expect(try f.strokes().count == before + 2, "\(size): a finger drew after the pen")
        #expect(try f.tab.evaluate("techoEditor.tool.name") as? String == "pencil")
        // Kept in the browser: a reload still has "pen only" on.
        try f.tab.open(f.server.url)
        try f.tab.waitFor("document.querySelector('[data-techo-action=pen-only]').getAttribute('aria-pressed') === 'true'", what: "pen only kept")
        // Turned off (on the phone it sits with the colours), a finger draws again.
        if size.0 < 600 {
            try f.tab.click("[data-techo-action=colours]")
            try f.tab.waitFor("document.body.classList.contains('colours-open')", what: "the colours popover")
        }
        try f.tab.click("[data-techo-action=pen-only]")
        try f.tab.waitFor("document.querySelector('[data-techo-action=pen-only]').getAttribute('aria-pressed') === 'false'", what: "pen only off")
        if size.0 < 600 { try f.tab.click("[data-techo-action=colours]") }
        try f.tool("pencil")
        try f.tab.touch("touchStart", [finger[0]])
        for p in finger.dropFirst() { try f.tab.touch("touchMove", [p]) }
        try f.tab.touch("touchEnd", [])
        try f.waitForJournal("a finger's stroke with pen only off") { try f.strokes().count == before + 3 }
    }

    // MARK: ink as objects

    /// The select tool picks the stroke under the pointer (s1, the blue line), shows its frame and
    /// puts its id in the selection hook; a drag moves it, a swatch recolours it, the width
    /// slider re-widths it and Delete removes it, each one history step; the tomato, above the
    /// ink, is still picked over a stroke under it.
    @Test(arguments: inkSizes) func theSelectToolPicksOneStrokeToMoveRecolourRewidthAndDelete(size: (Int, Int)) throws {
        let f = try EditorFixture(width: size.0, height: size.1, touch: size.0 < 1200)
        // A second stroke under the tomato (the sticker is above the ink layer).
        _ = try Techo.run(["draw", f.journal.path, "p1", "--tool", "pencil", "--width", "10", "--points", "120,250 280,250"], in: f.folder)
        try f.tab.waitFor(
            "techoEditor.pageData && techoEditor.pageData.page.elements.some((e) => e.type === 'ink' && e.strokes === 2)", what: "the second stroke")
        try f.waitSettled()
        var steps = f.appliedSteps
        let on = try f.client(300, 640)
        try f.tab.click(on.0, on.1)
        try f.tab.waitFor("document.querySelector('[data-techo-page]').dataset.techoSelection === 's1'", what: "the stroke picked")
        try f.tab.waitFor("!document.querySelector('[data-techo-stroke-frame]').hidden", what: "the stroke's frame")
        let frame = try f.tab.box("[data-techo-stroke-frame]")
        let k = try f.tab.number("techoEditor.view.k")
        let pageBox = try f.tab.box("[data-techo-page]")
        #expect(frame.x - pageBox.x < 80 * k && frame.x + frame.w - pageBox.x > 520 * k, "\(size): frame \(frame) around the stroke")
        // Drag it up by 100 page px.
        let to = try f.client(300, 540)
        try f.tab.drag(from: on, to: to, steps: 8)
        try f.waitForJournal("the stroke moved") { ((try f.strokes().first?["points"] as? [[NSNumber]])?.first?[1].doubleValue ?? 600) < 560 }
        try f.waitSettled()
        let moved = (try f.strokes().first?["points"] as? [[NSNumber]]) ?? []
        #expect(abs((moved.first?[1].doubleValue ?? 0) - 500) < 3, "\(size): moved to \(moved.first ?? [])")
        #expect(f.appliedSteps == steps + 1)
        steps += 1
        // Still selected: a swatch recolours it, the slider's end re-widths it.
        #expect(try f.selectionHook() == "s1")
        if size.0 < 600 {
            try f.tab.click("[data-techo-action=colours]")
            try f.tab.waitFor("document.body.classList.contains('colours-open')", what: "the colours popover")
        }
        try f.tab.click(".swatch[data-color='#e07a5f']")
        try f.waitForJournal("the stroke recoloured") { try f.strokes().first?["color"] as? String == "#e07a5f" }
        try f.waitSettled()
        #expect(f.appliedSteps == steps + 1)
        steps += 1
        let open = try f.tab.evaluate("document.body.classList.contains('colours-open')") as? Bool ?? false
        if size.0 < 600 && !open {
            try f.tab.click("[data-techo-action=colours]")
        }
        let slider = try f.tab.box("#width")
        try f.tab.click(slider.x + slider.w - 1, slider.y + slider.h / 2)
        try f.waitForJournal("the stroke re-widthed") { number(try f.strokes().first?["width"]).map { $0 > 30 } == true }
        try f.waitSettled()
        #expect(f.appliedSteps == steps + 1)
        steps += 1
        // Delete removes it (and only it).
        try f.tab.key("Delete", code: "Delete", keyCode: 46)
        try f.waitForJournal("the stroke deleted") { try f.strokes().map { $0["id"] as? String } == ["s2"] }
        try f.waitSettled()
        #expect(f.appliedSteps == steps + 1)
        #expect(try f.selectionHook() == "")
        // The ink layer lies above the tomato: on the tomato where s2 runs over it, s2 is picked;
        // off the stroke, the tomato. Raised above the ink, the tomato wins there.
        try f.tool("select")
        let over = try f.client(200, 250), off = try f.client(200, 290)
        try f.tab.click(over.0, over.1)
        try f.tab.waitFor("document.querySelector('[data-techo-page]').dataset.techoSelection === 's2'", what: "the stroke over the tomato picked")
        try f.tab.click(off.0, off.1)
        try f.tab.waitFor("techoEditor.selection === 'tomato'", what: "the tomato picked off the stroke")
        #expect(try f.selectionHook() == "tomato")
        _ = try Techo.run(["raise", f.journal.path, "p1", "tomato", "--top"], in: f.folder)
        try f.tab.waitFor("techoEditor.pageData.elements[techoEditor.pageData.elements.length - 1].id === 'tomato'", what: "the tomato on top")
        try f.waitSettled()
        try f.tab.key("Escape", code: "Escape", keyCode: 27)
        try f.tab.click(over.0, over.1)
        try f.tab.waitFor("techoEditor.selection === 'tomato'", what: "the tomato above the ink picked over the stroke under it")
        #expect(try f.selectionHook() == "tomato")
    }

    /// The stroke eraser takes every whole stroke its drag touches, in one history step; the
    /// pixel eraser is still there.
    @Test(arguments: inkSizes) func theStrokeEraserTakesWholeStrokesInOneStep(size: (Int, Int)) throws {
        let f = try EditorFixture(width: size.0, height: size.1, touch: size.0 < 1200)
        for x in [150, 450] {
            _ = try Techo.run(["draw", f.journal.path, "p1", "--tool", "pencil", "--points", "\(x),400 \(x),500"], in: f.folder)
        }
        try f.tab.waitFor("techoEditor.pageData && techoEditor.pageData.page.elements.some((e) => e.type === 'ink' && e.strokes === 3)", what: "three strokes")
        try f.waitSettled()
        let steps = f.appliedSteps
        try f.tool("stroke-eraser")
        #expect(try f.tab.evaluate("!!document.querySelector('[data-techo-tool=eraser]')") as? Bool == true)
        // Across s2 (x = 150) and down through s1 (the blue line at y ≈ 600–640), not near s3.
        let path = try f.line((100, 450), (220, 450), steps: 6) + (try f.line((220, 450), (230, 700), steps: 8)).dropFirst()
        if size.0 < 1200 {
            try f.tab.touch("touchStart", [path[0]])
            for p in path.dropFirst() { try f.tab.touch("touchMove", [p]) }
            try f.tab.touch("touchEnd", [])
        } else {
            try f.tab.mouse("mouseMoved", path[0].0, path[0].1)
            try f.tab.mouse("mousePressed", path[0].0, path[0].1, buttons: 1, clickCount: 1)
            for p in path.dropFirst() { try f.tab.mouse("mouseMoved", p.0, p.1, buttons: 1) }
            try f.tab.mouse("mouseReleased", path.last!.0, path.last!.1, clickCount: 1)
        }
        try f.waitForJournal("two strokes erased") { try f.strokes().map { $0["id"] as? String } == ["s3"] }
        try f.waitSettled()
        #expect(f.appliedSteps == steps + 1, "\(size): one step for the drag")
        let history = try Techo.run(["history", f.journal.path], in: f.folder)
        #expect(history.contains("erase 2 strokes"), "\(history)")
    }

    // MARK: endless pages

    /// An empty endless page shows at least a screen of paper; the pen can start below the
    /// content, and the view grows as it goes down.
    @Test(arguments: inkSizes) func anEndlessPageShowsPaperBelowItsContentAndGrows(size: (Int, Int)) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("techo-endless-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let j = dir.appendingPathComponent("e.techo")
        _ = try Techo.run(["init", j.path, "--title", "Scroll", "--size", "600xauto", "--background", "#f6f0e4"], in: dir)
        let f = try EditorFixture(width: size.0, height: size.1, touch: true, journal: j)
        try f.waitSettled()
        let stage = try f.tab.box("#stage")
        var page = try f.tab.box("[data-techo-page]")
        #expect(page.h >= stage.h * 0.9, "\(size): an empty endless page is \(page.h) px tall in a \(stage.h) px stage")
        try f.tool("pencil")
        // Down the page from a third of the way, with the pen, well below any content.
        let k = try f.tab.number("techoEditor.view.k")
        let x = page.x + 100 * k
        let y0 = max(page.y, stage.y) + stage.h * 0.3, y1 = min(page.y + page.h, stage.y + stage.h) - 10
        let path = (0...20).map { (x + Double($0) * 3, y0 + (y1 - y0) * Double($0) / 20) }
        try f.tab.pen(path, lift: false)
        let grown = try f.tab.box("[data-techo-page]")
        #expect(grown.h > page.h, "\(size): the view did not grow as the pen went down (\(page.h) → \(grown.h))")
        try f.tab.mouse("mouseReleased", path.last!.0, path.last!.1, clickCount: 1, pointerType: "pen", force: 0.6)
        try f.waitForJournal("the stroke below the content") { try f.strokes().count == 1 }
        try f.waitSettled()
        let pts = (try f.strokes().first?["points"] as? [[NSNumber]]) ?? []
        #expect(pts.count > 10 && (pts.last?[1].doubleValue ?? 0) > (pts.first?[1].doubleValue ?? 0) + 100 / k)
        // With content, there is still a screen of paper below it.
        page = try f.tab.box("[data-techo-page]")
        let bottom = try f.tab.number("techoEditor.view.page.storedHeight") * k
        #expect(page.h - bottom >= stage.h * 0.9, "\(size): \(page.h - bottom) px of paper below the content")
    }

    // MARK: previews and widths

    /// The pixel eraser's trail shows what its render will: the sticker under the ink layer
    /// where it passes over it, the paper where it takes the blue stroke away (it used to be a
    /// pale white band over everything).
    @Test(arguments: inkSizes) func thePixelErasersTrailShowsWhatItReveals(size: (Int, Int)) throws {
        let f = try EditorFixture(width: size.0, height: size.1)
        try f.tool("eraser")
        // What it reveals is fetched when the eraser is taken up.
        try f.tab.waitFor("!!(techoEditor.reveal && techoEditor.reveal.image)", what: "what the eraser reveals")
        // Across the tomato (under the ink layer), then down through the blue stroke.
        let page = [(150.0, 250.0), (200, 252), (260, 250), (280, 440), (300, 628), (380, 622), (450, 612)]
        var path: [(Double, Double)] = []
        for (a, b) in zip(page, page.dropFirst()) {
            for i in 0..<6 { let t = Double(i) / 6; path.append((a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t)) }
        }
        path.append(page.last!)
        let screen = try path.map { try f.client($0.0, $0.1) }
        let before = try f.strokes().count
        try f.tab.pen(screen, lift: false)
        let xs = screen.map(\.0), ys = screen.map(\.1)
        let clip = (x: xs.min()! - 30, y: ys.min()! - 30, w: xs.max()! - xs.min()! + 60, h: ys.max()! - ys.min()! + 60)
        try f.twoFrames()
        let live = try f.tab.screenshot(x: clip.x, y: clip.y, w: clip.w, h: clip.h)
        try f.tab.mouse("mouseReleased", screen.last!.0, screen.last!.1, clickCount: 1, pointerType: "pen", force: 0.6)
        try f.waitForJournal("the eraser stroke") { try f.strokes().count == before + 1 }
        try f.waitSettled()
        let rendered = try f.tab.screenshot(x: clip.x, y: clip.y, w: clip.w, h: clip.h)
        let dir = Fixtures.artifactsDirectory("editor")
        try live.write(to: dir.appendingPathComponent("eraser-preview-\(size.0)x\(size.1)-live.png"))
        try rendered.write(to: dir.appendingPathComponent("eraser-preview-\(size.0)x\(size.1)-render.png"))
        let a = try ImageDecoder.decodeStraight([UInt8](live), name: "live").pixels
        let b = try ImageDecoder.decodeStraight([UInt8](rendered), name: "render").pixels
        // Over every pixel of the clip: how far the live trail is from the render after it.
        var sum = 0.0, far = 0
        let count = min(a.bytes.count, b.bytes.count) / 4
        for i in 0..<count {
            var d = 0
            for c in 0..<3 { d = max(d, abs(Int(a.bytes[i * 4 + c]) - Int(b.bytes[i * 4 + c]))) }
            sum += Double(d)
            if d > 48 { far += 1 }
        }
        let mean = sum / Double(max(1, count))
        print("eraser preview vs render at \(size.0)x\(size.1): mean \(String(format: "%.2f", mean)), \(far) of \(count) px far apart")
        #expect(mean < 2.5 && Double(far) < Double(count) * 0.01, "\(size): the eraser's trail differs from its render by \(mean) on average, \(far) px far")
    }

    /// The stroke in progress looks like its render: the highlighter at its render's colour (it
    /// used to darken on release), a pencil with pressure, and a stroke drawn zoomed in (it used
    /// to preview soft, at the fitted resolution).
    @Test(arguments: inkSizes) func everyPreviewLooksLikeItsRender(size: (Int, Int)) throws {
        let f = try EditorFixture(width: size.0, height: size.1)
        let dir = Fixtures.artifactsDirectory("editor")
        for (tool, zoomed) in [("highlighter", false), ("pencil", false), ("pencil", true)] {
            try f.tool(tool)
            if zoomed {
                // As far in as the view goes at this size (800 % of the paper: 1.5–2.5 × the fit).
                for _ in 0..<8 { try f.tab.key("=", code: "Equal", keyCode: 187, modifiers: 2) }
                try f.waitZoom("zoomed in", "z > 1.4")
                try f.waitSettled()
                try f.waitSharp()
            }
            let stage = try f.tab.box("#stage")
            // A wavy stroke across the middle of what is on screen, pressure rising and falling.
            let cx = stage.x + stage.w / 2, cy = stage.y + stage.h / 2, w = min(stage.w, 600) * 0.35
            let path = (0...24).map { i -> (Double, Double) in
                let t = Double(i) / 24
                return ((cx - w + 2 * w * t).rounded(), (cy + sin(t * 6) * 30).rounded())
            }
            let before = try f.strokes().count
            try f.tab.pen(path, pressure: { 0.2 + 0.7 * sin(Double($0) / 24 * .pi) }, lift: false)
            let clip: (x: Double, y: Double, w: Double, h: Double) = (cx - w - 40, cy - 80, 2 * w + 80, 160)
            try f.tab.waitFor("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))", what: "a frame")
            let live = try f.tab.screenshot(x: clip.x, y: clip.y, w: clip.w, h: clip.h)
            try f.tab.mouse("mouseReleased", path.last!.0, path.last!.1, clickCount: 1, pointerType: "pen", force: 0.2)
            try f.waitForJournal("the \(tool) stroke") { try f.strokes().count == before + 1 }
            try f.waitSettled()
            if zoomed { try f.waitSharp() }
            let rendered = try f.tab.screenshot(x: clip.x, y: clip.y, w: clip.w, h: clip.h)
            let name = "ink-preview-\(tool)\(zoomed ? "-zoomed" : "")-\(size.0)x\(size.1)"
            try live.write(to: dir.appendingPathComponent("\(name)-live.png"))
            try rendered.write(to: dir.appendingPathComponent("\(name)-render.png"))
            let a = try ImageDecoder.decodeStraight([UInt8](live), name: "live").pixels
            let b = try ImageDecoder.decodeStraight([UInt8](rendered), name: "render").pixels
            // Over the pixels the stroke covers in either picture: how far apart they are.
            var sum = 0.0, n = 0, worst = 0
            a.bytes.withUnsafeBufferPointer { p in
                b.bytes.withUnsafeBufferPointer { q in
                    for i in stride(from: 0, to: min(p.count, q.count), by: 4) {
                        var d = 0, sa = 0, sb = 0
                        for c in 0..<3 {
                            let u = Int(p[i + c]), v = Int(q[i + c])
                            d = max(d, abs(u - v))
                            sa += u
                            sb += v
                        }
                        // Paper is light (sum near 700); ink and highlighter are darker.
                        guard sa < 690 || sb < 690 else { continue }
                        sum += Double(d)
                        n += 1
                        worst = max(worst, d)
                    }
                }
            }
            let mean = n > 0 ? sum / Double(n) : .nan
            print("preview vs render, \(tool)\(zoomed ? " zoomed" : "") at \(size.0)x\(size.1): mean \(String(format: "%.1f", mean)) over \(n) px")
            #expect(n > 200, "\(size) \(tool): the stroke was not on screen")
            #expect(mean < 6.5, "\(size) \(tool)\(zoomed ? " zoomed" : ""): the preview differs from the render by \(mean) per pixel on average")
            if zoomed { try f.tab.key("0", code: "Digit0", keyCode: 48, modifiers: 2) }
        }
    }

    /// Widths are per tool, in mm, and cover techo draw's defaults: the highlighter starts at
    /// 24 px and reaches a line of handwriting (4 mm and more), the eraser starts at 30 px.
    @Test func widthsArePerToolAndCoverTheCLIDefaults() throws {
        let f = try EditorFixture()
        try f.tool("highlighter")
        #expect(abs(try f.tab.number("techoEditor.style.width") - 24) < 0.01)
        let slider = try f.tab.box("#width")
        try f.tab.click(slider.x + slider.w - 1, slider.y + slider.h / 2)
        try f.tab.waitFor("techoEditor.style.width >= 4 / 25.4 * 300", what: "a highlighter of 4 mm or more")
        try f.tool("eraser")
        #expect(abs(try f.tab.number("techoEditor.style.width") - 30) < 0.01)
        try f.tool("pencil")
        #expect(abs(try f.tab.number("techoEditor.style.width") - 6) < 0.01)
        try f.tool("highlighter")
        #expect(try f.tab.number("techoEditor.style.width") >= 4 / 25.4 * 300, "the highlighter kept its own width")
        #expect((try f.tab.evaluate("document.getElementById('width-value').value") as? String ?? "").hasSuffix("mm"))
    }
}
