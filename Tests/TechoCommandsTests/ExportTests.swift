// End to end: what export and build write, checked by decoding the files.
import Foundation
import TechoCodecs
import TechoModel
import TechoRaster
import TechoTestSupport
import Testing

@Suite struct ExportTests {
    @Test func exportWritesPNGWithSizeAndPhys() throws {
        let ws = try Workspace()
        #expect(try ws.run("init", "j.techo", "--size", "200x150", "--dpi", "100", "--background", "#ff0000").code == 0)
        let r = try ws.run("export", "j.techo", "-o", "p.png")
        #expect(r.code == 0, "\(r.err)")
        #expect(r.out == ws.url("p.png").path + "\n")
        let png = try ws.bytes("p.png")
        let chunks = pngChunks(png)
        // 100 dpi = 3937 pixels per metre (rounded), unit 1 = metre.
        #expect(chunks["pHYs"] == [0, 0, 0x0F, 0x61, 0, 0, 0x0F, 0x61, 1])
        #expect(chunks["IHDR"]?[9] == 2, "an opaque page is written as RGB")
        let img = try ws.image("p.png")
        #expect(img.width == 200 && img.height == 150)
        #expect(Workspace.straight(img, 10, 10) == (255, 0, 0, 255))

        // --scale 2 doubles the pixels and the dpi in pHYs.
        #expect(try ws.run("export", "j.techo", "--scale", "2", "-o", "p2.png").code == 0)
        let img2 = try ws.image("p2.png")
        #expect(img2.width == 400 && img2.height == 300)
        #expect(pngChunks(try ws.bytes("p2.png"))["pHYs"] == [0, 0, 0x1E, 0xC2, 0, 0, 0x1E, 0xC2, 1])

        // Identical input, identical bytes.
        #expect(try ws.run("export", "j.techo", "-o", "again.png").code == 0)
        #expect(try ws.bytes("again.png") == png)
    }

    @Test func eraserRevealsThePhotoBeneath() throws {
        let ws = try Workspace()
        try ws.jpeg("blue.jpg", 80, 60, rgb: (30, 60, 220))
        #expect(try ws.run("init", "j.techo", "--size", "300x200", "--dpi", "100").code == 0)
        #expect(try ws.run("add", "photo", "j.techo", "p1", "blue.jpg", "--at", "100,100", "--scale", "2").code == 0)
        // A thick red pencil line across the photo and beyond it, then an eraser crossing both.
        #expect(try ws.run("draw", "j.techo", "p1", "--tool", "pencil", "--color", "red", "--width", "30", "--points", "20,100 280,100").code == 0)
        #expect(try ws.run("draw", "j.techo", "p1", "--tool", "eraser", "--width", "40", "--points", "100,60 100,140").code == 0)
        #expect(try ws.run("draw", "j.techo", "p1", "--tool", "eraser", "--width", "40", "--points", "240,60 240,140").code == 0)
        #expect(try ws.run("export", "j.techo", "-o", "e.png").code == 0)
        let img = try ws.image("e.png")
        let onPhoto = Workspace.straight(img, 100, 100)
        #expect(abs(onPhoto.0 - 30) <= 6 && abs(onPhoto.1 - 60) <= 6 && abs(onPhoto.2 - 220) <= 6, "erased ink shows the photo: \(onPhoto)")
        #expect(Workspace.straight(img, 240, 100) == (255, 255, 255, 255), "erased ink off the photo shows the white page")
        #expect(Workspace.straight(img, 40, 100) == (255, 0, 0, 255), "ink the eraser missed stays")
        #expect(Workspace.straight(img, 170, 100) == (255, 0, 0, 255))
        // Undo the first eraser stroke: the ink comes back over the photo.
        #expect(try ws.run("undo", "j.techo").code == 0)
        #expect(try ws.run("undo", "j.techo").code == 0)
        #expect(try ws.run("export", "j.techo", "-o", "u.png").code == 0)
        #expect(Workspace.straight(try ws.image("u.png"), 100, 100) == (255, 0, 0, 255))
    }

    @Test func pinchAboutAFocalPointKeepsThatPixel() throws {
        let ws = try Workspace()
        // Four quadrants of different colours.
        var straight = [UInt8](repeating: 255, count: 40 * 40 * 4)
        for y in 0..<40 {
            for x in 0..<40 {
                let i = (y * 40 + x) * 4
                let c: (UInt8, UInt8, UInt8) = x < 20 ? (y < 20 ? (255, 0, 0) : (0, 0, 255)) : (y < 20 ? (0, 200, 0) : (250, 200, 0))
                straight[i] = c.0; straight[i + 1] = c.1; straight[i + 2] = c.2
            }
        }
        try Data(try PNGEncoder.encode(Pixmap(width: 40, height: 40, straightRGBA: straight))).write(to: ws.url("quad.png"))
        #expect(try ws.run("init", "j.techo", "--size", "200x200", "--dpi", "100").code == 0)
        #expect(try ws.run("add", "image", "j.techo", "p1", "quad.png", "--at", "100,100", "--scale", "2").code == 0)
        // (120, 80) is the middle of the green quadrant; pinch 2.5x about it and rotate about it.
        #expect(try ws.run("export", "j.techo", "-o", "before.png").code == 0)
        #expect(try ws.run("gesture", "j.techo", "p1", "image-1", "--pinch", "2.5", "--rotate", "20", "--around", "120,80").code == 0)
        #expect(try ws.run("export", "j.techo", "-o", "after.png").code == 0)
        let before = Workspace.straight(try ws.image("before.png"), 120, 80)
        let after = Workspace.straight(try ws.image("after.png"), 120, 80)
        #expect(before == (0, 200, 0, 255))
        #expect(after == before)
        // The element grew: a point that was page background is now covered.
        #expect(Workspace.straight(try ws.image("before.png"), 140, 150) == (255, 255, 255, 255))
        #expect(Workspace.straight(try ws.image("after.png"), 140, 150) != (255, 255, 255, 255))
    }

