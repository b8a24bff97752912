// The editor in a real browser: headless Chromium driven with real input events (mouse, pen,
// touch, keys, drags of files) against `techo serve` on a temporary journal; what the hand did
// is then read back from the journal with `techo show --json`.
//
// Every wait is on a condition with a generous timeout (the machine may be loaded); no assertion
// rests on a fixed sleep.

import Foundation
import TechoCodecs
import TechoRaster
import TechoTestSupport
import Testing

@Suite(.serialized) struct EditorBrowserTests {
    // MARK: gestures with the select tool

    @Test func mouseDragPansTheStickerInOneRequest() throws {
        let f = try EditorFixture()
        try f.tab.send("Network.enable")
        let a = try f.client(200, 250), b = try f.client(330, 360)
        try f.tab.mouse("mouseMoved", a.0, a.1)
        try f.tab.mouse("mousePressed", a.0, a.1, buttons: 1, clickCount: 1)
        for i in 1...6 {
            let t = Double(i) / 12
            try f.tab.mouse("mouseMoved", a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t, buttons: 1)
        }
        // Mid-gesture the element moves on the overlay, drawn from the backdrop and its sprite.
        try f.tab.waitFor("document.querySelector('[data-techo-page]').classList.contains('live')", what: "the live overlay")
        for i in 7...12 {
            let t = Double(i) / 12
            try f.tab.mouse("mouseMoved", a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t, buttons: 1)
        }
        // What the overlay shows at the end of the gesture is what the journal then renders.
        let live = try f.pageShot()
        let duringGesture = f.browser.takeEvents("Network.requestWillBeSent", session: f.tab.session)
        try f.tab.mouse("mouseReleased", b.0, b.1, clickCount: 1)
        try f.waitForJournal("the tomato moved") { (point(try f.element("tomato")["at"])?.0 ?? 200) > 300 }
        let at = try #require(point(try f.element("tomato")["at"]))
        #expect(abs(at.0 - 330) < 2 && abs(at.1 - 360) < 2, "tomato at \(at)")
        #expect(number(try f.element("tomato")["scale"]) == 1.5)
        // No request per pointer move: nothing but reads while it lasted (the backdrop and sprite,
        // and at the press one question of which strokes lie under it, a POST that changes
        // nothing), then exactly one gesture request, one history step.
        let requests = duringGesture.compactMap { $0["request"] as? [String: Any] }
        let hits = requests.filter { ($0["url"] as? String ?? "").contains("/strokes/hit") }
        let posts = requests.filter { $0["method"] as? String != "GET" && !($0["url"] as? String ?? "").contains("/strokes/hit") }.map { $0["url"] ?? "" }
        #expect(posts.isEmpty, "requests during the gesture: \(posts)")
        #expect(hits.count <= 1, "\(hits.count) stroke queries during one drag")
        try f.waitSettled()
        let after = f.browser.takeEvents("Network.requestWillBeSent", session: f.tab.session)
        let gestureCalls = after.filter { (($0["request"] as? [String: Any])?["url"] as? String ?? "").contains("/gesture") }
        #expect(gestureCalls.count == 1)
        // From the pointer's release to the new render on screen (the editor's own clock).
        let latency = try f.tab.number("techoEditor.timings[techoEditor.timings.length - 1]")
        print("gesture end to new render on screen: \(String(format: "%.0f", latency)) ms")
        let history = try Techo.run(["history", f.journal.path], in: f.folder)
        #expect(history.contains("gesture tomato"), "\(history)")
        // The overlay is gone once the new render is on screen.
        #expect(try f.tab.evaluate("document.querySelector('[data-techo-page]').classList.contains('live')") as? Bool == false)
        let diff = try f.compareWithExport(live, name: "drag-live")
        print("live overlay at the drag's end vs techo export after it: \(diff)")
        #expect(diff.psnr >= 30, "\(diff)")
    }

