// End to end: options of the README's command table that no other test ran or read back. Each is
// run through the real binary and what it claims is read back: from the stored page, from the
// exported file, or from an independent tool (fontconfig's fc-list).
import Foundation
import TechoCodecs
import TechoModel
import TechoTestSupport
import Testing

@Suite struct OptionsReadBackTests {
    func ok(_ ws: Workspace, _ args: String...) throws -> String {
        let r = try ws.run(args)
        #expect(r.code == 0, "techo \(args.joined(separator: " ")): \(r.err)")
        return r.out
    }

    func page(_ ws: Workspace, _ id: String = "p1") throws -> Page { try ws.storedPage("j.techo/pages/\(id).json") }

    func element(_ ws: Workspace, _ id: String) throws -> Element {
        try #require(try page(ws).elements.first { $0.id == id }, "no element \(id)")
    }

    /// `techo fonts` lists the families fontconfig knows, each once: the same set as `fc-list : family`
    /// (whose lines name every family of a face, comma-separated); `techo fonts PATTERN` keeps the
    /// families whose names contain it, case-insensitively.
    @Test func fontsListsWhatFontconfigLists() throws {
        let ws = try Workspace()
        let listed = try ok(ws, "fonts").split(separator: "\n").map(String.init)
        #expect(Set(listed).count == listed.count, "a family is listed twice")
        let fcList = URL(fileURLWithPath: "/usr/bin/fc-list")
        let fc = try ChildProcess.run(fcList, [":", "family"], in: ws.dir)
        #expect(fc.code == 0)
        let families = Set(fc.out.split(separator: "\n").flatMap { $0.split(separator: ",") }.map(String.init))
        #expect(Set(listed) == families, "only techo: \(Set(listed).subtracting(families)); only fc-list: \(families.subtracting(listed))")
        #expect(listed.contains("DejaVu Sans"))
        let dejavu = try ok(ws, "fonts", "dejavu").split(separator: "\n").map(String.init)
        #expect(!dejavu.isEmpty && dejavu == listed.filter { $0.lowercased().contains("dejavu") }, "\(dejavu)")
    }

    @Test func clearInkRemovesTheInkLayersAndKeepsTheRest() throws {
        let ws = try Workspace()
        try ws.png("s.png", 10, 10, rgba: (0, 0, 0, 255))
        _ = try ok(ws, "init", "j.techo", "--size", "200x200")
        _ = try ok(ws, "draw", "j.techo", "p1", "--tool", "line", "--from", "1,1", "--to", "50,50")
        _ = try ok(ws, "add", "image", "j.techo", "p1", "s.png")
        _ = try ok(ws, "draw", "j.techo", "p1", "--tool", "pencil", "--points", "1,1 5,5 9,3", "--layer", "new")
        #expect(try page(ws).elements.map(\.kind) == [.ink, .image, .ink])
        _ = try ok(ws, "clear", "j.techo", "p1", "--ink")
        #expect(try page(ws).elements.map(\.id) == ["image-1"])
    }

    /// `--landscape` turns the size sideways: A5 at 100 dpi is 583×827 upright, 827×583 turned.
    @Test func initLandscapeTurnsThePage() throws {
        let ws = try Workspace()
        _ = try ok(ws, "init", "j.techo", "--size", "A5", "--dpi", "100", "--landscape")
        let p = try page(ws)
        #expect(p.size.width == 827 && p.size.height == 583, "\(p.size)")
        _ = try ok(ws, "init", "u.techo", "--size", "A5", "--dpi", "100")
        let u = try ws.storedPage("u.techo/pages/p1.json")
        #expect(u.size.width == 583 && u.size.height == 827, "\(u.size)")
    }

