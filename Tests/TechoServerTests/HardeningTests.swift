// What a request cannot do to the server, whoever sends it: shorten or reshape a path, write
// lines into the log, slip a second Host past the check, make the server follow a link swapped
// into the editor's folder, or take the page cookie to another server on this host.
import Foundation
import TechoCodecs
import TechoModel
import Testing

@testable import TechoServer

@Suite struct HardeningTests {
    /// Sends `head` as is on a new connection and reads the answer.
    func raw(_ s: ServedJournal, _ head: String) throws -> RawResponse {
        let c = try RawConnection(port: s.port, timeout: 10)
        try c.send(head)
        return try c.readResponse()
    }

    func request(_ s: ServedJournal, _ method: String, _ target: String) throws -> RawResponse {
        try raw(s, "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(s.port)\r\nX-Techo-Token: \(s.token)\r\nConnection: close\r\n\r\n")
    }

    @Test func aPathIsTakenExactlyAsSentOrRefused() throws {
        let s = try ServedJournal()
        try s.techo("add", "text", s.journal.path, "p1", "hi")
        let before = try s.page()
        // A NUL used to cut the path short: the first deleted the whole page, the second the element.
        for (method, target) in [
            ("DELETE", "/api/pages/p1%00/elements/text-1"), ("DELETE", "/api/pages/p1/elements/text-1%00"),
            ("GET", "/index.html%00.png"), ("GET", "/%00"), ("GET", "/api/journal%00"),
            ("DELETE", "/api/pages/p1%2felements%2ftext-1"), ("DELETE", "/api/pages/p1%2Felements/text-1"),
            ("GET", "/tools/%2e%2e/index.html"), ("GET", "/./index.html"), ("GET", "/tools/../index.html"), ("GET", "/%2E/index.html"),
            ("GET", "/api/pages/p1/render?scale=1%00"), ("DELETE", "/api/pages/p1/elements/text-1?x=%00"),
            ("GET", "/index.html%0a"), ("GET", "/api/journal%"), ("GET", "/api/journal%zz"), ("GET", "/%ff"),
        ] {
            let r = try request(s, method, target)
            #expect(r.status == 400, "\(method) \(target): \(r.status) \(r.text)")
            #expect(try json(r)["error"]?.string != nil, "\(target): \(r.text)")
        }
        #expect(try s.page() == before)
        // Escapes that decode to ordinary characters are still taken.
        #expect(try request(s, "GET", "/api/pages/%70%31").status == 200)
        #expect(try request(s, "GET", "/index%2Ehtml").status == 200)
        #expect(try request(s, "GET", "/api/pages/p1/render?scale=%30.5").status == 200)
    }

    @Test func nothingARequestCarriesReachesTheLogUnescaped() throws {
        let s = try ServedJournal()
        let forged = "techo serve: POST /api/undo: 200 FORGED"
        _ = try s.client.post("/api/pages", json: "{\"template\": \"x\\n\(forged)\"}")
        _ = try s.client.post("/api/pages/p1/draw", json: "{\"tool\": \"pen\\r\\n\(forged)\"}")
        _ = try s.client.request("PATCH", "/api/pages/p1/elements/a\u{2028}b", body: Array("{}".utf8))
        _ = try request(s, "GET", "/api/pages/p%0a\(forged.replacingOccurrences(of: " ", with: "%20"))")
        var stranger = s.stranger
        stranger.host = "evil.example\u{85}\(forged)"
        _ = try? stranger.get("/api/journal")
        let lines = s.log.lines
        #expect(lines.count >= 4, "\(lines)")
        for line in lines {
            #expect(!line.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || (0x80..<0xA0).contains($0.value) || $0 == "\u{2028}" }, "\(line)")
        }
        #expect(lines.contains { $0.contains("x\\x0a\(forged)") }, "\(lines)")
        #expect(LogField.escape("a\\x0ab\n\u{9b}") == "a\\\\x0ab\\x0a\\u{009b}")
    }

    @Test func twoHostHeadersAreA400() throws {
        let s = try ServedJournal()
        for hosts in [["evil.example", "127.0.0.1:\(s.port)"], ["127.0.0.1:\(s.port)", "evil.example"], ["127.0.0.1:\(s.port)", "127.0.0.1:\(s.port)"]] {
            let head = "GET /api/journal HTTP/1.1\r\n" + hosts.map { "Host: \($0)\r\n" }.joined() + "X-Techo-Token: \(s.token)\r\nConnection: close\r\n\r\n"
            let r = try raw(s, head)
            #expect(r.status == 400, "\(hosts): \(r.status)")
            #expect(!r.text.contains("Served"))
            #expect(try json(r)["error"]?.string?.contains("Host") == true, "\(r.text)")
        }
        let twoTokens = "GET /api/journal HTTP/1.1\r\nHost: 127.0.0.1:\(s.port)\r\nX-Techo-Token: x\r\nX-Techo-Token: \(s.token)\r\n\r\n"
        #expect(try raw(s, twoTokens).status == 400)
    }

