// What the browser sees: renders that are exactly `techo export`, an event stream that reports a
// terminal edit within 2 s, and a server that finishes its work when told to stop.
import Foundation
import TechoCodecs
import TechoModel
import TechoTestSupport
import Testing

@testable import TechoServer

@Suite struct LiveTests {
    @Test func renderIsWhatExportWrites() throws {
        let s = try ServedJournal()
        try s.techo("add", "text", s.journal.path, "p1", "Kyoto", "--size", "40", "--color", "#5b3a29", "--rotate", "-8")
        try s.techo("draw", s.journal.path, "p1", "--tool", "pencil", "--color", "#e07a5f", "--width", "6", "--points", "20,200 120,240,0.5 220,210")
        let out = s.dir.appendingPathComponent("p1.png")
        try s.techo("export", s.journal.path, "--page", "p1", "--scale", "1.5", "-o", out.path)
        let exported = [UInt8](try Data(contentsOf: out))
        // The same pixels as the file, compressed for speed (a screen, not a file).
        func pixels(_ png: [UInt8]) throws -> RGBAImage { try ImageDecoder.decodeStraight(png, name: "render").pixels }
        let r = try s.client.get("/api/pages/p1/render?scale=1.5")
        #expect(r.status == 200 && r.header("content-type") == "image/png")
        #expect(try pixels(r.body) == pixels(exported), "the render differs from techo export at the same scale")
        // The second ask is served from the cache.
        let hits = s.server.renderCacheCounts.hits
        #expect(try s.client.get("/api/pages/p1/render?scale=1.5").body == r.body)
        #expect(s.server.renderCacheCounts.hits == hits + 1)
        // The download is the file itself, byte for byte, cached apart from the screen's render.
        #expect(try s.client.get("/api/export/pages/p1.png?scale=1.5").body == exported)
        // Leaving an element out is the page without it.
        try s.techo("rm", s.journal.path, "p1", "text-1")
        try s.techo("export", s.journal.path, "--page", "p1", "--scale", "1.5", "-o", out.path)
        try s.techo("undo", s.journal.path)
        #expect(try pixels(s.client.get("/api/pages/p1/render?scale=1.5&without=text-1").body) == pixels([UInt8](try Data(contentsOf: out))))
        for bad in ["0", "-1", "4.5", "nan", "inf", "x"] {
            #expect(try s.client.get("/api/pages/p1/render?scale=\(bad)").status == 400, "scale \(bad)")
        }
    }

    @Test func anElementAloneIsItsSprite() throws {
        let s = try ServedJournal()
        let png = try ServedJournal.png(40, 20)
        _ = try s.client.request("POST", "/api/pages/p1/elements?type=image&name=red.png&x=100&y=100", body: png)
        _ = try s.client.post(
            "/api/pages/p1/gesture",
            json: "{\"element\": \"image-1\", \"events\": [{\"gesture\": \"pinch\", \"scale\": 2}, {\"gesture\": \"rotation\", \"rotation\": 0.5}]}")
        let r = try s.client.get("/api/pages/p1/elements/image-1/render?scale=1")
        #expect(r.status == 200)
        // Unrotated, at the element's own scale: 80 x 40 page pixels around its centre.
        #expect(r.header("x-techo-sprite") == "-40,-20,80,40")
        let img = try ImageDecoder.decodeStraight(r.body, name: "sprite").pixels
        #expect(img.width == 80 && img.height == 40)
        let mid = (20 * img.width + 40) * 4
        #expect(Array(img.bytes[mid..<mid + 4]) == [200, 30, 30, 255])
        let info = try json(try s.client.get("/api/pages/p1"))
        let e = try #require(info["elements"]?.array?.first)
        #expect((e["size"]?.array ?? []).compactMap { $0.number } == [40, 20])
        let t = (e["transform"]?.array ?? []).compactMap { $0.number }
        try #require(t.count == 6)
        #expect(abs(t[0] - 2 * cos(0.5)) < 1e-9 && abs(t[1] - 2 * sin(0.5)) < 1e-9 && t[4] == 100 && t[5] == 100)
    }

    /// The revision event is waited for (up to 120 s, for a loaded machine); its latency is
    /// printed, and measured by `make bench`, not asserted.
    @Test func aTerminalEditReachesTheEventStream() throws {
        let s = try ServedJournal()
        let c = try RawConnection(port: s.port, timeout: 120)
        try c.send(s.client.head("GET", "/api/events", length: nil))
        let (status, headers) = try c.readHead()
        #expect(status == 200 && headers["content-type"] == "text/event-stream")
        let first = try nextRevision(c)
        let started = Date()
        try s.techo("add", "text", s.journal.path, "p1", "from the terminal")
        let second = try nextRevision(c)
        let waited = Date().timeIntervalSince(started)
        #expect(second != first)
        print("a terminal edit reached the event stream in \(String(format: "%.0f", waited * 1000)) ms")
        // The revision the stream reports is the one the API reports.
        #expect(try json(try s.client.get("/api/journal"))["revision"]?.number == Double(second))
    }

    @Test func stoppingEndsTheStreamsAndFreesThePort() throws {
        // Not port 0: another test's server could be given the freed port at once and answer.
        let s = try ServedJournal.onAFixedPort()
        let port = s.port
        let c = try RawConnection(port: port, timeout: 10)
        try c.send(s.client.head("GET", "/api/events", length: nil))
        _ = try c.readHead()
        _ = try nextRevision(c)
        // Held up by the stream, the stop would return only when its grace ran out; 600 s is
        // more than any loaded machine needs to stop, and less than the grace.
        let started = Date()
        s.server.stop(grace: 1200)
        #expect(Date().timeIntervalSince(started) < 600, "an open event stream must not hold the stop up")
        #expect(throws: RawHTTPError.self) { _ = try RawConnection(port: port, timeout: 2) }
    }