    /// Text options are stored as given, and each one changes what is drawn.
    @Test func textOptionsAreStoredAndDrawn() throws {
        let ws = try Workspace()
        _ = try ok(ws, "init", "j.techo", "--size", "400x200")
        let args = ["--font", "DejaVu Serif", "--weight", "700", "--italic", "--line-height", "1.5", "--letter-spacing", "2"]
        _ = try ok(ws, "add", "text", "j.techo", "p1", "Kyoto\nday", "--id", "t", "--at", "200,100")
        _ = try ok(ws, "export", "j.techo", "-o", "plain.png")
        let plain = try ws.bytes("plain.png")
        for k in stride(from: 0, to: args.count, by: 1) where args[k].hasPrefix("--") {
            let option = args[k], value = k + 1 < args.count && !args[k + 1].hasPrefix("--") ? [args[k + 1]] : []
            _ = try ok(ws, "undo", "j.techo")
            #expect(try ws.run(["add", "text", "j.techo", "p1", "Kyoto\nday", "--id", "t", "--at", "200,100", option] + value).code == 0)
            _ = try ok(ws, "export", "j.techo", "-o", "one.png")
            #expect(try ws.bytes("one.png") != plain, "\(option) \(value) draws nothing different")
        }
        _ = try ok(ws, "undo", "j.techo")
        #expect(try ws.run(["add", "text", "j.techo", "p1", "Kyoto\nday", "--id", "t"] + args).code == 0)
        guard case .text(let t) = try element(ws, "t").content else { Issue.record("not a text"); return }
        #expect(t.font == "DejaVu Serif" && t.weight == 700 && t.italic && t.lineHeight == 1.5 && t.letterSpacing == 2, "\(t)")
    }

    /// Stroke options are stored as given and change what is drawn.
    @Test func drawCapJoinDashAreStoredAndDrawn() throws {
        let ws = try Workspace()
        _ = try ok(ws, "init", "j.techo", "--size", "200x200")
        let base = ["draw", "j.techo", "p1", "--tool", "path", "--path", "M 20 150 L 100 30 L 180 150", "--width", "16"]
        _ = try ok(ws, "draw", "j.techo", "p1", "--tool", "path", "--path", "M 20 150 L 100 30 L 180 150", "--width", "16")
        _ = try ok(ws, "export", "j.techo", "-o", "plain.png")
        let plain = try ws.bytes("plain.png")
        // Not the defaults (round caps, round joins, no dash).
        for option in [["--cap", "square"], ["--join", "bevel"], ["--dash", "12,6"]] {
            _ = try ok(ws, "undo", "j.techo")
            #expect(try ws.run(base + option).code == 0)
            _ = try ok(ws, "export", "j.techo", "-o", "one.png")
            #expect(try ws.bytes("one.png") != plain, "\(option) draws nothing different")
        }
        _ = try ok(ws, "undo", "j.techo")
        #expect(try ws.run(base + ["--cap", "butt", "--join", "miter", "--dash", "12,6"]).code == 0)
        guard case .ink(let ink) = try element(ws, "ink-1").content, let s = ink.strokes.first else { Issue.record("no stroke"); return }
        #expect(s.cap == .butt && s.join == .miter && s.dash == [12, 6], "\(s)")
    }

    @Test func gestureFlipAndAReplayThatSucceeds() throws {
        let ws = try Workspace()
        try ws.png("s.png", 20, 10, rgba: (0, 0, 0, 255))
        _ = try ok(ws, "init", "j.techo", "--size", "300x300")
        _ = try ok(ws, "add", "image", "j.techo", "p1", "s.png", "--at", "100,100")
        _ = try ok(ws, "gesture", "j.techo", "p1", "image-1", "--flip", "v")
        var p = try element(ws, "image-1").placement
        #expect(p.flipV && !p.flipH && p.center == .init(100, 100))
        try ws.write(
            "g.jsonl",
            """
            {"gesture":"pan","state":"changed","translation":[3,-1]}
            {"gesture":"pan","state":"changed","translation":[2,1]}
            {"gesture":"pinch","state":"changed","scale":2,"location":[105,100]}
            {"gesture":"doubleTap"}

            """)
        let history = try ws.run("history", "j.techo").out.split(separator: "\n").count
        _ = try ok(ws, "gesture", "j.techo", "p1", "image-1", "--replay", "g.jsonl")
        p = try element(ws, "image-1").placement
        // Pans of (3,-1) and (2,1) reach (105,100); the pinch about that very point keeps it.
        #expect(abs(p.center.x - 105) < 1e-9 && abs(p.center.y - 100) < 1e-9, "\(p)")
        #expect(abs(p.scale - 2) < 1e-12 && p.rotation == 90 && p.flipV, "\(p)")
        #expect(try ws.run("history", "j.techo").out.split(separator: "\n").count == history + 1, "a replay is one step")
    }

