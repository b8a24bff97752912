// Claims of docs/editor-api.md and docs/contract.md about the server that no other test
// asserted (docs/testing.md, "Not yet proven"): the Host check with --host 0.0.0.0, the limits
// on waiting heads, request threads and idle connections, an API without editor files, the
// event stream's keep-alive comment and how a change reaches it, the render cache's size, the
// render queue's bound and its workers' priority, and `techo serve`'s default port.
//
// A limit too big to reach in a test (512 connections, 128 threads) is checked twice: the figure
// the document states is the one the server is started with, and the behaviour is exercised
// with a small limit set the same way. No test asserts how fast anything is.
import Foundation
import TechoModel
import TechoTestSupport
import Testing

@testable import TechoServer

#if canImport(Glibc)
    import Glibc
#endif

/// The documents' text, whitespace folded, for the figures they state.
enum ClaimDocs {
    static func text(_ relative: String) throws -> String {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../\(relative)")
        return try String(contentsOf: url, encoding: .utf8).split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The first capture of `pattern` in the document.
    static func figure(_ pattern: String, in relative: String) throws -> String {
        let text = try text(relative)
        guard let match = text.firstMatch(of: try Regex(pattern)), let figure = match.output[1].substring else {
            throw RawHTTPError(description: "\(relative) does not say /\(pattern)/")
        }
        return String(figure)
    }

    static func number(_ pattern: String, in relative: String = "docs/editor-api.md") throws -> Double {
        let f = try figure(pattern, in: relative)
        guard let n = Double(f) else { throw RawHTTPError(description: "'\(f)' is not a number") }
        return n
    }
}

/// A new journal (400×300) in a scratch folder of its own; remove `dir` when done.
func scratchJournal(_ name: String = #function) throws -> (dir: URL, journal: URL) {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("techo-claims-\(name.filter { $0.isLetter })-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let journal = dir.appendingPathComponent("j.techo")
    try ServedJournal.techo(["init", journal.path, "--title", "Served", "--size", "400x300"])
    return (dir, journal)
}

/// Waits (polling) until `condition` holds, up to `timeout` seconds.
func waitUntil(_ what: String, timeout: Double = 60, _ condition: () throws -> Bool) throws {
    let deadline = Date(timeIntervalSinceNow: timeout)
    while try !condition() {
        if Date() > deadline { throw RawHTTPError(description: "waited \(Int(timeout)) s for \(what)") }
        usleep(5_000)
    }
}

/// A TCP connection to 127.0.0.1:port from a chosen loopback address (127.0.0.0/8 is all this
/// machine's on Linux), so a test can be several clients.
final class SourcedConnection {
    let connection: RawConnection
    let source: String
    var fd: Int32 { connection.fd }

    init(from source: String, to address: String = "127.0.0.1", port: UInt16, timeout: Int = 30) throws {
        self.source = source
        connection = try RawConnection(port: port, address: address, from: source, timeout: Double(timeout))
    }

    /// Waits for the server to close the connection without answering: true when it did, false
    /// when it is still open at the receive timeout or sent bytes.
    func closedByTheServer() -> Bool {
        var b: UInt8 = 0
        let n = recv(fd, &b, 1, 0)
        return n == 0 || (n < 0 && errno == ECONNRESET)
    }

    /// Sends a request and reads the answer to its end (every answer closes its connection).
    func exchange(_ head: [UInt8]) throws -> RawResponse {
        var sent = 0
        while sent < head.count {
            let n = head[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw RawHTTPError(description: "send from \(source) failed: errno \(errno)") }
            sent += n
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 { throw RawHTTPError(description: "receive from \(source)'s connection failed: errno \(errno)") }
            if n == 0 { break }
            bytes += chunk[..<n]
        }
        let text = String(decoding: bytes, as: UTF8.self)
        guard let end = text.range(of: "\r\n\r\n"), let code = Int(text.split(separator: " ").dropFirst().first ?? "") else {
            throw RawHTTPError(description: "no answer on \(source)'s connection: '\(text.prefix(200))'")
        }
        return RawResponse(status: code, headers: [:], body: Array(text[end.upperBound...].utf8))
    }
}

@Suite struct ServerClaimsTests {
    // MARK: Host with --host 0.0.0.0

