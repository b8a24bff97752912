// More options of the README's command table that no test read back (docs/testing.md, "Not yet
// proven"): draw's --fill-rule and --points-file, background's --paper-color and --image --mode --opacity, add image's
// --width, --height, --rotate and --opacity, and --json of page list and history. Each is read
// back from the stored page or the exported pixels.
import Foundation
import TechoCodecs
import TechoModel
import TechoTestSupport
import Testing

extension OptionsReadBackTests {
    /// The exported page's straight RGBA at (x, y).
    func exported(_ ws: Workspace, _ journal: String, at points: [(Int, Int)]) throws -> [[UInt8]] {
        let out = "\(journal)-\(UUID().uuidString).png"
        _ = try ok(ws, "export", journal, "-o", out)
        let image = try ImageDecoder.decodeStraight(try ws.bytes(out), name: out).pixels
        return points.map { p in
            let i = (p.1 * image.width + p.0) * 4
            return Array(image.bytes[i..<(i + 4)])
        }
    }

    func strokes(_ ws: Workspace, _ journal: String) throws -> [Stroke] {
        try ws.storedPage("\(journal)/pages/p1.json").elements.flatMap { e -> [Stroke] in
            if case .ink(let ink) = e.content { return ink.strokes }
            return []
        }
    }

    /// Two squares one inside the other, drawn the same way round: nonzero fills the inner one,
    /// evenodd leaves it a hole.
    @Test func drawFillRuleIsStoredAndDrawn() throws {
        let ws = try Workspace()
        let squares = "M20,20 H180 V180 H20 Z M70,70 H130 V130 H70 Z"
        for (journal, rule) in [("n.techo", "nonzero"), ("e.techo", "evenodd")] {
            _ = try ok(ws, "init", journal, "--size", "200x200", "--background", "#ffffff")
            _ = try ok(ws, "draw", journal, "p1", "--tool", "path", "--path", squares, "--fill", "#ff0000", "--fill-rule", rule, "--width", "1")
            #expect(try strokes(ws, journal).map(\.fillRule.rawValue) == [rule])
        }
        let n = try exported(ws, "n.techo", at: [(100, 100), (45, 45)]), e = try exported(ws, "e.techo", at: [(100, 100), (45, 45)])
        #expect(n[0] == [255, 0, 0, 255] && n[1] == [255, 0, 0, 255], "nonzero: \(n)")
        #expect(e[0] == [255, 255, 255, 255] && e[1] == [255, 0, 0, 255], "evenodd: \(e)")
        let bad = try ws.run("draw", "n.techo", "p1", "--tool", "path", "--path", squares, "--fill-rule", "sideways")
        #expect(bad.code == 64 && bad.err.contains("--fill-rule"), "\(bad.err)")
    }

    /// `--points-file` reads a JSON array of [x, y] and [x, y, pressure] points: stored as given and drawn.
    @Test func drawPointsFileIsReadAndDrawn() throws {
        let ws = try Workspace()
        _ = try ok(ws, "init", "j.techo", "--size", "200x200", "--background", "#ffffff")
        try Data("[[20, 100], [100, 100, 0.5], [180, 100]]".utf8).write(to: ws.url("points.json"))
        _ = try ok(ws, "draw", "j.techo", "p1", "--tool", "pencil", "--points-file", "points.json", "--width", "8", "--color", "#0000ff")
        let points = try #require(try strokes(ws, "j.techo").first?.points)
        #expect(points.map(\.x) == [20, 100, 180] && points.map(\.y) == [100, 100, 100], "\(points)")
        #expect(points[1].pressure == 0.5)
        let px = try exported(ws, "j.techo", at: [(60, 100), (60, 140)])
        #expect(px[0][2] > 200 && px[0][0] < 100, "the stroke at (60, 100): \(px[0])")
        #expect(px[1] == [255, 255, 255, 255], "paper away from it: \(px[1])")
    }

    @Test func backgroundPaperColorIsStoredAndDrawn() throws {
        let ws = try Workspace()
        _ = try ok(ws, "init", "j.techo", "--size", "200x200", "--background", "#ffffff")
        _ = try ok(ws, "background", "j.techo", "p1", "--paper", "grid", "--spacing", "20", "--paper-color", "#ff0000", "--paper-margin", "0")
        let paper = try #require(try page(ws).background.paper)
        #expect(paper.color == RGBA(r: 255, g: 0, b: 0, a: 255) && paper.spacing == 20, "\(paper)")
        // A grid line runs along x = 20: reddish there, white between the lines.
        let px = try exported(ws, "j.techo", at: [(20, 50), (30, 50)])
        #expect(px[0][0] > 200 && px[0][1] < 200, "on the line: \(px[0])")
        #expect(px[1] == [255, 255, 255, 255], "between the lines: \(px[1])")
    }

