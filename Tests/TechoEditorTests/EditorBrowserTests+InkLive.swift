// What ink looks like while it is being made or moved, with real input through CDP at the three
// sizes: a picked stroke dragged with the select tool is itself drawn under the pointer (not only
// its frame) and no longer at its old place; the shape tools preview by their render's rule and
// grow an endless page; an endless page's paper below its content has the page's pattern.
//
// Each failed on the editor before this work: the dragged stroke stayed at its old place with a
// dashed frame moving alone; a shape's preview was drawn on the fitted overlay with its own rule
// and an endless page cut a shape off below its stored height; the paper below an endless page's
// content was plain colour.

import Foundation
import TechoCodecs
import TechoTestSupport
import Testing

/// A screenshot's pixels, straight RGBA, and how many of them pass a test.
struct Shot {
    let width: Int, height: Int, bytes: [UInt8]

    init(_ data: Data) throws {
        let p = try ImageDecoder.decodeStraight([UInt8](data), name: "screenshot").pixels
        width = p.width
        height = p.height
        bytes = p.bytes
    }

    func count(_ test: (Int, Int, Int) -> Bool) -> Int {
        var n = 0
        for i in stride(from: 0, to: bytes.count, by: 4) where test(Int(bytes[i]), Int(bytes[i + 1]), Int(bytes[i + 2])) { n += 1 }
        return n
    }

    /// Mean of the largest channel difference per pixel, over pixels that are not light paper in
    /// either picture (both the same size).
    func meanDifference(_ other: Shot) -> (mean: Double, n: Int) {
        var sum = 0.0, n = 0
        for i in stride(from: 0, to: min(bytes.count, other.bytes.count), by: 4) {
            var d = 0, sa = 0, sb = 0
            for c in 0..<3 {
                let u = Int(bytes[i + c]), v = Int(other.bytes[i + c])
                d = max(d, abs(u - v))
                sa += u
                sb += v
            }
            guard sa < 690 || sb < 690 else { continue }
            sum += Double(d)
            n += 1
        }
        return (n > 0 ? sum / Double(n) : .nan, n)
    }

    /// The mean position (pixels) of the pixels that pass `test`.
    func centroid(_ test: (Int, Int, Int) -> Bool) -> (Double, Double) {
        var sx = 0.0, sy = 0.0, n = 0.0
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                if test(Int(bytes[i]), Int(bytes[i + 1]), Int(bytes[i + 2])) { sx += Double(x); sy += Double(y); n += 1 }
            }
        }
        return n > 0 ? ((sx / n * 10).rounded() / 10, (sy / n * 10).rounded() / 10) : (.nan, .nan)
    }
}

/// The fixture's blue pencil (#3d85c6) against its cream paper and grey dots.
func isBlueInk(_ r: Int, _ g: Int, _ b: Int) -> Bool { b - r > 60 && b > 120 }

extension EditorFixture {
    /// A screenshot of page rectangle (x, y, w, h) in page pixels (600x800 page).
    func shot(page x: Double, _ y: Double, _ w: Double, _ h: Double) throws -> Shot {
        let a = try client(x, y), b = try client(x + w, y + h)
        return try Shot(tab.screenshot(x: a.0, y: a.1, w: b.0 - a.0, h: b.1 - a.1))
    }

    func twoFrames() throws {
        try tab.waitFor("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))", what: "two frames")
    }
}

extension EditorBrowserTests {
    // MARK: a picked stroke dragged

