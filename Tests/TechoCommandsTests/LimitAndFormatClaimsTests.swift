// Limits, page-format rules and manifest keys the docs state (docs/limits.md, docs/format.md,
// docs/manifest.md) that no test read back: the image file size, SVG path data and SVG file
// sizes, the SVG render size, a font file's size; a version 1 journal rewritten as version 2;
// where `rotate` is stored, `"bold"`, `flip: "hv"`; a manifest's page defaults and `around`.
import Foundation
import TechoCodecs
import TechoGeometry
import TechoModel
import TechoTestSupport
import Testing

@testable import TechoRender

@Suite struct LimitAndFormatClaimsTests {
    @discardableResult
    func ok(_ ws: Workspace, _ args: String...) throws -> String {
        let r = try ws.run(args)
        #expect(r.code == 0, "techo \(args.joined(separator: " ")): \(r.err)")
        return r.out
    }

    /// A file that is `head` followed by zeros up to `size` bytes, without writing them (sparse).
    func sparse(_ ws: Workspace, _ name: String, head: [UInt8], size: Int) throws {
        try ws.write(name, head)
        let fd = open(ws.url(name).path, O_WRONLY)
        defer { close(fd) }
        #expect(ftruncate(fd, off_t(size)) == 0)
    }

    // MARK: limits

    /// A picture file of 512 MiB + 1 byte is refused by its size, naming the file and the limit.
    /// Its first bytes are a whole, valid PNG (the rest zeros after its end): read first, it
    /// would have been taken; so the refusal comes from the size alone.
    @Test func anImageFileOverTheLimitIsRefusedByItsSize() throws {
        let ws = try Workspace()
        _ = try ok(ws, "init", "j.techo", "--size", "200x200")
        try ws.png("small.png", 4, 4, rgba: (10, 20, 30, 255))
        let png = try ws.bytes("small.png")
        #expect(ImageLimits.default.maxFileBytes == 512 << 20)
        try sparse(ws, "big.png", head: png, size: ImageLimits.default.maxFileBytes + 1)
        let before = try ws.bytes("j.techo/pages/p1.json")
        let r = try ws.run(["add", "image", "j.techo", "p1", "big.png"])
        #expect(r.code != 0)
        #expect(r.err.contains("big.png") && r.err.contains("\(ImageLimits.default.maxFileBytes)"), "\(r.err)")
        #expect(try ws.bytes("j.techo/pages/p1.json") == before)
        // The same PNG within the limit is taken.
        try sparse(ws, "fine.png", head: png, size: png.count + 64)
        _ = try ok(ws, "add", "image", "j.techo", "p1", "fine.png")
    }

    /// SVG path data over 8 MiB is refused where it is parsed (a command line cannot carry that
    /// much, and a manifest or request is held to 8 MiB of JSON); 8 MiB of it is parsed.
    @Test func svgPathDataOver8MiBIsRefused() throws {
        #expect(Path.maxSVGPathDataBytes == 8 << 20)
        let unit = "M0,0 L10,10 "  // 12 bytes
        let fits = String(repeating: unit, count: Path.maxSVGPathDataBytes / unit.utf8.count)
        #expect(throws: Never.self) { _ = try Path(svgPathData: fits) }
        let over = fits + String(repeating: " ", count: Path.maxSVGPathDataBytes - fits.utf8.count + 1)
        #expect(over.utf8.count == Path.maxSVGPathDataBytes + 1)
        #expect(throws: (any Error).self) { _ = try Path(svgPathData: over) }
    }

    /// An SVG sticker of 16 MiB + 1 byte is refused naming the file; one just under is taken.
    @Test func anSVGStickerFileOver16MiBIsRefused() throws {
        let ws = try Workspace()
        _ = try ok(ws, "init", "j.techo", "--size", "200x200")
        #expect(SVGRendering.maxFileBytes == 16 << 20)
        let svg = { (size: Int) -> String in
            let open = "<svg xmlns='http://www.w3.org/2000/svg' width='20' height='20'><rect width='20' height='20' fill='red'/><!--"
            let close = "--></svg>"
            return open + String(repeating: "x", count: size - open.utf8.count - close.utf8.count) + close
        }
        try ws.write("over.svg", svg(SVGRendering.maxFileBytes + 1))
        try ws.write("under.svg", svg(SVGRendering.maxFileBytes - 1024))
        let before = try ws.bytes("j.techo/pages/p1.json")
        let r = try ws.run(["add", "image", "j.techo", "p1", "over.svg"])
        #expect(r.code != 0 && r.err.contains("over.svg"), "\(r.err)")
        #expect(try ws.bytes("j.techo/pages/p1.json") == before)
        _ = try ok(ws, "add", "image", "j.techo", "p1", "under.svg")
    }

    /// An SVG drawn far larger than the image limits is rendered at the limits, its aspect kept.
    @Test func anSVGsRenderSizeStaysWithinTheImageLimits() {
        let limits = ImageLimits.default
        for needed in [(1e6, 5e5), (40_000.0, 100.0), (20_000.0, 20_000.0), (300.0, 200.0)] {
            let (w, h) = ImageCache.renderSize(needed, limits: limits)
            #expect(w <= limits.maxSide && h <= limits.maxSide && w * h <= limits.maxPixels, "\(needed) → \(w)x\(h)")
            // The aspect kept to the pixel: the short side is the long side's share, within one pixel.
            #expect(abs(Double(w) * needed.1 / needed.0 - Double(h)) <= 1, "\(needed) → \(w)x\(h)")
        }
        #expect(ImageCache.renderSize((300, 200), limits: limits) == (300, 200))
    }