    @Test func twoFingerPinchAndRotateAboutTheirMidpoint() throws {
        let f = try EditorFixture(touch: true)
        // Two fingers 80 page px apart across the tomato's centre (200, 250); they spread to 1.5x
        // and turn 30° about that centre, which stays under their midpoint.
        var fingers: [(Double, Double)] = []
        func place(_ spread: Double, _ degrees: Double) throws -> [(Double, Double)] {
            let r = 40 * spread, a = degrees * .pi / 180
            return [try f.client(200 - r * cos(a), 250 - r * sin(a)), try f.client(200 + r * cos(a), 250 + r * sin(a))]
        }
        fingers = try place(1, 0)
        try f.tab.touch("touchStart", [fingers[0]])
        try f.tab.touch("touchStart", fingers)
        for i in 1...12 {
            let t = Double(i) / 12
            fingers = try place(1 + 0.5 * t, 30 * t)
            try f.tab.touch("touchMove", fingers)
        }
        try f.tab.waitFor("document.querySelector('[data-techo-page]').classList.contains('live')", what: "the live overlay")
        let live = try f.pageShot()
        try f.tab.touch("touchEnd", [])
        try f.waitForJournal("the tomato was pinched") { (number(try f.element("tomato")["scale"]) ?? 1.5) > 2 }
        let e = try f.element("tomato")
        let scale = try #require(number(e["scale"])), rotate = try #require(number(e["rotate"]))
        let at = try #require(point(e["at"]))
        // Finger positions are CSS pixels, so the page values are exact to about a pixel of 600.
        #expect(abs(scale - 2.25) < 0.06, "scale \(scale)")
        #expect(abs(rotate - 30) < 1.5, "rotate \(rotate)")
        #expect(abs(at.0 - 200) < 3 && abs(at.1 - 250) < 3, "at \(at)")
        let history = try Techo.run(["history", f.journal.path], in: f.folder)
        #expect(history.components(separatedBy: "gesture tomato").count == 2, "one history step: \(history)")
        // The sprite under the live transform (scaled and turned) matches the committed render.
        try f.waitSettled()
        let diff = try f.compareWithExport(live, name: "pinch-live")
        print("live overlay at the pinch's end vs techo export after it: \(diff)")
        #expect(diff.psnr >= 30, "\(diff)")
    }

    @Test func doubleClickTurnsAQuarter() throws {
        let f = try EditorFixture()
        let c = try f.client(200, 250)
        try f.tab.click(c.0, c.1, count: 1)
        try f.tab.mouse("mousePressed", c.0, c.1, buttons: 1, clickCount: 2)
        try f.tab.mouse("mouseReleased", c.0, c.1, clickCount: 2)
        try f.waitForJournal("the tomato turned") { number(try f.element("tomato")["rotate"]) == 90 }
        let e = try f.element("tomato")
        #expect(point(e["at"])! == (200, 250))
        #expect(number(e["scale"]) == 1.5)
    }

    @Test func arrowKeysNudgeTheFocusedElementInOneStep() throws {
        let f = try EditorFixture()
        let c = try f.client(200, 250)
        try f.tab.click(c.0, c.1)
        try f.tab.waitFor("document.activeElement && document.activeElement.dataset.techoElement === 'tomato'", what: "the tomato's handle to take focus")
        // 1 mm a press (Shift: 10 mm), in page pixels at the page's 300 dpi.
        let step = Self.pxPerMM
        for _ in 0..<3 { try f.tab.key("ArrowRight", code: "ArrowRight", keyCode: 39) }
        try f.tab.key("ArrowDown", code: "ArrowDown", keyCode: 40, modifiers: 8)
        try f.waitForJournal("the tomato was nudged") { point(try f.element("tomato")["at"])! != (200, 250) }
        try f.waitSettled()
        let at = try #require(point(try f.element("tomato")["at"]))
        #expect(abs(at.0 - (200 + 3 * step)) < 1e-6 && abs(at.1 - (250 + 10 * step)) < 1e-6, "at \(at), step \(step)")
    }

