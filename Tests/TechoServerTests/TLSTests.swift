// `techo serve --tls-cert FILE --tls-key FILE`: HTTPS (libmicrohttpd's TLS), checked from outside
// with OpenSSL's own client against a certificate each test makes: the chain verifies for the
// address served, the token is still required, plain HTTP is told to use https, and a client
// that finishes the handshake and then sends nothing is closed (it cannot hold the server).
import Foundation
import Testing

@testable import TechoServer

#if canImport(Glibc)
    import Glibc
#endif

/// A self-signed certificate for `addresses` (and its key), made with the openssl command.
struct TestCertificate {
    let dir: URL
    var cert: URL { dir.appendingPathComponent("cert.pem") }
    var key: URL { dir.appendingPathComponent("key.pem") }

    init(addresses: [String]) throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("techo-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let names = addresses.map { "IP:\($0)" }.joined(separator: ",")
        let r = try TestCertificate.openssl(
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
                "-subj", "/CN=techo test", "-addext", "subjectAltName=\(names)", "-keyout", key.path, "-out", cert.path,
            ], input: nil)
        guard r.status == 0 else { throw RawHTTPError(description: "openssl req failed: \(r.err)") }
    }

    static func openssl(_ args: [String], input: [UInt8]?, closeAfter: Double? = nil) throws -> (status: Int32, out: String, err: String, seconds: Double) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        p.arguments = args
        let inp = Pipe(), out = Pipe(), err = Pipe()
        p.standardInput = inp
        p.standardOutput = out
        p.standardError = err
        let start = Date()
        try p.run()
        if let input { inp.fileHandleForWriting.write(Data(input)) }
        if closeAfter == nil { try? inp.fileHandleForWriting.close() }
        final class Box: @unchecked Sendable { var data = Data() }
        let o = Box(), e = Box()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            o.data = out.fileHandleForReading.readDataToEndOfFile(); group.leave()
        }
        group.enter()
        DispatchQueue.global().async {
            e.data = err.fileHandleForReading.readDataToEndOfFile(); group.leave()
        }
        let limit = closeAfter ?? 60
        if group.wait(timeout: .now() + limit) == .timedOut {
            kill(p.processIdentifier, SIGKILL)
            group.wait()
        }
        p.waitUntilExit()
        try? inp.fileHandleForWriting.close()
        return (p.terminationStatus, String(decoding: o.data, as: UTF8.self), String(decoding: e.data, as: UTF8.self), Date().timeIntervalSince(start))
    }

    /// One HTTPS request through `openssl s_client`, which verifies the chain against `cert` and
    /// the address against its subjectAltName; the answer's text (head and body).
    func request(_ address: String, _ port: UInt16, _ head: String) throws -> String {
        let r = try TestCertificate.openssl(
            [
                "s_client", "-connect", "\(address.contains(":") ? "[\(address)]" : address):\(port)", "-CAfile", cert.path,
                "-verify_ip", address, "-verify_return_error", "-quiet",
            ], input: Array(head.utf8))
        guard r.out.hasPrefix("HTTP/1.1") else { throw RawHTTPError(description: "s_client: status \(r.status), \(r.err)") }
        return r.out
    }
}

@Suite struct TLSTests {
    static func head(_ method: String, _ path: String, host: String, token: String?) -> String {
        "\(method) \(path) HTTP/1.1\r\nHost: \(host)\r\n" + (token.map { "X-Techo-Token: \($0)\r\n" } ?? "") + "Connection: close\r\n\r\n"
    }

