// The editor over HTTPS at the machine's network address (`techo serve --lan --tls-cert --tls-key`),
// as a tablet opens it: a secure context (what sharing and the clipboard need off localhost), the
// token taken from the URL, and a finger drag that moves a sticker. The browser trusts exactly
// the test's key (Chromium's SPKI pin), not every certificate.
import Foundation
import TechoTestSupport
import Testing

@Suite(.serialized) struct HTTPSBrowserTests {
    /// At a laptop (a mouse), a tablet and a phone (a finger).
    @Test(arguments: [(1440, 900, false), (1024, 1366, true), (390, 844, true)])
    func theEditorOverHTTPSOnTheNetworkAddressTakesADrag(size: (Int, Int, Bool)) throws {
        let (width, height, touch) = size
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("techo-https-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let cert = dir.appendingPathComponent("cert.pem").path, key = dir.appendingPathComponent("key.pem").path
        let made = try ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/openssl"),
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2", "-subj", "/CN=techo test",
                "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", cert,
            ], in: dir)
        #expect(made.code == 0, "\(made.err)")
        // The pin: base64 of the SHA-256 of the certificate's public key (its DER SubjectPublicKeyInfo).
        let pin = try ChildProcess.run(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", "openssl x509 -in \"$0\" -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64", cert], in: dir)
        let spki = pin.out.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(spki.count == 44, "\(pin.err)")
        let f = try EditorFixture(
            width: width, height: height, touch: touch, serve: ["--lan", "--tls-cert", cert, "--tls-key", key],
            browserArguments: ["--ignore-certificate-errors-spki-list=\(spki)"])
        let url = try #require(URLComponents(string: f.server.url))
        #expect(url.scheme == "https", "\(f.server.url)")
        // On a machine with a network, the URL is at its network address, not loopback.
        let lan = try ChildProcess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "hostname -I 2>/dev/null || true"], in: dir).out
        let addresses = lan.split(whereSeparator: \.isWhitespace).map(String.init).filter { !$0.hasPrefix("fe80") }
        if let first = addresses.first {
            #expect(url.host == first || url.host == "[\(first)]" || addresses.contains(url.host ?? ""), "\(f.server.url) (\(addresses))")
        }
        #expect(try f.tab.evaluate("window.isSecureContext && location.protocol") as? String == "https:")
        // A finger (or the mouse) drags the tomato by (+100, +60) page px.
        let a = try f.client(200, 250), b = try f.client(300, 310)
        if touch {
            try f.tab.touch("touchStart", [a])
            for i in 1...10 {
                let t = Double(i) / 10
                try f.tab.touch("touchMove", [(a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t)])
            }
            try f.tab.touch("touchEnd", [])
        } else {
            try f.tab.mouse("mouseMoved", a.0, a.1)
            try f.tab.mouse("mousePressed", a.0, a.1, buttons: 1, clickCount: 1)
            for i in 1...10 {
                let t = Double(i) / 10
                try f.tab.mouse("mouseMoved", a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t, buttons: 1)
            }
            try f.tab.mouse("mouseReleased", b.0, b.1, clickCount: 1)
        }
        try f.waitForJournal("the tomato moved") { (point(try f.element("tomato")["at"])?.0 ?? 200) > 280 }
        let at = try #require(point(try f.element("tomato")["at"]))
        #expect(abs(at.0 - 300) < 2 && abs(at.1 - 310) < 2, "tomato at \(at)")
        try f.waitSettled()
        let shot = try f.tab.screenshot(x: 0, y: 0, w: Double(width), h: Double(height))
        try shot.write(to: Fixtures.artifactsDirectory("editor").appendingPathComponent("https-\(width)x\(height).png"))
    }
}
