// The API's changes go through the journal's history like the CLI's: one step each, nothing
// changed on a bad request, clear errors naming the field or id, uploads that store nothing
// unless complete, and concurrent clients that lose nothing.
import Foundation
import TechoCommands
import TechoModel
import TechoTestSupport
import Testing

@testable import TechoServer

@Suite struct EditingAPITests {
    @Test func malformedJSONIsA400NamingTheProblem() throws {
        let s = try ServedJournal()
        let syntax = try s.client.post("/api/pages/p1/draw", json: "{\"tool\": \"pencil\",")
        #expect(syntax.status == 400)
        #expect(try json(syntax)["error"]?.string?.hasPrefix("request body:1:") == true)
        let field = try s.client.post("/api/pages/p1/draw", json: "{\"tool\": \"pencil\", \"width\": \"wide\", \"points\": [[1, 2]]}")
        #expect(field.status == 400)
        #expect(try json(field)["error"]?.string?.contains("width") == true)
        let unknown = try s.client.post("/api/pages/p1/gesture", json: "{\"element\": \"x\", \"events\": [], \"speed\": 3}")
        #expect(unknown.status == 400)
        #expect(try json(unknown)["error"]?.string?.contains("unknown field \"speed\"") == true)
        let event = try s.client.post("/api/pages/p1/gesture", json: "{\"element\": \"x\", \"events\": [{\"gesture\": \"pinch\", \"scale\": \"big\"}]}")
        #expect(try json(event)["error"]?.string?.contains("events[0].scale") == true)
        #expect(try s.client.post("/api/pages/p1/draw", json: "").status == 400)
        #expect(try s.client.post("/api/pages/p1/draw", json: "[1, 2]").status == 400)
        #expect(try s.page().elements.isEmpty)
        #expect(try s.historyCount() == 0)
    }

    @Test func unknownPagesAndElementsAre404() throws {
        let s = try ServedJournal()
        try s.techo("add", "text", s.journal.path, "p1", "hi")
        let gesture = "{\"element\": \"nope\", \"events\": [{\"gesture\": \"doubleTap\"}]}"
        let cases: [(String, String, String)] = [
            ("GET", "/api/pages/nope", ""), ("GET", "/api/pages/nope/render", ""),
            ("GET", "/api/pages/p1/render?without=nope", ""), ("GET", "/api/pages/p1/elements/nope/render", ""),
            ("POST", "/api/pages/p1/gesture", gesture), ("POST", "/api/pages/nope/gesture", gesture.replacingOccurrences(of: "nope", with: "text-1")),
            ("PATCH", "/api/pages/p1/elements/nope", "{\"opacity\": 0.5}"), ("DELETE", "/api/pages/p1/elements/nope", ""),
            ("POST", "/api/pages/p1/elements/nope/flip", "{\"axis\": \"h\"}"), ("DELETE", "/api/pages/nope", ""),
            ("POST", "/api/pages/nope/move", "{\"to\": 0}"), ("GET", "/api/export/pages/nope.png", ""), ("GET", "/api/nothing", ""),
        ]
        let before = try s.page()
        for (method, path, body) in cases {
            let r = try s.client.request(method, path, body: Array(body.utf8))
            #expect(r.status == 404, "\(method) \(path): \(r.text)")
            #expect(try json(r)["error"]?.string?.contains("nope") == true || path == "/api/nothing", "\(method) \(path)")
        }
        #expect(try s.page() == before)
        #expect(try s.historyCount() == 1)
    }