    @Test func theUploadLimitIsTheOneTheAPIDocumentStates() throws {
        // The document's figure, read from the document itself.
        let doc = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../docs/editor-api.md")
        let text = try String(contentsOf: doc, encoding: .utf8).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let match = try #require(text.firstMatch(of: try Regex("uploads ([0-9]+) MiB")))
        let figure = try #require(match.output[1].substring)
        #expect(Int(figure) == EditorServer.uploadLimit >> 20 && EditorServer.uploadLimit % (1 << 20) == 0)
        #expect(EditorServer.uploadLimit == ImageLimits.default.maxFileBytes)
        let s = try ServedJournal()
        let c = try RawConnection(port: s.port, timeout: 5)
        try c.send(s.client.head("POST", "/api/pages/p1/elements?type=image&name=big.png", length: EditorServer.uploadLimit + 1))
        let r = try c.readResponse()
        #expect(r.status == 413)
        #expect(try json(r)["error"]?.string?.contains("\(EditorServer.uploadLimit) bytes") == true, "\(r.text)")
    }

    @Test func aFileOrFolderSwappedForALinkAfterStartUpIsNotFollowed() throws {
        let s = try ServedJournal()
        #expect(try s.client.get("/tools/select.js").status == 200)
        let fm = FileManager.default
        let outside = s.dir.appendingPathComponent("outside.txt")
        // The file itself.
        try fm.removeItem(at: s.editor.appendingPathComponent("index.html"))
        try fm.createSymbolicLink(at: s.editor.appendingPathComponent("index.html"), withDestinationURL: outside)
        for path in ["/", "/index.html"] {
            let r = try s.client.get(path)
            #expect(r.status == 404, "\(path)")
            #expect(!r.text.contains("secret"))
        }
        // A folder on the way.
        let elsewhere = s.dir.appendingPathComponent("elsewhere")
        try fm.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try Data("secret".utf8).write(to: elsewhere.appendingPathComponent("select.js"))
        try fm.moveItem(at: s.editor.appendingPathComponent("tools"), to: s.dir.appendingPathComponent("tools-was"))
        try fm.createSymbolicLink(at: s.editor.appendingPathComponent("tools"), withDestinationURL: elsewhere)
        let r = try s.client.get("/tools/select.js")
        #expect(r.status == 404)
        #expect(!r.text.contains("secret"))
        // A FIFO in a file's place is not read (that would wait for a writer).
        try fm.removeItem(at: s.editor.appendingPathComponent("tools"))
        try fm.createDirectory(at: s.editor.appendingPathComponent("tools"), withIntermediateDirectories: true)
        #expect(mkfifo(s.editor.appendingPathComponent("tools/select.js").path, 0o600) == 0)
        #expect(try s.client.get("/tools/select.js").status == 404)
    }

    @Test func thePageCookieIsNotTheTokenAndIsNamedForThePort() throws {
        let s = try ServedJournal()
        let first = try s.stranger.get("/?token=\(s.token)")
        #expect(first.status == 200)
        let cookie = try #require(first.header("set-cookie"))
        #expect(cookie.hasPrefix("techo_page_\(s.port)=") && cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"), "\(cookie)")
        #expect(!cookie.contains(s.token))
        let pair = String(cookie.prefix { $0 != ";" })
        // The cookie opens the editor's files, which hold no journal data …
        for path in ["/", "/index.html", "/tools/select.js"] {
            #expect(try s.stranger.request("GET", path, headers: ["Cookie": pair]).status == 200, "\(path)")
        }
        // … and nothing of the API: a server on another port that receives it gains nothing.
        for path in ["/api/journal", "/api/pages/p1", "/api/events"] {
            let r = try s.stranger.request("GET", path, headers: ["Cookie": pair])
            #expect(r.status == 403, "\(path)")
            #expect(!r.text.contains("Served"))
        }
        #expect(try s.stranger.post("/api/undo", json: "{}", headers: ["Cookie": pair]).status == 403)
        // Nor is the token itself taken from a cookie.
        #expect(try s.stranger.request("GET", "/api/journal", headers: ["Cookie": "techo_token=\(s.token)"]).status == 403)
        #expect(try s.stranger.request("GET", "/", headers: ["Cookie": "techo_page_\(s.port)=\(s.token)"]).status == 403)
    }

    @Test func anAddressOtherMachinesCanReachIsWarnedOf() throws {
        for host in ["127.0.0.1", "127.1.2.3", "::1", "::ffff:127.0.0.1"] {
            #expect(!ServerOptions.reachesOtherMachines(host), "\(host)")
        }
        for host in ["0.0.0.0", "192.168.1.20", "10.0.0.1", "::", "fe80::1", "2001:db8::1", "::ffff:10.0.0.1"] {
            #expect(ServerOptions.reachesOtherMachines(host), "\(host)")
        }
        var options = ServerOptions()
        #expect(options.warnings.isEmpty)
        options.host = "0.0.0.0"
        #expect(options.warnings.count == 1 && options.warnings[0].contains("plain HTTP"))
    }
}
