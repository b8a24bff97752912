// Claims of docs/editor-api.md that no other test asserted (docs/testing.md, "Not yet proven"):
// the headers every answer carries, hidden editor files, the two layers a drag is drawn between,
// a render's revision and timing headers, the render cache finding an undone state again, the
// gesture request's event limit, restacking to the bottom and clearing a text's wrap width and
// outline by PATCH with null. Each is read back from the answer or the stored page.
import Foundation
import TechoCodecs
import TechoModel
import Testing

@testable import TechoServer

@Suite struct DocumentedRoutesTests {
    /// Straight RGBA pixels of a PNG answer.
    func pixels(_ r: RawResponse) throws -> RGBAImage { try ImageDecoder.decodeStraight(r.body, name: "render").pixels }

    func rgba(_ image: RGBAImage, _ x: Int, _ y: Int) -> [UInt8] {
        let i = (y * image.width + x) * 4
        return Array(image.bytes[i..<(i + 4)])
    }

    @Test func everyAnswerCarriesTheReferrerAndFramingHeaders() throws {
        let s = try ServedJournal()
        let answers = [
            try s.client.get("/"), try s.client.get("/api/journal"), try s.client.get("/api/pages/nope"),
            try s.client.post("/api/pages/p1/gesture", json: "{"), try s.stranger.get("/api/journal"),
        ]
        #expect(answers.map(\.status) == [200, 200, 404, 400, 403])
        for r in answers {
            #expect(r.header("Referrer-Policy") == "no-referrer", "\(r.status): \(r.headers)")
            #expect(r.header("X-Frame-Options") == "DENY", "\(r.status): \(r.headers)")
        }
    }

    /// Hidden files and folders of an editor folder are not in the list of files served.
    @Test func hiddenEditorFilesAreNotServed() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("techo-editor-files-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent(".git"), withIntermediateDirectories: true)
        try Data("export const visible = 1;\n".utf8).write(to: folder.appendingPathComponent("visible.js"))
        try Data("secret".utf8).write(to: folder.appendingPathComponent(".hidden.js"))
        try Data("secret".utf8).write(to: folder.appendingPathComponent(".git/config"))
        let files = EditorFiles(folder: folder)
        #expect(files.response(for: "/visible.js")?.status == 200)
        #expect(files.response(for: "/.hidden.js") == nil && files.response(for: "/.git/config") == nil)
    }

