// The editor's core journeys in every engine (Blink, WebKit, Gecko), written once: Chromium over
// the DevTools protocol, WebKitGTK's MiniBrowser over classic WebDriver (WebKitWebDriver under
// Xvfb), Firefox ESR over WebDriver BiDi, all with real input as W3C actions. One browser per
// engine runs every journey, each on a fresh journal and server; what the hand did is read back
// from the journal with `techo show --json`. Waits are on conditions, never on the clock.

import Foundation
import Testing

/// A fresh journal (the browser tests' page: the tomato sticker at (200, 250) scale 1.5, the
/// `title` text, one pencil stroke in `ink-1`) and `techo serve` over it.
final class JourneyJournal {
    let folder: URL
    let journal: URL
    let server: Server

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("techo-engine-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        journal = folder.appendingPathComponent("j.techo")
        let j = journal.path, tomato = EditorFixture.fixtures.appendingPathComponent("tomato.png").path
        for args in [
            ["init", j, "--title", "Engine test", "--size", "600x800", "--background", "#f6f0e4", "--paper", "dots"],
            ["add", "image", j, "p1", tomato, "--id", "tomato", "--at", "200,250", "--scale", "1.5"],
            ["add", "text", j, "p1", "techo", "--id", "title", "--at", "420,120", "--size", "48", "--color", "#5b3a29"],
            ["draw", j, "p1", "--tool", "pencil", "--color", "#3d85c6", "--width", "8", "--points", "80,600 300,640 520,600"],
        ] { try Techo.run(args, in: folder) }
        server = try Server(journal: journal, folder: folder)
    }

    deinit {
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    func element(_ id: String) throws -> [String: Any] {
        let text = try Techo.run(["show", journal.path, "p1", id, "--json"], in: folder)
        return try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
    }

    func elements() throws -> [[String: Any]] {
        let text = try Techo.run(["show", journal.path, "p1", "--json"], in: folder)
        return (try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])?["elements"] as? [[String: Any]] ?? []
    }

    func strokes() throws -> [[String: Any]] { try element("ink-1")["strokes"] as? [[String: Any]] ?? [] }

    func historySteps(_ label: String) throws -> Int {
        try Techo.run(["history", journal.path], in: folder).components(separatedBy: label).count - 1
    }

    /// Polls the journal until `condition` holds (a change reaches the disk after the request).
    func wait(_ what: String, engine: Engine, timeout: TimeInterval = 30, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if (try? condition()) == true { return }
            if Date() > deadline { throw DevToolsError(description: "\(engine): timed out after \(Int(timeout)) s waiting for the journal: \(what)") }
            usleep(40_000)
        }
    }
}

/// What each engine's driver can be made to do (docs/testing.md says why).
extension Engine {
    /// Two-finger touch actions that reach the page whole. WebKitGTK's driver turns touch into
    /// mouse; Firefox's BiDi delivers both fingers down but not the second finger's moves through
    /// to the end of the action, so a pinch there ends short (docs/testing.md).
    var drivesTouch: Bool { self == .chromium }

    func launch() throws -> EngineBrowser {
        switch self {
        case .chromium: return try ChromiumEngine()
        case .webkit: return try WebDriverSession()
        case .firefox: return try FirefoxBiDi()
        }
    }
}

@Suite(.serialized) struct EngineJourneysTests {
    /// One journey: a fresh journal and server, the editor opened on it in `tab`.
    /// A failure is recorded under the journey's name and the next journey still runs.
    static func journey(_ name: String, _ tab: EngineTab, _ body: (JourneyJournal, Journey) throws -> Void) {
        do {
            let j = try JourneyJournal()
            try tab.open(j.server.url)
            try body(j, Journey(tab: tab, j: j))
        } catch {
            Issue.record("\(tab.engine), \(name): \(error)")
        }
    }

    struct Journey {
        let tab: EngineTab
        let j: JourneyJournal

        /// The client point of page point (x, y), by §11's rule for `[data-techo-page]`.
        func client(_ x: Double, _ y: Double) throws -> (Double, Double) {
            let b = try tab.box("[data-techo-page]")
            return (b.x + x * b.w / 600, b.y + y * b.h / 800)
        }

        /// CSS px per page px.
        func k() throws -> Double { try tab.box("[data-techo-page]").w / 600 }

        func settled() throws {
            try tab.waitFor(
                "window.techoEditor && !techoEditor.refreshing && techoEditor.inGesture === 0 && techoEditor.changesInFlight === 0",
                what: "the editor to settle")
        }

        func wait(_ what: String, _ condition: () throws -> Bool) throws { try j.wait(what, engine: tab.engine, condition) }
    }

