// End to end, continued: docs/templates.md's claims about the CLI (options over a template,
// `$TECHO_RESOURCES/templates`, a slot's `rotate` range and kinds, `show --json`), and
// docs/fuzzing.md's: the fuzz targets' GPS traps and the operations target's invariants report a
// broken file or journal (techo-fuzz's checks, run on files made here).
import Foundation
import TechoModel
import TechoTestSupport
import Testing

extension DocClaimsTests {
    /// A template file of our own, in page pixels at 100 dpi: photo, image and text slots.
    static func template(rotate: String = "-7.5", size: String = "300x200") -> String {
        """
        {"size": "\(size)", "dpi": 100, "background": {"color": "#abcdef"},
         "elements": [{"type": "ink", "strokes": [{"tool": "line", "from": [0, 0], "to": [50, 50], "width": 2}]}],
         "slots": [
           {"name": "ph", "kind": "photo", "rect": [20, 30, 100, 80], "rotate": \(rotate)},
           {"name": "im", "kind": "image", "rect": ["10mm", "5mm", 60, 40]},
           {"name": "tx", "kind": "text", "rect": [150, 100, 120, 50]}]}
        """
    }

    // MARK: templates: options override the template

    /// `page add --template T --size A4 --background "#fff"`: the page has A4 at the template's
    /// dpi and a white background, and keeps the template's decorations and slots; without the
    /// options it has the template's size and background.
    @Test func pageAddOptionsOverrideTheTemplate() throws {
        let ws = try Workspace()
        try ws.write("t.json", DocClaimsTests.template())
        _ = try ok(ws, ["init", "j.techo", "--size", "500x500", "--background", "#123456"])
        #expect(try ok(ws, ["page", "add", "j.techo", "--template", "t.json"]) == "p2\n")
        #expect(try ok(ws, ["page", "add", "j.techo", "--template", "t.json", "--size", "A4", "--background", "#fff"]) == "p3\n")
        #expect(try ok(ws, ["page", "add", "j.techo", "--template", "t.json", "--dpi", "200"]) == "p4\n")
        let plain = try ws.storedPage("j.techo/pages/p2.json"), over = try ws.storedPage("j.techo/pages/p3.json")
        let dpi = try ws.storedPage("j.techo/pages/p4.json")
        #expect(plain.size == PageSize(width: 300, height: 200) && plain.dpi == 100, "\(plain.size)")
        #expect(plain.background.color == RGBA(r: 0xAB, g: 0xCD, b: 0xEF))
        // A4 is 210×297 mm: at 100 dpi, 827×1169.
        #expect(over.size == PageSize(width: 827, height: 1169) && over.dpi == 100, "\(over.size) @ \(over.dpi)")
        #expect(over.background.color == .white, "\(String(describing: over.background.color))")
        #expect(dpi.dpi == 200 && dpi.background.color == plain.background.color, "\(dpi.dpi)")
        // A new dpi alone keeps the size on paper: 300×200 at 100 dpi is 600×400 at 200.
        #expect(dpi.size == PageSize(width: 600, height: 400), "\(dpi.size)")
        // So without a template: an A4 journal's next page at 150 dpi is A4 at 150 dpi.
        _ = try ok(ws, ["init", "a4.techo", "--size", "A4"])
        #expect(try ok(ws, ["page", "add", "a4.techo", "--dpi", "150"]) == "p2\n")
        let half = try ws.storedPage("a4.techo/pages/p2.json")
        #expect(half.size == PageSize(width: 1240, height: 1754) && half.dpi == 150, "\(half.size) @ \(half.dpi)")
        for p in [over, dpi] {
            #expect(p.slots.map(\.name) == ["ph", "im", "tx"] && p.elements.map(\.kind) == [.ink])
        }
    }

    // MARK: templates: $TECHO_RESOURCES/templates

