// Connections that no one without the token can use up, and the HTTP layer's own refusals in
// the contract's JSON: what the gate in front of libmicrohttpd promises, over raw sockets.
import Foundation
import Testing

@testable import TechoServer

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct ConnectionTests {
    /// Seconds since `t0`.
    func since(_ t0: Double) -> Double { ConnectionGate.now() - t0 }

    /// Locked out would mean waiting for the idle ones to give up: their head deadline is set
    /// past the client's 30 s read timeout here, so a client served at all was not locked out
    /// (no wall-clock bound, which other suites on the same cores could break).
    @Test func idleAndDrippingConnectionsDoNotLockOutAClientWithTheToken() throws {
        var limits = HTTPDaemon.Limits()
        limits.headSeconds = 3600
        let s = try ServedJournal(limits: limits)
        // 200 that send nothing, 64 that send half a request line, 32 that drip a byte at a time.
        var held: [RawConnection] = []
        for _ in 0..<200 { held.append(try RawConnection(port: s.port, timeout: 5)) }
        for _ in 0..<64 {
            let c = try RawConnection(port: s.port, timeout: 5)
            try c.send("GET /api/jour")
            held.append(c)
        }
        var drippers: [RawConnection] = []
        for _ in 0..<32 {
            let c = try RawConnection(port: s.port, timeout: 5)
            try c.send("G")
            drippers.append(c)
        }
        for round in 0..<10 {
            for d in drippers { try? d.send("E") }
            let r = try s.client.get("/api/journal")
            #expect(r.status == 200, "round \(round)")
        }
        withExtendedLifetime(held) {}
    }

    @Test func aHeadHasADeadlineThatBytesDoNotExtend() throws {
        var limits = HTTPDaemon.Limits()
        limits.headSeconds = 1
        let s = try ServedJournal(limits: limits)
        let c = try RawConnection(port: s.port, timeout: 5)
        let t0 = ConnectionGate.now()
        // A byte every 0.2 s: an idle timer would restart on each; the deadline does not.
        var status: Int?
        let dripper = Thread {
            for b in Array("GET /api/journal HTTP/1.1\r\nX-Slow: ".utf8) + Array(repeating: UInt8(ascii: "a"), count: 30) {
                if (try? c.send([b])) == nil { return }
                usleep(200_000)
            }
        }
        dripper.start()
        let r = try c.readResponse()
        status = r.status
        let took = since(t0)
        #expect(status == 408)
        #expect(try json(r)["error"]?.string?.contains("did not arrive") == true, "\(r.text)")
        // Cut at the deadline, not when the drip ends 13 s later (had each byte extended it).
        #expect(took >= 0.9 && took < 10, "cut after \(took) s")
        #expect(s.server.daemonGateStatistics.timedOut >= 1)
    }

    @Test func theHTTPLayersOwnRefusalsAreJSON() throws {
        let s = try ServedJournal()
        let host = "Host: 127.0.0.1:\(s.port)\r\nX-Techo-Token: \(s.token)\r\n"
        let big = String(repeating: "a", count: 100_000)
        for (head, status) in [
            ("POST /api/undo HTTP/1.1\r\n\(host)Content-Length: -1\r\n\r\n", 400),
            ("POST /api/undo HTTP/1.1\r\n\(host)Content-Length: 99999999999999999999999\r\n\r\n", 400),
            ("POST /api/undo HTTP/1.1\r\n\(host)Content-Length: 1x\r\n\r\n", 400),
            ("GET /api/journal HTTP/1.1\r\n\(host)X-Big: \(big)\r\n\r\n", 431),
            ("GARBAGE\r\n\r\n", 400),
            ("GET /api/journal HTTP/2.0\r\n\(host)\r\n", 505),
            ("GET /api/journal HTTP/1.1\r\nX-Techo-Token: \(s.token)\r\n\r\n", 400),
            ("GET /api/journal HTTP/1.1\n\(host)\r\n", 400),
            ("GET /api/journal HTTP/1.1\r\n\(host) X-Folded: a\r\n\r\n", 400),
            ("GET /api/journal HTTP/1.1\r\n\(host)Bad Name: a\r\n\r\n", 400),
            ("GET  /api/journal HTTP/1.1\r\n\(host)\r\n", 400),
            ("GET http://127.0.0.1/api/journal HTTP/1.1\r\n\(host)\r\n", 400),
            ("POST /api/undo HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 411),
            ("GET /api/journal HTTP/1.1\r\n\(host)X-Nul: a\u{0}b\r\n\r\n", 400),
        ] {
            let c = try RawConnection(port: s.port, timeout: 5)
            try? c.send(head)
            let r = try c.readResponse()
            #expect(r.status == status, "\(head.prefix(60)): \(r.status) \(r.text.prefix(200))")
            #expect(r.header("content-type")?.hasPrefix("application/json") == true, "\(head.prefix(60))")
            #expect(try json(r)["error"]?.string?.isEmpty == false, "\(head.prefix(60)): \(r.text.prefix(200))")
            #expect(!r.text.contains("Served"))
        }
        // The server still serves after all that.
        #expect(try s.client.get("/api/journal").status == 200)
    }

    @Test func theHeadParserTakesWhatBrowsersSend() throws {
        let head = Array(
            ("POST /api/pages/p%31/draw?scale=0.5&name=a+b%2Bc HTTP/1.1\r\nHost: 127.0.0.1:7373\r\nContent-Length: 12\r\n"
                + "Cookie: a=1; techo_page_7373=k\r\nX-Techo-Token: t\r\n\r\n{\"tool\":1}").utf8)
        guard case .complete(let request, let length) = RequestHead.parse(head) else {
            Issue.record("not complete: \(RequestHead.parse(head))")
            return
        }
        #expect(length == head.count - 10)
        #expect(request.method == "POST" && request.path == "/api/pages/p1/draw")
        #expect(request.query == ["scale": "0.5", "name": "a b+c"])
        #expect(request.header("content-length") == "12" && request.header("x-techo-token") == "t")
        #expect(request.cookies == ["a": "1", "techo_page_7373": "k"])
        // Every prefix of it is incomplete, never refused.
        for n in 0..<(head.count - 10) {
            if case .incomplete = RequestHead.parse(Array(head[..<n])) { continue }
            Issue.record("prefix of \(n) bytes is not incomplete")
        }
    }
}

@Suite struct LoadTests {
    @Test func rendersOfTheSamePageAndScaleAreMadeOnce() throws {
        let s = try ServedJournal(size: "1600x1600")
        try s.techo("add", "washi", s.journal.path, "p1", "--from", "100,100", "--to", "1500,1500", "--width", "200")
        let requests = 24
        let group = DispatchGroup()
        let statuses = LogLines()
        for _ in 0..<requests {
            group.enter()
            Thread {
                statuses.append(String((try? s.client.get("/api/pages/p1/render?scale=2").status) ?? 0))
                group.leave()
            }.start()
        }
        group.wait()
        #expect(statuses.lines.count == requests && statuses.lines.allSatisfy { $0 == "200" }, "\(statuses.lines)")
        // Each render drew the page as it was when its job started; a request that came while
        // one for the same page and scale was waiting shared it.
        let (hits, misses) = s.server.renderCacheCounts
        #expect(misses < requests / 2, "\(misses) renders made for \(requests) requests (\(hits) cache hits)")
        let (made, joined) = s.server.renderQueueCounts
        #expect(made + joined == requests)
    }

    @Test func bodiesInFlightHaveACeiling() throws {
        var limits = HTTPDaemon.Limits()
        limits.bodyBytes = 1000
        let s = try ServedJournal(limits: limits)
        // The first reserves 600 of the 1000 bytes and sends nothing more; the second would pass the ceiling.
        let first = try RawConnection(port: s.port, timeout: 5)
        try first.send(s.client.head("POST", "/api/pages/p1/draw", length: 600))
        // The first's head is taken (its bytes reserved in the same call) before the second comes.
        try first.waitUntilTheServerHasRead()
        let deadline = Date(timeIntervalSinceNow: 20)
        while s.server.requestsInFlight < 1 && Date() < deadline { usleep(2_000) }
        #expect(s.server.requestsInFlight == 1)
        let second = try RawConnection(port: s.port, timeout: 5)
        try second.send(s.client.head("POST", "/api/pages/p1/draw", length: 600))
        let r = try second.readResponse()
        #expect(r.status == 503)
        #expect(try json(r)["error"]?.string?.contains("busy") == true, "\(r.text)")
        // Once the first is gone, its bytes are free again.
        withExtendedLifetime(first) {}
        shutdown(first.fd, Int32(SHUT_RDWR))
        var freed = false
        for _ in 0..<50 where !freed {
            usleep(100_000)
            freed = (try? s.client.post("/api/pages/p1/clear", json: "{\"what\": \"ink\"}").status) == 200
        }
        #expect(freed)
    }
}
