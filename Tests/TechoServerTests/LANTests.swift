// `techo serve --lan`: the editor for a tablet or phone on the same network. The server listens
// on the machine's network addresses, prints the URL at the first of them (and its QR code, which
// an independent reader, zbarimg, must read back as that URL), takes the Host names it printed,
// and still refuses any other.
import Foundation
import TechoCodecs
import TechoRaster
import Testing

@testable import TechoServer

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct LANTests {
    /// What a process writes to `pipe` until `marker` appears, waiting up to 20 s.
    static func read(_ pipe: Pipe, until marker: String) throws -> String {
        var bytes: [UInt8] = []
        let fd = pipe.fileHandleForReading.fileDescriptor
        let deadline = Date(timeIntervalSinceNow: 20)
        while !String(decoding: bytes, as: UTF8.self).contains(marker) {
            guard Date() < deadline else { throw RawHTTPError(description: "techo serve never wrote '\(marker)': \(String(decoding: bytes, as: UTF8.self))") }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 200) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = Glibc.read(fd, &chunk, chunk.count)
            guard n > 0 else { break }
            bytes += chunk[..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// What zbarimg reads from a QR code drawn as `lines` (TerminalQR's half blocks), drawn black
    /// on white at 6 px a module.
    static func decode(_ lines: [String]) throws -> String {
        let rows = lines.flatMap { line -> [[Bool]] in
            let chars = Array(line)
            return [chars.map { $0 == "█" || $0 == "▀" }, chars.map { $0 == "█" || $0 == "▄" }]
        }
        let n = try #require(rows.first?.count), k = 6
        var px = Pixmap(width: n * k, height: rows.count * k)
        for y in 0..<rows.count * k {
            for x in 0..<n * k {
                let v: UInt8 = rows[y / k][x / k] ? 0 : 255
                let i = (y * n * k + x) * 4
                px.data[i] = v; px.data[i + 1] = v; px.data[i + 2] = v; px.data[i + 3] = 255
            }
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("techo-qr-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(try PNGEncoder.encode(px)).write(to: file)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/zbarimg")
        p.arguments = ["--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", file.path]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let text = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: text, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func aQRCodeDrawnForATerminalReadsBackAsItsText() throws {
        for text in ["http://192.168.1.20:7373/?token=" + String(repeating: "0123456789abcdef", count: 4), "http://[fd00::2]:80/?token=x"] {
            let lines = try TerminalQR.lines(text, ansi: false)
            #expect(try LANTests.decode(lines) == text)
            // Coloured for a terminal: the same modules between the colour codes.
            let coloured = try TerminalQR.lines(text, ansi: true)
            #expect(coloured.allSatisfy { $0.hasPrefix("\u{1B}[30;107m") && $0.hasSuffix("\u{1B}[0m") })
            #expect(coloured.map { $0.dropFirst(9).dropLast(4) }.map(String.init) == lines)
        }
    }

    @Test func serveLanPrintsTheNetworkURLWithItsQRCodeAndTakesThatHost() throws {
        let s = try ServedJournal()
        s.server.stop(grace: 0)
        let served = try ServeProcess([s.journal.path, "--port", "0", "--lan", "--editor-dir", s.editor.path])
        let url = served.url, port = served.port, token = served.token
        let said = try LANTests.read(served.stderr, until: "Ctrl+C stops")
        let comps = try #require(URLComponents(string: url))
        #expect(said.contains("plain HTTP") && said.contains("every network address"), "\(said)")
        let addresses = NetworkAddresses.lan()
        guard let first = addresses.first else {
            // A machine on no network: the URL is loopback's, and it says so.
            #expect(comps.host == "127.0.0.1" && said.contains("no network address"), "\(url) \(said)")
            return
        }
        #expect(comps.host == first || comps.host == "[\(first)]", "\(url), addresses \(addresses)")
        // The QR code under "scan it" is the URL.
        let block = said.components(separatedBy: "(scan it):\n").last?.components(separatedBy: "\ntecho serve: serving").first ?? ""
        let lines = block.components(separatedBy: "\n").filter { !$0.isEmpty }
        #expect(lines.count > 10, "\(said)")
        #expect(try LANTests.decode(lines) == url)
        // Served at that address with that Host, and at loopback; another Host is refused.
        if let v4 = addresses.first(where: { !$0.contains(":") }) {
            let c = try RawConnection(port: port, address: v4, timeout: 30)
            try c.send(Client(port: port, token: token, host: "\(v4):\(port)").head("GET", "/api/journal", length: nil))
            let r = try c.readResponse()
            #expect(r.status == 200, "\(r.text)")
            let rebinding = try RawConnection(port: port, address: v4, timeout: 30)
            try rebinding.send(Client(port: port, token: token, host: "journal.example:\(port)").head("GET", "/api/journal", length: nil))
            #expect(try rebinding.readResponse().status == 403)
        }
        let local = try Client(port: port, token: token).get("/api/journal")
        #expect(local.status == 200, "\(local.text)")
        served.stop()
    }

    @Test func lanAndHostTogetherAreRefused() throws {
        let s = try ServedJournal()
        s.server.stop(grace: 0)
        let p = Process()
        p.executableURL = ServerProcess.binary
        p.arguments = ["serve", s.journal.path, "--lan", "--host", "127.0.0.1"]
        let err = Pipe()
        p.standardOutput = FileHandle.nullDevice
        p.standardError = err
        try p.run()
        let e = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 64, "\(e)")
        #expect(e.contains("--host") && e.contains("--lan"), "\(e)")
    }
}