    /// With `$TECHO_RESOURCES/templates` present, built-in names are read from that folder: a
    /// template that exists only there is found and listed, and one named like a built-in one
    /// replaces it. Without the variable neither is there.
    @Test func techoResourcesTemplatesAreReadFromDisk() throws {
        let ws = try Workspace()
        try FileManager.default.createDirectory(at: ws.url("res/templates"), withIntermediateDirectories: true)
        try ws.write("res/templates/mine.json", DocClaimsTests.template(size: "320x240"))
        try ws.write("res/templates/travel-day.json", DocClaimsTests.template(size: "330x250"))
        _ = try ok(ws, ["init", "j.techo", "--size", "500x500"])
        let disk = ["TECHO_RESOURCES": ws.url("res").path]
        #expect(try ok(ws, ["page", "add", "j.techo", "--template", "mine"], env: disk) == "p2\n")
        #expect(try ok(ws, ["page", "add", "j.techo", "--template", "travel-day"], env: disk) == "p3\n")
        #expect(try ws.storedPage("j.techo/pages/p2.json").size == PageSize(width: 320, height: 240))
        #expect(try ws.storedPage("j.techo/pages/p3.json").size == PageSize(width: 330, height: 250))
        let help = try ws.run(["page", "add", "--help"], environment: disk)
        #expect(help.out.contains("Built-in templates: mine, travel-day."), "\(help.out)")
        // The copy built into techo: no "mine", and the real travel-day (A5).
        let builtIn = ["TECHO_RESOURCES": ""]
        let missing = try ws.run(["page", "add", "j.techo", "--template", "mine"], environment: builtIn)
        #expect(missing.code == 66 && missing.err.contains("no template 'mine'"), "\(missing.code) \(missing.err)")
        #expect(try ok(ws, ["page", "add", "j.techo", "--template", "travel-day"], env: builtIn) == "p4\n")
        #expect(try ws.storedPage("j.techo/pages/p4.json").size != PageSize(width: 330, height: 250))
    }

    // MARK: templates: slots

    /// A slot's `rotate` takes −360…360: both ends are accepted (and stored); just past either
    /// is refused with a message naming the field, and nothing is added.
    @Test func slotRotateIsRefusedOutsideItsRange() throws {
        let ws = try Workspace()
        _ = try ok(ws, ["init", "j.techo", "--size", "500x500"])
        for (i, r) in ["360", "-360"].enumerated() {
            try ws.write("t\(i).json", DocClaimsTests.template(rotate: r))
            #expect(try ok(ws, ["page", "add", "j.techo", "--template", "t\(i).json"]) == "p\(i + 2)\n")
            #expect(try ws.storedPage("j.techo/pages/p\(i + 2).json").slots.first?.frame.rotation == Double(r))
        }
        for r in ["360.001", "-360.001", "720"] {
            try ws.write("bad.json", DocClaimsTests.template(rotate: r))
            let bad = try ws.run(["page", "add", "j.techo", "--template", "bad.json"])
            #expect(bad.code == 65, "rotate \(r): exit \(bad.code) \(bad.err)")
            #expect(bad.err.contains("slots[0].rotate"), "rotate \(r): \(bad.err)")
        }
        #expect(try ok(ws, ["page", "list", "j.techo"]).split(separator: "\n").count == 3)
    }

    /// Photos and images use each other's slots; text goes only in text slots, and a picture
    /// never in one.
    @Test func photosAndImagesUseEachOthersSlots() throws {
        let ws = try Workspace()
        try ws.write("t.json", DocClaimsTests.template())
        try ws.png("s.png", 40, 20, rgba: (10, 20, 30, 255))
        _ = try ok(ws, ["init", "j.techo", "--size", "500x500"])
        _ = try ok(ws, ["page", "add", "j.techo", "--template", "t.json"])
        #expect(try ok(ws, ["add", "image", "j.techo", "p2", "s.png", "--slot", "ph"]) == "image-1\n")
        #expect(try ok(ws, ["add", "photo", "j.techo", "p2", "s.png", "--slot", "im"]) == "photo-1\n")
        let page = try ws.storedPage("j.techo/pages/p2.json")
        // Each took its slot's place: centred on it, scaled to cover it, clipped to it.
        let image = try #require(page.elements.first { $0.id == "image-1" }), photo = try #require(page.elements.first { $0.id == "photo-1" })
        #expect(image.placement.center == Point(70, 70) && image.placement.rotation == -7.5 && image.placement.scale == 4, "\(image.placement)")
        #expect(image.clip?.rect == Rect(x: 20, y: 30, width: 100, height: 80))
        // 10 mm, 5 mm at 100 dpi, plus half of 60×40.
        let c = photo.placement.center
        #expect(abs(c.x - (1000 / 25.4 + 30)) < 1e-9 && abs(c.y - (500 / 25.4 + 20)) < 1e-9 && photo.placement.scale == 2, "\(photo.placement)")
        #expect(photo.clip?.rect.width == 60 && photo.clip?.rect.height == 40, "\(String(describing: photo.clip))")
        for (args, slot) in [
            (["add", "text", "j.techo", "p2", "hi"], "ph"), (["add", "photo", "j.techo", "p2", "s.png"], "tx"),
            (["add", "image", "j.techo", "p2", "s.png"], "tx"),
        ] {
            let r = try ws.run(args + ["--slot", slot])
            #expect(r.code != 0 && r.err.contains("slot '\(slot)' is for"), "\(args) --slot \(slot): \(r.code) \(r.err)")
        }
        #expect(try ok(ws, ["add", "text", "j.techo", "p2", "hi", "--slot", "tx"]) == "text-1\n")
    }

