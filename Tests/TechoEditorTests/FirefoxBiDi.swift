// Debian's Firefox ESR, headless, driven by its built-in WebDriver BiDi: started with
// `--remote-debugging-port 0`, it prints "WebDriver BiDi listening on ws://127.0.0.1:PORT" on
// stderr; a WebSocket to /session with `session.new` opens the session, and the one tab it has is
// driven with browsingContext.navigate, script.evaluate, input.performActions and input.setFiles.

import Foundation

#if canImport(Glibc)
    import Glibc
#endif

final class FirefoxBiDi: EngineBrowser, @unchecked Sendable {
    let engine = Engine.firefox
    let pid: pid_t
    let folder: URL
    private let socket: WebSocketClient
    private let lock = NSCondition()
    private var nextId = 1
    private var answers: [Int: [String: Any]] = [:]
    private var closed = false
    private var isShutDown = false
    private var context = ""

    /// The Firefox binary the setup installs (Debian's `firefox-esr` package).
    static let binary = "/usr/bin/firefox-esr"

    init(width: Int = 1440, height: Int = 900) throws {
        guard FileManager.default.isExecutableFile(atPath: FirefoxBiDi.binary) else {
            throw DevToolsError(description: "\(FirefoxBiDi.binary) is missing: scripts/setup-deps.sh installs the firefox-esr package")
        }
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("techo-firefox-\(UUID().uuidString)")
        let profile = folder.appendingPathComponent("profile")
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        // A quiet profile: no first-run pages, updates or telemetry.
        try """
        user_pref("browser.shell.checkDefaultBrowser", false);
        user_pref("browser.startup.homepage_override.mstone", "ignore");
        user_pref("datareporting.policy.dataSubmissionEnabled", false);
        user_pref("app.update.disabledForTesting", true);
        user_pref("browser.download.useDownloadDir", true);
        """.write(to: profile.appendingPathComponent("user.js"), atomically: true, encoding: .utf8)
        let log = folder.appendingPathComponent("firefox.log")
        pid = try Spawn.start(
            FirefoxBiDi.binary,
            [
                FirefoxBiDi.binary, "--headless", "--no-remote", "--profile", profile.path, "--remote-debugging-port", "0",
                "--width", String(width), "--height", String(height), "about:blank",
            ], log: log.path)
        do {
            let port = try FirefoxBiDi.waitForPort(log: log, pid: pid)
            socket = try WebSocketClient(port: port, path: "/session")
        } catch {
            kill(pid, SIGKILL)
            _ = Spawn.wait(pid, timeout: 5)
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
        let t = Thread { [weak self] in self?.readLoop() }
        t.name = "firefox-bidi-reader"
        t.start()
        do {
            try send("session.new", ["capabilities": ["alwaysMatch": ["acceptInsecureCerts": false]]])
            let tree = try send("browsingContext.getTree", ["maxDepth": 0])
            guard let first = (tree["contexts"] as? [[String: Any]])?.first?["context"] as? String else {
                throw DevToolsError(description: "firefox: browsingContext.getTree gave no context")
            }
            context = first
            try send("browsingContext.setViewport", ["context": context, "viewport": ["width": width, "height": height]])
        } catch {
            shutdown()
            throw error
        }
    }

    deinit { shutdown() }

    /// Reads the port Firefox prints once its WebDriver BiDi server listens.
    private static func waitForPort(log: URL, pid: pid_t) throws -> Int {
        let deadline = Date().addingTimeInterval(60)
        let marker = "WebDriver BiDi listening on ws://127.0.0.1:"
        while true {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            if let r = text.range(of: marker) {
                let digits = text[r.upperBound...].prefix { $0.isNumber }
                if let port = Int(digits) { return port }
            }
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid { throw DevToolsError(description: "firefox exited before listening: \(text)") }
            if Date() > deadline { throw DevToolsError(description: "firefox did not listen within 60 s: \(text)") }
            usleep(20_000)
        }
    }

    func shutdown() {
        lock.lock()
        let again = isShutDown
        isShutDown = true
        let wasClosed = closed
        lock.unlock()
        if again { return }
        if !wasClosed { _ = try? send("browser.close", [:], timeout: 5) }
        socket.close()
        if Spawn.wait(pid, timeout: 10) == nil {
            kill(pid, SIGKILL)
            _ = Spawn.wait(pid, timeout: 5)
        }
        try? FileManager.default.removeItem(at: folder)
    }

    private func readLoop() {
        while let text = try? socket.receive() {
            guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else { continue }
            // Events are not asked for (no session.subscribe), so every message with an id is an answer.
            if let id = object["id"] as? Int {
                lock.lock()
                answers[id] = object
                lock.broadcast()
                lock.unlock()
            }
        }
        lock.lock()
        closed = true
        lock.broadcast()
        lock.unlock()
    }

    @discardableResult
    func send(_ method: String, _ params: [String: Any], timeout: TimeInterval = 60) throws -> [String: Any] {
        lock.lock()
        let id = nextId
        nextId += 1
        let isClosed = closed
        lock.unlock()
        if isClosed { throw DevToolsError(description: "firefox: \(method): the browser has gone away") }
        let message: [String: Any] = ["id": id, "method": method, "params": params]
        try socket.send(String(decoding: try JSONSerialization.data(withJSONObject: message), as: UTF8.self))
        let deadline = Date().addingTimeInterval(timeout)
        lock.lock()
        defer { lock.unlock() }
        while answers[id] == nil {
            if closed || !lock.wait(until: deadline) {
                throw DevToolsError(description: "firefox: \(method): no answer within \(Int(timeout)) s")
            }
        }
        let answer = answers.removeValue(forKey: id) ?? [:]
        if answer["type"] as? String == "error" {
            throw DevToolsError(description: "firefox: \(method): \(answer["error"] ?? "") \(answer["message"] ?? "")")
        }
        return answer["result"] as? [String: Any] ?? [:]
    }

    func navigate(_ url: String) throws {
        try send("browsingContext.navigate", ["context": context, "url": url, "wait": "complete"])
    }

    func evaluateToString(_ promiseOfString: String) throws -> String {
        let r = try send(
            "script.evaluate",
            ["expression": promiseOfString, "target": ["context": context], "awaitPromise": true, "resultOwnership": "none"])
        if r["type"] as? String == "exception" {
            throw DevToolsError(description: "firefox: the page threw: \((r["exceptionDetails"] as? [String: Any])?["text"] ?? r)")
        }
        guard let result = r["result"] as? [String: Any], let value = result["value"] as? String else {
            throw DevToolsError(description: "firefox: script.evaluate gave \(r)")
        }
        return value
    }

    func perform(_ sources: [[String: Any]]) throws {
        try send("input.performActions", ["context": context, "actions": sources])
    }

    func setFiles(_ selector: String, _ paths: [String]) throws {
        let quoted = String(data: try JSONSerialization.data(withJSONObject: [selector]), encoding: .utf8) ?? "[]"
        let r = try send(
            "script.evaluate",
            [
                "expression": "document.querySelector(\(quoted)[0])", "target": ["context": context], "awaitPromise": false,
                "resultOwnership": "none",
            ])
        guard let node = r["result"] as? [String: Any], let shared = node["sharedId"] as? String else {
            throw DevToolsError(description: "firefox: no element matches \(selector) (\(r))")
        }
        try send("input.setFiles", ["context": context, "element": ["sharedId": shared], "files": paths])
    }
}