    /// Reads the stream's chunked frames until an `event: revision` and returns its number.
    func nextRevision(_ c: RawConnection) throws -> UInt64 {
        var sawEvent = false
        while let line = try c.readLine() {
            if line == "event: revision" { sawEvent = true }
            if sawEvent, line.hasPrefix("data: "),
                let v = try json(RawResponse(status: 200, headers: [:], body: Array(line.dropFirst(6).utf8)))["revision"]?.number
            {
                return UInt64(v)
            }
        }
        throw RawHTTPError(description: "the event stream ended")
    }

    @Test func sigtermFinishesTheUploadInFlightAndExitsZero() throws {
        let s = try ServedJournal()
        let p = Process()
        p.executableURL = ServerProcess.binary
        p.arguments = ["serve", s.journal.path, "--port", "0", "--editor-dir", s.editor.path]
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        defer { if p.isRunning { kill(p.processIdentifier, SIGKILL) } }
        let url = try ServerProcess.firstLine(of: out)
        let comps = try #require(URLComponents(string: url))
        #expect(comps.host == "127.0.0.1")
        let port = UInt16(try #require(comps.port))
        let token = try #require(comps.queryItems?.first { $0.name == "token" }?.value)
        #expect(token.count == 64)
        let client = Client(port: port, token: token)
        let events = try RawConnection(port: port, timeout: 10)
        try events.send(client.head("GET", "/api/events", length: nil))
        _ = try events.readHead()

        let png = try ServedJournal.png(30, 30)
        let c = try RawConnection(port: port, timeout: 10)
        try c.send(client.head("POST", "/api/pages/p1/elements?type=image&name=late.png", length: png.count))
        try c.send(Array(png.prefix(10)))
        // The upload is in flight once the server has read its head (the kernel's queues say so;
        // the signal's handling is waited for by its event below).
        try c.waitUntilTheServerHasRead(allBut: 10)
        kill(p.processIdentifier, SIGTERM)
        // Stopping ends the event streams first: once this one has ended, the server has taken
        // the signal, and it must still be running for the upload in flight.
        while let line = try events.readLine(), line != "0" {}
        #expect(p.isRunning, "the server must wait for the upload in flight")
        try c.send(Array(png.dropFirst(10)))
        let r = try c.readResponse()
        #expect(r.status == 200, "\(r.text)")
        p.waitUntilExit()
        #expect(p.terminationReason == .exit && p.terminationStatus == 0)
        #expect(try s.page().elements.map(\.id) == ["image-1"])
        // New connections are refused once it has stopped.
        #expect((try? client.get("/api/journal")) == nil)
    }
}

extension LiveTests {
    /// The editor's first page starts the sticker atlas in the background; a SIGTERM right after
    /// it used to end the process by SIGSEGV (exit ran the C libraries' destructors under the
    /// thread drawing an SVG) about one time in seven. The server now waits for that thread.
    @Test func sigtermWhileTheStickerAtlasIsDrawnExitsZero() throws {
        let s = try ServedJournal()
        for round in 1...12 {
            let served = try ServeProcess([s.journal.path, "--port", "0", "--editor-dir", s.editor.path])
            let page = try Client(port: served.port, token: nil).get("/?token=\(served.token)")
            #expect(page.status == 200, "\(page.text)")
            served.stop()
            served.process.waitUntilExit()
            let log = String(decoding: served.stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let how = served.process.terminationReason == .exit ? "exit" : "signal"
            try #require(how == "exit" && served.process.terminationStatus == 0, "round \(round): ended by \(how) \(served.process.terminationStatus): \(log)")
        }
    }
}

/// `techo serve ARGS…` as a process: its URL (the first line of stdout) with the port and token
/// in it, and its stderr to read; killed when released if it is still running.
final class ServeProcess {
    let process = Process()
    let stderr = Pipe()
    let url: String
    let port: UInt16
    let token: String

    init(_ args: [String]) throws {
        process.executableURL = ServerProcess.binary
        process.arguments = ["serve"] + args
        let out = Pipe()
        process.standardOutput = out
        process.standardError = stderr
        try process.run()
        do {
            url = try ServerProcess.firstLine(of: out)
            let comps = URLComponents(string: url)
            guard let p = comps?.port, let t = comps?.queryItems?.first(where: { $0.name == "token" })?.value else {
                throw RawHTTPError(description: "techo serve printed '\(url)', not a URL with a port and a token")
            }
            port = UInt16(p)
            token = t
        } catch {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw error
        }
    }

    /// The URL's host.
    var host: String? { URLComponents(string: url)?.host }

    /// SIGTERM: finishes what is in flight and exits.
    func stop() { kill(process.processIdentifier, SIGTERM) }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}

enum ServerProcess {
    /// The `techo` binary built beside the tests.
    static let binary = BuiltProducts.url("techo")

    /// The first line a process writes to `pipe`, waiting up to 20 s.
    static func firstLine(of pipe: Pipe) throws -> String {
        var bytes: [UInt8] = []
        let fd = pipe.fileHandleForReading.fileDescriptor
        let deadline = Date(timeIntervalSinceNow: 20)
        while !bytes.contains(10) && Date() < deadline {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 200) > 0 else { continue }
            var b: UInt8 = 0
            guard read(fd, &b, 1) == 1 else { break }
            bytes.append(b)
        }
        guard let nl = bytes.firstIndex(of: 10) else { throw RawHTTPError(description: "techo serve printed no URL") }
        return String(decoding: bytes[..<nl], as: UTF8.self)
    }
}
