// The clipboard's routes: a copy carries the elements, the strokes and their pictures' bytes; a
// paste adds them to a page of another journal, moved, as one history step with new ids; a cut is
// one step; a picture past the clipboard's budget travels by name; and bad payloads are 4xx,
// changing nothing.
import Foundation
import TechoCodecs
import TechoModel
import TechoRaster
import TechoTestSupport
import Testing

@testable import TechoServer

@Suite struct ClipboardRouteTests {
    /// A journal with a sticker, a text and one pencil stroke on p1.
    static func filled(_ name: String = #function) throws -> ServedJournal {
        let s = try ServedJournal(name)
        let png = s.dir.appendingPathComponent("star.png")
        try Data(try ServedJournal.png(40, 20)).write(to: png)
        try s.techo("add", "image", s.journal.path, "p1", png.path, "--at", "100,80", "--scale", "1.5", "--rotate", "30")
        try s.techo("add", "text", s.journal.path, "p1", "hi", "--at", "200,150", "--color", "#336699")
        try s.techo("draw", s.journal.path, "p1", "--tool", "pencil", "--width", "5", "--points", "10,10,0.5 50,40,0.7 90,20,0.6")
        return s
    }

    @Test func aCopyPastesIntoAnotherJournalMovedAsOneStep() throws {
        let a = try Self.filled()
        let b = try ServedJournal()
        let steps = try a.historyCount()
        let r = try a.client.post("/api/pages/p1/copy", json: #"{"elements": ["image-1", "text-1"], "strokes": ["s1"]}"#)
        #expect(r.status == 200, "\(r.text)")
        let value = try #require(try json(r)["clipboard"])
        #expect(value["techo"]?.string == "clipboard")
        #expect(value["elements"]?.array?.count == 2)
        #expect(value["strokes"]?.array?.count == 1)
        let assets = try #require(value["assets"])
        guard case .object(let files) = assets else { Issue.record("assets is not an object"); return }
        #expect(files.count == 1 && files.values.allSatisfy { $0.string != nil }, "the picture's bytes travel")
        #expect(try a.historyCount() == steps, "a copy makes no step")

        guard case .object(var body) = value else { return }
        body["move"] = [20, -10]
        let before = try b.historyCount()
        let p = try b.client.post("/api/pages/p1/paste", json: JSONValue.object(body).serialized())
        #expect(p.status == 200, "\(p.text)")
        #expect(try json(p)["ids"]?.array?.compactMap(\.string) == ["image-1", "text-1"])
        #expect(try json(p)["strokes"]?.array?.compactMap(\.string) == ["s1"])
        #expect(try b.historyCount() == before + 1)
        #expect(try JournalStore.open(b.journal).history().last?.description == "paste 2 elements, 1 stroke")

        let src = try a.page(), dst = try b.page()
        let srcImage = try #require(src.elements.first { $0.kind == .image })
        let dstImage = try #require(dst.elements.first { $0.kind == .image })
        #expect(dstImage.placement.center.x == srcImage.placement.center.x + 20)
        #expect(dstImage.placement.center.y == srcImage.placement.center.y - 10)
        #expect(dstImage.placement.scale == 1.5 && dstImage.placement.rotation == 30)
        #expect(b.assets() == a.assets(), "the picture is in the other journal, stored under its hash")
        guard case .ink(let srcInk) = try #require(src.elements.first { $0.kind == .ink }).content,
            case .ink(let dstInk) = try #require(dst.elements.first { $0.kind == .ink }).content
        else { Issue.record("no ink"); return }
        #expect(zip(srcInk.strokes[0].points, dstInk.strokes[0].points).allSatisfy { $1.x == $0.x + 20 && $1.y == $0.y - 10 && $1.pressure == $0.pressure })
        guard case .text(let t) = try #require(dst.elements.first { $0.kind == .text }).content else { return }
        #expect(t.text == "hi" && t.color.description == "#336699")

        // Pasted twice on one page: new ids each time.
        let again = try b.client.post("/api/pages/p1/paste", json: JSONValue.object(body).serialized())
        #expect(try json(again)["ids"]?.array?.compactMap(\.string) == ["image-2", "text-2"])
        #expect(try json(again)["strokes"]?.array?.compactMap(\.string) == ["s2"])
    }

    @Test func aCutIsOneStepAndPastesBack() throws {
        let a = try Self.filled()
        let before = try a.historyCount()
        let r = try a.client.post("/api/pages/p1/copy", json: #"{"elements": ["image-1"], "strokes": ["s1"], "cut": true}"#)
        #expect(r.status == 200, "\(r.text)")
        #expect(try a.historyCount() == before + 1)
        #expect(try a.page().elements.map(\.id) == ["text-1", "ink-1"])
        #expect(try a.page().strokeIDs.isEmpty)
        let value = try #require(try json(r)["clipboard"])
        let p = try a.client.post("/api/pages/p1/paste", json: value.serialized())
        #expect(p.status == 200, "\(p.text)")
        #expect(try a.page().elements.count == 3)
        #expect(try a.page().strokeIDs.count == 1)
        // Undo takes the paste back, then the cut.
        #expect(try a.client.post("/api/undo", json: "{}").status == 200)
        #expect(try a.page().elements.count == 2)
        #expect(try a.client.post("/api/undo", json: "{}").status == 200)
        #expect(try a.page().elements.count == 3)
    }

    @Test func aPictureOverTheBudgetTravelsByName() throws {
        let a = try ServedJournal()
        let b = try ServedJournal()
        // A picture of noise, so it does not compress under the budget.
        var rng = SystemRandomNumberGenerator()
        let w = 1600, h = 1300
        let pixels = (0..<(w * h * 4)).map { i in i % 4 == 3 ? UInt8(255) : UInt8.random(in: 0...255, using: &rng) }
        let png = try PNGEncoder.encode(Pixmap(width: w, height: h, straightRGBA: pixels), name: "noise.png")
        #expect(png.count > EditorServer.clipboardAssetBytes)
        let file = a.dir.appendingPathComponent("noise.png")
        try Data(png).write(to: file)
        try a.techo("add", "image", a.journal.path, "p1", file.path)
        let r = try a.client.post("/api/pages/p1/copy", json: #"{"elements": ["image-1"]}"#)
        let value = try #require(try json(r)["clipboard"])
        guard case .object(let files)? = value["assets"] else { Issue.record("no assets"); return }
        #expect(files.count == 1 && files.values.allSatisfy { $0 == .null })
        // Into its own journal it pastes (the picture is there); into another it is refused by name.
        #expect(try a.client.post("/api/pages/p1/paste", json: value.serialized()).status == 200)
        let refused = try b.client.post("/api/pages/p1/paste", json: value.serialized())
        #expect(refused.status == 400)
        #expect(refused.text.contains("too large to travel on the clipboard") && refused.text.contains("elements[0].asset"), "\(refused.text)")
        #expect(try b.historyCount() == 0 && b.assets().isEmpty)
    }

    @Test func badPayloadsAreRefusedAndChangeNothing() throws {
        let a = try Self.filled()
        let copied = try json(try a.client.post("/api/pages/p1/copy", json: #"{"elements": ["image-1"]}"#))["clipboard"]
        guard case .object(let good)? = copied, case .object(let files)? = good["assets"], let name = files.keys.first else {
            Issue.record("no copy"); return
        }
        func with(_ key: String, _ v: JSONValue) -> String {
            var o = good
            o[key] = v
            return JSONValue.object(o).serialized()
        }
        let notAPicture = Data("not a picture".utf8).base64EncodedString()
        let before = try a.historyCount()
        let assetsBefore = a.assets()
        let bad: [(String, String, Int, String)] = [
            ("p1", "", 400, "expected a JSON object"),
            ("p1", "[1]", 400, "expected an object"),
            ("p1", "{}", 400, "nothing to paste"),
            ("p1", #"{"elements": [], "strokes": []}"#, 400, "nothing to paste"),
            ("p1", #"{"elements": [{"type": "ink", "strokes": []}]}"#, 400, "elements[0].type: ink comes as strokes"),
            ("p1", #"{"elements": [{"type": "text", "text": "x", "bogus": 1}]}"#, 400, "bogus"),
            (
                "p1", #"{"elements": [{"type": "image", "asset": "assets/\#(String(repeating: "a", count: 64)).png", "naturalSize": [4, 4]}]}"#, 400,
                "is not in this journal"
            ),
            ("p1", #"{"elements": [{"type": "text", "text": "x"}], "assets": {"../x.png": "AAAA"}}"#, 400, "assets/<sha256>"),
            ("p1", with("assets", .object([name: .string("%%%")])), 400, "base64"),
            ("p1", with("assets", .object([name: .string(notAPicture)])), 415, "not an image techo reads"),
            ("p1", with("assets", .object([name: .number(3)])), 400, "base64, or null"),
            ("p1", #"{"strokes": [{"tool": "pencil"}]}"#, 400, "strokes[0]"),
            ("p1", #"{"strokes": [{"tool": "path", "d": "M0 0 L10 10", "width": 2}], "move": [5, 5]}"#, 400, "path stroke"),
            ("p1", #"{"elements": [{"type": "text", "text": "x"}], "move": [1e12, 0]}"#, 400, "move"),
            ("p1", #"{"elements": [{"type": "text", "text": "x"}], "version": 2}"#, 400, "newer than this techo reads"),
            ("p1", #"{"elements": [{"type": "text", "text": "x"}], "techo": "other"}"#, 400, "got 'other'"),
            ("p1", #"{"elements": 5}"#, 400, "elements"),
            ("p1", "{\"elements\": [" + Array(repeating: #"{"type": "text", "text": "x"}"#, count: 1001).joined(separator: ",") + "]}", 400, "over the limit"),
            ("nope", #"{"elements": [{"type": "text", "text": "x"}]}"#, 404, "no page 'nope'"),
        ]
        for (page, body, status, message) in bad {
            let r = try a.client.post("/api/pages/\(page)/paste", json: body)
            #expect(r.status == status, "\(body.prefix(200)): \(r.status) \(r.text)")
            #expect(r.text.contains(message), "\(body.prefix(200)): \(r.text)")
        }
        let badCopies: [(String, Int, String)] = [
            (#"{}"#, 400, "nothing to copy"),
            (#"{"elements": ["nope"]}"#, 404, "no element 'nope'"),
            (#"{"strokes": ["s9"]}"#, 404, "s9"),
            (#"{"elements": ["image-1", "image-1"]}"#, 400, "listed twice"),
            (#"{"elements": "image-1"}"#, 400, "elements"),
            (#"{"elements": ["image-1"], "cut": "yes"}"#, 400, "cut"),
        ]
        for (body, status, message) in badCopies {
            let r = try a.client.post("/api/pages/p1/copy", json: body)
            #expect(r.status == status, "\(body): \(r.status) \(r.text)")
            #expect(r.text.contains(message), "\(body): \(r.text)")
        }
        #expect(try a.historyCount() == before)
        #expect(a.assets() == assetsBefore)
    }
}