    /// A font file of 64 MiB + 1 byte is refused naming the file and the limit; the journal is unchanged.
    @Test func aFontFileOver64MiBIsRefused() throws {
        let ws = try Workspace()
        _ = try ok(ws, "init", "j.techo", "--size", "200x200")
        let font = [UInt8](try Data(contentsOf: URL(fileURLWithPath: OneWayInTests.dejaVu)))
        try sparse(ws, "Huge.ttf", head: font, size: (64 << 20) + 1)
        let before = try ws.bytes("j.techo/pages/p1.json")
        let r = try ws.run(["add", "text", "j.techo", "p1", "hi", "--font-file", "Huge.ttf"])
        #expect(r.code != 0 && r.err.contains("Huge.ttf") && r.err.contains("\(64 << 20)"), "\(r.err)")
        #expect(try ws.bytes("j.techo/pages/p1.json") == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: ws.url("j.techo/assets").path).isEmpty)
    }

    // MARK: format

    /// A journal whose `journal.json` says version 1 is read as it is, and its next change
    /// writes the current version (3).
    @Test func aVersion1JournalIsWrittenAsVersion2AtItsNextChange() throws {
        let ws = try Workspace()
        _ = try ok(ws, "init", "j.techo", "--size", "200x200")
        let file = "j.techo/journal.json"
        let v2 = String(decoding: try ws.bytes(file), as: UTF8.self)
        #expect(v2.contains("\"techo\": 3"))
        try ws.write(file, v2.replacingOccurrences(of: "\"techo\": 3", with: "\"techo\": 1"))
        #expect(try ok(ws, "show", "j.techo").contains("p1"))
        #expect(String(decoding: try ws.bytes(file), as: UTF8.self).contains("\"techo\": 1"), "reading alone writes nothing")
        _ = try ok(ws, "add", "text", "j.techo", "p1", "hi")
        #expect(String(decoding: try ws.bytes(file), as: UTF8.self).contains("\"techo\": 3"))
    }

    /// `rotate` is stored in (−180, 180]; `weight: "bold"` is 700; `flip: "hv"` mirrors both ways.
    @Test func rotateIsStoredInItsRangeBoldIs700AndHVFlipsBoth() throws {
        let ws = try Workspace()
        _ = try ok(ws, "init", "j.techo", "--size", "400x400")
        try ws.png("s.png", 8, 8, rgba: (200, 0, 0, 255))
        _ = try ok(ws, "add", "image", "j.techo", "p1", "s.png", "--id", "s")
        let placement = { try #require(try ws.storedPage("j.techo/pages/p1.json").elements.first { $0.id == "s" }).placement }
        for (given, stored) in [(270.0, -90.0), (-180, 180), (540, 180), (-190, 170), (180, 180)] {
            _ = try ok(ws, "set", "j.techo", "p1", "s", "--rotate", "\(given)")
            #expect(try placement().rotation == stored, "--rotate \(given)")
        }
        // A page file that says "bold" and "hv".
        try ws.write(
            "m.json",
            """
            {"title": "f", "pages": [{"size": "400x400", "elements": [
              {"type": "text", "id": "t", "text": "Hi", "weight": "bold"},
              {"type": "image", "id": "i", "src": "s.png", "flip": "hv"}]}]}
            """)
        _ = try ok(ws, "build", "m.json", "-o", "out")
        let page = try ws.storedPage("m.techo/pages/p1.json")
        guard case .text(let text)? = page.elements.first(where: { $0.id == "t" })?.content else {
            Issue.record("no text t")
            return
        }
        #expect(text.weight == 700)
        let flipped = try #require(page.elements.first { $0.id == "i" }).placement
        #expect(flipped.flipH && flipped.flipV)
    }

    // MARK: manifest

    /// The manifest's `page` defaults (`landscape`, `margin`) apply to every page that does not
    /// say otherwise; `around` turns a gesture about that page point, which stays put.
    @Test func manifestPageDefaultsApplyToEveryPageAndAroundKeepsItsPoint() throws {
        let ws = try Workspace()
        try ws.png("s.png", 20, 10, rgba: (0, 0, 200, 255))
        try ws.write(
            "m.json",
            """
            {"title": "d", "page": {"size": "100x200", "landscape": true, "margin": 7},
             "pages": [
               {"id": "a", "elements": [
                 {"type": "image", "id": "s", "src": "s.png", "at": [50, 40],
                  "gestures": [{"rotate": 90, "around": [40, 40]}]}]},
               {"id": "b"},
               {"id": "c", "landscape": false, "margin": 3}]}
            """)
        _ = try ok(ws, "build", "m.json", "-o", "out")
        let pages = try ["a", "b", "c"].map { try ws.storedPage("m.techo/pages/\($0).json") }
        #expect(pages[0].size == PageSize(width: 200, height: 100) && pages[1].size == PageSize(width: 200, height: 100))
        #expect(pages[0].margin == 7 && pages[1].margin == 7)
        #expect(pages[2].size == PageSize(width: 100, height: 200) && pages[2].margin == 3)
        // Turned 90° about (40, 40): the centre (50, 40) goes to (40, 50).
        let s = try #require(pages[0].elements.first { $0.id == "s" }).placement
        #expect(abs(s.center.x - 40) < 1e-9 && abs(s.center.y - 50) < 1e-9, "\(s.center)")
        #expect(s.rotation == 90)
    }
}
