// Who may talk to the server and how much they may send: the token, the Host and Origin checks,
// body limits enforced before the body is read, and the static files' allow-list.
import Foundation
import TechoCodecs
import TechoModel
import Testing

@testable import TechoServer

@Suite struct TrustTests {
    @Test func everyRequestNeedsTheToken() throws {
        let s = try ServedJournal()
        for path in ["/api/journal", "/api/pages/p1", "/api/pages/p1/render", "/api/events", "/", "/index.html"] {
            let r = try s.stranger.get(path)
            #expect(r.status == 403, "\(path)")
            // No journal data: neither the title nor a page id is in the answer.
            #expect(!r.text.contains("Served") && !r.text.contains("p1"), "\(path): \(r.text)")
        }
        var wrong = s.client
        wrong.token = String(s.token.reversed())
        #expect(try wrong.get("/api/journal").status == 403)
        #expect(try s.stranger.get("/api/journal?token=\(s.token.prefix(63))").status == 403)
        // The token is accepted from the header and the query (the page cookie: HardeningTests).
        #expect(try s.client.get("/api/journal").status == 200)
        let byQuery = try s.stranger.get("/api/journal?token=\(s.token)")
        #expect(byQuery.status == 200)
        #expect(try json(byQuery)["title"]?.string == "Served")
        // A refusal changes nothing.
        let before = try s.historyCount()
        #expect(try s.stranger.post("/api/pages/p1/clear", json: "{\"what\": \"all\"}").status == 403)
        #expect(try s.historyCount() == before)
    }

    @Test func aForeignHostIsRefused() throws {
        let s = try ServedJournal()
        for host in ["evil.example:\(s.port)", "evil.example", "127.0.0.1:1", "localhost.evil.example:\(s.port)", ""] {
            var c = s.client
            c.host = host
            let r = try c.get("/api/journal")
            #expect(r.status == 403, "Host \(host)")
            #expect(!r.text.contains("Served"))
        }
        for host in ["localhost:\(s.port)", "127.0.0.1:\(s.port)", "[::1]:\(s.port)"] {
            var c = s.client
            c.host = host
            #expect(try c.get("/api/journal").status == 200, "Host \(host)")
        }
    }

    @Test func aForeignOriginMayNotChangeTheJournal() throws {
        let s = try ServedJournal()
        try s.techo("add", "text", s.journal.path, "p1", "hi")
        let before = try s.page()
        let foreign = try s.client.post("/api/pages/p1/clear", json: "{\"what\": \"all\"}", headers: ["Origin": "http://evil.example"])
        #expect(foreign.status == 403)
        #expect(try json(foreign)["error"]?.string?.contains("Origin") == true)
        #expect(try s.page() == before)
        let spoofed = try s.client.request("DELETE", "/api/pages/p1/elements/text-1", headers: ["Origin": "http://127.0.0.1:\(s.port).evil.example"])
        #expect(spoofed.status == 403)
        #expect(try s.page() == before)
        // Reading from another origin is the browser's business (no CORS headers are sent).
        #expect(try s.client.request("GET", "/api/journal", headers: ["Origin": "http://evil.example"]).header("access-control-allow-origin") == nil)
        // The page's own origin may change it.
        let own = try s.client.post("/api/pages/p1/clear", json: "{\"what\": \"all\"}", headers: ["Origin": "http://127.0.0.1:\(s.port)"])
        #expect(own.status == 200)
        #expect(try s.page().elements.isEmpty)
    }

    @Test func anOversizedBodyIsRefusedBeforeItIsSent() throws {
        let s = try ServedJournal()
        // Only the headers go out; the server must answer without waiting for the 9 MB.
        for (path, length) in [
            ("/api/pages/p1/draw", JSONLimits.default.maxBytes + 1),
            ("/api/pages/p1/elements?type=image&name=big.png", ImageLimits.default.maxFileBytes + 1),
        ] {
            let c = try RawConnection(port: s.port, timeout: 5)
            try c.send(s.client.head("POST", path, length: length))
            let r = try c.readResponse()
            #expect(r.status == 413, "\(path)")
            #expect(try json(r)["error"]?.string?.contains("over the limit") == true)
        }
        // A body without a declared length is refused before any of it is read: every body
        // has a Content-Length, so it can be weighed against its limit first.
        let c = try RawConnection(port: s.port, timeout: 10)
        var head = String(decoding: s.client.head("POST", "/api/pages/p1/draw", length: nil), as: UTF8.self)
        head = head.replacingOccurrences(of: "\r\n\r\n", with: "\r\nTransfer-Encoding: chunked\r\n\r\n")
        try c.send(head)
        let r = try c.readResponse()
        #expect(r.status == 411)
        #expect(try json(r)["error"]?.string?.contains("Content-Length") == true)
        #expect(try s.page().elements.isEmpty)
    }

    @Test func staticFilesComeOnlyFromTheEditorFolder() throws {
        let s = try ServedJournal()
        let index = try s.client.get("/")
        #expect(index.status == 200 && index.text.contains("<title>editor</title>"))
        #expect(index.header("content-type")?.hasPrefix("text/html") == true)
        let js = try s.client.get("/tools/select.js")
        #expect(js.status == 200 && js.header("content-type")?.hasPrefix("text/javascript") == true)
        // Dot segments are refused before any lookup (a 400); the rest are not in the list.
        for (path, status) in [
            ("/../outside.txt", 400), ("/tools/../../outside.txt", 400), ("/%2e%2e/outside.txt", 400), ("/link.txt", 404), ("//etc/passwd", 404),
            ("/tools", 404), ("/nope.js", 404),
        ] {
            let r = try s.client.get(path)
            #expect(r.status == status, "\(path)")
            #expect(!r.text.contains("secret"))
        }
        #expect(try s.client.post("/index.html", json: "{}").status == 405)
    }
}