    /// The fixture's blue stroke (80,600 → 300,640 → 520,600) picked and dragged 200 page px up:
    /// while the pointer is still down the stroke is drawn at the new place and gone from the
    /// old one, and what is shown then is what the release renders there.
    @Test(arguments: inkSizes) func aDraggedStrokeIsDrawnUnderThePointer(size: (Int, Int)) throws {
        let f = try EditorFixture(width: size.0, height: size.1, touch: size.0 < 1200)
        try f.waitSettled()
        let on = try f.client(300, 640)
        try f.tab.click(on.0, on.1)
        try f.tab.waitFor("document.querySelector('[data-techo-page]').dataset.techoSelection === 's1'", what: "the stroke picked")
        try f.waitSettled()
        let before = try f.shot(page: 40, 560, 520, 120).count(isBlueInk)
        #expect(before > 100, "\(size): the stroke is on screen before the drag (\(before) px)")
        // Press and move, not released: a finger on the phone, the mouse elsewhere.
        let to = try f.client(300, 440)
        let steps = 10
        let path = (0...steps).map { i in (on.0 + (to.0 - on.0) * Double(i) / Double(steps), on.1 + (to.1 - on.1) * Double(i) / Double(steps)) }
        if size.0 < 600 {
            try f.tab.touch("touchStart", [path[0]])
            for p in path.dropFirst() { try f.tab.touch("touchMove", [p]) }
        } else {
            try f.tab.mouse("mouseMoved", path[0].0, path[0].1)
            try f.tab.mouse("mousePressed", path[0].0, path[0].1, buttons: 1, clickCount: 1)
            for p in path.dropFirst() { try f.tab.mouse("mouseMoved", p.0, p.1, buttons: 1) }
        }
        // What it draws arrives once (the page without the stroke, the stroke alone): wait for
        // the stroke to show at the new place, or give up after a few seconds.
        let deadline = Date().addingTimeInterval(5)
        var liveNew = 0, liveOld = 0
        repeat {
            try f.twoFrames()
            liveNew = try f.shot(page: 40, 360, 520, 120).count(isBlueInk)
            liveOld = try f.shot(page: 40, 560, 520, 120).count(isBlueInk)
        } while liveNew < before / 2 && Date() < deadline
        let live = try f.shot(page: 40, 360, 520, 120)
        let dir = Fixtures.artifactsDirectory("editor")
        try f.tab.screenshot(x: 0, y: 0, w: Double(size.0), h: Double(size.1)).write(to: dir.appendingPathComponent("stroke-drag-live-\(size.0)x\(size.1).png"))
        print("stroke drag at \(size.0)x\(size.1): \(before) blue px before, \(liveNew) at the new place and \(liveOld) at the old one while dragging")
        #expect(liveNew > before * 8 / 10, "\(size): the dragged stroke is not drawn under the pointer (\(liveNew) of \(before) px)")
        #expect(liveOld < before / 20, "\(size): the dragged stroke still shows at its old place (\(liveOld) px)")
        if size.0 < 600 { try f.tab.touch("touchEnd", []) } else { try f.tab.mouse("mouseReleased", to.0, to.1, clickCount: 1) }
        try f.waitForJournal("the stroke moved") { ((try f.strokes().first?["points"] as? [[NSNumber]])?.first?[1].doubleValue ?? 600) < 500 }
        try f.waitSettled()
        try f.twoFrames()
        // The Delete button under the landed stroke's frame is not part of the picture.
        try f.tab.evaluate("document.querySelector('.stroke-bar').style.visibility = 'hidden'")
        let landed = try f.shot(page: 40, 360, 520, 120)
        try f.tab.screenshot(x: 0, y: 0, w: Double(size.0), h: Double(size.1)).write(
            to: dir.appendingPathComponent("stroke-drag-landed-\(size.0)x\(size.1).png"))
        // The same stroke in the same place: as many ink pixels, centred within a pixel (the
        // live one is the stroke's own render moved by a fraction of a pixel, so its edges'
        // antialiasing differs a little).
        let (mean, n) = live.meanDifference(landed)
        let a = live.centroid(isBlueInk), b = landed.centroid(isBlueInk)
        let nLive = live.count(isBlueInk), nLanded = landed.count(isBlueInk)
        print(
            "stroke drag at \(size.0)x\(size.1): live vs landed: \(nLive) / \(nLanded) ink px, centres \(a) / \(b), mean difference \(String(format: "%.1f", mean)) over \(n) px"
        )
        #expect(abs(nLive - nLanded) <= nLanded / 10, "\(size): \(nLive) ink px while dragged, \(nLanded) landed")
        #expect(abs(a.0 - b.0) < 1.5 && abs(a.1 - b.1) < 1.5, "\(size): the live stroke is centred at \(a), the landed one at \(b)")
        #expect(try f.shot(page: 40, 560, 520, 120).count(isBlueInk) < before / 20, "\(size): the old place is clear after the release")
    }

    // MARK: shapes