    @Test(arguments: Engine.allCases)
    func coreJourneys(engine: Engine) throws {
        let browser = try engine.launch()
        defer { browser.shutdown() }
        let tab = EngineTab(browser)

        // Open, drag a sticker by (+100, +50) page px in one step, undo and redo it by keys.
        EngineJourneysTests.journey("drag, undo, redo", tab) { j, g in
            try g.settled()
            let a = try g.client(200, 250), b = try g.client(300, 300)
            try tab.drag(from: a, to: b, steps: 10)
            try g.wait("the tomato moved") { (point(try j.element("tomato")["at"])?.0 ?? 200) > 250 }
            try g.settled()
            let at = try #require(point(try j.element("tomato")["at"]))
            #expect(abs(at.0 - 300) <= 1 && abs(at.1 - 300) <= 1, "\(engine): tomato at \(at)")
            #expect(try j.historySteps("gesture tomato") == 1, "\(engine): one history step")
            try tab.press("z", with: [W3CKey.control])
            try g.wait("Ctrl+Z undid the drag") { point(try j.element("tomato")["at"])! == (200, 250) }
            try g.settled()
            try tab.press("y", with: [W3CKey.control])
            try g.wait("Ctrl+Y redid the drag") { (point(try j.element("tomato")["at"])?.0 ?? 0) > 290 }
        }

        // A double-click turns the sticker +90°; a corner handle scales it about the opposite corner.
        EngineJourneysTests.journey("turn, resize by a handle", tab) { j, g in
            try g.settled()
            let c = try g.client(200, 250)
            try tab.click(c.0, c.1, count: 2)
            try g.wait("the tomato turned") { number(try j.element("tomato")["rotate"]) == 90 }
            try g.settled()
            try tab.waitFor(
                "document.querySelector('[data-techo-handle=se]') && !document.querySelector('.selection-frame').hidden", what: "the selection's handles")
            // Outward from the centre through the handle (the frame has turned with the sticker).
            let h = try tab.box("[data-techo-handle=se]"), c2 = try g.client(200, 250)
            let from = (h.x + h.w / 2, h.y + h.h / 2)
            let d = (from.0 - c2.0, from.1 - c2.1), n = (d.0 * d.0 + d.1 * d.1).squareRoot()
            try tab.drag(from: from, to: (from.0 + 40 * d.0 / n, from.1 + 40 * d.1 / n), steps: 8)
            try g.wait("the corner drag scaled the tomato") { (number(try j.element("tomato")["scale"]) ?? 1.5) > 1.6 }
            try g.settled()
            #expect(try j.historySteps("gesture tomato") == 2, "\(engine): turn and scale, one step each")
        }

        // The pencil draws one stroke whose ends are where the pointer went; Ctrl+Z removes it,
        // Ctrl+Shift+Z brings it back.
        EngineJourneysTests.journey("pencil, undo, redo", tab) { j, g in
            try g.settled()
            try tab.click("[data-techo-tool=pencil]")
            try tab.waitFor("techoEditor.tool.name === 'pencil'", what: "the pencil")
            try tab.drag(from: try g.client(100, 700), to: try g.client(500, 740), steps: 16)
            try g.wait("a second stroke") { try j.strokes().count == 2 }
            let points = try #require(try j.strokes().last?["points"] as? [[NSNumber]])
            let first = try #require(points.first), last = try #require(points.last)
            #expect(abs(first[0].doubleValue - 100) <= 1.5 && abs(first[1].doubleValue - 700) <= 1.5, "\(engine): starts at \(first)")
            #expect(abs(last[0].doubleValue - 500) <= 1.5 && abs(last[1].doubleValue - 740) <= 1.5, "\(engine): ends at \(last)")
            #expect(points.count >= 8, "\(engine): \(points.count) points")
            // The live stroke used what this engine offers, and drew without what it lacks
            // (predicted pointer events, a low-latency canvas; docs/testing.md lists which).
            let offered =
                try tab.evaluate(
                    "({predicted: typeof PointerEvent.prototype.getPredictedEvents === 'function', "
                        + "lowLatency: !!(techoEditor.ink && techoEditor.ink.lowLatency), inkReady: !!techoEditor.ink})") as? [String: Any] ?? [:]
            print("\(engine): pencil drawn with predicted events \(offered["predicted"] ?? "?"), low-latency canvas \(offered["lowLatency"] ?? "?")")
            #expect(offered["inkReady"] as? Bool == true, "\(engine): no live ink preview")
            try g.settled()
            try tab.press("z", with: [W3CKey.control])
            try g.wait("Ctrl+Z removed the stroke") { try j.strokes().count == 1 }
            try g.settled()
            try tab.press("z", with: [W3CKey.control, W3CKey.shift])
            try g.wait("Ctrl+Shift+Z brought it back") { try j.strokes().count == 2 }
        }

        // The view zooms by its buttons and keys, and a drag at that zoom moves the sticker by the
        // screen distance over the zoom.
        EngineJourneysTests.journey("zoom", tab) { j, g in
            try g.settled()
            try tab.click("[data-techo-action=zoom-in]")
            try tab.waitFor("Math.abs(Number(document.querySelector('[data-techo-page]').dataset.techoZoom) - 1.25) < 0.01", what: "zoom-in to 125 %")
            try tab.press("=", with: [W3CKey.control])
            try tab.waitFor("Number(document.querySelector('[data-techo-page]').dataset.techoZoom) > 1.3", what: "Ctrl+= to zoom in")
            try g.settled()
            let k = try g.k()
            let a = try g.client(200, 250)
            try tab.drag(from: a, to: (a.0 + 60, a.1 + 30), steps: 8)
            try g.wait("the zoomed drag") { (point(try j.element("tomato")["at"])?.0 ?? 200) > 210 }
            let at = try #require(point(try j.element("tomato")["at"]))
            #expect(abs(at.0 - (200 + 60 / k)) <= 1 && abs(at.1 - (250 + 30 / k)) <= 1, "\(engine): at \(at), k \(k)")
            try tab.press("0", with: [W3CKey.control])
            try tab.waitFor("Number(document.querySelector('[data-techo-page]').dataset.techoZoom) === 1", what: "Ctrl+0 to fit")
        }

        // A text sticker, typed key by key into the panel's field and added.
        EngineJourneysTests.journey("text", tab) { j, g in
            try g.settled()
            try tab.click("#text-new")
            try tab.waitFor("document.activeElement && document.activeElement.id === 'text-new'", what: "the text field to take focus")
            try tab.type("Kyoto")
            try tab.click("#text-form button[type=submit]")
            try g.wait("the text was added") { try j.elements().contains { $0["text"] as? String == "Kyoto" } }
        }

        // The text tool: T, a click on the paper places a box there, the words typed key by key
        // go into it on the page, Escape adds them as one text whose box starts at the click.
        // (IME composition is driven in Chromium only: W3C actions have no composition; see
        // docs/testing.md.)
        EngineJourneysTests.journey("place and type a text", tab) { j, g in
            try g.settled()
            let added = try j.historySteps("add text")
            try tab.press("t")
            try tab.waitFor("techoEditor.tool.name === 'text'", what: "T to take the text tool")
            let at = try g.client(100, 450)
            try tab.click(at.0, at.1)
            try tab.waitFor("document.activeElement && document.activeElement.dataset.techoTextBox === 'new'", what: "a focused text box")
            try tab.type("Nara")
            try tab.waitFor("document.querySelector('[data-techo-text-box]').innerText === 'Nara'", what: "the typing on the page")
            try tab.press(W3CKey.escape)
            try g.wait("the text was added") { try j.elements().contains { $0["text"] as? String == "Nara" } }
            try g.settled()
            let id = try #require(try j.elements().first { $0["text"] as? String == "Nara" }?["id"] as? String)
            let corner = try #require(
                point(
                    try tab.evaluate(
                        "(() => { const e = techoEditor.elementById('\(id)'), m = e.transform; return [m[4] - e.size[0] / 2, m[5] - e.size[1] / 2]; })()")))
            #expect(abs(corner.0 - 100) <= 1 && abs(corner.1 - 450) <= 1, "\(engine): the text's top-left at \(corner), the click at 100,450")
            #expect(try j.historySteps("add text") == added + 1, "\(engine): one history step")
        }