    @Test func selectionButtonsFlipRaiseAndDelete() throws {
        let f = try EditorFixture()
        let c = try f.client(200, 250)
        try f.tab.click(c.0, c.1)
        try f.tab.waitFor("!document.getElementById('selection-panel').hidden", what: "the selection panel")
        try f.tab.click("[data-techo-action=flip-h]")
        try f.waitForJournal("the tomato flipped") { try f.element("tomato")["flip"] as? String == "h" }
        try f.waitSettled()
        try f.tab.click("[data-techo-action=raise]")
        try f.waitForJournal("the tomato raised") {
            let ids = (try f.pageJSON()["elements"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            return ids.firstIndex(of: "tomato") == 1
        }
        try f.waitSettled()
        try f.tab.click("[data-techo-action=delete]")
        try f.waitForJournal("the tomato deleted") {
            !(try f.pageJSON()["elements"] as? [[String: Any]] ?? []).contains { $0["id"] as? String == "tomato" }
        }
    }

    // MARK: drawing

    @Test func penStrokeCarriesPressure() throws {
        let f = try EditorFixture()
        try f.tab.click("[data-techo-tool=pencil]")
        try f.tab.evaluate(
            "new Promise((r) => { window.__pen = []; document.querySelector('[data-techo-page]').addEventListener('pointermove', (e) => window.__pen.push([e.pointerType, e.pressure])); r(true); })"
        )
        try f.tab.drag(
            from: try f.client(100, 700), to: try f.client(500, 740), steps: 16, pointerType: "pen",
            pressure: { 0.2 + 0.7 * $0 })
        try f.waitForJournal("a second stroke") { ((try f.element("ink-1")["strokes"] as? [Any])?.count ?? 0) == 2 }
        let strokes = try #require(try f.element("ink-1")["strokes"] as? [[String: Any]])
        let stroke = try #require(strokes.last)
        #expect(stroke["tool"] as? String == "pencil")
        #expect(stroke["color"] as? String == "#5b3a29")
        let points = try #require(stroke["points"] as? [[NSNumber]])
        #expect(points.count >= 10)
        #expect(points.allSatisfy { $0.count == 3 }, "every point carries pressure")
        let pressures = points.map { $0[2].doubleValue }
        #expect(pressures.first! < 0.35 && pressures.last! > 0.8, "pressures \(pressures)")
        // The page received them as PointerEvent pressure from a pen.
        let seen = try #require(try f.tab.evaluate("window.__pen") as? [[Any]])
        #expect(seen.contains { $0.first as? String == "pen" && (($0.last as? NSNumber)?.doubleValue ?? 0) > 0.8 })
    }

    @Test func eraserClearsInkToWhatIsBeneath() throws {
        let f = try EditorFixture()
        try f.tab.click("[data-techo-tool=eraser]")
        // The widest width (a click at the slider's right end), dragged across the stroke at x = 300.
        let slider = try f.tab.box("#width")
        try f.tab.click(slider.x + slider.w - 1, slider.y + slider.h / 2)
        try f.tab.waitFor("Math.abs(techoEditor.style.width - 15 / 25.4 * 300) < 0.01", what: "the eraser's widest, 15 mm")
        try f.tab.drag(from: try f.client(300, 560), to: try f.client(300, 720), steps: 10)
        try f.waitForJournal("an eraser stroke") {
            ((try f.element("ink-1")["strokes"] as? [[String: Any]])?.last?["tool"] as? String) == "eraser"
        }
        let out = f.folder.appendingPathComponent("erased.png")
        try Techo.run(["export", f.journal.path, "--page", "p1", "-o", out.path], in: f.folder)
        let image = try ImageDecoder.decodeStraight([UInt8](try Data(contentsOf: out)), name: out.path).pixels
        let blue = image.bytes.withUnsafeBufferPointer { p -> (Int, Int, Int) in
            let i = (640 * image.width + 300) * 4
            return (Int(p[i]), Int(p[i + 1]), Int(p[i + 2]))
        }
        // What shows through is the cream paper (#f6f0e4), not the stroke's blue (#3d85c6).
        #expect(blue.0 > 200 && blue.2 < 240, "pixel under the eraser \(blue)")
    }

    @Test func shapeToolsDrawLinesAndFilledEllipses() throws {
        let f = try EditorFixture()
        try f.tab.click("[data-techo-tool=ellipse]")
        try f.tab.click("#fill")
        try f.tab.drag(from: try f.client(100, 420), to: try f.client(260, 520), steps: 6)
        try f.waitForJournal("an ellipse") { ((try f.element("ink-1")["strokes"] as? [[String: Any]])?.last?["tool"] as? String) == "ellipse" }
        let e = try #require((try f.element("ink-1")["strokes"] as? [[String: Any]])?.last)
        #expect(e["fill"] as? String == "#5b3a29")
        #expect(point(e["from"]).map { abs($0.0 - 100) < 2 && abs($0.1 - 420) < 2 } == true)
        try f.waitSettled()
        try f.tab.click("[data-techo-tool=dash]")
        try f.tab.drag(from: try f.client(100, 760), to: try f.client(500, 760), steps: 6)
        try f.waitForJournal("a dashed line") { ((try f.element("ink-1")["strokes"] as? [[String: Any]])?.last?["tool"] as? String) == "dash" }
    }

    // MARK: the panel: text, washi, paper, clear, pages

    @Test func textWashiPaperClearAndPages() throws {
        let f = try EditorFixture()
        let elements: () throws -> [[String: Any]] = { try f.pageJSON()["elements"] as? [[String: Any]] ?? [] }
        // A text sticker, typed, added, then edited in the selection panel.
        try f.tab.click("#text-new")
        try f.tab.send("Input.insertText", ["text": "Kyoto"])
        try f.tab.click("#text-form button[type=submit]")
        try f.waitForJournal("the text was added") { try elements().contains { $0["text"] as? String == "Kyoto" } }
        try f.tab.waitFor("!document.getElementById('text-props').hidden", what: "the text's properties")
        try f.tab.click("#text-edit")
        try f.tab.key("a", code: "KeyA", keyCode: 65, modifiers: 2)
        try f.tab.send("Input.insertText", ["text": "Nara 奈良"])
        try f.tab.key("Tab", code: "Tab", keyCode: 9)
        try f.waitForJournal("the text was edited") { try elements().contains { $0["text"] as? String == "Nara 奈良" } }
        try f.waitSettled()

        // Washi tape, laid by dragging.
        try f.tab.click("[data-techo-tool=washi]")
        try f.tab.drag(from: try f.client(100, 320), to: try f.client(320, 340), steps: 6)
        try f.waitForJournal("the washi strip") { try elements().contains { $0["type"] as? String == "washi" } }
        try f.waitSettled()

        // The paper, from the page section's menu, with the keyboard.
        try f.tab.click("details:last-of-type > summary")
        // The click opens the menu's list, or (on a loaded machine) focuses the menu before the
        // list shows: ArrowDown then Enter chooses the next pattern either way.
        try f.tab.click("#paper")
        try f.tab.waitFor("document.activeElement && document.activeElement.id === 'paper'", what: "the paper menu to take focus")
        try f.tab.key("ArrowDown", code: "ArrowDown", keyCode: 40)
        try f.tab.key("Enter", code: "Enter", keyCode: 13)
        try f.waitForJournal("grid paper") {
            ((try f.pageJSON()["background"] as? [String: Any])?["paper"] as? [String: Any])?["pattern"] as? String == "grid"
        }
        try f.waitSettled()

        // Clear ink: the pencil stroke goes, the stickers stay.
        try f.tab.click("[data-techo-action=clear-ink]")
        try f.waitForJournal("no ink") { try !elements().contains { $0["type"] as? String == "ink" && !(($0["strokes"] as? [Any]) ?? []).isEmpty } }
        #expect(try elements().contains { $0["id"] as? String == "tomato" })
        try f.waitSettled()

        // A page from a template (the chooser's first) opens; the list opens p1 again and moves it down.
        try f.tab.click("#template-open")
        try f.tab.waitFor("!!document.querySelector('[data-techo-template]')", what: "the template chooser")
        try f.tab.click("[data-techo-template]")
        try f.tab.waitFor("document.querySelectorAll('[data-techo-page-link]').length === 3", what: "a third page")
        try f.tab.waitFor("document.querySelector('[data-techo-page]').dataset.techoPage === techoEditor.journal.pages[2].id", what: "the new page to open")
        try f.tab.click("[data-techo-page-link=p1]")
        try f.tab.waitFor("document.querySelector('[data-techo-page]').dataset.techoPage === 'p1'", what: "p1 to open")
        try f.tab.click("[aria-label='Move page p1 down']")
        try f.waitForJournal("p1 moved down") {
            let text = try Techo.run(["page", "list", f.journal.path], in: f.folder)
            let ids = text.split(separator: "\n").map { $0.split(separator: "\t").first.map(String.init) ?? "" }
            return ids.count == 3 && ids[0] == "p2" && ids[1] == "p1"
        }
    }

    // MARK: history keys

    @Test func undoAndRedoKeys() throws {
        let f = try EditorFixture()
        try f.tab.drag(from: try f.client(200, 250), to: try f.client(300, 250))
        let moved: () throws -> Bool = { (point(try f.element("tomato")["at"])?.0 ?? 0) > 280 }
        let home: () throws -> Bool = { point(try f.element("tomato")["at"])! == (200, 250) }
        try f.waitForJournal("the drag", moved)
        try f.waitSettled()
        try f.tab.key("z", code: "KeyZ", keyCode: 90, modifiers: 2)
        try f.waitForJournal("Ctrl+Z undid the drag", home)
        try f.waitSettled()
        try f.tab.key("Z", code: "KeyZ", keyCode: 90, modifiers: 2 | 8)
        try f.waitForJournal("Ctrl+Shift+Z redid it", moved)
        try f.waitSettled()
        try f.tab.key("z", code: "KeyZ", keyCode: 90, modifiers: 2)
        try f.waitForJournal("Ctrl+Z again", home)
        try f.waitSettled()
        try f.tab.key("y", code: "KeyY", keyCode: 89, modifiers: 2)
        try f.waitForJournal("Ctrl+Y redid it", moved)
        try f.waitSettled()
        // The page follows: the tomato's handle is where the journal says.
        let x = try f.tab.number("techoEditor.elementById('tomato').transform[4]")
        #expect(abs(x - 300) < 2)
        #expect(try f.tab.evaluate("!document.querySelector('[data-techo-action=redo]').disabled") as? Bool == false)
    }

    // MARK: pictures in

    @Test func uploadThroughTheFileInput() throws {
        let f = try EditorFixture()
        let star = EditorFixture.fixtures.appendingPathComponent("star.png").path
        try f.tab.setFiles("input[type=file][data-techo-upload=\"image\"]", [star])
        try f.waitForJournal("the uploaded sticker") { (try f.pageJSON()["elements"] as? [Any])?.count == 4 }
        let added = try #require((try f.pageJSON()["elements"] as? [[String: Any]])?.last)
        #expect(added["type"] as? String == "image")
        #expect(point(added["naturalSize"])! == (64, 64))
        #expect(point(added["at"])! == (300, 400), "centred")
        try f.tab.waitFor("techoEditor.selection === '\(added["id"] as? String ?? "")'", what: "the new sticker to be selected")
    }

    @Test func photoFrameShadowAndOpacityFromTheSelectionPanel() throws {
        let f = try EditorFixture()
        let star = EditorFixture.fixtures.appendingPathComponent("star.png").path
        try f.tab.setFiles("input[type=file][data-techo-upload=\"photo\"]", [star])
        let photo: () throws -> [String: Any]? = {
            (try f.pageJSON()["elements"] as? [[String: Any]])?.first { $0["type"] as? String == "photo" }
        }
        try f.waitForJournal("the photo") { try photo() != nil }
        try f.tab.waitFor("!document.getElementById('photo-props').hidden", what: "the photo's properties")
        try f.waitSettled()
        try f.tab.click("#frame")
        try f.tab.key("Escape", code: "Escape", keyCode: 27)
        try f.tab.key("ArrowDown", code: "ArrowDown", keyCode: 40)
        try f.waitForJournal("a border frame") { try photo()?["frame"] as? String == "border" }
        try f.waitSettled()
        try f.tab.click("#shadow")
        try f.waitForJournal("a shadow") { try photo()?["shadow"] as? Bool == true }
        try f.waitSettled()
        let slider = try f.tab.box("#opacity")
        try f.tab.click(slider.x + 1, slider.y + slider.h / 2)
        try f.waitForJournal("opacity 0") { number(try photo()?["opacity"]) == 0 }
    }

    @Test func dropAPictureOnThePage() throws {
        let f = try EditorFixture()
        let star = EditorFixture.fixtures.appendingPathComponent("star.png").path
        let at = try f.client(450, 650)
        try f.tab.dropFiles([star], at: at.0, at.1)
        try f.waitForJournal("the dropped sticker") { (try f.pageJSON()["elements"] as? [Any])?.count == 4 }
        let added = try #require((try f.pageJSON()["elements"] as? [[String: Any]])?.last)
        #expect(added["type"] as? String == "image")
        let p = try #require(point(added["at"]))
        #expect(abs(p.0 - 450) <= 1.5 && abs(p.1 - 650) <= 1.5, "dropped at \(p)")
    }

    // MARK: live updates, export, pixels

    /// The edit reaching the screen is the event waited for; how fast it does is printed, and
    /// measured without other suites beside it by `make bench`, not asserted here.
    @Test func aTerminalEditShowsUpOnTheEditorsScreen() throws {
        let f = try EditorFixture()
        try f.waitSettled()
        let revision = try f.tab.evaluate("document.querySelector('[data-techo-page]').dataset.techoRevision") as? String
        try Techo.run(["gesture", f.journal.path, "p1", "tomato", "--pan", "60,0"], in: f.folder)
        let start = Date()
        // On screen: the new render is in (the page element names a new revision) and the
        // tomato's handle has moved with it.
        let quoted = String(data: try JSONSerialization.data(withJSONObject: [revision ?? ""]), encoding: .utf8) ?? "[\"\"]"
        try f.tab.waitFor(
            "document.querySelector('[data-techo-page]').dataset.techoRevision !== \(quoted)[0] && techoEditor.elementById('tomato').transform[4] > 255",
            what: "the terminal's pan on screen", timeout: 120)
        let elapsed = Date().timeIntervalSince(start)
        print("terminal edit reached the editor's screen in \(String(format: "%.0f", elapsed * 1000)) ms")
    }

    @Test func exportDownloadsThePageAndTheJournal() throws {
        let f = try EditorFixture()
        let downloads = f.folder.appendingPathComponent("downloads")
        try FileManager.default.createDirectory(at: downloads, withIntermediateDirectories: true)
        try f.browser.send("Browser.setDownloadBehavior", ["behavior": "allow", "downloadPath": downloads.path, "eventsEnabled": true])
        try f.tab.click("[data-techo-action=export-png]")
        let png = try f.browser.waitForEvent("Browser.downloadWillBegin", timeout: 30)
        try f.browser.waitForEvent("Browser.downloadProgress", timeout: 30) { $0["state"] as? String == "completed" }
        let pngName = try #require(png["suggestedFilename"] as? String)
        #expect(pngName == "01-p1.png")
        let image = try ImageDecoder.decodeStraight([UInt8](try Data(contentsOf: downloads.appendingPathComponent(pngName))), name: pngName).pixels
        #expect(image.width == 600 && image.height == 800)
        try f.tab.click("[data-techo-action=export-pdf]")
        let pdf = try f.browser.waitForEvent("Browser.downloadWillBegin", timeout: 30)
        try f.browser.waitForEvent("Browser.downloadProgress", timeout: 60) { $0["state"] as? String == "completed" }
        let pdfName = try #require(pdf["suggestedFilename"] as? String)
        #expect(pdfName.hasSuffix(".pdf"))
        // The journal as a reader opens it: qpdf finds nothing wrong, poppler sees both pages at
        // the page's size (600 x 800 px at 300 dpi: 144 x 192 pt), and the file is the print-true
        // PDF `techo export` writes (docs/editor-api.md), but for the moment each was made.
        #expect(try PDFTools.qpdfProblems(pdfName, in: downloads) == nil)
        let sizes = try PDFTools.pageSizes(pdfName, in: downloads)
        #expect(sizes == ["144 x 192 pts", "144 x 192 pts"], "poppler's pages: \(sizes)")
        _ = try Techo.run(["export", f.journal.path, "-o", f.folder.appendingPathComponent("cli.pdf").path], in: f.folder)
        let served = [UInt8](try Data(contentsOf: downloads.appendingPathComponent(pdfName)))
        let cli = [UInt8](try Data(contentsOf: f.folder.appendingPathComponent("cli.pdf")))
        #expect(PDFTools.withoutCreationDate(served) == PDFTools.withoutCreationDate(cli), "the download is not the vector PDF techo export writes")
        // Text as text: the page's title is in the PDF's text.
        #expect(try PDFTools.text(pdfName, in: downloads).contains("techo"))
    }

    /// The page element shows what `techo export` writes at the same scale. Metric: PSNR over
    /// the page's pixels and the share of pixels off by more than 8 in some channel (the browser
    /// scales and colour-manages the image it is given, so equality is not expected).
    @Test func thePageShowsWhatExportRenders() throws {
        let f = try EditorFixture()
        try f.waitSettled()
        let scale = try f.tab.number("techoEditor.view.scale")
        let diff = try f.compareWithExport(try f.pageShot(), name: "page")
        print("page element vs techo export --scale \(scale): \(diff)")
        #expect(diff.psnr >= 35, "\(diff)")
        #expect(Double(diff.differingPixels) <= 0.005 * Double(diff.pixelCount), "\(diff)")
    }

    // MARK: how it looks

    /// The layout at a laptop and a tablet size: the page fits, targets are 44 px, controls are
    /// labelled; the screenshots go to the test artifacts folder to be looked at.
    @Test(arguments: [(1440, 900, false, "editor.png"), (1024, 1366, true, "editor-tablet.png")])
    func layoutFitsAndTargetsAreBigEnough(size: (Int, Int, Bool, String)) throws {
        let f = try EditorFixture(width: size.0, height: size.1, touch: size.2)
        try f.waitSettled()
        let page = try f.tab.box("[data-techo-page]")
        let stage = try f.tab.box("#stage")
        #expect(page.x >= stage.x - 0.5 && page.y >= stage.y - 0.5, "page inside the stage")
        #expect(page.x + page.w <= stage.x + stage.w + 0.5 && page.y + page.h <= stage.y + stage.h + 0.5, "page fits the window")
        #expect(page.w * page.h >= 0.4 * stage.w * stage.h * min(1, (600.0 / 800) / (stage.w / stage.h)), "the page is the hero")
        let small = try #require(
            try f.tab.evaluate(
                """
                [...document.querySelectorAll('button, .file, [data-techo-tool], .swatch')].filter((e) => e.offsetParent)
                  .map((e) => { const r = e.getBoundingClientRect(); return [e.getAttribute('aria-label') || e.textContent, r.width, r.height]; })
                  .filter(([, w, h]) => w < 44 || h < 44)
                """) as? [Any])
        #expect(small.isEmpty, "touch targets under 44 px: \(small)")
        let unlabelled = try #require(
            try f.tab.evaluate(
                """
                [...document.querySelectorAll('button, input, select, textarea')]
                  .filter((e) => !(e.getAttribute('aria-label') || e.textContent.trim() || (e.labels && e.labels.length)))
                  .map((e) => e.outerHTML.slice(0, 80))
                """) as? [Any])
        #expect(unlabelled.isEmpty, "controls without a label: \(unlabelled)")
        // Select the tomato, so the screenshot shows the selection panel too.
        let c = try f.client(200, 250)
        try f.tab.click(c.0, c.1)
        try f.tab.waitFor("!document.getElementById('selection-panel').hidden", what: "the selection panel")
        let shot = try f.tab.screenshot(x: 0, y: 0, w: Double(size.0), h: Double(size.1))
        try shot.write(to: Fixtures.artifactsDirectory("editor").appendingPathComponent(size.3))
    }

