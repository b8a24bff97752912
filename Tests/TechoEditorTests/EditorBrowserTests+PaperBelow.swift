// The paper below an endless page's content at every zoom. Zoomed in about 4 times (Ctrl+wheel,
// two fingers on the phone), the paper below is drawn at the screen's resolution: the server's
// render of those rows at that scale, its hairlines and dots as crisp. Failed before: the paper
// below stayed at the fitted resolution, stretched (soft lines 4 px across, blurred dots). And a
// grid's upright lines run on from the render into the paper below with no gap: the render
// stopped them at its last row, a strip up to a spacing tall above the paper below.

import Foundation
import TechoCodecs
import TechoTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension EditorFixture {
    /// `GET /api/pages/p1/render?QUERY` from the server (with the tab's token): the image and its
    /// `X-Techo-Region` (device pixels of the whole page), for a reference the editor did not make.
    func serverRender(_ query: String) throws -> (pixels: Shot, region: [Int]) {
        guard let page = URL(string: server.url),
            let token = URLComponents(url: page, resolvingAgainstBaseURL: false)?.queryItems?.first(where: { $0.name == "token" })?.value,
            let url = URL(string: "/api/pages/p1/render?\(query)&token=\(token)", relativeTo: page)
        else { throw DevToolsError(description: "no token in \(server.url)") }
        final class Box: @unchecked Sendable { var data: Data?, response: URLResponse?, error: Error? }
        let box = Box(), done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: URLRequest(url: url, timeoutInterval: 60)) { data, response, error in
            box.data = data
            box.response = response
            box.error = error
            done.signal()
        }.resume()
        done.wait()
        guard let http = box.response as? HTTPURLResponse, http.statusCode == 200, let data = box.data else {
            throw DevToolsError(description: "render?\(query): \(box.error.map { "\($0)" } ?? "HTTP \((box.response as? HTTPURLResponse)?.statusCode ?? 0)")")
        }
        let region = (http.value(forHTTPHeaderField: "X-Techo-Region") ?? "").split(separator: ",").compactMap { Int($0) }
        return (try Shot(data), region)
    }
}

extension Shot {
    /// The pixel (x, y) as (r, g, b), or nil outside.
    func rgb(_ x: Int, _ y: Int) -> (Int, Int, Int)? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        let i = (y * width + x) * 4
        return (Int(bytes[i]), Int(bytes[i + 1]), Int(bytes[i + 2]))
    }

    /// How far (x, y) is from the paper `bg` towards the ruling `ink`: 0 paper, 1 ink (the
    /// largest channel difference from the paper over the ruling's own).
    func inked(_ x: Int, _ y: Int, bg: (Int, Int, Int), ink: (Int, Int, Int)) -> Double {
        guard let p = rgb(x, y) else { return 0 }
        let full = Double(max(abs(ink.0 - bg.0), abs(ink.1 - bg.1), abs(ink.2 - bg.2)))
        return Double(max(abs(p.0 - bg.0), abs(p.1 - bg.1), abs(p.2 - bg.2))) / full
    }

    /// Crispness: of the pixels that show some ruling (over a quarter of the way to its colour),
    /// the share that are only part of the way there (a quarter to three quarters). Hairlines on
    /// whole device pixels have none; a ruling stretched from a coarser picture is mostly such.
    func softShare(bg: (Int, Int, Int), ink: (Int, Int, Int)) -> (soft: Double, ruled: Int) {
        var soft = 0, ruled = 0
        for y in 0..<height {
            for x in 0..<width {
                let t = inked(x, y, bg: bg, ink: ink)
                guard t > 0.25 else { continue }
                ruled += 1
                if t < 0.75 { soft += 1 }
            }
        }
        return (Double(soft) / Double(max(1, ruled)), ruled)
    }
}

extension EditorBrowserTests {
    static let paperBg = (0xf6, 0xf0, 0xe4), paperInk = (0x5a, 0x46, 0x30)