        // A picture chosen in the file input becomes a sticker, centred.
        EngineJourneysTests.journey("upload", tab) { j, g in
            try g.settled()
            let star = EditorFixture.fixtures.appendingPathComponent("star.png").path
            try tab.browser.setFiles("input[type=file][data-techo-upload=\"image\"]", [star])
            try g.wait("the uploaded sticker") { try j.elements().count == 4 }
        }

        // A change made by a techo command shows up on the editor's screen.
        EngineJourneysTests.journey("a CLI change shown live", tab) { j, g in
            try g.settled()
            try Techo.run(["gesture", j.journal.path, "p1", "tomato", "--pan", "60,0"], in: j.folder)
            try tab.waitFor("techoEditor.elementById('tomato').transform[4] > 255", what: "the terminal's pan on screen", timeout: 60)
        }

        // Two fingers pinch and turn the sticker about their midpoint, where touch can be driven.
        if engine.drivesTouch {
            EngineJourneysTests.journey("pinch", tab) { j, g in
                try g.settled()
                func place(_ spread: Double, _ degrees: Double) throws -> [(Double, Double)] {
                    let r = 40 * spread, a = degrees * .pi / 180
                    return [try g.client(200 - r * cos(a), 250 - r * sin(a)), try g.client(200 + r * cos(a), 250 + r * sin(a))]
                }
                let steps = try (0...12).map { try place(1 + 0.5 * Double($0) / 12, 30 * Double($0) / 12) }
                // Every finger's last move has reached the page before they lift: an engine that
                // coalesces moves to its frames (Firefox) would otherwise deliver the first lift
                // before the other finger's last move, and the pinch would end short of it.
                try tab.evaluate(
                    "(() => { window.__fingers = {}; document.addEventListener('pointermove', (e) => { "
                        + "if (e.pointerType === 'touch') __fingers[e.pointerId] = [e.clientX, e.clientY]; }, true); return 1; })()")
                try tab.fingersDown([steps.map { $0[0] }, steps.map { $0[1] }])
                let ends = steps[12].map { "[\($0.0), \($0.1)]" }.joined(separator: ", ")
                try tab.waitFor(
                    "(() => { const f = Object.values(__fingers), e = [\(ends)]; return f.length === 2 && e.every((p) => f.some((q) => Math.abs(q[0] - p[0]) < 1 && Math.abs(q[1] - p[1]) < 1)); })()",
                    what: "both fingers' last moves")
                try tab.liftFingers(2)
                try g.wait("the tomato was pinched") { (number(try j.element("tomato")["scale"]) ?? 1.5) > 2 }
                let e = try j.element("tomato")
                let scale = try #require(number(e["scale"])), rotate = try #require(number(e["rotate"]))
                #expect(abs(scale - 2.25) < 0.06 && abs(rotate - 30) < 1.5, "\(engine): scale \(scale), rotate \(rotate)")
                #expect(try j.historySteps("gesture tomato") == 1, "\(engine): one history step")
            }
        }