    /// This machine's IPv4 addresses other than loopback (what someone would type).
    func interfaceAddresses() -> [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return [] }
        defer { freeifaddrs(list) }
        var found: [String] = []
        var p = list
        while let a = p {
            if let sa = a.pointee.ifa_addr, sa.pointee.sa_family == sa_family_t(AF_INET) {
                var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
                sa.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { s in
                    var addr = s.pointee.sin_addr
                    _ = inet_ntop(AF_INET, &addr, &text, socklen_t(text.count))
                }
                let shown = String(cString: text)
                if !shown.hasPrefix("127.") { found.append(shown) }
            }
            p = a.pointee.ifa_next
        }
        return found
    }

    /// With `--host 0.0.0.0` the server is reached by any of this machine's addresses, but only
    /// the loopback names pass the Host check: the address typed to reach it is a 403.
    @Test func withHostZeroOnlyTheLoopbackNamesPassTheHostCheck() throws {
        let (dir, journal) = try scratchJournal()
        defer { try? FileManager.default.removeItem(at: dir) }
        var options = ServerOptions()
        options.host = "0.0.0.0"
        options.port = 0
        let server = try EditorServer(journal: journal, options: options)
        defer { server.stop(grace: 5) }
        let port = server.port
        let ok = Client(port: port, token: options.token)
        for name in ["127.0.0.1:\(port)", "localhost:\(port)", "[::1]:\(port)", "LOCALHOST:\(port)"] {
            var c = ok
            c.host = name
            let r = try c.get("/api/journal")
            #expect(r.status == 200, "Host \(name): \(r.status) \(r.text)")
        }
        // Names someone could type for this machine, and the loopback names without their port.
        let typed = interfaceAddresses()
        for name in ["192.168.1.20:\(port)", "techo.example:\(port)", "localhost", "127.0.0.1", "localhost:\(port == 1 ? 2 : port - 1)"]
            + typed.map({ "\($0):\(port)" })
        {
            var c = ok
            c.host = name
            let r = try c.get("/api/journal")
            #expect(r.status == 403, "Host \(name): \(r.status)")
            #expect(!r.text.contains("Served"), "Host \(name)")
            #expect(try json(r)["error"]?.string?.contains("DNS rebinding") == true, "\(r.text)")
        }
        // Reached through an interface's own address, with that address as Host: still a 403.
        for address in typed {
            var typedClient = ok
            typedClient.host = "\(address):\(port)"
            let c = try SourcedConnection(from: address, to: address, port: port)
            let r = try c.exchange(typedClient.head("GET", "/api/journal", length: nil))
            #expect(r.status == 403, "through \(address): \(r.status)")
        }
        if typed.isEmpty { print("no address but loopback on this machine: the Host check was tried by name only") }
    }

    // MARK: Waiting heads

    /// 10 s from accept to a whole head, 64 waiting per address, 512 in all: the document's
    /// figures are the limits a server is started with.
    @Test func theWaitingHeadLimitsAreTheDocumentedOnes() throws {
        let doc = "docs/editor-api.md"
        let seconds = try ClaimDocs.number("head must be whole within ([0-9]+) s of its accept", in: doc)
        let perAddress = try ClaimDocs.number("at most ([0-9]+) connections may be waiting for their heads per client address", in: doc)
        let inAll = try ClaimDocs.number("per client address and ([0-9]+) in all", in: doc)
        let s = try ServedJournal()
        let gate = try #require(s.server.gateLimits)
        #expect(gate.headSeconds == seconds && HTTPDaemon.Limits().headSeconds == seconds)
        #expect(Double(gate.waitingPerAddress) == perAddress && Double(HTTPDaemon.Limits().waitingPerAddress) == perAddress)
        #expect(Double(gate.waiting) == inAll && Double(HTTPDaemon.Limits().waiting) == inAll)
        #expect(seconds == 10 && perAddress == 64 && inAll == 512, "the document's figures changed: \(seconds), \(perAddress), \(inAll)")
    }