    @Test func eachEditIsOneHistoryStepLikeTheCLI() throws {
        let s = try ServedJournal()
        let png = try ServedJournal.png(80, 40)
        let up = try s.client.request("POST", "/api/pages/p1/elements?type=image&name=cat.png&x=100&y=80", body: png)
        #expect(up.status == 200, "\(up.text)")
        #expect(try json(up)["id"]?.string == "image-1")
        // A gesture of many recognizer events is one step, as `techo gesture --replay` is.
        let events = (0..<20).map { _ in "{\"gesture\": \"pan\", \"state\": \"changed\", \"translation\": [1, 2]}" }.joined(separator: ",")
        let g = try s.client.post(
            "/api/pages/p1/gesture",
            json:
                "{\"element\": \"image-1\", \"events\": [{\"gesture\": \"pinch\", \"state\": \"began\", \"scale\": 2, \"location\": [100, 80]}, \(events), {\"gesture\": \"doubleTap\"}]}"
        )
        #expect(g.status == 200, "\(g.text)")
        let placed = try #require(try s.page().elements.first).placement
        #expect(placed.center == .init(120, 120) && placed.scale == 2 && placed.rotation == 90)
        #expect(try s.client.post("/api/pages/p1/draw", json: "{\"tool\": \"pencil\", \"width\": 4, \"points\": [[10, 10, 0.2], [50, 40, 0.9]]}").status == 200)
        #expect(try s.client.request("PATCH", "/api/pages/p1/elements/image-1", body: Array("{\"opacity\": 0.5}".utf8)).status == 200)
        #expect(try s.client.post("/api/pages/p1/elements/image-1/restack", json: "{\"to\": \"top\"}").status == 200)
        let steps = try JournalStore.open(s.journal).history().map(\.description)
        #expect(steps == ["add image cat.png", "gesture image-1", "draw pencil", "set image-1", "raise image-1"])
        // A refused gesture changes nothing and says why.
        let refused = try s.client.post("/api/pages/p1/gesture", json: "{\"element\": \"image-1\", \"events\": [{\"gesture\": \"pinch\", \"scale\": 1e-6}]}")
        #expect(refused.status == 400)
        #expect(try s.historyCount() == 5)
        // Undo from the API, then from the terminal: one history.
        let undo = try s.client.post("/api/undo", json: "")
        #expect(try json(undo)["undid"]?["description"]?.string == "raise image-1")
        #expect(try s.techo("undo", s.journal.path) == "undid 4: set image-1\n")
        #expect(try s.page().elements.first?.opacity == 1)
        for _ in 0..<3 { _ = try s.client.post("/api/undo", json: "") }
        #expect(try s.client.post("/api/undo", json: "").status == 409)
        #expect(try s.client.post("/api/redo", json: "").status == 200)
    }

    @Test func anUploadCutOffMidBodyLeavesNothingBehind() throws {
        let s = try ServedJournal()
        let png = try ServedJournal.png(64, 64)
        let before = s.assets()
        let c = try RawConnection(port: s.port, timeout: 5)
        try c.send(s.client.head("POST", "/api/pages/p1/elements?type=photo&name=half.png", length: png.count))
        try c.send(Array(png.prefix(png.count / 2)))
        // The server has the head and the half body before the connection goes.
        try c.waitUntilTheServerHasRead()
        let started = Date(timeIntervalSinceNow: 20)
        while s.server.requestsInFlight < 1 && Date() < started { usleep(2_000) }
        #expect(s.server.requestsInFlight == 1)
        shutdown(c.fd, Int32(SHUT_RDWR))
        // Wait until the server has seen the connection go.
        let deadline = Date(timeIntervalSinceNow: 20)
        while s.server.requestsInFlight > 0 && Date() < deadline { usleep(2_000) }
        #expect(s.server.requestsInFlight == 0)
        #expect(s.assets() == before)
        #expect(try s.page().elements.isEmpty)
        #expect(try s.historyCount() == 0)
        // The same upload whole is stored once, as one element and one step.
        let whole = try s.client.request("POST", "/api/pages/p1/elements?type=photo&name=half.png", body: png)
        #expect(whole.status == 200, "\(whole.text)")
        #expect(s.assets().count == before.count + 1)
        #expect(try s.page().elements.map(\.kind) == [.photo])
        // Bytes that are not an image are refused by their content, whatever the name says.
        let fake = try s.client.request("POST", "/api/pages/p1/elements?type=image&name=cat.png", body: Array("not a png".utf8))
        #expect(fake.status == 415)
        #expect(s.assets().count == before.count + 1)
    }