    /// A 10 x 10 picture: --width 40 is scale 4, --height 30 scale 3; --rotate and --opacity are stored.
    @Test func addImageWidthHeightRotateAndOpacity() throws {
        let ws = try Workspace()
        try ws.png("s.png", 10, 10, rgba: (0, 0, 0, 255))
        _ = try ok(ws, "init", "j.techo", "--size", "200x200")
        _ = try ok(ws, "add", "image", "j.techo", "p1", "s.png", "--id", "w", "--width", "40", "--rotate", "30", "--opacity", "0.5")
        _ = try ok(ws, "add", "photo", "j.techo", "p1", "s.png", "--id", "h", "--height", "30")
        let w = try element(ws, "w"), h = try element(ws, "h")
        #expect(abs(w.placement.scale - 4) < 1e-9 && abs(w.placement.rotation - 30) < 1e-9 && w.opacity == 0.5, "\(w.placement) \(w.opacity)")
        #expect(abs(h.placement.scale - 3) < 1e-9 && h.kind == .photo, "\(h.placement)")
        let both = try ws.run("add", "image", "j.techo", "p1", "s.png", "--width", "40", "--scale", "2")
        #expect(both.code == 64, "--width with --scale: \(both.err)")
    }

    @Test func pageListAndHistoryAsJSON() throws {
        let ws = try Workspace()
        _ = try ok(ws, "init", "j.techo", "--size", "A6", "--dpi", "100")
        _ = try ok(ws, "add", "text", "j.techo", "p1", "hello")
        _ = try ok(ws, "page", "add", "j.techo", "--id", "second")
        _ = try ok(ws, "undo", "j.techo")
        let pages = try #require(try JSONSerialization.jsonObject(with: Data(try ok(ws, "page", "list", "j.techo", "--json").utf8)) as? [[String: Any]])
        #expect(pages.map { $0["id"] as? String } == ["p1"])
        #expect(pages.first?["elements"] as? Int == 1 && pages.first?["dpi"] as? Int == 100, "\(pages)")
        let steps = try #require(try JSONSerialization.jsonObject(with: Data(try ok(ws, "history", "j.techo", "--json").utf8)) as? [[String: Any]])
        #expect(steps.count == 2, "\(steps)")
        #expect(steps.map { $0["applied"] as? Bool } == [true, false], "the page add is undone: \(steps)")
        #expect((steps.first?["description"] as? String)?.contains("text") == true, "\(steps)")
    }
}

extension OptionsReadBackTests {
    /// `background --image F --mode M --opacity A`: the stored mode and opacity, and where the
    /// picture lands: `center` once in the middle, `stretch` over the whole page, each at half
    /// strength over the white paper.
    @Test func backgroundImageModeAndOpacityAreStoredAndDrawn() throws {
        let ws = try Workspace()
        try ws.png("bg.png", 20, 10, rgba: (255, 0, 0, 255))
        for (journal, mode) in [("c.techo", "center"), ("s.techo", "stretch")] {
            _ = try ok(ws, "init", journal, "--size", "200x200", "--background", "#ffffff")
            _ = try ok(ws, "background", journal, "p1", "--image", "bg.png", "--mode", mode, "--opacity", "0.5")
            let image = try #require(try ws.storedPage("\(journal)/pages/p1.json").background.image)
            #expect(image.mode.rawValue == mode && image.opacity == 0.5, "\(mode): \(image.mode) \(image.opacity)")
        }
        let half: ([UInt8]) -> Bool = { p in p[0] == 255 && abs(Int(p[1]) - 128) <= 2 && abs(Int(p[2]) - 128) <= 2 }
        let c = try exported(ws, "c.techo", at: [(100, 100), (10, 10), (100, 120)])
        #expect(half(c[0]), "centre: \(c[0])")
        #expect(c[1] == [255, 255, 255, 255] && c[2] == [255, 255, 255, 255], "centred once, not tiled: \(c[1]) \(c[2])")
        let s = try exported(ws, "s.techo", at: [(100, 100), (10, 10), (190, 190)])
        #expect(s.allSatisfy(half), "stretched over the page: \(s)")
    }
}
