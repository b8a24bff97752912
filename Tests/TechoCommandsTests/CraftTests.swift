// End to end: the journal craft features (templates and slots, endless pages, the highlighter,
// washi tape, die-cut outlines, photo adjustments) through the binary and through manifests,
// checked by decoding what export wrote.
import Foundation
import TechoCodecs
import TechoModel
import TechoRaster
import Testing

@Suite struct CraftTests {
    /// A small user template: a photo slot, a photo slot turned 45°, a text slot, one decoration.
    static let template = """
        {"size": "200x150", "dpi": 100, "background": {"color": "#ffffff"},
         "elements": [{"type": "ink", "id": "deco", "strokes": [
            {"tool": "rect", "from": [2, 2], "to": [12, 12], "fill": "#00ff00", "color": "#00ff00", "width": 1}]}],
         "slots": [
           {"name": "a", "kind": "photo", "rect": [20, 20, 80, 60]},
           {"name": "r", "kind": "photo", "rect": [120, 40, 60, 60], "rotate": 45},
           {"name": "t", "kind": "text", "rect": [20, 100, 160, 40]}]}
        """

    static func near(_ p: (Int, Int, Int, Int), _ c: (Int, Int, Int), _ tol: Int = 3) -> Bool {
        abs(p.0 - c.0) <= tol && abs(p.1 - c.1) <= tol && abs(p.2 - c.2) <= tol
    }

    static let blue = (30, 60, 220)

    /// A workspace with the template and a 100×40 blue photo (aspect 2.5, unlike every slot).
    func workspace(_ name: String = #function) throws -> Workspace {
        let ws = try Workspace(name)
        try CraftTests.template.write(to: ws.url("tpl.json"), atomically: true, encoding: .utf8)
        try ws.png("blue.png", 100, 40, rgba: (30, 60, 220, 255))
        return ws
    }

    /// The pixel checks shared by the CLI and manifest slot tests: slot `a` holds the photo by
    /// cover, `r` is the turned slot.
    func checkSlots(_ img: Pixmap) {
        #expect(Workspace.straight(img, 6, 6) == (0, 255, 0, 255), "the template's decoration is on the page")
        // Cover: the slot is full, and the photo (150×60 when scaled to cover) is clipped to it.
        #expect(CraftTests.near(Workspace.straight(img, 60, 50), CraftTests.blue))
        #expect(CraftTests.near(Workspace.straight(img, 22, 22), CraftTests.blue), "cover fills the slot's corner")
        #expect(Workspace.straight(img, 15, 50) == (255, 255, 255, 255), "just left of the slot: clipped")
        #expect(Workspace.straight(img, 104, 50) == (255, 255, 255, 255), "just right of the slot: clipped")
        // The turned slot: a diamond about (150, 70) with half-diagonal 42.4.
        #expect(CraftTests.near(Workspace.straight(img, 150, 70), CraftTests.blue))
        #expect(CraftTests.near(Workspace.straight(img, 150, 33), CraftTests.blue), "above the unturned square, inside the diamond")
        #expect(Workspace.straight(img, 124, 44) == (255, 255, 255, 255), "the unturned square's corner is outside the diamond")
    }