    /// A press, moves along a→b and (unless `lift` is false) the release, with the input a person
    /// uses at this size: the mouse at 1440x900, a pen at 1024x1366, a finger at 390x844.
    static func drawDrag(_ f: EditorFixture, size: (Int, Int), _ a: (Double, Double), _ b: (Double, Double), steps: Int = 10, lift: Bool) throws {
        let path = (0...steps).map { i in (a.0 + (b.0 - a.0) * Double(i) / Double(steps), a.1 + (b.1 - a.1) * Double(i) / Double(steps)) }
        switch size.0 {
        case ..<600:
            try f.tab.touch("touchStart", [path[0]])
            for p in path.dropFirst() { try f.tab.touch("touchMove", [p]) }
            if lift { try f.tab.touch("touchEnd", []) }
        case ..<1200:
            try f.tab.pen(path, lift: lift)
        default:
            try f.tab.mouse("mouseMoved", a.0, a.1)
            try f.tab.mouse("mousePressed", a.0, a.1, buttons: 1, clickCount: 1)
            for p in path.dropFirst() { try f.tab.mouse("mouseMoved", p.0, p.1, buttons: 1) }
            if lift { try f.tab.mouse("mouseReleased", b.0, b.1, clickCount: 1) }
        }
    }

    static func lift(_ f: EditorFixture, size: (Int, Int), at b: (Double, Double)) throws {
        switch size.0 {
        case ..<600: try f.tab.touch("touchEnd", [])
        case ..<1200: try f.tab.mouse("mouseReleased", b.0, b.1, clickCount: 1, pointerType: "pen", force: 0.6)
        default: try f.tab.mouse("mouseReleased", b.0, b.1, clickCount: 1)
        }
    }

    /// Each shape tool's preview, zoomed in, looks like its render: the same colour, width, dash
    /// and place at the screen's resolution (it was the fitted overlay's picture scaled up).
    @Test(arguments: inkSizes) func theShapesPreviewAsTheyRender(size: (Int, Int)) throws {
        let f = try EditorFixture(width: size.0, height: size.1, touch: size.0 < 600)
        let dir = Fixtures.artifactsDirectory("editor")
        for _ in 0..<8 { try f.tab.key("=", code: "Equal", keyCode: 187, modifiers: 2) }
        try f.waitZoom("zoomed in", "z > 1.4")
        try f.waitSettled()
        try f.waitSharp()
        for (i, tool) in ["line", "dash", "rect", "ellipse"].enumerated() {
            try f.tool(tool)
            let stage = try f.tab.box("#stage")
            let w = min(stage.w, 600) * 0.3, cx = stage.x + stage.w / 2, cy = stage.y + stage.h / 2 + Double(i - 2) * 12
            let a = (cx - w, cy - 40), b = (cx + w, cy + 40)
            let before = try f.strokes().count
            try Self.drawDrag(f, size: size, a, b, lift: false)
            try f.twoFrames()
            let clip = (x: cx - w - 30, y: cy - 70, w: 2 * w + 60, h: 140.0)
            let live = try f.tab.screenshot(x: clip.x, y: clip.y, w: clip.w, h: clip.h)
            try Self.lift(f, size: size, at: b)
            try f.waitForJournal("the \(tool)") { try f.strokes().count == before + 1 }
            try f.waitSettled()
            try f.waitSharp()
            try f.twoFrames()
            let rendered = try f.tab.screenshot(x: clip.x, y: clip.y, w: clip.w, h: clip.h)
            let name = "shape-preview-\(tool)-\(size.0)x\(size.1)"
            try live.write(to: dir.appendingPathComponent("\(name)-live.png"))
            try rendered.write(to: dir.appendingPathComponent("\(name)-render.png"))
            let (mean, n) = try Shot(live).meanDifference(try Shot(rendered))
            print("shape preview vs render, \(tool) at \(size.0)x\(size.1): mean \(String(format: "%.1f", mean)) over \(n) px")
            #expect(n > 200, "\(size) \(tool): the shape was not on screen")
            #expect(mean < 6.5, "\(size) \(tool): the preview differs from the render by \(mean) per pixel on average")
            // Undo it, so the next shape is drawn on the same page.
            try f.tab.key("z", code: "KeyZ", keyCode: 90, modifiers: 2)
            try f.waitForJournal("\(tool) undone") { try f.strokes().count == before }
            try f.waitSettled()
        }
        // Washi tape: its strip in the tape's translucent colour, multiplied onto the page (it
        // previewed as a line on the older overlay, neither multiplied nor at this resolution).
        // At the fitted zoom, so the clip holds the strip's long edges (its width) too.
        try f.tab.key("0", code: "Digit0", keyCode: 48, modifiers: 2)
        try f.waitZoom("fitted", "Math.abs(z - 1) < 0.01")
        try f.waitSettled()
        try f.tool("washi")
        let stage = try f.tab.box("#stage")
        let k = try f.tab.number("techoEditor.view.k")
        let w = min(stage.w, 600) * 0.3, cx = stage.x + stage.w / 2, cy = stage.y + stage.h / 2
        let a = (cx - w, cy), b = (cx + w, cy)
        func tapes() throws -> Int { ((try f.pageJSON()["elements"] as? [[String: Any]]) ?? []).filter { $0["type"] as? String == "washi" }.count }
        let before = try tapes()
        try Self.drawDrag(f, size: size, a, b, lift: false)
        try f.twoFrames()
        // The strip's middle: its ends are the render's own (torn or zigzag, seeded by its id).
        let half = 15 / 25.4 * 300 / 2 * k
        let clip = (x: cx - w * 0.7, y: cy - half - 20, w: 1.4 * w, h: 2 * half + 40)
        let live = try f.tab.screenshot(x: clip.x, y: clip.y, w: clip.w, h: clip.h)
        try Self.lift(f, size: size, at: b)
        try f.waitForJournal("the tape") { try tapes() == before + 1 }
        try f.waitSettled()
        try f.waitSharp()
        try f.twoFrames()
        let rendered = try f.tab.screenshot(x: clip.x, y: clip.y, w: clip.w, h: clip.h)
        try live.write(to: dir.appendingPathComponent("shape-preview-washi-\(size.0)x\(size.1)-live.png"))
        try rendered.write(to: dir.appendingPathComponent("shape-preview-washi-\(size.0)x\(size.1)-render.png"))
        let (mean, n) = try Shot(live).meanDifference(try Shot(rendered))
        print("shape preview vs render, washi at \(size.0)x\(size.1): mean \(String(format: "%.1f", mean)) over \(n) px")
        #expect(n > 200, "\(size) washi: the tape was not on screen")
        // (0.5–0.7 measured; the old overlay's line, unmultiplied, 4.5–4.7.)
        #expect(mean < 2, "\(size) washi: the preview differs from the render by \(mean) per pixel on average")
    }