    /// `show JOURNAL PAGE --json` adds the slots' rectangles (page pixels, units converted),
    /// turns and kinds; the plain `show` lists them by name and kind.
    @Test func showJSONGivesTheSlotsRectangles() throws {
        let ws = try Workspace()
        try ws.write("t.json", DocClaimsTests.template())
        _ = try ok(ws, ["init", "j.techo", "--size", "500x500"])
        _ = try ok(ws, ["page", "add", "j.techo", "--template", "t.json"])
        let out = try ok(ws, ["show", "j.techo", "p2", "--json"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        let slots = try #require(json["slots"] as? [[String: Any]], "\(out)")
        #expect(slots.map { $0["name"] as? String } == ["ph", "im", "tx"])
        #expect(slots.map { $0["kind"] as? String } == ["photo", "image", "text"])
        let rects = slots.map { ($0["rect"] as? [Double]) ?? [] }
        #expect(rects[0] == [20, 30, 100, 80] && rects[2] == [150, 100, 120, 50], "\(rects)")
        // 10 mm and 5 mm at 100 dpi.
        #expect(
            rects[1].count == 4 && abs(rects[1][0] - 1000 / 25.4) < 1e-9 && abs(rects[1][1] - 500 / 25.4) < 1e-9 && rects[1][2...] == [60, 40], "\(rects[1])")
        #expect(slots[0]["rotate"] as? Double == -7.5 && slots[1]["rotate"] == nil)
        let plain = try ok(ws, ["show", "j.techo", "p2"])
        #expect(plain.contains("slots: ph (photo), im (image), tx (text)") && !plain.contains("[20"), "\(plain)")
    }
}

// MARK: fuzzing: the traps and invariants can fail

/// techo-fuzz's checks, given files made by techo here: each keeps a correct result and reports
/// a broken one in the words the fuzzer traps with.
@Suite struct FuzzChecksTests {
    static let fuzzer = Workspace.binary.deletingLastPathComponent().appendingPathComponent("techo-fuzz")

    func fuzz(_ ws: Workspace, _ args: [String]) throws -> RunResult { try ChildProcess.run(FuzzChecksTests.fuzzer, args, in: ws.dir) }

    /// The one picture `add photo` stored in `j.techo/assets`.
    func storedAsset(_ ws: Workspace) throws -> String {
        let names = try FileManager.default.contentsOfDirectory(atPath: ws.url("j.techo/assets").path).filter { !$0.hasPrefix(".") }
        try #require(names.count == 1, "\(names)")
        return "j.techo/assets/" + names[0]
    }

    /// An EXIF block (APP1) whose IFD0 points to a GPS IFD: the jpeg target's built-in seed's.
    static let gpsAPP1: [UInt8] = [
        0xFF, 0xE1, 0x00, 0x34, 0x45, 0x78, 0x69, 0x66, 0x00, 0x00, 0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08, 0x00, 0x01,
        0x88, 0x25, 0x00, 0x04, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x1A, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00,
        0x00, 0x01, 0x00, 0x00, 0x00, 0x04, 0x02, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    ]