    @Test func twoClientsEditingAtOnceLoseNothing() throws {
        let s = try ServedJournal()
        try s.techo("add", "text", s.journal.path, "p1", "hi")
        let perClient = 12
        let client = s.client
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: 2) { k in
            for i in 0..<perClient {
                do {
                    let r: RawResponse
                    if k == 0 {
                        r = try client.post("/api/pages/p1/draw", json: "{\"tool\": \"line\", \"width\": 2, \"from\": [\(i), 0], \"to\": [\(i), 50]}")
                    } else {
                        r = try client.post(
                            "/api/pages/p1/gesture", json: "{\"element\": \"text-1\", \"events\": [{\"gesture\": \"pan\", \"translation\": [1, 0]}]}")
                    }
                    if r.status != 200 { failures.add("client \(k) edit \(i): \(r.status) \(r.text)") }
                } catch { failures.add("client \(k) edit \(i): \(error)") }
            }
        }
        #expect(failures.all.isEmpty, "\(failures.all)")
        let page = try s.page()
        guard case .ink(let ink)? = page.elements.first(where: { $0.kind == .ink })?.content else { Issue.record("no ink layer"); return }
        #expect(ink.strokes.count == perClient)
        #expect(page.elements.first { $0.id == "text-1" }?.placement.center.x == 200 + Double(perClient))
        #expect(try s.historyCount() == 1 + 2 * perClient)
    }

    @Test func textAndWashiAreAddedAndSetAsOnAPageFile() throws {
        let s = try ServedJournal()
        let text = try s.client.post(
            "/api/pages/p1/elements", json: "{\"type\": \"text\", \"text\": \"京都\", \"size\": 30, \"color\": \"#5b3a29\", \"at\": [100, 60]}")
        #expect(text.status == 200, "\(text.text)")
        #expect(try json(text)["id"]?.string == "text-1")
        // Tape is laid between two page points.
        let washi = try s.client.post("/api/pages/p1/elements", json: "{\"type\": \"washi\", \"from\": [50, 200], \"to\": [250, 200], \"width\": 20}")
        #expect(washi.status == 200, "\(washi.text)")
        let tape = try #require(try s.page().elements.last)
        #expect(tape.placement.center == .init(150, 200))
        guard case .washi(let w) = tape.content else { Issue.record("not washi"); return }
        #expect(w.from == .init(-100, 0) && w.to == .init(100, 0))
        #expect(try s.client.post("/api/pages/p1/elements", json: "{\"type\": \"text\", \"id\": \"text-1\", \"text\": \"again\"}").status == 400)
        #expect(try s.client.post("/api/pages/p1/elements", json: "{\"type\": \"image\", \"asset\": \"x\"}").status == 400)
        let set = try s.client.request("PATCH", "/api/pages/p1/elements/text-1", body: Array("{\"text\": \"Kyoto\", \"align\": \"center\", \"size\": 40}".utf8))
        #expect(set.status == 200, "\(set.text)")
        guard case .text(let t)? = try s.page().elements.first?.content else { Issue.record("not text"); return }
        #expect(t.text == "Kyoto" && t.align == .center && t.size == 40)
        // A photo field on a text sticker is refused by name, and nothing changes.
        let wrong = try s.client.request("PATCH", "/api/pages/p1/elements/text-1", body: Array("{\"sepia\": 1, \"opacity\": 0.5}".utf8))
        #expect(wrong.status == 400)
        #expect(try json(wrong)["error"]?.string?.contains("sepia") == true)
        #expect(try s.page().elements.first?.opacity == 1)
    }

    @Test func backgroundFlipClearAndExports() throws {
        let s = try ServedJournal()
        let bg = try s.client.post("/api/pages/p1/background", json: "{\"color\": \"#f6f0e4\", \"paper\": {\"pattern\": \"grid\", \"spacing\": 20}}")
        #expect(bg.status == 200, "\(bg.text)")
        #expect(try s.page().background.paper?.pattern == .grid && s.page().background.paper?.spacing == 20)
        #expect(try s.client.post("/api/pages/p1/background", json: "{\"color\": \"nope\"}").status == 400)
        let tile = try s.client.request("POST", "/api/pages/p1/background?image=kraft.png&mode=tile&opacity=0.35", body: try ServedJournal.png(8, 8))
        #expect(tile.status == 200, "\(tile.text)")
        #expect(try s.page().background.image?.opacity == 0.35)
        _ = try s.client.request("POST", "/api/pages/p1/elements?type=image&name=a.png", body: try ServedJournal.png())
        #expect(try s.client.post("/api/pages/p1/elements/image-1/flip", json: "{\"axis\": \"h\"}").status == 200)
        #expect(try s.page().elements.first?.placement.flipH == true)
        #expect(try s.client.post("/api/pages/p1/elements/image-1/flip", json: "{\"axis\": \"d\"}").status == 400)
        _ = try s.client.post("/api/pages/p1/draw", json: "{\"tool\": \"rect\", \"width\": 3, \"from\": [10, 10], \"to\": [60, 40], \"fill\": \"#ffe45c\"}")
        #expect(try s.page().elements.map(\.kind) == [.image, .ink])
        #expect(try s.client.post("/api/pages/p1/clear", json: "{\"what\": \"ink\"}").status == 200)
        #expect(try s.page().elements.map(\.kind) == [.image])
        let png = try s.client.get("/api/export/pages/p1.png?scale=0.5")
        #expect(png.status == 200 && png.header("content-disposition") == "attachment; filename=\"01-p1.png\"")
        #expect(Array(png.body.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let pdf = try s.client.get("/api/export/journal.pdf")
        #expect(pdf.status == 200 && pdf.header("content-type") == "application/pdf")
        #expect(pdf.header("content-disposition")?.contains("Served.pdf") == true)
        // The journal as a reader opens it: qpdf finds nothing wrong, poppler sees its one page
        // at the page's size (400 x 300 px at 100 dpi: 288 x 216 pt), and the file is the print-true
        // PDF `techo export` writes (docs/editor-api.md), but for the moment each was made.
        try Data(pdf.body).write(to: s.dir.appendingPathComponent("served.pdf"))
        #expect(try PDFTools.qpdfProblems("served.pdf", in: s.dir) == nil)
        let sizes = try PDFTools.pageSizes("served.pdf", in: s.dir)
        #expect(sizes == ["288 x 216 pts"], "poppler's pages: \(sizes)")
        _ = try s.techo("export", s.journal.path, "-o", s.dir.appendingPathComponent("cli.pdf").path)
        let cli = [UInt8](try Data(contentsOf: s.dir.appendingPathComponent("cli.pdf")))
        #expect(PDFTools.withoutCreationDate(pdf.body) == PDFTools.withoutCreationDate(cli), "the download is not the vector PDF techo export writes")
        let info = try json(try s.client.get("/api/journal"))
        #expect(info["pages"]?.array?.count == 1)
        #expect(info["canUndo"] == .bool(true) && info["canRedo"] == .bool(false))
        #expect(info["pages"]?.array?.first?["width"]?.number == 400)
        #expect(info["history"]?.array?.last?["description"]?.string == "clear ink")
    }

    @Test func pagesAreAddedMovedAndRemoved() throws {
        let s = try ServedJournal()
        let add = try s.client.post("/api/pages", json: "{}")
        #expect(try json(add)["id"]?.string == "p2")
        #expect(try s.client.post("/api/pages", json: "{\"id\": \"bad id\"}").status == 400)
        #expect(try s.client.post("/api/pages", json: "{\"template\": \"no-such-template\"}").status == 404)
        #expect(try s.client.post("/api/pages/p2/move", json: "{\"to\": 0}").status == 200)
        #expect(try JournalStore.open(s.journal).read().journal.pageOrder == ["p2", "p1"])
        #expect(try s.client.post("/api/pages/p2/move", json: "{\"to\": 5}").status == 400)
        #expect(try s.client.request("DELETE", "/api/pages/p2").status == 200)
        let last = try s.client.request("DELETE", "/api/pages/p1")
        #expect(last.status == 400)
        #expect(try json(last)["error"]?.string?.contains("only page") == true)
    }
}