    /// `layer=below` is the background and what lies under the element; `layer=above` what lies
    /// over it, on nothing (transparent where it draws nothing).
    @Test func theTwoLayersADragIsDrawnBetween() throws {
        let s = try ServedJournal()
        _ = try s.techo("background", s.journal.path, "p1", "--color", "#336699")
        _ = try s.techo("add", "text", s.journal.path, "p1", "under", "--id", "low", "--at", "100,150", "--size", "40", "--color", "#ff0000")
        _ = try s.techo("add", "text", s.journal.path, "p1", "middle", "--id", "mid", "--at", "200,150", "--size", "40")
        _ = try s.techo("add", "text", s.journal.path, "p1", "over", "--id", "top", "--at", "300,150", "--size", "40", "--color", "#00ff00")
        let below = try s.client.get("/api/pages/p1/render?scale=1&without=mid&layer=below")
        let above = try s.client.get("/api/pages/p1/render?scale=1&without=mid&layer=above")
        #expect(below.status == 200 && above.status == 200, "\(below.text) \(above.text)")
        // The same pixels as the page with only what lies under, and only what lies over (the
        // CLI's removals, undone afterwards).
        _ = try s.techo("rm", s.journal.path, "p1", "mid")
        _ = try s.techo("rm", s.journal.path, "p1", "top")
        let under = try s.client.get("/api/pages/p1/render?scale=1")
        #expect(try pixels(below) == pixels(under), "layer=below is not the page with what lies under alone")
        _ = try s.techo("undo", s.journal.path)
        _ = try s.techo("undo", s.journal.path)
        let b = try pixels(below), a = try pixels(above)
        #expect(a.width == b.width && a.height == b.height)
        #expect(rgba(a, 2, 2)[3] == 0, "layer=above draws no background: \(rgba(a, 2, 2))")
        #expect(rgba(b, 2, 2) == [0x33, 0x66, 0x99, 255])
        // Green ink only above, red only below.
        var greenAbove = 0, redAbove = 0, redBelow = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = rgba(a, x, y), q = rgba(b, x, y)
                if p[3] > 128 && p[1] > 200 && p[0] < 80 { greenAbove += 1 }
                if p[3] > 128 && p[0] > 200 && p[1] < 80 { redAbove += 1 }
                if q[0] > 200 && q[1] < 80 && q[2] < 80 { redBelow += 1 }
            }
        }
        #expect(greenAbove > 50 && redAbove == 0 && redBelow > 50, "above: green \(greenAbove), red \(redAbove); below: red \(redBelow)")
        // A layer needs the element it is cut at, and is one of the two.
        #expect(try s.client.get("/api/pages/p1/render?layer=below").status == 400)
        #expect(try s.client.get("/api/pages/p1/render?without=mid&layer=middle").status == 400)
    }

    /// `X-Techo-Revision` is the revision drawn; `Server-Timing` tells a fresh render
    /// (`render;dur=…, encode;dur=…`) from a cached one (`cache;desc=hit`); undoing back to a
    /// state drawn before is a hit.
    @Test func renderHeadersAndTheCacheFindAnUndoneStateAgain() throws {
        let s = try ServedJournal()
        _ = try s.techo("add", "text", s.journal.path, "p1", "one", "--id", "t")
        let revision = try #require(try json(try s.client.get("/api/journal"))["revision"]?.number)
        let first = try s.client.get("/api/pages/p1/render?scale=0.5")
        #expect(first.header("X-Techo-Revision") == String(Int(revision)))
        let timing = first.header("Server-Timing") ?? ""
        #expect(timing.hasPrefix("render;dur=") && timing.contains(", encode;dur="), "\(timing)")
        #expect(try s.client.get("/api/pages/p1/render?scale=0.5").header("Server-Timing") == "cache;desc=hit")
        _ = try s.techo("set", s.journal.path, "p1", "t", "--text", "two")
        let changed = try s.client.get("/api/pages/p1/render?scale=0.5")
        #expect(changed.header("Server-Timing")?.hasPrefix("render;dur=") == true)
        let now = try #require(try json(try s.client.get("/api/journal"))["revision"]?.number)
        #expect(now != revision && changed.header("X-Techo-Revision") == String(Int(now)))
        _ = try s.techo("undo", s.journal.path)
        let hits = s.server.renderCacheCounts.hits
        let undone = try s.client.get("/api/pages/p1/render?scale=0.5")
        #expect(undone.header("Server-Timing") == "cache;desc=hit", "\(undone.header("Server-Timing") ?? "no Server-Timing")")
        #expect(s.server.renderCacheCounts.hits == hits + 1)
        #expect(undone.body == first.body)
    }

    @Test func aGestureRequestHoldsAtMost100000Events() throws {
        let s = try ServedJournal()
        _ = try s.techo("add", "text", s.journal.path, "p1", "hi", "--id", "t")
        func events(_ n: Int) -> String {
            #"{"element":"t","events":["# + Array(repeating: #"{"gesture":"pan","state":"changed","translation":[0.001,0]}"#, count: n).joined(separator: ",")
                + "]}"
        }
        let over = try s.client.post("/api/pages/p1/gesture", json: events(100_001))
        #expect(over.status == 400 && over.text.contains("100001 events is over the limit of 100000"), "\(over.status) \(over.text)")
        #expect(try s.historyCount() == 1, "nothing was written")
        let within = try s.client.post("/api/pages/p1/gesture", json: events(1000))
        #expect(within.status == 200, "\(within.text)")
        let at = try #require(try s.page().elements.first { $0.id == "t" }?.placement.center.x)
        #expect(try s.historyCount() == 2 && at > 0)
    }

    @Test func restackToTheBottomAndNullClearsAWrapWidthAndAnOutline() throws {
        let s = try ServedJournal()
        for t in ["a", "b", "c"] { _ = try s.techo("add", "text", s.journal.path, "p1", t, "--id", t) }
        let bottom = try s.client.post("/api/pages/p1/elements/c/restack", json: #"{"to": "bottom"}"#)
        #expect(bottom.status == 200, "\(bottom.text)")
        #expect(try s.page().elements.map(\.id) == ["c", "a", "b"])
        _ = try s.techo("set", s.journal.path, "p1", "a", "--max-width", "120", "--outline", "#ffffff,3")
        func stored() throws -> [String: JSONValue] {
            guard case .object(let o) = try #require(try s.page().elements.first { $0.id == "a" }).json else { return [:] }
            return o
        }
        #expect(try stored()["maxWidth"] != nil && stored()["outline"] != nil)
        let cleared = try s.client.request(
            "PATCH", "/api/pages/p1/elements/a", body: Array(#"{"maxWidth": null, "outline": null}"#.utf8), headers: ["Content-Type": "application/json"])
        #expect(cleared.status == 200, "\(cleared.text)")
        let after = try stored()
        #expect(after["maxWidth"] == nil && after["outline"] == nil, "\(after)")
    }
}
