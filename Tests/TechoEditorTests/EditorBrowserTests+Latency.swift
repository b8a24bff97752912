// The time from a pointer event to the first frame that shows its point, with a pen and with a
// finger, on a tablet as a person meets it: an A5 page on a 1024x1366 screen at two device pixels
// per CSS pixel, the renderer's main thread slowed four times (CDP's
// Emulation.setCPUThrottlingRate, a tablet's CPU against this machine's), and one long stroke of
// handwriting across the page, four samples a frame as a 240 Hz pen gives them.
//
// Measured by the page itself from outside the editor's code (any canvas of the page opaque at
// the point counts), so the same test runs on any version of the editor. It fails with the live
// stroke drawn one animation frame after its event (pen median 26.3 ms, finger 45.6 ms). The
// editor as it was before the live-ink work (commit 6e8b8d8, which redrew the whole stroke on a
// page-sized overlay at every event) passes it too, by a millisecond or two: the 140 ms (pen) and
// 182 ms (finger) medians measured then are not reproduced here, so this is no regression test
// of that figure (docs/editor.md, "Strokes").

import Foundation
import Testing

extension EditorBrowserTests {
    /// Each coalesced sample of each pointer move, from its own `timeStamp` to the first
    /// animation frame (requestAnimationFrame's time) in which a canvas of the page is painted at
    /// its point: median and p95 printed, the median held to a frame and a half (25 ms) for a pen
    /// and two frames (34 ms) for a finger, whose moves reach the page through the compositor's
    /// touch queue a frame later than a pen's. A sample already painted when its event arrives
    /// (under the browser's predicted tail) is counted apart and not measured; the samples are
    /// 3 CSS px apart, wider than the pencil's end cap and the 3x3 pixel check, so the stroke
    /// drawn before a sample never covers it.
    ///
    /// The stroke: 1,600 samples (400 frames) in rows across the page, as a line of writing
    /// goes. The time after the frame's paint (a message posted from that frame's
    /// requestAnimationFrame) is printed too, not asserted: it carries this check's own reads.
    @Test(arguments: ["pen", "touch"]) func theLiveStrokeIsOnScreenWithinAFrameOfItsEvent(kind: String) throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("techo-latency-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let journal = work.appendingPathComponent("a5.techo")
        try Techo.run(["init", journal.path, "--size", "A5", "--paper", "lines", "--background", "#f6f0e4"], in: work)
        let f = try EditorFixture(width: 1024, height: 1366, touch: kind == "touch", journal: journal)
        // A tablet's screen: two device pixels per CSS pixel (the editor sizes its canvases then).
        try f.tab.send(
            "Emulation.setDeviceMetricsOverride", ["width": 1024, "height": 1366, "deviceScaleFactor": 2, "mobile": kind == "touch"])
        try f.tab.open(f.server.url)
        try f.tool("pencil")
        try f.tab.evaluate(
            """
            (() => {
              const ink = window.__ink = { pending: [], lat: [], painted: [], covered: 0 };
              const page = document.querySelector('[data-techo-page]');
              const painted = (x, y) => [...page.querySelectorAll('canvas')].some((c) => {
                const r = c.getBoundingClientRect();
                if (c.hidden || r.width === 0 || x < r.left || y < r.top || x >= r.right || y >= r.bottom) return false;
                const px = Math.floor((x - r.left) * c.width / r.width), py = Math.floor((y - r.top) * c.height / r.height);
                const a = c.getContext('2d').getImageData(Math.max(0, px - 1), Math.max(0, py - 1), 3, 3).data;
                for (let i = 3; i < a.length; i += 4) if (a[i] > 0) return true;
                return false;
              });
              // Before the editor's own listener: what is on screen when the event comes.
              window.addEventListener('pointermove', (e) => {
                if (!e.buttons) return;
                const list = e.getCoalescedEvents ? e.getCoalescedEvents() : [];
                for (const c of (list.length ? list : [e])) {
                  if (painted(c.clientX, c.clientY)) ink.covered++;
                  else ink.pending.push({ t: c.timeStamp, x: c.clientX, y: c.clientY });
                }
              }, true);
              const afterPaint = new MessageChannel();
              let shown = [];
              afterPaint.port1.onmessage = () => { const t = performance.now(); for (const p of shown) ink.painted.push(t - p.t); shown = []; };
              const frame = (now) => {
                ink.pending = ink.pending.filter((p) => {
                  if (!painted(p.x, p.y) && now - p.t < 2000) return true;
                  ink.lat.push(now - p.t);
                  shown.push(p);
                  return false;
                });
                if (shown.length) afterPaint.port2.postMessage(0);
                requestAnimationFrame(frame);
              };
              requestAnimationFrame(frame);
              return true;
            })()
            """)
        let page = try f.tab.box("[data-techo-page]")
        let rowLength = page.w - 80
        let path = (0...1600).map { i -> (Double, Double) in
            let d = Double(i) * 3
            let row = Int(d / rowLength), along = d.truncatingRemainder(dividingBy: rowLength)
            let x = row % 2 == 0 ? page.x + 40 + along : page.x + page.w - 40 - along
            return (x, page.y + 60 + Double(row) * 30 + 6 * sin(d / 9))
        }
        let nextFrame = "new Promise((r) => requestAnimationFrame(() => r(true)))"
        try f.tab.send("Emulation.setCPUThrottlingRate", ["rate": 4])
        defer { _ = try? f.tab.send("Emulation.setCPUThrottlingRate", ["rate": 1]) }
        if kind == "pen" {
            try f.tab.mouse("mouseMoved", path[0].0, path[0].1, pointerType: "pen")
            try f.tab.mouse("mousePressed", path[0].0, path[0].1, buttons: 1, clickCount: 1, pointerType: "pen", force: 0.6)
        } else {
            try f.tab.touch("touchStart", [path[0]])
        }
        // Four samples between two frames, written at once so the browser coalesces them.
        for chunk in stride(from: 1, to: path.count, by: 4) {
            try f.tab.evaluate(nextFrame)
            try f.tab.sendAll(
                path[chunk..<min(path.count, chunk + 4)].map { p in
                    if kind == "pen" {
                        let move: [String: Any] = ["type": "mouseMoved", "x": p.0, "y": p.1, "button": "left", "buttons": 1]
                        return ("Input.dispatchMouseEvent", move.merging(["pointerType": "pen", "force": 0.6]) { a, _ in a })
                    }
                    let finger: [String: Any] = ["x": p.0, "y": p.1, "id": 0, "radiusX": 4, "radiusY": 4, "force": 1]
                    return ("Input.dispatchTouchEvent", ["type": "touchMove", "touchPoints": [finger]])
                })
        }
        try f.tab.waitFor("window.__ink.pending.length === 0", what: "every sample on screen", timeout: 60)
        try f.tab.evaluate("new Promise((r) => requestAnimationFrame(() => setTimeout(() => r(true), 0)))")
        let lat = ((try f.tab.evaluate("window.__ink.lat") as? [NSNumber]) ?? []).map(\.doubleValue).sorted()
        let afterPaint = ((try f.tab.evaluate("window.__ink.painted") as? [NSNumber]) ?? []).map(\.doubleValue).sorted()
        let covered = Int(try f.tab.number("window.__ink.covered"))
        let lowLatency = try f.tab.evaluate("!!(techoEditor.ink && techoEditor.ink.lowLatency)") as? Bool ?? false
        if kind == "pen" {
            try f.tab.mouse("mouseReleased", path.last!.0, path.last!.1, clickCount: 1, pointerType: "pen", force: 0.6)
        } else {
            try f.tab.touch("touchEnd", [])
        }
        try #require(lat.count >= 800, "\(kind): \(lat.count) samples measured of 1,600 (\(covered) painted before their event)")
        func figure(_ s: [Double]) -> String {
            s.isEmpty ? "-" : String(format: "median %.1f ms, p95 %.1f ms", s[s.count / 2], s[Int(Double(s.count - 1) * 0.95)])
        }
        print(
            "pointer to screen (\(kind)): \(figure(lat)) over \(lat.count) samples (\(covered) under the predicted tail before their event); after the frame's paint \(figure(afterPaint)); low-latency canvas: \(lowLatency)"
        )
        let median = lat[lat.count / 2]
        #expect(median <= (kind == "pen" ? 25 : 34), "\(kind): median \(median) ms from the pointer event to the frame that shows it")
    }
}