        // Share: no engine here has a share sheet for files (Web Share is Safari's on iPadOS and
        // iOS, and Chrome's on Android, Windows and macOS), so the button gives the page's PNG
        // as a download. The page's download request is caught (the file is the browser's to save).
        EngineJourneysTests.journey("share falls back to a download", tab) { j, g in
            try g.settled()
            let canShareFiles =
                try tab.evaluate(
                    "typeof navigator.share === 'function' && typeof navigator.canShare === 'function' "
                        + "&& navigator.canShare({files: [new File([''], 'x.png', {type: 'image/png'})]})") as? Bool
            #expect(canShareFiles == false, "\(engine): a share sheet for files; this journey tests the fallback")
            try tab.evaluate(
                "(() => { window.__downloads = []; document.addEventListener('click', (e) => { const a = e.target.closest && e.target.closest('a[download]'); "
                    + "if (a) { e.preventDefault(); __downloads.push({href: a.href, name: a.download}); } }, true); return 1; })()")
            try tab.click("[data-techo-action=share]")
            try tab.waitFor("document.querySelector('[data-techo-action=share]').dataset.techoShared", what: "the share to finish")
            #expect(try tab.evaluate("document.querySelector('[data-techo-action=share]').dataset.techoShared") as? String == "downloaded")
            // The file handed over is the page's PNG as `techo export` names and draws it.
            let got = try #require(
                try tab.evaluate(
                    "(async () => { const d = __downloads[0]; if (!d) return null; const b = new Uint8Array(await (await fetch(d.href)).arrayBuffer()); "
                        + "const v = new DataView(b.buffer); return {name: d.name, n: __downloads.length, sig: Array.from(b.slice(0, 8)), "
                        + "w: v.getUint32(16), h: v.getUint32(20), bytes: b.length}; })()") as? [String: Any],
                "\(engine): no download was started")
            #expect(got["name"] as? String == "01-p1.png", "\(engine): named \(got["name"] ?? "nil")")
            #expect(got["n"] as? Int == 1, "\(engine): one download")
            #expect((got["sig"] as? [NSNumber])?.map(\.intValue) == [137, 80, 78, 71, 13, 10, 26, 10], "\(engine): a PNG")
            #expect(number(got["w"]) == 600 && number(got["h"]) == 800, "\(engine): \(got["w"] ?? 0)x\(got["h"] ?? 0), not the page's 600x800")
            let exported = j.folder.appendingPathComponent("share-check")
            try Techo.run(["export", j.journal.path, "-o", exported.path, "--page", "p1"], in: j.folder)
            let file = try FileManager.default.contentsOfDirectory(atPath: exported.path).filter { $0.hasSuffix(".png") }
            #expect(file == ["01-p1.png"], "\(engine): techo export wrote \(file)")
        }
    }
}