    /// The jpeg target's GPS trap: the photo `add photo` stored passes; the file as it was
    /// (what a removal that did nothing gives, and what `--keep-gps` stores) is reported as
    /// "removing GPS left GPS data in the JPEG"; a changed JPEG that had no GPS is reported too.
    @Test func jpegGPSTrapReportsAFileThatKeptItsGPS() throws {
        let ws = try Workspace()
        try ws.jpeg("plain.jpg", 16, 16, rgb: (200, 100, 50))
        let plain = try ws.bytes("plain.jpg")
        try ws.write("gps.jpg", Array(plain[0..<2]) + FuzzChecksTests.gpsAPP1 + Array(plain[2...]))
        _ = try ws.run("init", "j.techo", "--size", "100x100")
        #expect(try ws.run("add", "photo", "j.techo", "p1", "gps.jpg").code == 0)
        let stored = try storedAsset(ws)
        let kept = try fuzz(ws, ["jpeg", "--check-gps", "gps.jpg", stored])
        #expect(kept.code == 0 && kept.out == "kept\n", "\(kept.code) \(kept.out) \(kept.err)")
        let planted = try fuzz(ws, ["jpeg", "--check-gps", "gps.jpg", "gps.jpg"])
        #expect(planted.code == 1 && planted.out == "removing GPS left GPS data in the JPEG\n", "\(planted.code) \(planted.out) \(planted.err)")
        try ws.write("changed.jpg", plain + [0])
        let changed = try fuzz(ws, ["jpeg", "--check-gps", "plain.jpg", "changed.jpg"])
        #expect(changed.code == 1 && changed.out == "removing GPS changed a JPEG that has none\n", "\(changed.out)")
        #expect(try fuzz(ws, ["jpeg", "--check-gps", "plain.jpg", "plain.jpg"]).code == 0)
    }

    /// The heif target's GPS trap, on a phone-style HEIC with a GPS latitude: the stored photo
    /// passes; the file as it was, and a stripped file of another size, are reported.
    @Test func heifGPSTrapReportsAFileThatKeptItsGPS() throws {
        let ws = try Workspace()
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../TechoCodecsTests/Fixtures/devices/quad-orient6.heic").standardizedFileURL
        try FileManager.default.copyItem(at: fixture, to: ws.url("gps.heic"))
        _ = try ws.run("init", "j.techo", "--size", "100x100")
        #expect(try ws.run("add", "photo", "j.techo", "p1", "gps.heic").code == 0)
        let stored = try storedAsset(ws)
        let kept = try fuzz(ws, ["heif", "--check-gps", "gps.heic", stored])
        #expect(kept.code == 0 && kept.out == "kept\n", "\(kept.code) \(kept.out) \(kept.err)")
        let planted = try fuzz(ws, ["heif", "--check-gps", "gps.heic", "gps.heic"])
        #expect(planted.code == 1 && planted.out == "removing GPS left GPS data in the HEIF file\n", "\(planted.out) \(planted.err)")
        try ws.write("longer.heic", try ws.bytes(stored) + [0])
        let longer = try fuzz(ws, ["heif", "--check-gps", "gps.heic", "longer.heic"])
        #expect(longer.code == 1 && longer.out == "removing GPS changed the HEIF file's size\n", "\(longer.out)")
    }

    /// The operations target's invariants: a journal whose pages render and pass `check` is
    /// kept, one whose picture was overwritten is reported as not rendering; a refused command
    /// that changed nothing is kept, a changed page file is reported by name.
    @Test func operationsInvariantsReportABrokenJournal() throws {
        let ws = try Workspace()
        try ws.png("s.png", 8, 8, rgba: (0, 0, 0, 255))
        _ = try ws.run("init", "j.techo", "--size", "100x100")
        _ = try ws.run("add", "text", "j.techo", "p1", "hi")
        #expect(try ws.run("add", "image", "j.techo", "p1", "s.png").code == 0)
        let good = try fuzz(ws, ["operations", "--check-journal", "j.techo"])
        #expect(good.code == 0 && good.out == "kept\n", "\(good.out) \(good.err)")

        try FileManager.default.copyItem(at: ws.url("j.techo"), to: ws.url("before.techo"))
        let refused = try ws.run("set", "j.techo", "p1", "text-1", "--opacity", "2")
        #expect(refused.code == 64, "\(refused.err)")
        let unchanged = try fuzz(ws, ["operations", "--check-refused", "before.techo", "j.techo"])
        #expect(unchanged.code == 0 && unchanged.out == "kept\n", "\(unchanged.out) \(unchanged.err)")
        // As if the refused command had written the page anyway.
        try ws.write("j.techo/pages/p1.json", try ws.bytes("j.techo/pages/p1.json") + Array(" ".utf8))
        let changed = try fuzz(ws, ["operations", "--check-refused", "before.techo", "j.techo"])
        #expect(changed.code == 1 && changed.out == "refused, but changed pages/p1.json\n", "\(changed.out)")

        try ws.write(try storedAsset(ws), Array("not a picture".utf8))
        let broken = try fuzz(ws, ["operations", "--check-journal", "j.techo"])
        #expect(broken.code == 1 && broken.out.hasPrefix("does not render: page p1, element image-1"), "\(broken.out) \(broken.err)")
    }
}