    @Test func setHideShowAtScaleRotate() throws {
        let ws = try Workspace()
        try ws.png("s.png", 20, 10, rgba: (0, 0, 0, 255))
        _ = try ok(ws, "init", "j.techo", "--size", "300x300")
        _ = try ok(ws, "add", "image", "j.techo", "p1", "s.png", "--at", "100,100")
        _ = try ok(ws, "set", "j.techo", "p1", "image-1", "--hide")
        #expect(try element(ws, "image-1").hidden)
        _ = try ok(ws, "export", "j.techo", "-o", "hidden.png")
        _ = try ok(ws, "set", "j.techo", "p1", "image-1", "--show")
        #expect(try !element(ws, "image-1").hidden)
        _ = try ok(ws, "export", "j.techo", "-o", "shown.png")
        let hidden = try ImageDecoder.decode(try ws.bytes("hidden.png"), name: "hidden.png").pixels
        let shown = try ImageDecoder.decode(try ws.bytes("shown.png"), name: "shown.png").pixels
        #expect(hidden.pixel(100, 100) == (255, 255, 255, 255) && shown.pixel(100, 100) == (0, 0, 0, 255))
        _ = try ok(ws, "set", "j.techo", "p1", "image-1", "--at", "40,50", "--scale", "2", "--rotate", "30")
        let p = try element(ws, "image-1").placement
        #expect(p.center == .init(40, 50) && p.scale == 2 && p.rotation == 30, "\(p)")
    }

    @Test func raiseByAndLowerBottom() throws {
        let ws = try Workspace()
        _ = try ok(ws, "init", "j.techo", "--size", "300x300")
        for t in ["a", "b", "c", "d"] { _ = try ok(ws, "add", "text", "j.techo", "p1", t, "--id", t) }
        _ = try ok(ws, "raise", "j.techo", "p1", "a", "--by", "2")
        #expect(try page(ws).elements.map(\.id) == ["b", "c", "a", "d"])
        _ = try ok(ws, "lower", "j.techo", "p1", "d", "--bottom")
        #expect(try page(ws).elements.map(\.id) == ["d", "b", "c", "a"])
        _ = try ok(ws, "lower", "j.techo", "p1", "a", "--by", "2")
        #expect(try page(ws).elements.map(\.id) == ["d", "a", "b", "c"])
    }

    /// `--format jpeg` writes JPEG (to a folder, `.jpg` names); `--dpi` sets the pixel size from
    /// the page's size at its own dpi: a 100 dpi page exported at 200 dpi has twice the pixels.
    @Test func exportFormatAndDPI() throws {
        let ws = try Workspace()
        _ = try ok(ws, "init", "j.techo", "--size", "A6", "--dpi", "100", "--background", "#336699")
        let folder = try ok(ws, "export", "j.techo", "-o", "out", "--format", "jpeg")
        #expect(folder.hasSuffix("/out/01-p1.jpg\n"), "\(folder)")
        let jpeg = try ws.bytes("out/01-p1.jpg")
        let info = try ImageDecoder.info(of: jpeg, name: "01-p1.jpg")
        #expect(info.format == .jpeg && info.width == 413 && info.height == 583, "\(info)")
        _ = try ok(ws, "export", "j.techo", "-o", "big.png", "--dpi", "200")
        let big = try ImageDecoder.info(of: try ws.bytes("big.png"), name: "big.png")
        #expect(big.format == .png && big.width == 826 && big.height == 1166, "\(big)")
    }
}