    @Test func httpsServesWithTheTokenAndTellsPlainHTTPToUseIt() throws {
        let s = try ServedJournal()
        s.server.stop(grace: 0)
        let lan = NetworkAddresses.lan().first { !$0.contains(":") }
        let certificate = try TestCertificate(addresses: ["127.0.0.1"] + (lan.map { [$0] } ?? []))
        defer { try? FileManager.default.removeItem(at: certificate.dir) }
        let served = try ServeProcess([
            s.journal.path, "--port", "0", "--lan", "--tls-cert", certificate.cert.path, "--tls-key", certificate.key.path, "--editor-dir", s.editor.path,
        ])
        let url = served.url, port = served.port, token = served.token
        let said = try LANTests.read(served.stderr, until: "Ctrl+C stops")
        #expect(url.hasPrefix("https://"), "\(url)")
        #expect(!said.contains("plain HTTP"), "\(said)")
        for address in ["127.0.0.1"] + (lan.map { [$0] } ?? []) {
            let ok = try certificate.request(address, port, TLSTests.head("GET", "/api/journal", host: "\(address):\(port)", token: token))
            #expect(ok.hasPrefix("HTTP/1.1 200") && ok.contains("\"pages\""), "\(address): \(ok.prefix(300))")
            let stranger = try certificate.request(address, port, TLSTests.head("GET", "/api/journal", host: "\(address):\(port)", token: nil))
            #expect(stranger.hasPrefix("HTTP/1.1 401") || stranger.hasPrefix("HTTP/1.1 403"), "\(address): \(stranger.prefix(200))")
        }
        // Plain HTTP to the HTTPS port: told what to do, in plain HTTP.
        let c = try RawConnection(port: port, timeout: 10)
        try c.send(Client(port: port, token: token).head("GET", "/api/journal", length: nil))
        let plain = try c.readResponse()
        #expect(plain.status == 400 && plain.text.contains("HTTPS"), "\(plain.status) \(plain.text)")
        served.stop()
    }

    @Test func aClientThatShakesHandsAndSendsNothingIsClosed() throws {
        let s = try ServedJournal()
        s.server.stop(grace: 0)
        let certificate = try TestCertificate(addresses: ["127.0.0.1"])
        defer { try? FileManager.default.removeItem(at: certificate.dir) }
        var options = ServerOptions()
        options.port = 0
        options.editorFolder = s.editor
        options.tls = HTTPDaemon.TLSCredentials(
            certificate: [UInt8](try Data(contentsOf: certificate.cert)), key: [UInt8](try Data(contentsOf: certificate.key)))
        options.limits.headSeconds = 1
        let server = try EditorServer(journal: s.journal, options: options)
        defer { server.stop(grace: 0) }
        // The handshake completes, then nothing: the server closes it after the head's time, not the idle timeout's 60 s.
        let idle = try TestCertificate.openssl(
            ["s_client", "-connect", "127.0.0.1:\(server.port)", "-CAfile", certificate.cert.path, "-verify_return_error", "-quiet"], input: [], closeAfter: 20)
        #expect(idle.seconds < 8, "held for \(idle.seconds) s: \(idle.err.suffix(300))")
        #expect(idle.err.contains("verify return:1") || idle.err.contains("depth=0"), "\(idle.err.suffix(300))")
        // A certificate and key that do not go together do not start.
        let other = try TestCertificate(addresses: ["127.0.0.1"])
        defer { try? FileManager.default.removeItem(at: other.dir) }
        var mismatched = options
        mismatched.tls?.key = [UInt8](try Data(contentsOf: other.key))
        #expect(throws: ServerStartError.self) { _ = try EditorServer(journal: s.journal, options: mismatched) }
    }

    @Test func tlsOptionsAreCheckedBeforeServing() throws {
        let s = try ServedJournal()
        s.server.stop(grace: 0)
        let certificate = try TestCertificate(addresses: ["127.0.0.1"])
        defer { try? FileManager.default.removeItem(at: certificate.dir) }
        func serve(_ extra: [String]) throws -> (Int32, String) {
            let p = Process()
            p.executableURL = ServerProcess.binary
            p.arguments = ["serve", s.journal.path, "--port", "0"] + extra
            let err = Pipe()
            p.standardOutput = FileHandle.nullDevice
            p.standardError = err
            try p.run()
            let e = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            return (p.terminationStatus, e)
        }
        let alone = try serve(["--tls-cert", certificate.cert.path])
        #expect(alone.0 == 64 && alone.1.contains("--tls-key"), "\(alone)")
        let missing = try serve(["--tls-cert", certificate.dir.appendingPathComponent("nope.pem").path, "--tls-key", certificate.key.path])
        #expect(missing.0 != 0 && missing.1.contains("--tls-cert") && missing.1.contains("no such file"), "\(missing)")
        let swapped = try serve(["--tls-cert", certificate.key.path, "--tls-key", certificate.cert.path])
        #expect(swapped.0 != 0 && swapped.1.contains("is not a PEM certificate"), "\(swapped)")
    }
}