    /// An endless A5-wide page (1748 px at 300 dpi) ruled with `paper` in a dark brown (or
    /// "picture": lines over a tiled kraft paper), a blue
    /// stroke near the top and an invisible one that makes it `storedAbout` px tall.
    static func endlessA5(size: (Int, Int), paper: String, storedAbout: Double = 603) throws -> (EditorFixture, URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("techo-paper-below-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let j = dir.appendingPathComponent("e.techo")
        _ = try Techo.run(["init", j.path, "--title", "Roll", "--size", "1748xauto"], in: dir)
        // "picture": lines over a tiled kraft paper at 0.85 opacity.
        var background = ["--color", "#f6f0e4", "--paper", paper == "picture" ? "lines" : paper, "--paper-color", "#5a4630"]
        if paper == "picture" {
            let kraft = dir.appendingPathComponent("kraft.png")
            try Data(try Self.kraftTile()).write(to: kraft)
            background += ["--image", kraft.path, "--mode", "tile", "--opacity", "0.85"]
        }
        _ = try Techo.run(["background", j.path, "p1"] + background, in: dir)
        _ = try Techo.run(["draw", j.path, "p1", "--tool", "pencil", "--color", "#3d85c6", "--points", "150,150 1500,260"], in: dir)
        // A pencil stroke 2 px wide at y reaches y + 3 (its anti-aliased edge).
        let y = storedAbout - 3
        _ = try Techo.run(["draw", j.path, "p1", "--tool", "pencil", "--opacity", "0", "--width", "2", "--points", "900,\(y) 901,\(y)"], in: dir)
        let f = try EditorFixture(width: size.0, height: size.1, touch: size.0 < 600, journal: j)
        try f.waitSettled()
        return (f, dir)
    }

    /// Zooms the view about 4 times about client point `at`: Ctrl+wheel (as a trackpad pinch
    /// arrives), or two fingers spread there on a touch screen.
    static func zoomFour(_ f: EditorFixture, at: (Double, Double), touch: Bool) throws {
        if touch {
            let a = (at.0 - 15, at.1), b = (at.0 + 15, at.1)
            try f.tab.touch("touchStart", [a])
            try f.tab.touch("touchStart", [a, b])
            for i in 1...12 {
                let t = 45 * Double(i) / 12
                try f.tab.touch("touchMove", [(a.0 - t, a.1), (b.0 + t, b.1)])
            }
            try f.tab.touch("touchEnd", [])
        } else {
            // Each turn of 69.3 zooms by e^0.693 = 2.
            for _ in 0..<2 { try f.tab.wheel(at.0, at.1, deltaY: -69.3147, modifiers: 2) }
        }
        try f.waitZoom("the view zoomed about 4 times", "z > 3.4")
    }

    /// Waits for the paper below to be drawn at the zoom's resolution (the editor's own record);
    /// an editor that never does is then caught by the pixels.
    static func waitSharpPaper(_ f: EditorFixture) throws {
        try? f.tab.waitFor(
            "(() => { const s = techoEditor.view.sharpPaper; return !!s && Math.abs(s.scale - Math.min(4, techoEditor.view.k * devicePixelRatio)) < 1e-6; })()",
            what: "the paper below at the zoom's resolution", timeout: 8)
        try f.twoFrames()
    }

    /// Zoomed in about 4 times over an endless page's paper below its content (lines, dots,
    /// then lines over a tiled picture), the screen there, from a few rows above the join on,
    /// is the server's render of those rows at the screen's scale
    /// (`render?height=H&region=…&scale=S`): mean largest channel difference ≤ 0.3 (1.5 over the
    /// picture) at the best whole-pixel alignment within ±1 px, no row's mean over 6 (the fitted
    /// paper drawn over the render's last row at the join was 17.5), and its ruling as crisp (the share of part-inked pixels among the ruled ones within 0.08
    /// of the render's; not measured over the picture, whose own browns are part-way).
    @Test(arguments: [(1440, 900), (1024, 1366), (390, 844)])
    func zoomedInThePaperBelowIsDrawnAtTheScreensResolution(size: (Int, Int)) throws {
        for paper in ["lines", "dots", "picture"] {
            let (f, dir) = try Self.endlessA5(size: size, paper: paper)
            defer { try? FileManager.default.removeItem(at: dir) }
            let stored = try f.tab.number("techoEditor.view.page.storedHeight")
            let k0 = try f.tab.number("techoEditor.view.k")
            let fitBox = try f.tab.box("[data-techo-page]")
            // About a point a little below the content, in the middle of the page's width.
            let at = (fitBox.x + 874 * k0, fitBox.y + (stored + 30) * k0)
            try Self.zoomFour(f, at: at, touch: size.0 < 600)
            try f.waitSettled()
            try Self.waitSharpPaper(f)
            let k = try f.tab.number("techoEditor.view.k"), scale = k * (try f.tab.number("devicePixelRatio"))
            let box = try f.tab.box("[data-techo-page]"), stage = try f.tab.box("#stage")
            let viewHeight = try f.tab.number("techoEditor.view.page.height")
            // The paper below on screen, and the join: from a few pixels above the render's foot
            // to above the zoom buttons at the stage's foot, inside the page and the stage, at
            // most 640x400.
            let x0 = max(box.x, stage.x).rounded(.up) + 4, x1 = min(box.x + box.w, stage.x + stage.w).rounded(.down) - 4
            let y0 = max(box.y + stored * k - 6, stage.y).rounded(.up), y1 = min(box.y + box.h, stage.y + stage.h - 80).rounded(.down)
            let cw = min(640, x1 - x0), ch = min(400, y1 - y0)
            #expect(cw > 150 && ch > 100, "\(size) \(paper): too little paper below on screen (\(cw)x\(ch))")
            let shotData = try f.tab.screenshot(x: x0, y: y0, w: cw, h: ch)
            let shot = try Shot(shotData)
            // Screen pixel (i, j) is the page's device pixel (x0 - box.x + i, y0 - box.y + j) at `scale`.
            let ox = x0 - box.x, oy = y0 - box.y
            let region = [(ox - 2) / scale, (oy - 2) / scale, (cw + 4) / scale, (ch + 4) / scale].map { String(format: "%.4f", $0) }.joined(separator: ",")
            let ref = try f.serverRender("scale=\(scale)&height=\(viewHeight.rounded(.up))&region=\(region)")
            #expect(ref.region.count == 4)
            let rx = ref.region.first ?? 0, ry = ref.region.count > 1 ? ref.region[1] : 0
            var best = (mean: Double.infinity, dx: 0, dy: 0)
            for dy in -1...1 {
                for dx in -1...1 {
                    var sum = 0.0, n = 0
                    for j in 0..<shot.height {
                        for i in 0..<shot.width {
                            guard let a = shot.rgb(i, j), let b = ref.pixels.rgb(Int(ox.rounded()) + i + dx - rx, Int(oy.rounded()) + j + dy - ry) else {
                                continue
                            }
                            sum += Double(max(abs(a.0 - b.0), abs(a.1 - b.1), abs(a.2 - b.2)))
                            n += 1
                        }
                    }
                    let mean = sum / Double(max(1, n))
                    if mean < best.mean { best = (mean, dx, dy) }
                }
            }
            // Row by row at that alignment: one wrong row (the fitted paper over the render at
            // the join) is lost in the mean.
            var worstRow = (mean: 0.0, row: 0)
            for j in 0..<shot.height {
                var sum = 0.0, n = 0
                for i in 0..<shot.width {
                    guard let a = shot.rgb(i, j), let b = ref.pixels.rgb(Int(ox.rounded()) + i + best.dx - rx, Int(oy.rounded()) + j + best.dy - ry) else {
                        continue
                    }
                    sum += Double(max(abs(a.0 - b.0), abs(a.1 - b.1), abs(a.2 - b.2)))
                    n += 1
                }
                if n > 0 && sum / Double(n) > worstRow.mean { worstRow = (sum / Double(n), j) }
            }
            let screenSoft = shot.softShare(bg: Self.paperBg, ink: Self.paperInk)
            let refSoft = ref.pixels.softShare(bg: Self.paperBg, ink: Self.paperInk)
            let shots = Fixtures.artifactsDirectory("editor")
            let name = "paper-below-zoomed-\(paper)-\(size.0)x\(size.1)"
            try shotData.write(to: shots.appendingPathComponent("\(name).png"))
            try f.tab.screenshot(x: 0, y: 0, w: Double(size.0), h: Double(size.1)).write(to: shots.appendingPathComponent("\(name)-window.png"))
            print(
                "paper below zoomed \(String(format: "%.2f", k / k0))x (\(paper), \(size.0)x\(size.1), scale \(String(format: "%.3f", scale))): "
                    + "mean difference \(String(format: "%.2f", best.mean)) at (\(best.dx), \(best.dy)), worst row \(String(format: "%.2f", worstRow.mean)); soft share \(String(format: "%.3f", screenSoft.soft)) "
                    + "of \(screenSoft.ruled) ruled px, the render's \(String(format: "%.3f", refSoft.soft)) of \(refSoft.ruled)")
            #expect(refSoft.ruled > 200, "\(size) \(paper): the render of those rows has no ruling")
            let most = paper == "picture" ? 1.5 : 0.3
            #expect(best.mean <= most, "\(size) \(paper): the paper below differs from the render at scale \(scale) by \(best.mean) on average")
            let joinRow = Int((box.y + stored * k - y0).rounded())
            #expect(
                worstRow.mean <= 6,
                "\(size) \(paper): screen row \(worstRow.row) (the join is row \(joinRow)) differs from the render by \(worstRow.mean)")
            if paper != "picture" {
                #expect(
                    screenSoft.soft <= refSoft.soft + 0.08, "\(size) \(paper): \(screenSoft.soft) of the ruled pixels are soft, the render's \(refSoft.soft)")
            }
        }
    }

    /// A grid's upright lines go on from the render into the paper below with no gap, at the fit
    /// and zoomed in 4 times about the join: along an upright line's column, no run of more than
    /// one screen pixel without the ruling between a spacing above the render's foot and a
    /// spacing below it. The content ends 40 px below a row, so the old strip was 40 page px.
    @Test(arguments: [(1440, 900), (1024, 1366), (390, 844)])
    func aGridsUprightLinesJoinThePaperBelowWithNoGap(size: (Int, Int)) throws {
        let spacing = 5 / 25.4 * 300
        let (f, dir) = try Self.endlessA5(size: size, paper: "grid", storedAbout: (10 * spacing + 40).rounded())
        defer { try? FileManager.default.removeItem(at: dir) }
        let stored = try f.tab.number("techoEditor.view.page.storedHeight")
        #expect(stored - 10 * spacing > 30 && stored - 10 * spacing < 50, "\(size): stored \(stored)")
        // The page's columns: whole spacings centred across its width.
        let cols = (1748 / spacing).rounded(.down), first = (1748 - cols * spacing) / 2
        func longestGap(_ label: String) throws -> (gap: Int, rows: Int) {
            let k = try f.tab.number("techoEditor.view.k")
            let box = try f.tab.box("[data-techo-page]"), stage = try f.tab.box("#stage")
            // The upright nearest the middle of what is on screen.
            let mid = (max(box.x, stage.x) + min(box.x + box.w, stage.x + stage.w)) / 2
            let i = ((mid - box.x) / k - first) / spacing
            let x = box.x + (first + i.rounded() * spacing) * k
            let top = (box.y + (stored - 1.2 * spacing) * k).rounded(), bottom = (box.y + (stored + 1.2 * spacing) * k).rounded()
            let left = (x - 6).rounded()
            let data = try f.tab.screenshot(x: left, y: top, w: 13, h: bottom - top)
            try data.write(to: Fixtures.artifactsDirectory("editor").appendingPathComponent("grid-join-\(label)-\(size.0)x\(size.1).png"))
            let shot = try Shot(data)
            // The line's column: the one most inked over the strip.
            let column =
                (0..<shot.width).max { a, b in
                    (0..<shot.height).reduce(0.0) { $0 + shot.inked(a, $1, bg: Self.paperBg, ink: Self.paperInk) }
                        < (0..<shot.height).reduce(0.0) { $0 + shot.inked(b, $1, bg: Self.paperBg, ink: Self.paperInk) }
                } ?? 0
            var gap = 0, run = 0
            for y in 0..<shot.height {
                // A line that lands between two screen pixels inks both about half.
                let t = max(
                    shot.inked(column, y, bg: Self.paperBg, ink: Self.paperInk), shot.inked(column - 1, y, bg: Self.paperBg, ink: Self.paperInk),
                    shot.inked(column + 1, y, bg: Self.paperBg, ink: Self.paperInk))
                run = t > 0.3 ? 0 : run + 1
                gap = max(gap, run)
            }
            print(
                "grid join \(label) at \(size.0)x\(size.1): the upright's column \(column) of its \(shot.width)-px strip has a longest gap of \(gap) of \(shot.height) px"
            )
            return (gap, shot.height)
        }
        let fitted = try longestGap("fit")
        #expect(fitted.gap <= 1, "\(size): at the fit the grid's upright line pauses for \(fitted.gap) px across the render's foot")
        let k0 = try f.tab.number("techoEditor.view.k")
        let box = try f.tab.box("[data-techo-page]")
        try Self.zoomFour(f, at: (box.x + 874 * k0, box.y + stored * k0), touch: size.0 < 600)
        try f.waitSettled()
        try f.waitSharp()
        try Self.waitSharpPaper(f)
        let zoomed = try longestGap("zoomed")
        #expect(zoomed.gap <= 1, "\(size): zoomed in, the grid's upright line pauses for \(zoomed.gap) px across the render's foot")
    }
}
