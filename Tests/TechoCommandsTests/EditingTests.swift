// End to end: a person editing a journal with CLI commands, run through the real binary.
import Foundation
import TechoModel
import Testing

@Suite struct EditingTests {
    @Test func initAddGestureUndoRedo() throws {
        let ws = try Workspace()
        try ws.png("cat.png", 40, 20, rgba: (200, 30, 30, 255))
        #expect(try ws.run("init", "j.techo", "--size", "400x300", "--dpi", "100").code == 0)
        let add = try ws.run("add", "image", "j.techo", "p1", "cat.png", "--at", "100,80", "--scale", "2")
        #expect(add.code == 0)
        #expect(add.out == "image-1\n")
        let before = try ws.bytes("j.techo/pages/p1.json")

        // A pinch about a focal point keeps that point fixed and moves the centre.
        let g = try ws.run("gesture", "j.techo", "p1", "image-1", "--pinch", "1.5", "--around", "120,90", "--rotate", "90")
        #expect(g.code == 0, "\(g.err)")
        let page = try ws.storedPage("j.techo/pages/p1.json")
        let e = try #require(page.elements.first)
        let focal = e.placement.transform.inverted()!.apply(.init(120, 90))
        let original = try Placement(center: .init(100, 80), scale: 2).transform.inverted()!.apply(.init(120, 90))
        // The rotation also turns about the focal point, so the same element point is still under it.
        #expect(abs(focal.x - original.x) < 1e-9 && abs(focal.y - original.y) < 1e-9)
        #expect(abs(e.placement.scale - 3) < 1e-12)
        #expect(e.placement.rotation == 90)

        // Undo returns the page file byte for byte; redo brings the gesture back.
        let after = try ws.bytes("j.techo/pages/p1.json")
        #expect(try ws.run("undo", "j.techo").out == "undid 2: gesture image-1\n")
        #expect(try ws.bytes("j.techo/pages/p1.json") == before)
        #expect(try ws.run("redo", "j.techo").code == 0)
        #expect(try ws.bytes("j.techo/pages/p1.json") == after)
        let h = try ws.run("history", "j.techo")
        #expect(h.out == "* 1\tadd image cat.png\n* 2\tgesture image-1\n")
        // A new change after undo drops the redo step.
        #expect(try ws.run("undo", "j.techo").code == 0)
        #expect(try ws.run("set", "j.techo", "p1", "image-1", "--opacity", "0.5").code == 0)
        #expect(try ws.run("history", "j.techo").out == "* 1\tadd image cat.png\n* 2\tset image-1\n")
        #expect(try ws.run("redo", "j.techo").code == 1)
        #expect(try ws.run("check", "j.techo").out == "j.techo: ok\n")
    }