    @Test func buildFromAManifestThenExport() throws {
        let ws = try Workspace()
        try FileManager.default.createDirectory(at: ws.url("pics"), withIntermediateDirectories: true)
        try ws.png("pics/dot.png", 20, 20, rgba: (0, 128, 0, 255))
        let manifest = """
            {"techo": 1, "title": "Test trip",
             "page": {"size": "160x120", "dpi": 100, "background": {"color": "#ffffff"}},
             "pages": [
               {"id": "a", "elements": [{"type": "image", "src": "pics/dot.png", "at": [40, 40], "width": 40}]},
               {"id": "b", "background": {"color": "#000080"},
                "elements": [{"type": "ink", "strokes": [{"tool": "rect", "from": [10, 10], "to": [50, 50], "width": 2, "fill": "#ffff00"}]}]}
             ]}
            """
        try manifest.write(to: ws.url("trip.json"), atomically: true, encoding: .utf8)
        let r = try ws.run("build", "trip.json")
        #expect(r.code == 0, "\(r.err)")
        #expect(r.out == [ws.url("trip-pages/01-a.png").path, ws.url("trip-pages/02-b.png").path].joined(separator: "\n") + "\n")
        #expect(ws.exists("trip.techo/journal.json"))
        let a = try ws.image("trip-pages/01-a.png"), b = try ws.image("trip-pages/02-b.png")
        #expect(a.width == 160 && a.height == 120)
        #expect(Workspace.straight(a, 40, 40) == (0, 128, 0, 255))
        #expect(Workspace.straight(a, 100, 100) == (255, 255, 255, 255))
        #expect(Workspace.straight(b, 30, 30) == (255, 255, 0, 255))
        #expect(Workspace.straight(b, 100, 100) == (0, 0, 128, 255))
        #expect(try ws.run("check", "trip.techo").code == 0)
        // Building again updates the same journal as one undoable step and gives the same bytes.
        let first = try ws.bytes("trip-pages/01-a.png")
        try manifest.replacingOccurrences(of: "Test trip", with: "Test trip, again").write(to: ws.url("trip.json"), atomically: true, encoding: .utf8)
        #expect(try ws.run("build", "trip.json").code == 0)
        #expect(try ws.bytes("trip-pages/01-a.png") == first)
        #expect(try ws.run("history", "trip.techo").out.contains("build trip.json"))
    }

    @Test func invalidManifestReportsEveryProblemAndWritesNothing() throws {
        let ws = try Workspace()
        let manifest = """
            {"techo": 1, "pages": [
              {"id": "a", "elements": [
                {"type": "image", "src": "missing.png"},
                {"type": "text", "text": "hi", "color": "#zzz"},
                {"type": "ink", "strokes": [{"tool": "pencil", "width": 3, "points": []}]}
              ]}]}
            """
        try manifest.write(to: ws.url("bad.json"), atomically: true, encoding: .utf8)
        let r = try ws.run("build", "bad.json")
        #expect(r.code == 65)
        let lines = r.err.split(separator: "\n")
        #expect(lines.first == "techo: error: bad.json: 3 problems:", "\(r.err)")
        #expect(r.err.contains("pages[0].elements[0].src"))
        #expect(r.err.contains("pages[0].elements[1].color"))
        #expect(r.err.contains("pages[0].elements[2].strokes[0].points"))
        #expect(!ws.exists("bad.techo"))
        #expect(!ws.exists("bad-pages"))
    }

    @Test func jpegAndPDFExport() throws {
        let ws = try Workspace()
        #expect(try ws.run("init", "j.techo", "--size", "A6", "--dpi", "50", "--background", "#336699").code == 0)
        #expect(try ws.run("page", "add", "j.techo").code == 0)
        #expect(try ws.run("export", "j.techo", "--page", "p1", "-o", "p.jpg", "--quality", "90").code == 0)
        let jpg = try ws.image("p.jpg")
        #expect(jpg.width == 207 && jpg.height == 291)
        let px = Workspace.straight(jpg, 100, 100)
        #expect(abs(px.0 - 0x33) <= 3 && abs(px.1 - 0x66) <= 3 && abs(px.2 - 0x99) <= 3)
        // --raster: the PDF of page pictures (the vector PDF has its own tests, VectorPDFTests).
        let r = try ws.run("export", "j.techo", "-o", "j.pdf", "--raster")
        #expect(r.code == 0, "\(r.err)")
        // Read back as a reader would: qpdf finds nothing wrong, poppler sees both pages at the
        // page's size, and renders each as the PNG export shows it.
        #expect(try PDFTools.qpdfProblems("j.pdf", in: ws.dir) == nil)
        // A6 at 50 dpi: 207 x 291 px = 298.08 x 419.04 pt, within a pixel of 105 x 148 mm.
        let sizes = try PDFTools.pageSizes("j.pdf", in: ws.dir)
        #expect(sizes == ["298.08 x 419.04 pts", "298.08 x 419.04 pts"], "poppler's pages: \(sizes)")
        let psnr = try PDFTools.psnr(pdf: "j.pdf", journal: "j.techo", dpi: 50, ws: ws)
        #expect(psnr.count == 2 && psnr.allSatisfy { $0 >= 40 }, "PSNR against the PNG export: \(psnr)")
        // Several pages to one .png file is a usage error, and nothing is written.
        let multi = try ws.run("export", "j.techo", "-o", "x.png")
        #expect(multi.code == 64)
        #expect(!ws.exists("x.png"))
    }
}
