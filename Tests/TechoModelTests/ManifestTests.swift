import Foundation
import Testing

@testable import TechoModel

@Suite struct ManifestTests {
    /// Sizes by file name, standing in for the codecs.
    static let sizes: [String: (Double, Double)] = ["IMG_0412.jpg": (1400, 1000), "cat.png": (400, 200), "kraft.jpg": (64, 64)]
    static func env(templates: [String: String] = [:], folder: URL? = nil) -> ManifestEnvironment {
        ManifestEnvironment(
            imageSize: { url in
                guard let s = sizes[url.lastPathComponent] else { throw ValueError("\(url.lastPathComponent): not an image") }
                return s
            },
            template: { name in
                guard let t = templates[name], let folder else { return nil }
                return (try JSONParser.parse(t), folder)
            })
    }

    func fixture() throws -> TempDir {
        let dir = TempDir()
        try dir.write("photos/IMG_0412.jpg", Array("jpeg bytes".utf8))
        try dir.write("stickers/cat.png", Array("png bytes".utf8))
        try dir.write("paper/kraft.jpg", Array("kraft bytes".utf8))
        return dir
    }

    static let example = """
        {
          "techo": 1,
          "title": "Kyoto, spring",
          "page": {"size": "A5", "dpi": 300,
                   "background": {"color": "#f6f0e4", "paper": {"pattern": "dots", "color": "#cbbfae"}}},
          "pages": [
            {"id": "day-1",
             "background": {"image": "paper/kraft.jpg", "mode": "tile", "opacity": 0.35},
             "elements": [
               {"type": "photo", "src": "photos/IMG_0412.jpg", "at": ["74mm", "60mm"], "width": 700,
                "rotate": -6, "frame": "polaroid"},
               {"type": "image", "src": "stickers/cat.png", "at": [300, 300], "scale": 0.5, "rotate": 15},
               {"type": "text", "text": "京都の旅 · Kyoto Day 1", "font": "Noto Sans CJK SC",
                "size": 96, "color": "#5b3a29", "at": [874, 180], "align": "center"},
               {"type": "ink", "strokes": [
                 {"tool": "pencil", "color": "#e07a5f", "width": 6, "points": [[100,1500],[140,1480]]},
                 {"tool": "eraser", "width": 30, "points": [[120,1490],[160,1485]]}]}
             ]},
            {"elements": [
               {"type": "image", "src": "stickers/cat.png", "height": 100,
                "gestures": [{"pinch": 1.5}, {"rotate": 30}, {"pan": [10, -20]}, {"doubleTap": true}, {"flip": "h"}]},
               {"type": "washi", "from": [100, 100], "to": [300, 100], "width": "15mm", "pattern": "paper/kraft.jpg", "ends": "zigzag"}
            ]}
          ]
        }
        """

    @Test func theContractExampleDecodesWithItsSugar() throws {
        let dir = try fixture()
        defer { dir.cleanup() }
        let build = try Manifest.decode(JSONParser.parse(ManifestTests.example), folder: dir.url, file: "kyoto.json", environment: ManifestTests.env())
        #expect(build.journal.title == "Kyoto, spring" && build.journal.pageOrder == ["day-1", "p2"])
        #expect(build.assets.count == 3)  // cat.png used twice, kraft.jpg twice: each imported once
        let day1 = build.pages[0]
        #expect(day1.size == PageSize(width: 1748, height: 2480))
        #expect(day1.background.color == nil && day1.background.image?.opacity == 0.35)
        let photo = day1.elements[0]
        #expect(photo.id == "photo-1" && photo.placement.scale == 0.5 && photo.placement.rotation == -6)
        #expect(near(photo.placement.center.x, 74 * 300 / 25.4))
        guard case .photo(let p) = photo.content else { Issue.record("not a photo"); return }
        #expect(p.frame == .polaroid && p.image.naturalWidth == 1400)
        #expect(day1.elements.map(\.id) == ["photo-1", "image-1", "text-1", "ink-1"])
        let page2 = build.pages[1]
        // Defaults: A5 and the default background; elements without `at` sit at the page centre.
        #expect(page2.background.color == (try RGBA(parsing: "#f6f0e4")) && page2.background.paper?.spacing == Length(5, .mm).pixels(dpi: 300))
        let cat = page2.elements[0].placement
        let expected = try Placement(center: Point(874, 1240), scale: 0.5).applying([
            .pinch(scale: 1.5, around: nil), .rotate(degrees: 30, around: nil), .pan(dx: 10, dy: -20), .doubleTap, .flip(.h),
        ])
        #expect(cat == expected)
        guard case .washi(let w) = page2.elements[1].content else { Issue.record("not washi"); return }
        #expect(page2.elements[1].placement.center == Point(200, 100) && w.from == Point(-100, 0) && w.ends == .zigzag)
        #expect(near(w.width, 15 * 300 / 25.4))
        for page in build.pages { page.checkInvariants() }
    }