    @Test func everyCommandOfTheWalkthroughWorks() throws {
        let ws = try Workspace()
        try ws.png("star.png", 30, 30, rgba: (250, 200, 40, 255))
        try ws.jpeg("photo.jpg", 64, 48, rgb: (40, 90, 200))
        func ok(_ args: String...) throws -> String {
            let r = try ws.run(args)
            #expect(r.code == 0, "techo \(args.joined(separator: " ")): \(r.err)")
            return r.out
        }
        func element(_ page: String, _ id: String) throws -> Element {
            try #require(try ws.storedPage("j.techo/pages/\(page).json").elements.first { $0.id == id }, "no \(id) on \(page)")
        }
        func pageIDs() throws -> [Substring] { try ok("page", "list", "j.techo").split(separator: "\n").map { $0.split(separator: "\t")[0] } }
        _ = try ok("init", "j.techo", "--title", "Trip", "--size", "A6", "--dpi", "100", "--paper", "grid")
        #expect(try ok("page", "add", "j.techo") == "p2\n")
        #expect(try ok("page", "add", "j.techo", "--id", "cover", "--after", "p1") == "cover\n")
        #expect(try pageIDs() == ["p1", "cover", "p2"])
        _ = try ok("page", "move", "j.techo", "cover", "--to", "1")
        #expect(try pageIDs() == ["cover", "p1", "p2"])
        #expect(try ws.run("photo", "j.techo", "p1", "photo.jpg").code == 64)
        #expect(try ok("add", "photo", "j.techo", "p1", "photo.jpg", "--width", "40mm", "--frame", "polaroid", "--shadow", "--rotate", "-4") == "photo-1\n")
        #expect(try ok("add", "image", "j.techo", "p1", "star.png", "--id", "star", "--at", "20mm,20mm", "--flip", "h", "--outline", "white,3") == "star\n")
        #expect(try ok("add", "text", "j.techo", "p1", "Hello 京都", "--size", "18pt", "--color", "#5b3a29", "--align", "center") == "text-1\n")
        #expect(try ok("add", "washi", "j.techo", "p1", "--from", "10,10", "--to", "120,30", "--ends", "zigzag") == "washi-1\n")
        #expect(try ok("draw", "j.techo", "p1", "--tool", "pencil", "--points", "10,100 40,110,0.5 80,95") == "ink-1\n")
        #expect(try ok("draw", "j.techo", "p1", "--tool", "dash", "--from", "10,200", "--to", "200,200") == "ink-1\n")
        #expect(try ok("draw", "j.techo", "p1", "--tool", "ellipse", "--from", "20,20", "--to", "80,60", "--fill", "rgba(255,0,0,0.3)") == "ink-1\n")
        #expect(try ok("draw", "j.techo", "p1", "--tool", "path", "--path", "M10 10 L50 50 Q 60 20 80 40 Z", "--layer", "new") == "ink-2\n")
        let starBefore = try element("p1", "star").placement
        _ = try ok("gesture", "j.techo", "p1", "star", "--double-tap", "--pan", "5,-3")
        // A double tap turns by +90° about the centre (scale, mirror and position stay); the pan moves it.
        let star = try element("p1", "star").placement
        #expect(star.rotation == (starBefore.rotation + 90).truncatingRemainder(dividingBy: 360), "\(star)")
        #expect(star.scale == starBefore.scale && star.flipH && !star.flipV)
        #expect(abs(star.center.x - starBefore.center.x - 5) < 1e-9 && abs(star.center.y - starBefore.center.y + 3) < 1e-9, "\(star)")
        _ = try ok("raise", "j.techo", "p1", "photo-1", "--top")
        _ = try ok("lower", "j.techo", "p1", "photo-1")
        _ = try ok("background", "j.techo", "p1", "--color", "#f6f0e4", "--paper", "dots", "--spacing", "4mm")
        _ = try ok("set", "j.techo", "p1", "text-1", "--text", "Hello again", "--outline", "white,2")
        guard case .text(let text) = try element("p1", "text-1").content else { Issue.record("text-1 is not a text"); return }
        #expect(text.text == "Hello again" && text.outline?.width == 2 && text.outline?.color == .white, "\(text)")
        #expect(text.color == RGBA(r: 0x5b, g: 0x3a, b: 0x29) && text.align == .center, "set keeps what it was not told to change")
        // clear --all on a page with content leaves it empty.
        _ = try ok("add", "text", "j.techo", "p2", "to be cleared")
        _ = try ok("draw", "j.techo", "p2", "--tool", "line", "--from", "1,1", "--to", "50,50")
        #expect(try ws.storedPage("j.techo/pages/p2.json").elements.count == 2)
        _ = try ok("clear", "j.techo", "p2", "--all")
        #expect(try ws.storedPage("j.techo/pages/p2.json").elements.isEmpty)
        _ = try ok("rm", "j.techo", "p1", "washi-1")
        let shown = try ok("show", "j.techo", "p1")
        #expect(shown.contains("star\timage"))
        #expect(shown.contains("photo-1\tphoto"))
        #expect(!shown.contains("washi-1"))
        let page = try ws.storedPage("j.techo/pages/p1.json")
        #expect(page.elements.map(\.id) == ["star", "text-1", "ink-1", "photo-1", "ink-2"])
        #expect(page.background.paper?.pattern == .dots)
        #expect(try ok("check", "j.techo") == "j.techo: ok\n")
        _ = try ok("page", "rm", "j.techo", "p2")
        #expect(try ok("page", "list", "j.techo").split(separator: "\n").count == 2)
    }

    @Test func commandsHaveHelp() throws {
        let ws = try Workspace()
        let top = try ws.run("--help")
        #expect(top.code == 0)
        for name in ["init", "page add", "add photo", "draw", "gesture", "export", "build", "undo", "fonts"] {
            #expect(top.out.contains("  \(name) "), "\(name) missing from techo --help")
            let r = try ws.run(name.split(separator: " ").map(String.init) + ["--help"])
            #expect(r.code == 0)
            #expect(r.out.hasPrefix("Usage: techo \(name)"), "\(r.out)")
        }
        #expect(try ws.run("--version").out.hasPrefix("techo "))
    }
}
