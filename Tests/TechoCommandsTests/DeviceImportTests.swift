// End to end: a phone's HEIC, a chat app's WebP and a shop's SVG sticker, added, exported at
// scale 1 and 4, and their hostile cases refused with the journal left as it was.
import Foundation
import TechoCodecs
import TechoModel
import TechoRaster
import TechoTestSupport
import Testing

@Suite struct DeviceImportTests {
    static func device(_ name: String) throws -> Data {
        try Fixtures.data("../TechoCodecsTests/Fixtures/devices/\(name)")
    }

    func lastAsset(_ ws: Workspace) throws -> AssetRef {
        let page = try ws.storedPage("j.techo/pages/p1.json")
        switch try #require(page.elements.last).content {
        case .photo(let p): return p.image.asset
        case .image(let i): return i.asset
        default: throw CocoaError(.fileReadCorruptFile)
        }
    }

    /// The colour of page point (x, y) in an export at `scale`.
    func colour(_ p: Pixmap, _ x: Double, _ y: Double, scale: Double) -> (Int, Int, Int, Int) {
        Workspace.straight(p, Int(x * scale), Int(y * scale))
    }

    func near(_ c: (Int, Int, Int, Int), _ e: (Int, Int, Int), _ tol: Int) -> Bool {
        abs(c.0 - e.0) <= tol && abs(c.1 - e.1) <= tol && abs(c.2 - e.2) <= tol
    }

    @Test func aPhonesHEICIsTurnedOnceLosesItsLocationAndExports() throws {
        let ws = try Workspace()
        try Self.device("quad-orient6.heic").write(to: ws.url("IMG_0412.heic"))
        #expect(try ws.run("init", "j.techo", "--size", "200x200", "--background", "#ffffff").code == 0)
        let r = try ws.run("add", "photo", "j.techo", "p1", "IMG_0412.heic")
        #expect(r.code == 0, "\(r.err)")
        let asset = try lastAsset(ws)
        #expect(asset.ext == "heic")
        let stored = try ws.bytes("j.techo/" + asset.path)
        #expect(!HEIFMetadata.containsGPS(stored))
        #expect(try ws.run("show", "j.techo", "p1", "photo-1").out.contains("64x48"))
        for scale in [1.0, 4.0] {
            let out = "p\(Int(scale)).png"
            let e = try ws.run("export", "j.techo", "-o", out, "--scale", "\(Int(scale))")
            #expect(e.code == 0, "\(e.err)")
            let png = try ws.image(out)
            #expect(png.width == 200 * Int(scale))
            // Centred at (100, 100): quadrant centres 16 and 12 px from the middle.
            #expect(near(colour(png, 84, 88, scale: scale), (255, 0, 0), 12), "top-left red")
            #expect(near(colour(png, 116, 88, scale: scale), (0, 255, 0), 12), "top-right green")
            #expect(near(colour(png, 84, 112, scale: scale), (0, 0, 255), 12), "bottom-left blue")
        }
        #expect(try ws.run("add", "photo", "j.techo", "p1", "IMG_0412.heic", "--keep-gps").code == 0)
        #expect(HEIFMetadata.containsGPS(try ws.bytes("j.techo/" + (try lastAsset(ws)).path)))
    }

    @Test func aWebPStickerKeepsItsAlphaAndAWebPNamedPNGIsStoredAsWebP() throws {
        let ws = try Workspace()
        try Self.device("quad-alpha-lossless.webp").write(to: ws.url("cat.webp"))
        try Self.device("quad-lossless.webp").write(to: ws.url("dog.png"))
        #expect(try ws.run("init", "j.techo", "--size", "200x200", "--background", "#ffffff").code == 0)
        #expect(try ws.run("add", "image", "j.techo", "p1", "cat.webp").code == 0)
        #expect(try lastAsset(ws).ext == "webp")
        for scale in [1.0, 4.0] {
            let out = "w\(Int(scale)).png"
            #expect(try ws.run("export", "j.techo", "-o", out, "--scale", "\(Int(scale))").code == 0)
            let png = try ws.image(out)
            #expect(near(colour(png, 84, 88, scale: scale), (255, 0, 0), 2))
            // The right edge of the sticker is fully transparent: the white page shows.
            #expect(near(colour(png, 131.7, 110, scale: scale), (255, 255, 255), 12))
        }
        #expect(try ws.run("add", "image", "j.techo", "p1", "dog.png").code == 0)
        #expect(try lastAsset(ws).ext == "webp")
    }

    /// The SVG is drawn from its vectors at the export's size: at scale 4 the edge between its
    /// red and half-blue squares falls between two device pixels, with no resampling blur.
    @Test func anSVGStickerIsSharpAtScale4() throws {
        let ws = try Workspace()
        try Self.device("svg/squares.svg").write(to: ws.url("squares.svg"))
        try Self.device("svg/star.svg").write(to: ws.url("star.svg"))
        #expect(try ws.run("init", "j.techo", "--size", "100x60", "--background", "#ffffff").code == 0)
        #expect(try ws.run("add", "image", "j.techo", "p1", "squares.svg").code == 0)
        let asset = try lastAsset(ws)
        #expect(asset.ext == "svg")
        let original = [UInt8](try Self.device("svg/squares.svg"))
        #expect(try ws.bytes("j.techo/" + asset.path) == original, "the SVG itself is stored")
        for scale in [1, 4] {
            let out = "s\(scale).png"
            #expect(try ws.run("export", "j.techo", "-o", out, "--scale", "\(scale)").code == 0)
            let png = try ws.image(out)
            // The sticker spans x 30…70 and y 20…40; its squares meet at x = 50.
            let red = Workspace.straight(png, 50 * scale - 1, 30 * scale)
            let blue = Workspace.straight(png, 50 * scale, 30 * scale)
            #expect(red.0 == 255 && red.1 == 0 && red.2 == 0, "\(red)")
            #expect(abs(blue.0 - 127) <= 1 && abs(blue.1 - 127) <= 1 && blue.2 == 255, "\(blue)")
        }
        #expect(try ws.run("add", "image", "j.techo", "p1", "star.svg", "--scale", "0.5").code == 0)
        #expect(try ws.run("show", "j.techo", "p1", "image-2").out.contains("64x64"))
        #expect(try ws.run("export", "j.techo", "-o", "star.png", "--scale", "4").code == 0)
    }

    @Test(arguments: [
        ("cut.heic", "quad.heic", 300, "HEIF"), ("cut.webp", "quad-lossy.webp", 60, "WebP"),
        ("bomb.svg", "svg/use-bomb.svg", 0, "SVG"), ("laughs.svg", "svg/billion-laughs.svg", 0, "SVG"),
        ("huge.svg", "svg/huge-size.svg", 0, "over the limit"),
    ])
    func hostileFilesAreRefusedAndChangeNothing(name: String, source: String, keep: Int, mentions: String) throws {
        let ws = try Workspace()
        let data = try Self.device(source)
        try (keep > 0 ? data.prefix(keep) : data).write(to: ws.url(name))
        #expect(try ws.run("init", "j.techo", "--size", "100x100").code == 0)
        let before = try ws.bytes("j.techo/pages/p1.json")
        let r = try ws.run("add", "image", "j.techo", "p1", name)
        #expect(r.code == 65, "\(r.code) \(r.err)")
        #expect(r.err.hasPrefix("techo: error: \(name): "), "\(r.err)")
        #expect(r.err.contains(mentions), "\(r.err)")
        #expect(try ws.bytes("j.techo/pages/p1.json") == before)
        let assets = (try? FileManager.default.contentsOfDirectory(atPath: ws.url("j.techo/assets").path)) ?? []
        #expect(assets.isEmpty)
    }

    /// `build` keeps a source's file name, so an SVG named `.png` is stored as `.png`: it is
    /// still drawn as a vector, told by its bytes.
    @Test func anSVGNamedPNGInAManifestIsStillAVector() throws {
        let ws = try Workspace()
        try Self.device("svg/squares.svg").write(to: ws.url("sq.png"))
        let manifest = """
            {"techo": 1, "page": {"size": "100x60", "background": {"color": "#ffffff"}},
             "pages": [{"id": "p1", "elements": [{"type": "image", "src": "sq.png", "at": [50, 30]}]}]}
            """
        try Data(manifest.utf8).write(to: ws.url("sq.json"))
        let r = try ws.run("build", "sq.json", "--scale", "4")
        #expect(r.code == 0, "\(r.err)")
        let png = try ws.image("sq-pages/01-p1.png")
        #expect(png.width == 400)
        let red = Workspace.straight(png, 199, 120), blue = Workspace.straight(png, 200, 120)
        #expect(red.0 == 255 && red.1 == 0 && red.2 == 0, "\(red)")
        #expect(abs(blue.0 - 127) <= 1 && blue.2 == 255, "\(blue)")
    }

    /// Backgrounds and tape patterns take the same formats: a WebP background, an SVG tape
    /// pattern, an AVIF photo.
    @Test func backgroundsAndTapeTakeTheDeviceFormatsToo() throws {
        let ws = try Workspace()
        try Self.device("quad-lossless.webp").write(to: ws.url("paper.webp"))
        try Self.device("svg/star.svg").write(to: ws.url("star.svg"))
        try Self.device("quad.avif").write(to: ws.url("photo.avif"))
        #expect(try ws.run("init", "j.techo", "--size", "128x96").code == 0)
        #expect(try ws.run("background", "j.techo", "p1", "--image", "paper.webp", "--mode", "stretch").code == 0)
        #expect(try ws.run("add", "washi", "j.techo", "p1", "--from", "10,80", "--to", "118,80", "--width", "12", "--pattern", "star.svg").code == 0)
        #expect(try ws.run("add", "photo", "j.techo", "p1", "photo.avif", "--at", "96,24", "--width", "32").code == 0)
        let r = try ws.run("export", "j.techo", "-o", "bg.png", "--scale", "2")
        #expect(r.code == 0, "\(r.err)")
        let png = try ws.image("bg.png")
        // The stretched background's quadrants: red top-left, blue bottom-left (clear of the tape).
        #expect(near(Workspace.straight(png, 20, 20), (255, 0, 0), 4))
        #expect(near(Workspace.straight(png, 20, 130), (0, 0, 255), 4))
        let assets = try FileManager.default.contentsOfDirectory(atPath: ws.url("j.techo/assets").path)
        #expect(Set(assets.map { ($0 as NSString).pathExtension }) == ["webp", "svg", "avif"])
    }

    @Test func buildRemovesGPSFromHEICsToo() throws {
        let ws = try Workspace()
        try Self.device("quad-orient8.heic").write(to: ws.url("IMG.heic"))
        try Self.device("svg/star.svg").write(to: ws.url("star.svg"))
        try Self.device("anim.webp").write(to: ws.url("anim.webp"))
        let manifest = """
            {"techo": 1, "page": {"size": "200x200"}, "pages": [{"id": "p1", "elements": [
              {"type": "photo", "src": "IMG.heic", "at": [60, 60]},
              {"type": "image", "src": "star.svg", "at": [150, 60], "scale": 2},
              {"type": "image", "src": "anim.webp", "at": [100, 150]}]}]}
            """
        try Data(manifest.utf8).write(to: ws.url("trip.json"))
        let r = try ws.run("build", "trip.json")
        #expect(r.code == 0, "\(r.err)")
        let assets = try FileManager.default.contentsOfDirectory(atPath: ws.url("trip.techo/assets").path)
        let heic = try #require(assets.first { $0.hasSuffix(".heic") })
        #expect(!HEIFMetadata.containsGPS(try ws.bytes("trip.techo/assets/" + heic)))
        #expect(ws.exists("trip-pages/01-p1.png"))
    }
}