    @Test func templatePageThenPhotosInSlots() throws {
        let ws = try workspace()
        #expect(try ws.run("init", "j.techo", "--size", "300x300", "--dpi", "100").code == 0)
        let added = try ws.run("page", "add", "j.techo", "--template", "tpl.json")
        #expect(added.code == 0, "\(added.err)")
        #expect(added.out == "p2\n")
        #expect(try ws.run("show", "j.techo", "p2").out.contains("slots: a (photo), r (photo), t (text)"))
        #expect(try ws.run("add", "photo", "j.techo", "p2", "blue.png", "--slot", "a").code == 0)
        #expect(try ws.run("add", "photo", "j.techo", "p2", "blue.png", "--slot", "r").code == 0)
        let t = try ws.run("add", "text", "j.techo", "p2", "hello", "--slot", "t", "--size", "20")
        #expect(t.code == 0, "\(t.err)")
        let shown = try ws.run("show", "j.techo", "p2", "text-1", "--json")
        let json = try JSONParser.parse(Array(shown.out.utf8))
        guard case .object(let o) = json else { Issue.record("show --json is not an object: \(shown.out)"); return }
        #expect(o["at"] == [.number(100), .number(120)], "text sits at the slot's centre")
        #expect(o["maxWidth"] == .number(160), "and wraps at the slot's width")
        #expect(o["align"] == .string("center"))
        #expect(try ws.run("export", "j.techo", "--page", "p2", "-o", "p2.png").code == 0)
        let img = try ws.image("p2.png")
        #expect(img.width == 200 && img.height == 150, "the page has the template's size")
        checkSlots(img)

        // Contain: the whole photo (80×32) inside the slot, centred; the rest of the slot is page.
        #expect(try ws.run("page", "add", "j.techo", "--template", "tpl.json", "--id", "c").code == 0)
        #expect(try ws.run("add", "photo", "j.techo", "c", "blue.png", "--slot", "a", "--fit", "contain").code == 0)
        #expect(try ws.run("export", "j.techo", "--page", "c", "-o", "c.png").code == 0)
        let c = try ws.image("c.png")
        #expect(CraftTests.near(Workspace.straight(c, 60, 50), CraftTests.blue))
        #expect(CraftTests.near(Workspace.straight(c, 21, 50), CraftTests.blue), "contain spans the slot's width")
        #expect(Workspace.straight(c, 60, 27) == (255, 255, 255, 255), "above the contained photo, inside the slot")
        #expect(Workspace.straight(c, 60, 73) == (255, 255, 255, 255), "below it")

        // Wrong slots are refused with the page's slot names.
        let missing = try ws.run("add", "photo", "j.techo", "p2", "blue.png", "--slot", "nope")
        #expect(missing.code == 66 && missing.err.contains("slots: a, r, t"), "\(missing.err)")
        let kind = try ws.run("add", "photo", "j.techo", "p2", "blue.png", "--slot", "t")
        #expect(kind.code == 65 && kind.err.contains("for text"), "\(kind.err)")
    }