/// Failure messages collected from several threads.
final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func add(_ s: String) { lock.lock(); items.append(s); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return items }
}

/// The editor refuses what the renderer would refuse, in the CLI's words, and a refused change
/// leaves nothing that later renders fail on.
@Suite struct OneWayInAPITests {
    @Test func aLineHeightAndAFontPathAreRefusedAndThePageStillRenders() throws {
        let s = try ServedJournal()
        try s.techo("add", "text", s.journal.path, "p1", "hi")
        let before = try s.page()
        let lh = try s.client.request("PATCH", "/api/pages/p1/elements/text-1", body: Array(#"{"lineHeight": 50}"#.utf8))
        #expect(lh.status == 400)
        #expect(
            try json(lh)["error"]?.string?.contains("lineHeight: 50 is out of range (expected more than 0 and at most 10 × the size)") == true, "\(lh.text)")
        for path in ["/etc/passwd", "/proc/self/environ", "nonexistent/x.ttf"] {
            let r = try s.client.request("PATCH", "/api/pages/p1/elements/text-1", body: Array("{\"font\": \"\(path)\"}".utf8))
            #expect(r.status == 400, "\(path): \(r.text)")
            #expect(try json(r)["error"]?.string?.contains("is a file path, not a family") == true, "\(r.text)")
            let add = try s.client.post("/api/pages/p1/elements", json: "{\"type\": \"text\", \"text\": \"x\", \"font\": \"\(path)\"}")
            #expect(add.status == 400, "\(path): \(add.text)")
        }
        let unknown = try s.client.request("PATCH", "/api/pages/p1/elements/text-1", body: Array(#"{"font": "DejaVu Snas"}"#.utf8))
        #expect(unknown.status == 400 && unknown.text.contains("close: DejaVu Sans"), "\(unknown.text)")
        #expect(try s.page() == before)
        #expect(try s.client.get("/api/pages/p1/render?scale=0.5").status == 200)
        let ok = try s.client.request("PATCH", "/api/pages/p1/elements/text-1", body: Array(#"{"font": "DejaVu Serif", "lineHeight": 10}"#.utf8))
        #expect(ok.status == 200, "\(ok.text)")
        #expect(try s.client.get("/api/pages/p1/render?scale=0.5").status == 200)
    }
}