    /// Past the limit per address (3 here), a new connection from that address closes the oldest
    /// one waiting from it; other addresses' connections are not touched, and the rest are served.
    @Test func pastTheLimitPerAddressTheOldestWaitingFromThatAddressIsClosed() throws {
        var limits = HTTPDaemon.Limits()
        limits.waitingPerAddress = 3
        limits.headSeconds = 600
        let s = try ServedJournal(limits: limits)
        let a = try (0..<3).map { _ in try SourcedConnection(from: "127.0.0.3", port: s.port) }
        let other = try SourcedConnection(from: "127.0.0.4", port: s.port)
        let newest = try SourcedConnection(from: "127.0.0.3", port: s.port)
        #expect(a[0].closedByTheServer(), "the oldest waiting connection from 127.0.0.3 was not closed")
        // The gate counts an eviction just after it closes the connection.
        try waitUntil("the eviction to be counted") { s.server.daemonGateStatistics.evicted >= 1 }
        #expect(s.server.daemonGateStatistics.evicted == 1)
        // Everyone else is still waiting for their head, and is served when it comes.
        for c in [a[1], a[2], other, newest] {
            let r = try c.exchange(s.client.head("GET", "/api/journal", length: nil))
            #expect(r.status == 200, "\(c.source): \(r.status) \(r.text)")
        }
        #expect(s.server.daemonGateStatistics.evicted == 1)
    }

    /// Past the limit in all (4 here), a new connection closes the oldest one waiting, whatever
    /// its address.
    @Test func pastTheLimitInAllTheOldestWaitingIsClosed() throws {
        var limits = HTTPDaemon.Limits()
        limits.waiting = 4
        limits.headSeconds = 600
        let s = try ServedJournal(limits: limits)
        let held = try (1...4).map { try SourcedConnection(from: "127.0.0.\(10 + $0)", port: s.port) }
        let newest = try SourcedConnection(from: "127.0.0.15", port: s.port)
        #expect(held[0].closedByTheServer(), "the oldest waiting connection was not closed")
        // The gate counts an eviction just after it closes the connection.
        try waitUntil("the eviction to be counted") { s.server.daemonGateStatistics.evicted >= 1 }
        #expect(s.server.daemonGateStatistics.evicted == 1)
        for c in held.dropFirst() + [newest] {
            let r = try c.exchange(s.client.head("GET", "/api/journal", length: nil))
            #expect(r.status == 200, "\(c.source): \(r.status) \(r.text)")
        }
        #expect(s.server.daemonGateStatistics.evicted == 1)
    }

    // MARK: Request threads and idle connections

    /// 128 request threads, 60 s idle, 64 KiB per connection, 768 MiB of bodies: the document's
    /// figures are the limits the daemon is started with.
    @Test func theRequestThreadsAndIdleTimeAreTheDocumentedOnes() throws {
        let doc = "docs/editor-api.md"
        let threads = try ClaimDocs.number("gets one of the ([0-9]+) request threads", in: doc)
        let idle = try ClaimDocs.number("a served connection may be idle ([0-9]+) s", in: doc)
        let memory = try ClaimDocs.number("idle [0-9]+ s, with ([0-9]+) KiB of header memory", in: doc)
        let atOnce = try ClaimDocs.number("past that, and past ([0-9]+) requests at once", in: doc)
        let bodies = try ClaimDocs.number("requests at once or ([0-9]+) MiB of request bodies", in: doc)
        let s = try ServedJournal()
        let d = try #require(s.server.daemonLimits)
        #expect(Double(d.connections) == threads && threads == atOnce && Double(HTTPDaemon.Limits().connections) == threads)
        #expect(Double(d.idleTimeout) == idle && Double(HTTPDaemon.Limits().idleTimeout) == idle)
        #expect(Double(d.connectionMemory) == memory * 1024)
        #expect(Double(d.bodyBytes) == bodies * 1024 * 1024)
        #expect(threads == 128 && idle == 60 && memory == 64, "the document's figures changed: \(threads), \(idle), \(memory)")
    }

    /// With every request thread taken (2 here, by uploads waiting for their bodies), the next
    /// request is a JSON 503; once one is given back, requests are served again.
    @Test func whenEveryRequestThreadIsBusyTheAnswerIs503() throws {
        var limits = HTTPDaemon.Limits()
        limits.connections = 2
        let s = try ServedJournal(limits: limits)
        let holders = try (0..<2).map { _ -> RawConnection in
            let c = try RawConnection(port: s.port, timeout: 60)
            try c.send(s.client.head("POST", "/api/pages/p1/draw", length: 10))
            return c
        }
        try waitUntil("both uploads to be handed to a request thread") { s.server.daemonGateStatistics.handedOver == 2 }
        let r = try s.client.get("/api/journal")
        #expect(r.status == 503, "\(r.status) \(r.text)")
        #expect(r.header("content-type")?.hasPrefix("application/json") == true)
        #expect(try json(r)["error"]?.string?.contains("busy: 2 requests at once") == true, "\(r.text)")
        #expect(!r.text.contains("Served"))
        shutdown(holders[0].fd, Int32(SHUT_RDWR))
        var served = false
        try waitUntil("a request thread to be free again") {
            served = (try? s.client.get("/api/journal").status) == 200
            return served
        }
        #expect(served)
        // The other ends too, so the server stops without waiting for it.
        shutdown(holders[1].fd, Int32(SHUT_RDWR))
        withExtendedLifetime(holders) {}
    }

