// A handle drag on a crowded page (the page `techo-bench move` measures: an A5 page at 300 dpi
// with 50 stickers and one ink layer of 5,000 short pencil strokes, here built from a manifest),
// with the live view's frame rate taken from requestAnimationFrame timestamps during the drag.
// The figures are printed (`handle drag on the crowded page: …`, and `plain drag …` for comparison) for docs/editor.md, not asserted:
// a wall-clock rate on a shared machine is a measurement, not a check.

import Foundation
import TechoModel
import TechoTestSupport
import Testing

extension EditorBrowserTests {
    /// The crowded journal, made with `techo build` from a manifest (deterministic).
    static func crowdedJournal(in folder: URL) throws -> URL {
        var rng = SplitMix64(seed: 0x7EC0_5EED)
        var elements: [String] = []
        let star = EditorFixture.fixtures.appendingPathComponent("star.png")
        try FileManager.default.copyItem(at: star, to: folder.appendingPathComponent("star.png"))
        for n in 1...50 {
            let x = rng.uniform(80...1668), y = rng.uniform(80...2400), s = rng.uniform(0.6...2.4), r = rng.uniform(-179...180)
            elements.append(#"{"type":"image","id":"s\#(n)","src":"star.png","at":[\#(x),\#(y)],"scale":\#(s),"rotate":\#(r)}"#)
        }
        var strokes: [String] = []
        for _ in 0..<5000 {
            let length = 6 * pow(10, rng.unit())
            let n = max(2, Int((length / 10).rounded()) + 1)
            var x = rng.uniform(60...1688), y = rng.uniform(60...2420), angle = rng.uniform(-Double.pi...Double.pi)
            var points: [String] = []
            for _ in 0..<n {
                points.append("[\((x * 100).rounded() / 100),\((y * 100).rounded() / 100),0.5]")
                angle += rng.uniform(-0.6...0.6)
                x += length / Double(n - 1) * cos(angle)
                y += length / Double(n - 1) * sin(angle)
            }
            strokes.append(##"{"tool":"pencil","color":"#2b2b2b","width":3,"points":[\##(points.joined(separator: ","))]}"##)
        }
        elements.insert(#"{"type":"ink","id":"ink-1","strokes":[\#(strokes.joined(separator: ","))]}"#, at: 25)
        let manifest = #"{"pages":[{"id":"p1","size":"A5","elements":[\#(elements.joined(separator: ","))]}]}"#
        try Data(manifest.utf8).write(to: folder.appendingPathComponent("crowded.json"))
        let journal = folder.appendingPathComponent("crowded.techo")
        try Techo.run(["build", "crowded.json", "--journal", journal.path, "--no-export"], in: folder)
        return journal
    }

    /// The demo journal (Resources/demo/kyoto.json, its pictures painted by techo-assets), built
    /// in `folder`: pages like a journaler's (photos with shadows, tape, CJK text, ink).
    static func demoJournal(in folder: URL) throws -> URL {
        let paint = try ChildProcess.run(BuiltProducts.url("techo-assets"), ["demo", folder.appendingPathComponent("assets").path], in: folder)
        guard paint.code == 0 else { throw DevToolsError(description: "techo-assets demo exited \(paint.code): \(paint.err)") }
        try FileManager.default.copyItem(at: Fixtures.url("../../Resources/demo/kyoto.json"), to: folder.appendingPathComponent("kyoto.json"))
        let journal = folder.appendingPathComponent("kyoto.techo")
        try Techo.run(["build", "kyoto.json", "--journal", journal.path, "--no-export"], in: folder)
        return journal
    }

    @Test func aHandleDragOnTheCrowdedPageIsMeasured() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("techo-crowded-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let f = try EditorFixture(journal: try Self.crowdedJournal(in: work))
        let pageW = try f.tab.number("techoEditor.view.page.width"), pageH = try f.tab.number("techoEditor.view.page.height")
        let b = try f.tab.box("[data-techo-page]")
        let s = try #require(try f.tab.evaluate("techoEditor.elementById('s30').transform") as? [NSNumber]).map(\.doubleValue)
        let c = (b.x + s[4] * b.w / pageW, b.y + s[5] * b.h / pageH)
        try f.tab.click(c.0, c.1)
        try f.tab.waitFor("techoEditor.selection && !document.querySelector('.selection-frame').hidden", what: "a selected sticker")
        let id = try #require(try f.tab.evaluate("techoEditor.selection") as? String)
        try f.waitSettled()
        // The live view's frames, from requestAnimationFrame timestamps while a drag lasts.
        func measure(_ what: String, from a: (Double, Double)) throws {
            try f.tab.evaluate(
                "window.techoFrames = []; window.techoFrameRun = (window.techoFrameRun || 0) + 1; ((run) => (function tick(t) { if (window.techoFrameRun !== run) return; window.techoFrames.push(t); requestAnimationFrame(tick); })(performance.now()))(window.techoFrameRun)"
            )
            try f.tab.mouse("mouseMoved", a.0, a.1)
            try f.tab.mouse("mousePressed", a.0, a.1, buttons: 1, clickCount: 1)
            let t0 = try f.tab.number("performance.now()")
            for i in 1...120 {
                try f.tab.mouse("mouseMoved", a.0 + Double(i) * 0.5, a.1 + Double(i) * 0.4, buttons: 1)
                usleep(8_000)
            }
            let t1 = try f.tab.number("performance.now()")
            try f.tab.mouse("mouseReleased", a.0 + 60, a.1 + 48, clickCount: 1)
            let frames = try #require(
                try f.tab.evaluate("window.techoFrames.filter((t) => t >= \(t0) && t <= \(t1))") as? [NSNumber]
            ).map(\.doubleValue)
            try f.waitSettled()
            #expect(frames.count > 1, "no frame during the drag")
            let gaps = zip(frames.dropFirst(), frames).map { $0 - $1 }.sorted()
            let fps = Double(frames.count - 1) / ((frames.last ?? 0) - (frames.first ?? 0)) * 1000
            func gap(_ q: Double) -> String { String(format: "%.1f", gaps.isEmpty ? 0 : gaps[min(gaps.count - 1, Int(Double(gaps.count) * q))]) }
            print(
                "\(what) on the crowded page: \(frames.count) frames in \(Int(t1 - t0)) ms, \(String(format: "%.1f", fps)) fps, median gap \(gap(0.5)) ms, p95 gap \(gap(0.95)) ms, longest \(gap(1)) ms"
            )
        }
        try measure("handle drag", from: try handleCentre(f, "se"))
        // The same sticker dragged by its body, for comparison (snapping on).
        let t = try #require(try f.tab.evaluate("techoEditor.elementById('\(id)').transform") as? [NSNumber]).map(\.doubleValue)
        try measure("plain drag", from: ((b.x + t[4] * b.w / pageW).rounded(), (b.y + t[5] * b.h / pageH).rounded()))
        let history = try Techo.run(["history", f.journal.path], in: f.folder)
        #expect(history.contains("gesture \(id)"), "\(history)")
    }

    /// Pointer released → the new render on screen, on the crowded page, the demo's first page
    /// (photos with shadows, tape, CJK text, ink) and the fixture's page, by the editor's own clock (`techoEditor.timings`: the gesture POST, the reads, the
    /// decode and the swap), over nine drags each. Printed (`release to render …`), not
    /// asserted: a wall-clock figure on a shared machine is a measurement.
    @Test func releaseToRenderIsMeasuredOnTheCrowdedPage() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("techo-crowded-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let cases: [(String, URL?)] = [
            ("the crowded page", try Self.crowdedJournal(in: work)), ("the demo's first page", try Self.demoJournal(in: work)), ("the fixture's page", nil),
        ]
        for (what, journal) in cases {
            let f = try EditorFixture(journal: journal)
            let pageW = try f.tab.number("techoEditor.view.page.width"), pageH = try f.tab.number("techoEditor.view.page.height")
            let b = try f.tab.box("[data-techo-page]")
            // The crowded page's 30th star, the demo's first picture sticker (its sakura), the fixture's tomato.
            let pick = "(techoEditor.elementById('s30') || techoEditor.pageData.elements.find((e) => e.type === 'image')).id"
            let id = journal == nil ? "tomato" : try #require(try f.tab.evaluate(pick) as? String)
            try f.tab.evaluate("window.addEventListener('pointerup', () => { window.techoUpAt = performance.now(); }, true)")
            var moves = 0
            var parts = ""
            for i in 0..<9 {
                let t = try #require(try f.tab.evaluate("techoEditor.elementById('\(id)').transform") as? [NSNumber], "no \(id)").map(\.doubleValue)
                let c = ((b.x + t[4] * b.w / pageW).rounded(), (b.y + t[5] * b.h / pageH).rounded())
                let d: Double = i % 2 == 0 ? 24 : -24
                // A hand's drag: 12 moves 16 ms apart.
                try f.tab.mouse("mouseMoved", c.0, c.1)
                try f.tab.mouse("mousePressed", c.0, c.1, buttons: 1, clickCount: 1)
                for k in 1...12 {
                    usleep(16_000)
                    try f.tab.mouse("mouseMoved", c.0 + d * Double(k) / 12, c.1 + d / 2 * Double(k) / 12, buttons: 1)
                }
                try f.tab.mouse("mouseReleased", c.0 + d, c.1 + d / 2, clickCount: 1)
                moves += 1
                try f.tab.waitFor("techoEditor.timings.length >= \(moves)", what: "the render after drag \(moves)")
                try f.waitSettled()
                // What the editor fetched after the release, from the release (Resource Timing).
                parts =
                    try f.tab.evaluate(
                        "performance.getEntriesByType('resource').filter((e) => e.startTime >= window.techoUpAt - 1).map((e) => new URL(e.name).pathname.replace(/^\\/api\\/pages\\/[^\\/]+/, '') + new URL(e.name).search.replace(/[?&]token=[^&]*/, '') + ' ' + Math.round(e.startTime - window.techoUpAt) + '-' + Math.round(e.responseEnd - window.techoUpAt)).join(', ')"
                    ) as? String ?? ""
                try f.tab.evaluate("performance.clearResourceTimings()")
            }
            let timings = try #require(try f.tab.evaluate("techoEditor.timings") as? [NSNumber]).map(\.doubleValue)
            let sorted = timings.sorted()
            print(
                "release to render on \(what): median \(String(format: "%.1f", sorted[sorted.count / 2])) ms, min \(String(format: "%.1f", sorted.first ?? 0)), max \(String(format: "%.1f", sorted.last ?? 0)) over \(timings.count) drags: \(timings.map { Int($0.rounded()) })"
            )
            print("release to render on \(what), the last drag's fetches (ms after the release): \(parts)")
            #expect(timings.count == 9)
            let history = try Techo.run(["history", f.journal.path], in: f.folder)
            #expect(history.components(separatedBy: "gesture \(id)").count - 1 == 9, "\(history)")
        }
    }
}
