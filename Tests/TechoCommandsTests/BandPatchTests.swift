// End to end: a rebuild after part of a page changed makes the page's PNG from its old file,
// keeping the bands of rows no change reaches and rendering the others again
// (docs/decisions/rebuild.md), and the file is byte for byte what a whole render writes.
import Foundation
import TechoTestSupport
import Testing

@Suite struct BandPatchTests {
    // The elements of the tall page, each with what a test may change.
    static func photo(at: String = "200, 900") -> String {
        ##"{"type": "photo", "id": "photo", "src": "photo.jpg", "at": [\##(at)], "width": 300, "##
            + ##""rotate": -6, "frame": "polaroid", "shadow": true}"##
    }
    static func sticker(at: String = "120, 2300") -> String {
        ##"{"type": "image", "id": "sticker", "src": "s.png", "at": [\##(at)], "scale": 2, "rotate": 20, "##
            + ##""outline": {"width": 6, "color": "#ffffff"}}"##
    }
    static func text(_ t: String = "Kyoto, spring") -> String {
        ##"{"type": "text", "id": "text", "text": "\##(t)", "size": 40, "color": "#5b3a29", "at": [200, 3500], "rotate": 4}"##
    }
    static func washi(color: String = "#e9a6a0b8") -> String {
        ##"{"type": "washi", "id": "washi", "from": [60, 4700], "to": [340, 4760], "width": 40, "ends": "zigzag", "##
            + ##""color": "\##(color)"}"##
    }
    static func stroke(_ tool: String, _ color: String?, _ width: Int, _ points: String) -> String {
        let c = color.map { ##""color": "\##($0)", "## } ?? ""
        return ##"{"tool": "\##(tool)", \##(c)"width": \##(width), "points": [\##(points)]}"##
    }
    static let strokes = [
        stroke("pencil", "#e07a5f", 6, "[40, 6000], [200, 6100], [360, 6020]"), stroke("eraser", nil, 20, "[150, 6080], [250, 6080]"),
    ]
    static func ink(_ strokes: [String]? = nil) -> String {
        ##"{"type": "ink", "id": "ink", "strokes": [\##((strokes ?? Self.strokes).joined(separator: ", "))]}"##
    }
    static func image(_ id: String, at: String, extra: String = "") -> String {
        ##"{"type": "image", "id": "\##(id)", "src": "s.png", "at": [\##(at)]\##(extra)}"##
    }

    /// A tall page (400x7000 at 72 dpi: five bands of rows, of 1,746 rows but the last) with one
    /// of each kind of element, spread down the page; `edit` changes (or adds) elements by id.
    static func manifest(_ edit: [String: String] = [:], order: [String]? = nil) -> String {
        var elements: [(String, String)] = [
            ("photo", photo()), ("sticker", sticker()), ("text", text()), ("washi", washi()), ("ink", ink()),
            ("last", image("last", at: "300, 6800")),
        ]
        for (k, v) in edit { if let i = elements.firstIndex(where: { $0.0 == k }) { elements[i].1 = v } else { elements.append((k, v)) } }
        if let order { elements = order.compactMap { id in elements.first { $0.0 == id } } }
        return """
            {"techo": 1, "title": "Tall", "page": {"size": "400x7000", "dpi": 72,
              "background": {"color": "#f6f0e4", "paper": {"pattern": "lines", "color": "#cbbfae"}}},
             "pages": [{"id": "p", "elements": [\(elements.map(\.1).joined(separator: ",\n"))]}]}
            """
    }

    static func workspace() throws -> Workspace {
        let ws = try Workspace()
        try ws.png("s.png", 40, 30, rgba: (200, 40, 40, 255))
        try ws.jpeg("photo.jpg", 120, 90, rgb: (30, 90, 200))
        try manifest().write(to: ws.url("tall.json"), atomically: true, encoding: .utf8)
        let r = try ws.run(["build", "tall.json"])
        #expect(r.code == 0, "\(r.err)")
        return ws
    }

    /// The `patched P pages, R of B bands made again` of the TECHO_TIMINGS lines, or nil.
    static func patched(in err: String) -> (pages: Int, redone: Int, bands: Int)? {
        guard let line = err.split(separator: "\n").first(where: { $0.hasPrefix("techo: timings: patched ") }) else { return nil }
        let n = line.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        return n.count == 3 ? (n[0], n[1], n[2]) : nil
    }

    /// Builds `text` as the manifest; returns what the build said it patched.
    static func rebuild(_ ws: Workspace, _ text: String) throws -> (pages: Int, redone: Int, bands: Int)? {
        try text.write(to: ws.url("tall.json"), atomically: true, encoding: .utf8)
        let r = try ws.run(["build", "tall.json"], environment: ["TECHO_TIMINGS": "1"])
        #expect(r.code == 0, "\(r.err)")
        return patched(in: r.err)
    }

    /// The built page against a fresh, whole render of the journal as it now is.
    static func expectWhole(_ ws: Workspace, _ note: String) throws {
        let fresh = try ws.run(["export", "tall.techo", "-o", "fresh-\(note)", "--force"])
        #expect(fresh.code == 0, "\(fresh.err)")
        let built = try ws.bytes("tall-pages/01-p.png"), whole = try ws.bytes("fresh-\(note)/01-p.png")
        #expect(built == whole, "\(note): the patched file differs from a whole render (\(built.count) vs \(whole.count) bytes)")
    }

    /// Each kind of element moved, restyled, added or removed: the page is patched, a band or
    /// two made again of five, and the file is the whole render's, byte for byte.
    @Test(arguments: [
        ("sticker moved", ["sticker": sticker(at: "180, 2290")]),
        ("photo moved", ["photo": photo(at: "210, 930")]),
        ("text edited", ["text": text("Kyoto, spring rain")]),
        ("washi recoloured", ["washi": washi(color: "#7fb3d5b8")]),
        (
            "stroke added",
            [
                "ink": ink(strokes + [stroke("highlighter", "#f2cc8f", 20, "[40, 6200], [360, 6210]")])
            ]
        ),
        ("sticker added", ["new": image("new", at: "200, 5200", extra: ##", "rotate": 45"##)]),
        ("sticker hidden", ["last": image("last", at: "300, 6800", extra: ##", "hidden": true"##)]),
    ])
    func aPartialChangeIsPatchedExactly(_ change: (String, [String: String])) throws {
        let ws = try Self.workspace()
        let p = try Self.rebuild(ws, Self.manifest(change.1))
        #expect(p?.pages == 1 && p?.bands == 5, "\(change.0): not patched: \(String(describing: p))")
        #expect((p?.redone ?? 9) <= 2, "\(change.0): \(p?.redone ?? -1) of 5 bands made again")
        try Self.expectWhole(ws, change.0.replacingOccurrences(of: " ", with: "-"))
    }

    /// An element removed, then the page changed back: patched each time, and exact.
    @Test func removedAndBackAgain() throws {
        let ws = try Self.workspace()
        let removed = try Self.rebuild(ws, Self.manifest(order: ["photo", "sticker", "text", "washi", "ink"]))
        #expect(removed?.pages == 1 && (removed?.redone ?? 9) <= 1, "\(String(describing: removed))")
        try Self.expectWhole(ws, "removed")
        let back = try Self.rebuild(ws, Self.manifest())
        #expect(back?.pages == 1, "\(String(describing: back))")
        try Self.expectWhole(ws, "back")
    }

    /// `techo export` after edits by other commands finds, in the history, the version of the
    /// page its file was written for: one step back, then three (two moves and a text edit).
    @Test func anExportAfterGesturesPatchesFromTheHistory() throws {
        let ws = try Self.workspace()
        func export() throws -> (pages: Int, redone: Int, bands: Int)? {
            let r = try ws.run(["export", "tall.techo", "-o", "tall-pages"], environment: ["TECHO_TIMINGS": "1"])
            #expect(r.code == 0, "\(r.err)")
            return Self.patched(in: r.err)
        }
        #expect(try ws.run(["gesture", "tall.techo", "p", "sticker", "--pan", "30,0"]).code == 0)
        let one = try export()
        #expect(one?.pages == 1 && (one?.redone ?? 9) <= 2, "\(String(describing: one))")
        try Self.expectWhole(ws, "one-step")
        #expect(try ws.run(["gesture", "tall.techo", "p", "photo", "--pan", "0,20"]).code == 0)
        #expect(try ws.run(["gesture", "tall.techo", "p", "last", "--rotate", "30"]).code == 0)
        #expect(try ws.run(["set", "tall.techo", "p", "text", "--text", "Nara"]).code == 0)
        let three = try export()
        #expect(three?.pages == 1 && (three?.redone ?? 9) <= 4, "\(String(describing: three))")
        try Self.expectWhole(ws, "three-steps")
    }

    /// What cannot be patched renders whole, exactly: elements restacked, the background
    /// changed, a change reaching every band, and an output file that is not what techo wrote.
    @Test func wholeRenderWhenAPatchCannotBeTrusted() throws {
        let ws = try Self.workspace()
        #expect(try Self.rebuild(ws, Self.manifest(order: ["sticker", "photo", "text", "washi", "ink", "last"])) == nil, "restacked: patched")
        try Self.expectWhole(ws, "restacked")
        let recoloured = Self.manifest().replacingOccurrences(of: "#f6f0e4", with: "#ffffff")
        #expect(try Self.rebuild(ws, recoloured) == nil, "new background: patched")
        try Self.expectWhole(ws, "background")
        let tall = ["ink": Self.ink([Self.stroke("pencil", "#e07a5f", 6, "[40, 10], [360, 6990]")])]
        #expect(try Self.rebuild(ws, Self.manifest(tall)) == nil, "a stroke down the whole page: patched")
        try Self.expectWhole(ws, "every-band")

        // One byte of the file's image data changed: its stamp no longer vouches for it.
        var bytes = try ws.bytes("tall-pages/01-p.png")
        bytes[bytes.count / 2] ^= 0x20
        try Data(bytes).write(to: ws.url("tall-pages/01-p.png"))
        #expect(try Self.rebuild(ws, Self.manifest()) == nil, "an edited file: patched")
        try Self.expectWhole(ws, "edited")
    }
}