    /// A served connection that sends nothing more is closed after the idle time (1 s here): an
    /// upload handed to a request thread that never sends its body.
    @Test func aServedConnectionLeftIdleIsClosed() throws {
        var limits = HTTPDaemon.Limits()
        limits.idleTimeout = 1
        let s = try ServedJournal(limits: limits)
        let c = try RawConnection(port: s.port, timeout: 60)
        try c.send(s.client.head("POST", "/api/pages/p1/draw", length: 10))
        try waitUntil("the upload to be handed to a request thread") { s.server.daemonGateStatistics.handedOver == 1 }
        let handed = ConnectionGate.now()
        var b: UInt8 = 0
        let n = recv(c.fd, &b, 1, 0)
        let closed = n == 0 || (n < 0 && errno == ECONNRESET)
        let after = ConnectionGate.now() - handed
        #expect(closed, "the idle connection is still open after 60 s (recv \(n), errno \(errno))")
        // Not before it was idle that long (a lower bound; a loaded machine only makes it later).
        #expect(after >= 0.5, "closed \(after) s after it was handed over")
        #expect(try s.historyCount() == 0, "nothing was drawn")
        print("an idle served connection was closed \(String(format: "%.2f", after)) s after its head was taken")
    }

    // MARK: No editor files

    @Test func withNoEditorFilesTheAPIIsServedAndTheRootIsA404SayingSo() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("techo-claims-nofiles-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let empty = dir.appendingPathComponent("editor")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let journal = dir.appendingPathComponent("j.techo")
        try ServedJournal.techo(["init", journal.path, "--title", "Served", "--size", "400x300"])
        var options = ServerOptions()
        options.port = 0
        options.editorFolder = empty
        let server = try EditorServer(journal: journal, options: options)
        defer { server.stop(grace: 5) }
        #expect(!server.servesEditor)
        let client = Client(port: server.port, token: options.token)
        let root = try client.get("/")
        #expect(root.status == 404)
        #expect(root.header("content-type")?.hasPrefix("application/json") == true)
        let message = try #require(try json(root)["error"]?.string)
        #expect(message.contains("the editor's files were not found") && message.contains("--editor-dir"), "\(message)")
        // The API is served all the same: reads, a change, a render.
        let info = try client.get("/api/journal")
        #expect(try info.status == 200 && json(info)["title"]?.string == "Served", "\(info.text)")
        let added = try client.post("/api/pages/p1/elements", json: #"{"type": "text", "text": "api only"}"#)
        #expect(added.status == 200, "\(added.text)")
        #expect(try client.get("/api/pages/p1/render?scale=0.25").status == 200)
        #expect(try client.get("/index.html").status == 404)
    }

    // MARK: The event stream

    /// A comment every 15 s; the revision from a watcher that looks every 0.25 s and wakes every
    /// stream at once (the 2 s bound is a speed, measured by the benchmark, not asserted here).
    @Test func theEventStreamsFiguresAreTheDocumentedOnes() throws {
        let keepAlive = try ClaimDocs.number("plus a comment line every ([0-9]+) s", in: "docs/editor-api.md")
        let interval = try ClaimDocs.number("The server looks at the files every ([0-9.]+) s", in: "docs/editor-api.md")
        let bound = try ClaimDocs.number("again within ([0-9]+) s of every change", in: "docs/editor-api.md")
        #expect(ServerOptions().keepAlive == keepAlive && EventStream(hub: RevisionHub(revision: 0)).keepAlive == keepAlive)
        #expect(ServerOptions().watchInterval == interval)
        #expect(interval < bound)
        // A server watches its journal at the interval it is given (0.1 s for the test servers).
        let s = try ServedJournal()
        #expect(s.server.watcher.interval == s.server.options.watchInterval)
        #expect(keepAlive == 15 && interval == 0.25 && bound == 2, "the document's figures changed: \(keepAlive), \(interval), \(bound)")
    }

    /// With nothing changing, the stream sends a comment line every keep-alive period (0.3 s
    /// here): after the first revision, comments and nothing else.
    @Test func anEventStreamSendsACommentWhileNothingChanges() throws {
        let (dir, journal) = try scratchJournal()
        defer { try? FileManager.default.removeItem(at: dir) }
        var options = ServerOptions()
        options.port = 0
        options.keepAlive = 0.3
        let server = try EditorServer(journal: journal, options: options)
        defer { server.stop(grace: 5) }
        let client = Client(port: server.port, token: options.token)
        // Ten times the period: a stream that sent no comment would time out.
        let c = try RawConnection(port: server.port, timeout: 10)
        try c.send(client.head("GET", "/api/events", length: nil))
        let (status, headers) = try c.readHead()
        #expect(status == 200 && headers["content-type"] == "text/event-stream")
        // The stream's chunks (the body is chunked), until two comments have come (or, should
        // it send something else, a few more chunks than that takes).
        var text = ""
        for _ in 0..<8 where text.components(separatedBy: "\n:").count < 3 {
            guard let size = try c.readLine().flatMap({ Int($0, radix: 16) }), size > 0 else { break }
            text += String(decoding: try c.read(count: size), as: UTF8.self)
            _ = try c.readLine()
        }
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(lines)")
        #expect(lines.first == "event: revision" && lines.dropFirst().first?.hasPrefix("data: {\"revision\": ") == true, "\(lines)")
        #expect(lines.dropFirst(2).allSatisfy { $0 == ": keep-alive" }, "\(lines)")
    }

    // MARK: The render cache

    /// The last 24 renders are kept, least recently used first out, in a cache of at most
    /// 96 MiB: the document's figures are the server's cache, and 24 is tried at that size.
    @Test func theRenderCacheKeepsTheLast24Renders() throws {
        let count = try ClaimDocs.number("\\(the last ([0-9]+) renders, at most", in: "docs/editor-api.md")
        let mib = try ClaimDocs.number("renders, at most ([0-9]+) MiB", in: "docs/editor-api.md")
        let s = try ServedJournal()
        #expect(Double(s.server.renders.capacity) == count && Double(s.server.renders.maxBytes) == mib * 1024 * 1024)
        let n = Int(count)
        try s.techo("add", "text", s.journal.path, "p1", "cached", "--size", "40")
        // Tiny renders at n + 1 scales, each a render of its own.
        func render(_ k: Int) throws -> Bool {
            let r = try s.client.get("/api/pages/p1/render?scale=0.\(String(format: "%03d", 100 + k))")
            #expect(r.status == 200, "\(r.text)")
            return r.header("Server-Timing") == "cache;desc=hit"
        }
        for k in 0..<n { #expect(try !render(k), "render \(k) was a hit before it was made") }
        #expect(try render(0), "the first of \(n) renders is no longer kept")
        #expect(try !render(n))
        // The new one pushed out the least recently used (1, as 0 was just used), not 0.
        #expect(try render(0), "the render used last was pushed out")
        #expect(try !render(1), "render 1 was kept past \(n)")
        #expect(count == 24 && mib == 96, "the document's figures changed: \(count), \(mib)")
    }

    /// The byte bound: past it the least recently used go first, and a render over it is not kept.
    @Test func theRenderCacheKeepsToItsBytes() throws {
        let cache = RenderCache(capacity: 10, maxBytes: 100)
        var made: [String] = []
        let page = try Page(id: "p1", size: PageSize(width: 10, height: 10))
        func get(_ name: String, _ size: Int) {
            _ = cache.render(RenderCache.Key(page: page, scale: 1, variant: name)) {
                made.append(name)
                return RenderCache.Entry(png: [UInt8](repeating: 0, count: size), headers: [])
            }
        }
        get("a", 40); get("b", 40); get("c", 40)  // 120 bytes: a goes
        get("b", 40); get("c", 40)  // kept
        #expect(made == ["a", "b", "c"])
        get("a", 40)  // made again; b, used least recently, goes
        get("c", 40)
        #expect(made == ["a", "b", "c", "a"])
        get("b", 40)
        #expect(made == ["a", "b", "c", "a", "b"])
        get("big", 101); get("big", 101)  // over the bound: never kept
        #expect(made.suffix(2) == ["big", "big"])
    }
}