    @Test func everyErrorIsReportedWithItsPath() throws {
        let dir = try fixture()
        defer { dir.cleanup() }
        let outside = TempDir("outside")
        defer { outside.cleanup() }
        try outside.write("secret.png", [1, 2, 3])
        try FileManager.default.createSymbolicLink(
            at: dir.url.appendingPathComponent("link.png"),
            withDestinationURL: outside.url.appendingPathComponent("secret.png"))
        let text = """
            {"title": "t", "pages": [{"id": "p1", "size": "A9", "elements": [
              {"type": "image", "src": "../etc/passwd"},
              {"type": "image", "src": "/etc/passwd"},
              {"type": "image", "src": "link.png"},
              {"type": "image", "src": "missing.png"},
              {"type": "image", "src": "stickers/cat.png", "scale": 2, "width": 100},
              {"type": "text", "text": "x", "color": "reddish"},
              {"type": "image", "src": "stickers/cat.png", "gestures": [{"pan": [1, 1]}, {"pinch": 0}]},
              {"type": "ink", "at": [1, 2], "strokes": []}
            ]}], "colour": 1}
            """
        let found = problems {
            _ = try Manifest.decode(JSONParser.parse(text), folder: dir.url, file: "m.json", environment: ManifestTests.env())
        }
        #expect(found.count == 10, "\(found)")
        let expectations = [
            "colour: unknown field",
            "pages[0].size: invalid page size \"A9\"",
            "pages[0].elements[0].src: \"../etc/passwd\": \"..\" is not allowed",
            "pages[0].elements[1].src: \"/etc/passwd\": absolute paths are not allowed",
            "pages[0].elements[2].src: \"link.png\": resolves outside",
            "pages[0].elements[3].src: \"missing.png\": cannot open",
            "pages[0].elements[4].scale: give one of \"scale\", \"width\" or \"height\"",
            "pages[0].elements[5].color: invalid colour \"reddish\"",
            "pages[0].elements[6].gestures[1].pinch: 0 is out of range (expected from 0.0001 to 10000)",
            "pages[0].elements[7].at: ink has no transform",
        ]
        for e in expectations { #expect(found.contains { $0.hasPrefix(e) }, "missing \(e) in \(found)") }
    }

    @Test func templatesGiveSizeBackgroundDecorationsAndSlots() throws {
        let dir = try fixture()
        defer { dir.cleanup() }
        let template = """
            {"name": "photo-day", "size": "A6", "background": "#fffaf0",
             "elements": [{"type": "image", "id": "tape", "src": "stickers/cat.png", "at": [10, 10]}],
             "slots": [{"name": "main", "kind": "photo", "rect": [100, 100, 800, 600], "rotate": -3},
                       {"name": "caption", "kind": "text", "rect": ["1cm", "1cm", 500, 100]}]}
            """
        let manifest = #"{"pages": [{"template": "photo-day", "elements": [{"type": "text", "text": "hi"}]}, {"template": "nope"}]}"#
        let env = ManifestTests.env(templates: ["photo-day": template], folder: dir.url)
        let found = problems { _ = try Manifest.decode(JSONParser.parse(manifest), folder: dir.url, environment: env) }
        #expect(found == ["pages[1].template: no template named \"nope\""])
        let ok = #"{"pages": [{"template": "photo-day", "elements": [{"type": "text", "text": "hi"}]}]}"#
        let build = try Manifest.decode(JSONParser.parse(ok), folder: dir.url, environment: env)
        let page = build.pages[0]
        #expect(page.size == PageSize(width: 1240, height: 1748))
        #expect(page.background.color == RGBA(r: 255, g: 250, b: 240))
        #expect(page.elements.map(\.id) == ["tape", "text-1"])
        #expect(page.slots.map(\.name) == ["main", "caption"] && near(page.slots[1].frame.rect.x, 300 / 2.54))
        let placement = try page.slots[0].placement(width: 1400, height: 1000, fit: .cover)
        #expect(placement.center == Point(500, 400) && placement.scale == 0.6 && placement.rotation == -3)
        #expect(try page.slots[0].placement(width: 1400, height: 1000, fit: .contain).scale == 800.0 / 1400)
        // Slots survive the page file.
        #expect(try Page.decode(bytes: page.serialized()) == page)
    }

    @Test func futureManifestVersionIsRefused() throws {
        #expect(throws: FormatVersionError.self) {
            try Manifest.decode(JSONParser.parse(#"{"techo": 9, "pages": []}"#), folder: URL(fileURLWithPath: "/"), environment: ManifestTests.env())
        }
    }
}