    // MARK: endless pages

    /// An endless, lined page (600 px wide, auto height, paper "lines").
    static func endlessFixture(size: (Int, Int), paper: String) throws -> (EditorFixture, URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("techo-endless-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let j = dir.appendingPathComponent("e.techo")
        _ = try Techo.run(["init", j.path, "--title", "Scroll", "--size", "600xauto", "--background", "#f6f0e4", "--paper", paper], in: dir)
        _ = try Techo.run(["draw", j.path, "p1", "--tool", "pencil", "--color", "#3d85c6", "--points", "60,60 300,90"], in: dir)
        let f = try EditorFixture(width: size.0, height: size.1, touch: size.0 < 600, journal: j)
        try f.waitSettled()
        return (f, dir)
    }

    /// A rectangle drawn from the content down past the bottom of the view on an endless page:
    /// the view grows under it as under the pen, and the rectangle lands whole (its lower edge
    /// drawn where the pointer let go).
    @Test(arguments: inkSizes) func aShapeOnAnEndlessPageGrowsIt(size: (Int, Int)) throws {
        let (f, dir) = try Self.endlessFixture(size: size, paper: "lines")
        defer { try? FileManager.default.removeItem(at: dir) }
        try f.tool("rect")
        let stage = try f.tab.box("#stage")
        let page = try f.tab.box("[data-techo-page]")
        let k = try f.tab.number("techoEditor.view.k")
        let a = (page.x + 100 * k, max(page.y, stage.y) + stage.h * 0.3)
        let b = (page.x + 400 * k, min(page.y + page.h, stage.y + stage.h) - 8)
        try Self.drawDrag(f, size: size, a, b, steps: 16, lift: false)
        try f.twoFrames()
        let grown = try f.tab.box("[data-techo-page]")
        #expect(grown.h > page.h, "\(size): the view did not grow as the shape went down (\(page.h) → \(grown.h))")
        try Self.lift(f, size: size, at: b)
        try f.waitForJournal("the rectangle") { try f.strokes().count == 2 }
        try f.waitSettled()
        let to = point(try f.strokes().last?["to"]) ?? (0, 0)
        let stored = try f.tab.number("techoEditor.view.page.storedHeight")
        #expect(stored > to.1, "\(size): the page's stored height \(stored) is below the rectangle's end \(to.1)")
        // Its lower edge is on screen where it was drawn: a dark horizontal run along it.
        let box = try f.tab.box("[data-techo-page]")
        let y = box.y + to.1 * k
        let edge = try Shot(f.tab.screenshot(x: box.x + 150 * k, y: y - 6, w: 200 * k, h: 12))
        let ink = edge.count { r, g, b in r + g + b < 300 }
        #expect(ink > Int(100 * k), "\(size): the rectangle's lower edge is not drawn (\(ink) px)")
    }

    /// The paper below an endless page's render is the page's paper: its colour and its ruling,
    /// the rows going on at the render's spacing (lines, dots and a grid).
    @Test(arguments: inkSizes) func anEndlessPagesPaperGoesOnBelowItsContent(size: (Int, Int)) throws {
        for paper in ["lines", "dots", "grid"] {
            let (f, dir) = try Self.endlessFixture(size: size, paper: paper)
            defer { try? FileManager.default.removeItem(at: dir) }
            // Content further down (an invisible stroke), so two spacings above its end are paper.
            _ = try Techo.run(["draw", f.journal.path, "p1", "--tool", "pencil", "--opacity", "0", "--points", "500,200 501,200"], in: dir)
            try f.tab.waitFor("techoEditor.view.page.storedHeight > 200", what: "the page grown by the invisible stroke")
            try f.waitSettled()
            let k = try f.tab.number("techoEditor.view.k")
            let stored = try f.tab.number("techoEditor.view.page.storedHeight")
            let box = try f.tab.box("[data-techo-page]"), stage = try f.tab.box("#stage")
            // One whole spacing (5 mm) of the render's ruling a spacing above its end (an endless
            // page's rows start at its top margin, so the strip after its last row, where a grid's
            // upright lines pause, is up to a spacing tall), and one of the paper below.
            let spacing = 5 / 25.4 * 300
            let h = spacing * k
            let top = box.y + stored * k
            #expect(top + 2.5 * h < stage.y + stage.h, "\(size): the paper below the content is not on screen")
            // Right of the content's stroke (x 60–300).
            let x0 = box.x + 320 * k, w = 260 * k
            let aboveShot = try f.tab.screenshot(x: x0, y: top - 2 * h, w: w, h: h)
            let belowShot = try f.tab.screenshot(x: x0, y: top + h, w: w, h: h)
            let shotsDir = Fixtures.artifactsDirectory("editor")
            try aboveShot.write(to: shotsDir.appendingPathComponent("endless-paper-\(paper)-\(size.0)x\(size.1)-above.png"))
            try belowShot.write(to: shotsDir.appendingPathComponent("endless-paper-\(paper)-\(size.0)x\(size.1)-below.png"))
            let above = try Shot(aboveShot), below = try Shot(belowShot)
            try f.tab.screenshot(x: 0, y: 0, w: Double(size.0), h: Double(size.1)).write(
                to: shotsDir.appendingPathComponent("endless-paper-\(paper)-\(size.0)x\(size.1).png"))
            let ruled: (Int, Int, Int) -> Bool = { r, g, b in r + g + b < 650 }
            let nAbove = above.count(ruled), nBelow = below.count(ruled)
            print("endless \(paper) paper at \(size.0)x\(size.1): \(nAbove) ruled px in a spacing of the render, \(nBelow) in one below it")
            #expect(nAbove > 20, "\(size) \(paper): the render has no ruling")
            #expect(nBelow * 10 >= nAbove * 7 && nBelow * 10 <= nAbove * 13, "\(size) \(paper): \(nBelow) ruled px below the content against \(nAbove) above")
        }
    }
}
