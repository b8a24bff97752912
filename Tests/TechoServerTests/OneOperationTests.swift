// One operation behind every front end: the same change made with `techo set`, the editor's
// PATCH and the library's `JournalEditor.set` writes the same page bytes, and the same refusal
// reads the same, each front end naming the field its own way.
import Foundation
import Techo
import TechoCommands
import Testing

@testable import TechoModel

@Suite struct OneOperationTests {
    /// A served journal with a text sticker, a photo and an ink layer.
    func journal(_ name: String = #function) throws -> ServedJournal {
        let s = try ServedJournal(name)
        let png = s.dir.appendingPathComponent("p.png")
        try Data(try ServedJournal.png(60, 40)).write(to: png)
        try s.techo("add", "text", s.journal.path, "p1", "hi")
        try s.techo("add", "photo", s.journal.path, "p1", png.path)
        try s.techo("draw", s.journal.path, "p1", "--tool", "pencil", "--points", "10,10 40,40")
        return s
    }

    /// The page's bytes whole: its page file joined with its ink file.
    func pageBytes(_ s: ServedJournal) throws -> [UInt8] { try #require(try JournalStore.open(s.journal).readWhole("pages/p1.json")?.bytes) }

    /// Makes the change three ways from the same state and returns the three page files.
    func threeWays(_ s: ServedJournal, id: String, cli: [String], json: String, patch: ElementPatch) throws -> [[UInt8]] {
        var out: [[UInt8]] = []
        try ServedJournal.techo(["set", s.journal.path, "p1", id] + cli)
        out.append(try pageBytes(s))
        try s.techo("undo", s.journal.path)
        let r = try s.client.request("PATCH", "/api/pages/p1/elements/\(id)", body: Array(json.utf8))
        #expect(r.status == 200, "\(r.text)")
        out.append(try pageBytes(s))
        try s.techo("undo", s.journal.path)
        try JournalEditor.open(s.journal).set(patch, on: id, of: "p1")
        out.append(try pageBytes(s))
        try s.techo("undo", s.journal.path)
        return out
    }

    @Test func aTextChangeWritesTheSameBytesFromEachFrontEnd() throws {
        let s = try journal()
        let before = try pageBytes(s)
        var patch = ElementPatch()
        patch.text = "hej"
        patch.size = 30
        patch.lineHeight = 2
        patch.maxWidth = .some(200)
        patch.color = try RGBA(parsing: "#336699")
        patch.align = .center
        patch.weight = 700
        patch.italic = true
        patch.letterSpacing = 2
        patch.outline = .some(try Outline(width: 4, color: .white))
        patch.at = Point(100, 80)
        patch.scale = 1.5
        patch.rotate = 20
        patch.opacity = 0.5
        let pages = try threeWays(
            s, id: "text-1",
            cli: [
                "--text", "hej", "--size", "30", "--line-height", "2", "--max-width", "200", "--color", "#336699", "--align", "center", "--weight", "700",
                "--italic", "--letter-spacing", "2", "--outline", "white,4", "--at", "100,80", "--scale", "1.5", "--rotate", "20", "--opacity", "0.5",
            ],
            json: #"""
                {"text": "hej", "size": 30, "lineHeight": 2, "maxWidth": 200, "color": "#336699", "align": "center", "weight": 700, "italic": true,
                 "letterSpacing": 2, "outline": {"color": "white", "width": 4}, "at": [100, 80], "scale": 1.5, "rotate": 20, "opacity": 0.5}
                """#,
            patch: patch)
        #expect(pages[0] != before)
        #expect(pages[0] == pages[1] && pages[1] == pages[2])
        guard case .text(let t)? = try Page.decode(bytes: pages[0]).elements.first?.content else { Issue.record("no text"); return }
        #expect(t.text == "hej" && t.lineHeight == 2 && t.outline?.width == 4)
        #expect(try pageBytes(s) == before)
    }

    @Test func aPhotoChangeWritesTheSameBytesFromEachFrontEnd() throws {
        let s = try journal()
        var patch = ElementPatch()
        patch.frame = .polaroid
        patch.radius = 6
        patch.shadow = true
        patch.adjustments = ["brightness": 0.2, "sepia": 0.5]
        patch.hidden = true
        let pages = try threeWays(
            s, id: "photo-1", cli: ["--frame", "polaroid", "--radius", "6", "--shadow", "on", "--brightness", "0.2", "--sepia", "0.5", "--hide"],
            json: #"{"frame": "polaroid", "radius": 6, "shadow": true, "brightness": 0.2, "sepia": 0.5, "hidden": true}"#, patch: patch)
        #expect(pages[0] == pages[1] && pages[1] == pages[2])
        let photo = try Page.decode(bytes: pages[0]).elements[1]
        guard case .photo(let p) = photo.content else { Issue.record("no photo"); return }
        #expect(p.frame == .polaroid && p.sepia == 0.5 && photo.hidden)
    }

    /// The same refusal from each front end: the CLI names its option, the editor and the
    /// library the JSON field; the words after it are the same, and nothing changes.
    @Test(arguments: [
        (["--frame", "polaroid"], #"{"frame": "polaroid"}"#, "text-1", "frame", "applies to photo elements; 'text-1' is text"),
        (["--size", "20"], #"{"size": 20}"#, "photo-1", "size", "applies to text elements; 'photo-1' is photo"),
        (["--rotate", "30"], #"{"rotate": 30}"#, "ink-1", "rotate", "'ink-1' is an ink layer; ink has no transform to move, scale, turn or flip"),
        (
            ["--outline", "white,3"], #"{"outline": {"color": "white", "width": 3}}"#, "ink-1", "outline",
            "applies to text, image and photo elements; 'ink-1' is ink"
        ),
    ])
    func theSameRefusalReadsTheSame(cli: [String], body: String, id: String, field: String, words: String) throws {
        let s = try journal()
        let before = try pageBytes(s)
        var out = "", err = ""
        let code = TechoCommands.Techo.main(["techo", "set", s.journal.path, "p1", id] + cli, io: CommandIO(out: { out += $0 }, err: { err += $0 }))
        #expect(code == 64, "\(err)")
        let option = cli[0]
        #expect(err.contains("\(option): \(words)"), "\(err)")
        let r = try s.client.request("PATCH", "/api/pages/p1/elements/\(id)", body: Array(body.utf8))
        #expect(r.status == 400)
        #expect(try json(r)["error"]?.string?.contains("\(field): \(words)") == true, "\(r.text)")
        var patch = ElementPatch()
        switch field {
        case "frame": patch.frame = .polaroid
        case "size": patch.size = 20
        case "rotate": patch.rotate = 30
        default: patch.outline = .some(try Outline(width: 3, color: .white))
        }
        #expect(throws: EditError(.invalid, field: field, words)) { try JournalEditor.open(s.journal).set(patch, on: id, of: "p1") }
        #expect(try pageBytes(s) == before)
    }

    /// A picture added with no placement comes in centred; at its natural size from the CLI and
    /// the library (whose users say the size they want), fitted to 80 % of the page from the
    /// editor (as a phone app brings one in). One rule, `PageEdits.defaultPlacement`.
    @Test func aLargePictureComesInAsEachFrontEndDocuments() throws {
        let s = try ServedJournal()
        let bytes = try ServedJournal.png(800, 400)
        let file = s.dir.appendingPathComponent("big.png")
        try Data(bytes).write(to: file)
        try s.techo("add", "image", s.journal.path, "p1", file.path)
        let r = try s.client.request("POST", "/api/pages/p1/elements?type=image&name=big.png", body: bytes)
        #expect(r.status == 200, "\(r.text)")
        try JournalEditor.open(s.journal).addPicture(file, to: "p1")
        let placements = try s.page().elements.map(\.placement)
        // 400×300 page: 0.8 × 400 / 800 = 0.4 when fitted.
        #expect(placements.map(\.scale) == [1, 0.4, 1])
        for p in placements { #expect(p.center == Point(200, 150), "\(p)") }
    }

    /// A background change from `techo background` and the editor's PATCH writes the same page.
    @Test func aBackgroundChangeWritesTheSameBytesFromBothFrontEnds() throws {
        let s = try ServedJournal()
        let before = try pageBytes(s)
        try s.techo("background", s.journal.path, "p1", "--color", "#fdf6e3", "--paper", "lines", "--paper-margin", "12")
        let cli = try pageBytes(s)
        try s.techo("undo", s.journal.path)
        #expect(try pageBytes(s) == before)
        let r = try s.client.request(
            "POST", "/api/pages/p1/background", body: Array(##"{"color": "#fdf6e3", "paper": {"pattern": "lines", "margin": 12}}"##.utf8))
        #expect(r.status == 200, "\(r.text)")
        #expect(try pageBytes(s) == cli && cli != before)
        // The same refusal, named each front end's way.
        var out = "", err = ""
        let code = TechoCommands.Techo.main(
            ["techo", "background", s.journal.path, "p1", "--mode", "cover"], io: CommandIO(out: { out += $0 }, err: { err += $0 }))
        #expect(code == 64 && err.contains("--mode: needs a background image"), "\(err)")
        let refused = try s.client.request("POST", "/api/pages/p1/background", body: Array(#"{"mode": "cover"}"#.utf8))
        #expect(refused.status == 400 && refused.text.contains("mode: needs a background image"), "\(refused.text)")
    }
}