    @Test func builtInTemplatesAreListedAndRender() throws {
        let ws = try workspace()
        let help = try ws.run("page", "add", "--help")
        for name in ["weekly", "photo-grid", "travel-day"] { #expect(help.out.contains(name), "page add --help lists \(name)") }
        #expect(try ws.run("init", "j.techo").code == 0)
        for name in ["weekly", "photo-grid", "travel-day"] {
            let r = try ws.run("page", "add", "j.techo", "--template", name, "--id", name)
            #expect(r.code == 0, "\(name): \(r.err)")
            let p = try ws.run("add", "photo", "j.techo", name, "blue.png", "--slot", "photo-1")
            #expect(p.code == 0, "\(name) has a photo-1 slot: \(p.err)")
        }
        let unknown = try ws.run("page", "add", "j.techo", "--template", "nonesuch")
        #expect(unknown.code == 66 && unknown.err.contains("travel-day"), "\(unknown.err)")
        let r = try ws.run("export", "j.techo", "--scale", "0.1", "-o", "out")
        #expect(r.code == 0, "\(r.err)")
        // The weekly spread is A4 landscape; the others A5.
        let weekly = try ws.image("out/02-weekly.png")
        #expect(weekly.width == 351 && weekly.height == 248)
        let travel = try ws.image("out/04-travel-day.png")
        #expect(travel.width == 175 && travel.height == 248)
        // The ticket is drawn: the blue-green header band and the coral stub band (page pixels
        // (1160, 250) and (1580, 250), clear of their lettering).
        #expect(CraftTests.near(Workspace.straight(travel, 116, 25), (0x4f, 0x85, 0x96), 6), "\(Workspace.straight(travel, 116, 25))")
        #expect(CraftTests.near(Workspace.straight(travel, 158, 25), (0xe0, 0x7a, 0x5f), 6), "\(Workspace.straight(travel, 158, 25))")
    }

    @Test func manifestFillsSlotsByName() throws {
        let ws = try workspace()
        let manifest = """
            {"techo": 1, "pages": [
              {"id": "s", "template": "tpl.json", "elements": [
                {"type": "photo", "src": "blue.png", "slot": "a"},
                {"type": "photo", "src": "blue.png", "slot": "r"},
                {"type": "text", "text": "hi", "slot": "t", "size": 20}]},
              {"id": "c", "template": "tpl.json", "elements": [
                {"type": "photo", "src": "blue.png", "slot": "a", "fit": "contain"}]}]}
            """
        try manifest.write(to: ws.url("m.json"), atomically: true, encoding: .utf8)
        let r = try ws.run("build", "m.json", "-o", "out")
        #expect(r.code == 0, "\(r.err)")
        checkSlots(try ws.image("out/01-s.png"))
        let c = try ws.image("out/02-c.png")
        #expect(CraftTests.near(Workspace.straight(c, 60, 50), CraftTests.blue))
        #expect(Workspace.straight(c, 60, 27) == (255, 255, 255, 255))
        let text = try ws.run("show", "m.techo", "s", "text-1", "--json")
        #expect(text.out.contains("\"maxWidth\": 160") && text.out.contains("\"align\": \"center\""), "\(text.out)")

        // A manifest and the CLI place a slotted photo identically.
        #expect(try ws.run("init", "j.techo", "--size", "300x300", "--dpi", "100").code == 0)
        #expect(try ws.run("page", "add", "j.techo", "--template", "tpl.json", "--id", "s").code == 0)
        #expect(try ws.run("add", "photo", "j.techo", "s", "blue.png", "--slot", "a").code == 0)
        let cli = try ws.run("show", "j.techo", "s", "photo-1", "--json").out
        let built = try ws.run("show", "m.techo", "s", "photo-1", "--json").out
        func placement(_ s: String) -> [String] {
            s.split(separator: "\n").filter { $0.contains("\"at\"") || $0.contains("scale") || $0.contains("rect") }.map(String.init)
        }
        #expect(!placement(cli).isEmpty && placement(cli) == placement(built), "\(cli)\n---\n\(built)")
    }

    @Test func manifestUsesABuiltInTemplate() throws {
        let ws = try workspace()
        let manifest = """
            {"pages": [{"id": "trip", "template": "travel-day", "elements": [
              {"type": "photo", "src": "blue.png", "slot": "photo-2", "flip": "h"},
              {"type": "text", "slot": "from", "text": "TYO", "size": 110}]}]}
            """
        try manifest.write(to: ws.url("m.json"), atomically: true, encoding: .utf8)
        let r = try ws.run("build", "m.json", "--scale", "0.1", "-o", "out")
        #expect(r.code == 0, "\(r.err)")
        let img = try ws.image("out/01-trip.png")
        #expect(img.width == 175 && img.height == 248, "the template's A5")
        // photo-2 is turned 4.5° on its card; its centre is near page (1335, 1335).
        #expect(CraftTests.near(Workspace.straight(img, 133, 133), CraftTests.blue, 6), "\(Workspace.straight(img, 133, 133))")
        #expect(CraftTests.near(Workspace.straight(img, 116, 25), (0x4f, 0x85, 0x96), 6), "the ticket's band")
        let shown = try ws.run("show", "m.techo", "trip", "photo-1", "--json").out
        #expect(shown.contains("\"flip\": \"h\"") && shown.contains("\"rotate\": 4.5"), "flip still applies; the slot turns it: \(shown)")
    }

    @Test(arguments: [
        (#"{"type": "photo", "src": "blue.png", "slot": "nope"}"#, "pages[0].elements[0].slot", "no slot \"nope\" on this page; slots: a, r, t"),
        (#"{"type": "text", "text": "x", "slot": "a"}"#, "pages[0].elements[0].slot", "slot \"a\" is for photo, not text"),
        (#"{"type": "photo", "src": "blue.png", "slot": "a", "at": [1, 1]}"#, "pages[0].elements[0].at", "the slot decides the placement"),
        (#"{"type": "photo", "src": "blue.png", "fit": "contain"}"#, "pages[0].elements[0].fit", "\"fit\" needs \"slot\""),
        (#"{"type": "washi", "from": [0, 0], "to": [9, 9], "slot": "a"}"#, "pages[0].elements[0].slot", "only images, photos and text fill slots, not washi"),
    ])
    func manifestSlotErrorsNameTheirPath(element: String, path: String, message: String) throws {
        let ws = try workspace()
        try #"{"pages": [{"template": "tpl.json", "elements": [\#(element)]}]}"#.write(to: ws.url("bad.json"), atomically: true, encoding: .utf8)
        let r = try ws.run("build", "bad.json")
        #expect(r.code == 65)
        #expect(r.err.contains("bad.json") && r.err.contains("\(path): \(message)"), "\(r.err)")
        #expect(!ws.exists("bad.techo"), "nothing is written")
    }

    @Test func endlessPageGrowsToItsContent() throws {
        let ws = try workspace()
        // CLI: 300×auto with a 10 mm margin (39 px at 100 dpi); a 100×40 photo centred at y 900.
        #expect(try ws.run("init", "j.techo", "--size", "300xauto", "--dpi", "100", "--margin", "10mm").code == 0)
        #expect(try ws.run("add", "photo", "j.techo", "p1", "blue.png", "--at", "150,900").code == 0)
        let show = try ws.run("show", "j.techo", "p1")
        #expect(show.out.contains("300x960 px"), "show gives the grown size: \(show.out)")
        #expect(try ws.run("export", "j.techo", "-o", "e.png").code == 0)
        let img = try ws.image("e.png")
        #expect(img.width == 300 && img.height == 960, "920 (the photo's bottom) + 39.4 margin, rounded up: \(img.height)")
        #expect(CraftTests.near(Workspace.straight(img, 150, 900), CraftTests.blue))
        // More content further down grows it again.
        #expect(try ws.run("add", "photo", "j.techo", "p1", "blue.png", "--at", "150,1500").code == 0)
        #expect(try ws.run("export", "j.techo", "-o", "e2.png").code == 0)
        #expect(try ws.image("e2.png").height == 1560)

        // Manifest: the same page.
        try #"{"pages": [{"size": "300xauto", "dpi": 100, "margin": "10mm", "elements": [{"type": "photo", "src": "blue.png", "at": [150, 900]}]}]}"#
            .write(to: ws.url("m.json"), atomically: true, encoding: .utf8)
        #expect(try ws.run("build", "m.json", "-o", "out").code == 0)
        let m = try ws.image("out/01-p1.png")
        #expect(m.width == 300 && m.height == 960)
    }

    @Test func endlessPageOf20000PixelsExportsByScale() throws {
        let ws = try workspace()
        #expect(try ws.run("init", "j.techo", "--size", "200xauto", "--dpi", "100", "--margin", "40").code == 0)
        // The photo's bottom is at 19960; plus the margin, the page is 20 000 px tall.
        #expect(try ws.run("add", "photo", "j.techo", "p1", "blue.png", "--at", "100,19940").code == 0)
        #expect(try ws.run("show", "j.techo", "p1").out.contains("200x20000 px"))
        let full = try ws.run("export", "j.techo", "-o", "full.png")
        #expect(full.code == 65)
        #expect(full.err.contains("200x20000 px") && full.err.contains("16384 px a side"), "the error names the size and the limit: \(full.err)")
        #expect(!ws.exists("full.png"), "nothing is written")
        let half = try ws.run("export", "j.techo", "--scale", "0.5", "-o", "half.png")
        #expect(half.code == 0, "\(half.err)")
        let img = try ws.image("half.png")
        #expect(img.width == 100 && img.height == 10000)
        #expect(CraftTests.near(Workspace.straight(img, 50, 9970), CraftTests.blue), "the photo at the very end is drawn")
    }

    @Test func highlighterMultipliesThroughTheCLI() throws {
        let ws = try workspace()
        #expect(try ws.run("init", "j.techo", "--size", "300x200", "--dpi", "100").code == 0)
        #expect(try ws.run("add", "photo", "j.techo", "p1", "blue.png", "--at", "70,100").code == 0)
        // One yellow stroke over the photo and the white page, doubling back on itself at x 250.
        let d = try ws.run(
            "draw", "j.techo", "p1", "--tool", "highlighter", "--color", "#ffe040", "--width", "30",
            "--points", "40,100 250,100 250,60 200,60 200,140")
        #expect(d.code == 0, "\(d.err)")
        #expect(try ws.run("export", "j.techo", "-o", "h.png").code == 0)
        let img = try ws.image("h.png")
        let overWhite = Workspace.straight(img, 160, 100)
        let overBlue = Workspace.straight(img, 70, 100)
        #expect(overWhite.0 > 240 && overWhite.2 < 160, "yellow over white: \(overWhite)")
        #expect(overBlue.0 + overBlue.1 + overBlue.2 < overWhite.0 + overWhite.1 + overWhite.2, "darker over the photo")
        #expect(
            overBlue.0 <= CraftTests.blue.0 + 2 && overBlue.2 < CraftTests.blue.2 - 40,
            "multiply: never lighter than the photo, blue pulled down by the yellow: \(overBlue)")
        // Where the stroke crosses itself (200, 100) it is no darker than a single pass.
        let crossing = Workspace.straight(img, 200, 100)
        #expect(CraftTests.near(crossing, (overWhite.0, overWhite.1, overWhite.2), 2), "\(crossing) vs \(overWhite)")

        // The eraser removes it like any stroke: on its own layer, to the page beneath.
        #expect(try ws.run("draw", "j.techo", "p1", "--tool", "eraser", "--width", "20", "--points", "160,60 160,140").code == 0)
        #expect(try ws.run("export", "j.techo", "-o", "e.png").code == 0)
        let erased = try ws.image("e.png")
        #expect(Workspace.straight(erased, 160, 100) == (255, 255, 255, 255), "erased back to the page")
        #expect(Workspace.straight(erased, 130, 100) == overWhite, "the rest of the stroke stays")
    }

    @Test func washiThroughCLIAndManifestAgree() throws {
        let ws = try workspace()
        try ws.png("stripe.png", 8, 8, rgba: (200, 40, 40, 255))
        #expect(try ws.run("init", "j.techo", "--size", "300x200", "--dpi", "100").code == 0)
        #expect(try ws.run("add", "photo", "j.techo", "p1", "blue.png", "--at", "150,60").code == 0)
        let a = try ws.run("add", "washi", "j.techo", "p1", "--from", "60,60", "--to", "240,80", "--width", "30", "--color", "#f0a0a0c0")
        #expect(a.code == 0 && a.out == "washi-1\n", "\(a.err)")
        let b = try ws.run(
            "add", "washi", "j.techo", "p1", "--from", "40,160", "--to", "260,150", "--width", "30",
            "--pattern", "stripe.png", "--ends", "zigzag")
        #expect(b.code == 0, "\(b.err)")
        #expect(try ws.run("export", "j.techo", "-o", "cli.png").code == 0)
        let img = try ws.image("cli.png")
        let onPage = Workspace.straight(img, 85, 63), onPhoto = Workspace.straight(img, 150, 70)
        #expect(onPage.0 > 230 && onPage.1 < 200, "pink tape on white: \(onPage)")
        #expect(onPhoto.0 <= CraftTests.blue.0 + 2 && onPhoto.1 < CraftTests.blue.1, "translucent multiply over the photo: \(onPhoto)")
        #expect(Workspace.straight(img, 150, 120) == (255, 255, 255, 255), "off the tape")
        let patterned = Workspace.straight(img, 150, 155)
        #expect(patterned.0 > 150 && patterned.1 < 120, "the pattern is printed on the tape: \(patterned)")

        // The same tape from a manifest (same ids, so the same torn ends) gives the same pixels.
        let manifest = """
            {"pages": [{"size": "300x200", "dpi": 100, "background": {"color": "#ffffff"}, "elements": [
              {"type": "photo", "src": "blue.png", "at": [150, 60]},
              {"type": "washi", "from": [60, 60], "to": [240, 80], "width": 30, "color": "#f0a0a0c0"},
              {"type": "washi", "from": [40, 160], "to": [260, 150], "width": 30, "pattern": "stripe.png", "ends": "zigzag"}]}]}
            """
        try manifest.write(to: ws.url("m.json"), atomically: true, encoding: .utf8)
        let r = try ws.run("build", "m.json", "-o", "out")
        #expect(r.code == 0, "\(r.err)")
        let built = try ws.image("out/01-p1.png")
        #expect(built.width == img.width && built.height == img.height)
        var same = true
        for y in 0..<img.height { for x in 0..<img.width where img.pixel(x, y) != built.pixel(x, y) { same = false } }
        #expect(same, "CLI and manifest tape render identically")
    }

    /// A 40×40 sticker: an opaque red disc of radius 12 on transparency.
    func disc(_ ws: Workspace) throws {
        var px = [UInt8](repeating: 0, count: 40 * 40 * 4)
        for y in 0..<40 {
            for x in 0..<40 {
                let d = ((Double(x) + 0.5 - 20) * (Double(x) + 0.5 - 20) + (Double(y) + 0.5 - 20) * (Double(y) + 0.5 - 20)).squareRoot()
                let a = max(0, min(1, 12.5 - d))
                let i = (y * 40 + x) * 4
                px[i] = 220; px[i + 1] = 20; px[i + 2] = 20; px[i + 3] = UInt8((a * 255).rounded())
            }
        }
        try Data(try PNGEncoder.encode(Pixmap(width: 40, height: 40, straightRGBA: px))).write(to: ws.url("disc.png"))
    }

    @Test func dieCutOutlineRingsTheSticker() throws {
        let ws = try workspace()
        try disc(ws)
        #expect(try ws.run("init", "j.techo", "--size", "200x100", "--dpi", "100").code == 0)
        // At scale 2 the disc has radius 24; a 5 px outline (in the sticker's own pixels, so it
        // scales with it) reaches to 34.
        let r = try ws.run("add", "image", "j.techo", "p1", "disc.png", "--at", "50,50", "--scale", "2", "--outline", "#00c000,5")
        #expect(r.code == 0, "\(r.err)")
        try
            ##"{"pages": [{"size": "200x100", "dpi": 100, "background": {"color": "#ffffff"}, "elements": [{"type": "image", "src": "disc.png", "at": [150, 50], "scale": 2, "outline": {"width": 5, "color": "#00c000"}}]}]}"##
            .write(to: ws.url("m.json"), atomically: true, encoding: .utf8)
        #expect(try ws.run("build", "m.json", "-o", "out").code == 0)
        #expect(try ws.run("export", "j.techo", "-o", "o.png").code == 0)
        for (img, cx) in [(try ws.image("o.png"), 50), (try ws.image("out/01-p1.png"), 150)] {
            #expect(CraftTests.near(Workspace.straight(img, cx, 50), (220, 20, 20)), "the sticker")
            for (dx, dy) in [(29, 0), (0, -29), (-21, 21), (20, 20)] {
                #expect(CraftTests.near(Workspace.straight(img, cx + dx, 50 + dy), (0, 192, 0)), "the ring at (\(dx), \(dy))")
            }
            #expect(Workspace.straight(img, cx + 40, 50) == (255, 255, 255, 255), "outside the ring")
            #expect(Workspace.straight(img, cx + 28, 50 + 28) == (255, 255, 255, 255), "outside the ring, diagonally")
        }
    }

    @Test func photoAdjustmentsThroughTheCLI() throws {
        let ws = try workspace()
        try ws.png("warm.png", 40, 40, rgba: (200, 120, 50, 255))
        #expect(try ws.run("init", "j.techo", "--size", "200x100", "--dpi", "100").code == 0)
        #expect(try ws.run("add", "photo", "j.techo", "p1", "warm.png", "--at", "30,50", "--grayscale", "1").code == 0)
        #expect(try ws.run("add", "photo", "j.techo", "p1", "warm.png", "--at", "100,50", "--brightness", "0").code == 0)
        #expect(try ws.run("add", "photo", "j.techo", "p1", "warm.png", "--at", "170,50", "--sepia", "1", "--fade", "0.3").code == 0)
        #expect(try ws.run("export", "j.techo", "-o", "a.png").code == 0)
        let img = try ws.image("a.png")
        let gray = Workspace.straight(img, 30, 50)
        #expect(gray.0 == gray.1 && gray.1 == gray.2, "grayscale 1 gives equal channels: \(gray)")
        #expect(gray.0 > 50 && gray.0 < 200)
        #expect(Workspace.straight(img, 100, 50) == (200, 120, 50, 255), "brightness 0 is the identity")
        let sepia = Workspace.straight(img, 170, 50)
        #expect(sepia != (200, 120, 50, 255) && sepia.0 > sepia.1 && sepia.1 > sepia.2, "sepia: warm brown tones \(sepia)")
        // set changes an adjustment later; undo puts it back.
        #expect(try ws.run("set", "j.techo", "p1", "photo-2", "--grayscale", "1").code == 0)
        #expect(try ws.run("export", "j.techo", "-o", "b.png").code == 0)
        let set = Workspace.straight(try ws.image("b.png"), 100, 50)
        #expect(set.0 == set.1 && set.1 == set.2, "\(set)")
    }
}
