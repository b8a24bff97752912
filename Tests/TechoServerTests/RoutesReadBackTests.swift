// Routes of docs/editor-api.md that no other test read back: the restack route's `by`, DELETE of
// an element, a page made from a template; and `techo serve --host`. Each change is read back
// from the stored page, and compared with what the CLI command it stands for does.
import Foundation
import TechoModel
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct RoutesReadBackTests {
    func ids(_ s: ServedJournal, _ page: String = "p1") throws -> [String] { try s.page(page).elements.map(\.id) }

    @Test func restackByMovesUpAndDownByThatManyPlaces() throws {
        let s = try ServedJournal()
        for t in ["a", "b", "c", "d"] { _ = try s.techo("add", "text", s.journal.path, "p1", t, "--id", t) }
        let up = try s.client.post("/api/pages/p1/elements/a/restack", json: "{\"by\": 2}")
        #expect(up.status == 200, "\(up.text)")
        #expect(try ids(s) == ["b", "c", "a", "d"])
        let down = try s.client.post("/api/pages/p1/elements/d/restack", json: "{\"by\": -3}")
        #expect(down.status == 200, "\(down.text)")
        #expect(try ids(s) == ["d", "b", "c", "a"])
        // The same as `techo raise --by` / `lower --by`, one history step each.
        _ = try s.techo("raise", s.journal.path, "p1", "d", "--by", "1")
        #expect(try ids(s) == ["b", "d", "c", "a"])
        #expect(try s.historyCount() == 4 + 3)
    }

    /// The page answer is the stored page's JSON with each ink layer's strokes as their number.
    @Test func thePageAnswerCountsStrokesInsteadOfSendingThem() throws {
        let s = try ServedJournal()
        _ = try s.techo("add", "text", s.journal.path, "p1", "hi", "--id", "t")
        for x in [10, 20, 30] { _ = try s.techo("draw", s.journal.path, "p1", "--tool", "pencil", "--points", "\(x),10 \(x + 5),40") }
        let stored = try s.page()
        let answer = try #require(try json(try s.client.get("/api/pages/p1"))["page"])
        let elements = try #require(answer["elements"]?.array)
        #expect(elements.count == stored.elements.count)
        for (e, a) in zip(stored.elements, elements) {
            guard case .ink(let ink) = e.content else {
                #expect(a == e.json, "\(e.id)")
                continue
            }
            #expect(ink.strokes.count == 3)
            #expect(a["strokes"]?.number == 3)
            guard case .object(var mine) = e.json, case .object(var theirs) = a else { Issue.record("not objects"); continue }
            mine["strokes"] = nil
            theirs["strokes"] = nil
            #expect(mine == theirs)
        }
        #expect(answer["width"] == stored.json["width"] && answer["background"] == stored.json["background"])
    }

    @Test func deletingAnElementRemovesItAndOnlyIt() throws {
        let s = try ServedJournal()
        for t in ["a", "b", "c"] { _ = try s.techo("add", "text", s.journal.path, "p1", t, "--id", t) }
        let before = try s.page()
        let r = try s.client.request("DELETE", "/api/pages/p1/elements/b")
        #expect(r.status == 200, "\(r.text)")
        let after = try s.page()
        #expect(after.elements.map(\.id) == ["a", "c"])
        #expect(after.elements == before.elements.filter { $0.id != "b" })
        #expect(try s.historyCount() == 4)
        _ = try s.techo("undo", s.journal.path)
        #expect(try s.page() == before)
    }

    /// A page made through the API from a built-in template is the page `techo page add
    /// --template` makes: its size, background and named slots.
    @Test func aTemplatePageThroughTheAPIIsTheCLIsTemplatePage() throws {
        let s = try ServedJournal()
        let templates = try #require(try json(try s.client.get("/api/journal"))["templates"]?.array?.compactMap(\.string))
        #expect(templates.contains("travel-day"), "\(templates)")
        let r = try s.client.post("/api/pages", json: "{\"id\": \"api\", \"template\": \"travel-day\"}")
        #expect(r.status == 200, "\(r.text)")
        #expect(try json(r)["id"]?.string == "api")
        _ = try s.techo("page", "add", s.journal.path, "--id", "cli", "--template", "travel-day")
        let api = try s.page("api"), cli = try s.page("cli")
        #expect(!api.slots.isEmpty, "a template page has its slots")
        #expect(api.slots == cli.slots && api.size == cli.size && api.dpi == cli.dpi && api.background == cli.background)
        #expect(api.elements == cli.elements)
    }

    /// `--host ADDR` listens there and only there: 127.0.0.2 answers, 127.0.0.1 refuses the
    /// connection (both are loopback on Linux).
    @Test func serveListensOnTheHostItIsGiven() throws {
        let s = try ServedJournal()
        s.server.stop(grace: 0)
        let served = try ServeProcess([s.journal.path, "--port", "0", "--host", "127.0.0.2", "--editor-dir", s.editor.path])
        #expect(served.host == "127.0.0.2", "\(served.url)")
        let port = served.port, token = served.token
        let client = Client(port: port, token: token, host: "127.0.0.2:\(port)")
        let c = try RawConnection(port: port, address: "127.0.0.2", timeout: 60)
        try c.send(client.head("GET", "/api/journal", length: nil))
        let r = try c.readResponse()
        #expect(r.status == 200, "\(r.text)")
        #expect(throws: RawHTTPError.self) { _ = try RawConnection(port: port, address: "127.0.0.1", timeout: 5) }
        served.stop()
    }
}
