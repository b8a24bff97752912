// An endless page with a background picture (a kraft paper under lines, tiled or fitted to the
// page in each of the other modes): the paper the
// editor shows below the content, where the pen can go on, is what the page will render once it
// has grown that far (the picture goes on, in phase, under the ruling). Failed before: the paper
// below was the background colour with the ruling, the picture stopped at the content's end.

import Foundation
import TechoCodecs
import TechoRaster
import TechoTestSupport
import Testing

extension EditorBrowserTests {
    /// A "kraft paper" tile, 48x32 px: brown diagonal stripes with seeded specks, so a plain
    /// colour or a tile out of phase differs from it everywhere. `width` and `height` make a
    /// larger sheet of it (a picture fitted to the page that covers what is tested).
    static func kraftTile(width: Int = 48, height: Int = 32) throws -> [UInt8] {
        // Specks from a fixed linear congruential sequence (Numerical Recipes' constants).
        var state: UInt32 = 21
        var bytes: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                let band = ((x + 2 * y) / 8) % 2 == 0
                var c: (Int, Int, Int) = band ? (196, 160, 112) : (150, 112, 70)
                state = state &* 1_664_525 &+ 1_013_904_223
                if (state >> 24) % 9 == 0 { c = (c.0 - 40, c.1 - 40, c.2 - 35) }
                bytes += [UInt8(c.0), UInt8(c.1), UInt8(c.2), 255]
            }
        }
        return try PNGEncoder.encode(Pixmap(width: width, height: height, straightRGBA: bytes), name: "kraft.png")
    }

    /// The picture's modes and the sizes each is tried at: a tiled one at the three sizes, every
    /// mode fitted to the page at 1024x1366 and one more size.
    static let endlessPictureCases: [(String, (Int, Int))] =
        [("tile", (1024, 1366)), ("tile", (1440, 900)), ("tile", (390, 844))]
        + ["cover", "contain", "stretch", "center"].map { ($0, (1024, 1366)) }
        + [("cover", (1440, 900)), ("contain", (390, 844)), ("stretch", (390, 844)), ("center", (1440, 900))]

    /// Below an endless page's content, the screen shows what `techo export` draws there for the
    /// page grown to the view's height (the same background on a page of that fixed height), at
    /// the editor's scale: mean largest channel difference ≤ 3 and fewer than 1 % of pixels off
    /// by more than 40, at the best whole-pixel alignment within ±1 px. A tiled picture goes on
    /// in phase with the render; one fitted to the page (cover, contain, stretch, center) is
    /// fitted to the page as grown, as the export of the grown page fits it.
    @Test(arguments: endlessPictureCases)
    func anEndlessPagesBackgroundPictureGoesOnBelowItsContent(mode: String, size: (Int, Int)) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("techo-endless-picture-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let kraft = dir.appendingPathComponent("kraft.png")
        // Fitted to the page, a sheet as large as the page is (as tall as the view at 1024x1366),
        // so every mode puts it over the rows tested, centred too.
        try Data(try mode == "tile" ? Self.kraftTile() : Self.kraftTile(width: 480, height: 1200)).write(to: kraft)
        let j = dir.appendingPathComponent("e.techo")
        let background = ["--color", "#d8c3a0", "--image", kraft.path, "--mode", mode, "--opacity", "0.85", "--paper", "lines", "--paper-color", "#5a4630"]
        _ = try Techo.run(["init", j.path, "--title", "Kraft", "--size", "600xauto"], in: dir)
        _ = try Techo.run(["background", j.path, "p1"] + background, in: dir)
        _ = try Techo.run(["draw", j.path, "p1", "--tool", "pencil", "--color", "#3d85c6", "--points", "60,60 300,90"], in: dir)
        let f = try EditorFixture(width: size.0, height: size.1, touch: size.0 < 600, journal: j)
        try f.waitSettled()
        // The picture below arrives after the page's render; wait for it (the old editor never
        // shows one, and then fails on the pixels below).
        try? f.tab.waitFor("!!document.querySelector('.paper-below[data-techo-picture]')", what: "the picture below the content", timeout: 10)
        try f.twoFrames()
        let k = try f.tab.number("techoEditor.view.k"), scale = try f.tab.number("techoEditor.view.scale")
        let stored = try f.tab.number("techoEditor.view.page.storedHeight"), viewHeight = try f.tab.number("techoEditor.view.page.height")
        let box = try f.tab.box("[data-techo-page]"), stage = try f.tab.box("#stage")
        // Page rows from just below the content to above the zoom buttons at the stage's foot
        // (at most 400 page px), the width less 10 px each side.
        let top = stored + 10
        let bottom = min(stored + 410, (stage.y + stage.h - 80 - box.y) / k, viewHeight - 2)
        #expect(bottom - top > 60, "\(size): too little paper below the content on screen (\(top)…\(bottom))")
        let cx = (box.x + 10 * k).rounded(), cy = (box.y + top * k).rounded()
        let cw = (580 * k).rounded(.down), ch = ((bottom - top) * k).rounded(.down)
        let shotData = try f.tab.screenshot(x: cx, y: cy, w: cw, h: ch)
        let shot = try ImageDecoder.decodeStraight([UInt8](shotData), name: "screenshot").pixels
        // The page grown to the view's height by its content (an invisible stroke far down, in a
        // copy of the journal), exported: what the user will see once they write down there.
        let copy = dir.appendingPathComponent("grown.techo")
        try FileManager.default.copyItem(at: j, to: copy)
        // The height the editor drew it for: the view's, rounded up to whole ruling spacings
        // (the old editor drew none: the view's).
        let asked = try f.tab.evaluate("(document.querySelector('.paper-below') || { dataset: {} }).dataset.techoPicture || ''") as? String ?? ""
        let grownHeight = Double(asked) ?? viewHeight.rounded(.up)
        #expect(grownHeight >= viewHeight - 0.5, "\(size): the picture below is drawn for a page \(grownHeight) tall, the view is \(viewHeight)")
        // An endless page's height is its content's bottom plus its margin, rounded up: one
        // whole-pixel correction of where the stroke lies makes it exactly `grownHeight`.
        func grow(strokeAt y: Double) throws -> Double {
            _ = try Techo.run(["draw", copy.path, "p1", "--tool", "pencil", "--opacity", "0", "--points", "300,\(y) 301,\(y)"], in: dir)
            let shown = try JSONSerialization.jsonObject(with: Data(try Techo.run(["show", copy.path, "p1", "--json"], in: dir).utf8)) as? [String: Any]
            return number((shown?["resolvedSize"] as? [Any])?.last) ?? 0
        }
        var reached = try grow(strokeAt: grownHeight - 40)
        if reached != grownHeight {
            _ = try Techo.run(["undo", copy.path], in: dir)
            reached = try grow(strokeAt: grownHeight - 40 + grownHeight - reached)
        }
        #expect(reached == grownHeight, "\(size): the copy grew to \(reached), not \(grownHeight)")
        let ref = dir.appendingPathComponent("grown.png")
        _ = try Techo.run(["export", copy.path, "--page", "p1", "--scale", String(scale), "-o", ref.path], in: dir)
        let expected = try ImageDecoder.decodeStraight([UInt8](try Data(contentsOf: ref)), name: ref.path).pixels
        // Screen pixel (i, j) is page ((cx + i - box.x) / k, (cy + j - box.y) / k), export pixel
        // that times `scale` (k × the device pixel ratio, 1 here).
        let ox = (cx - box.x) * scale / k, oy = (cy - box.y) * scale / k
        var best = (mean: Double.infinity, far: 1.0, dx: 0, dy: 0)
        for dy in -1...1 {
            for dx in -1...1 {
                var sum = 0.0, far = 0, n = 0
                for y in stride(from: 0, to: shot.height, by: 2) {
                    let ey = Int(oy.rounded()) + dy + y
                    guard ey >= 0, ey < expected.height else { continue }
                    for x in stride(from: 0, to: shot.width, by: 2) {
                        let ex = Int(ox.rounded()) + dx + x
                        guard ex >= 0, ex < expected.width else { continue }
                        let a = (y * shot.width + x) * 4, b = (ey * expected.width + ex) * 4
                        var d = 0
                        for c in 0..<3 { d = max(d, abs(Int(shot.bytes[a + c]) - Int(expected.bytes[b + c]))) }
                        sum += Double(d)
                        if d > 40 { far += 1 }
                        n += 1
                    }
                }
                let mean = n > 0 ? sum / Double(n) : .infinity
                if mean < best.mean { best = (mean, Double(far) / Double(max(n, 1)), dx, dy) }
            }
        }
        let shots = Fixtures.artifactsDirectory("editor")
        let name = "endless-picture-\(mode)-\(size.0)x\(size.1)"
        try shotData.write(to: shots.appendingPathComponent("\(name)-below.png"))
        try f.tab.screenshot(x: 0, y: 0, w: Double(size.0), h: Double(size.1)).write(to: shots.appendingPathComponent("\(name).png"))
        try? FileManager.default.removeItem(at: shots.appendingPathComponent("\(name)-grown-export.png"))
        try FileManager.default.copyItem(at: ref, to: shots.appendingPathComponent("\(name)-grown-export.png"))
        print(
            "endless picture (\(mode)) at \(size.0)x\(size.1): rows \(Int(top))–\(Int(bottom)) below the content (stored \(Int(stored)), view \(Int(viewHeight))), "
                + "mean difference \(String(format: "%.2f", best.mean)), \(String(format: "%.2f", best.far * 100)) % over 40, at (\(best.dx), \(best.dy))")
        #expect(best.mean <= 3, "\(size): the paper below differs from the grown page's export by \(best.mean) on average")
        #expect(best.far < 0.01, "\(size): \(best.far * 100) % of the paper below is far from the grown page's export")
    }
}