    /// With TECHO_RECORD=1 (after `make demo`), the README's screenshots: the demo journal in the
    /// editor at a laptop, a tablet and a phone size, written to docs/ (and then the test fails, as every
    /// recording does).
    @Test(
        .enabled(if: ProcessInfo.processInfo.environment["TECHO_RECORD"] == "1"),
        arguments: [(1440, 900, false, "editor.png"), (1024, 1366, true, "editor-tablet.png"), (390, 844, true, "editor-phone.png")])
    func recordReadmeScreenshots(size: (Int, Int, Bool, String)) throws {
        let demo = Fixtures.url("../../out/demo/kyoto.techo")
        guard FileManager.default.fileExists(atPath: demo.appendingPathComponent("journal.json").path) else {
            Issue.record("run make demo first: \(demo.path) is missing")
            return
        }
        let f = try EditorFixture(width: size.0, height: size.1, touch: size.2, journal: demo)
        try f.waitSettled()
        // Select the first image sticker (the SVG sakura), so the selection panel shows too.
        let cat = try #require(
            try f.tab.evaluate(
                "(() => { const e = techoEditor.pageData.elements.find((e) => e.type === 'image'); return e ? [e.id, e.transform[4], e.transform[5]] : null; })()"
            ) as? [Any])
        let b = try f.tab.box("[data-techo-page]")
        let page = try #require(try f.tab.evaluate("[techoEditor.view.page.width, techoEditor.view.page.height]") as? [NSNumber])
        try f.tab.click(b.x + number(cat[1])! * b.w / page[0].doubleValue, b.y + number(cat[2])! * b.h / page[1].doubleValue)
        try f.tab.waitFor("techoEditor.selection === '\(cat[0])'", what: "the sticker to be selected")
        try f.waitSettled()
        let shot = try f.tab.screenshot(x: 0, y: 0, w: Double(size.0), h: Double(size.1))
        try shot.write(to: Fixtures.url("../../docs/\(size.3)"))
        Issue.record("TECHO_RECORD=1: wrote docs/\(size.3); run again without it")
    }
}

func crop(_ p: Pixmap, _ w: Int, _ h: Int) -> Pixmap {
    if p.width == w && p.height == h { return p }
    var out = [UInt8](repeating: 0, count: w * h * 4)
    for y in 0..<h {
        for x in 0..<(w * 4) { out[y * w * 4 + x] = p.data[y * p.width * 4 + x] }
    }
    return Pixmap(width: w, height: h, premultiplied: out)
}
