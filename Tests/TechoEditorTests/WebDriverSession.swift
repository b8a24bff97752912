// WebKitGTK driven by classic WebDriver over HTTP: Debian's WebKitWebDriver (webkit2gtk-driver)
// on a free local port, starting its MiniBrowser in automation mode on a private Xvfb display
// (WebKitGTK has no headless mode). One session, its one window sized to the journeys' viewport.

import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#endif

final class WebDriverSession: EngineBrowser, @unchecked Sendable {
    let engine = Engine.webkit
    let folder: URL
    private let xvfb: Xvfb
    private let driver: pid_t
    private let base: String
    private var session = ""
    private var isShutDown = false

    static let driverBinary = "/usr/bin/WebKitWebDriver"
    /// The browser WebKitWebDriver starts: the MiniBrowser of Debian's libwebkit2gtk-4.1-0.
    static let miniBrowser = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"

    init(width: Int = 1440, height: Int = 900) throws {
        for path in [WebDriverSession.driverBinary, WebDriverSession.miniBrowser] where !FileManager.default.isExecutableFile(atPath: path) {
            throw DevToolsError(description: "\(path) is missing: scripts/setup-deps.sh installs the webkit2gtk-driver package")
        }
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("techo-webkit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        xvfb = try Xvfb(width: width, height: height, log: folder.appendingPathComponent("xvfb.log").path)
        let port = try WebDriverSession.freePort()
        base = "http://127.0.0.1:\(port)"
        do {
            driver = try Spawn.start(
                "/usr/bin/env", ["env", "DISPLAY=\(xvfb.display)", WebDriverSession.driverBinary, "--port=\(port)"],
                log: folder.appendingPathComponent("webkitwebdriver.log").path)
        } catch {
            xvfb.stop()
            throw error
        }
        do {
            let deadline = Date().addingTimeInterval(60)
            while ((try? request("GET", "/status", nil, timeout: 5)) as? [String: Any])?["ready"] as? Bool != true {
                if Date() > deadline { throw DevToolsError(description: "webkit: WebKitWebDriver not ready within 60 s") }
                usleep(20_000)
            }
            let caps: [String: Any] = [
                "capabilities": [
                    "alwaysMatch": [
                        "webkitgtk:browserOptions": ["binary": WebDriverSession.miniBrowser, "args": ["--automation"]]
                    ]
                ]
            ]
            guard let s = (try request("POST", "/session", caps, timeout: 60) as? [String: Any])?["sessionId"] as? String else {
                throw DevToolsError(description: "webkit: POST /session gave no sessionId")
            }
            session = s
            try request("POST", "/session/\(s)/window/rect", ["x": 0, "y": 0, "width": width, "height": height])
        } catch {
            shutdown()
            throw error
        }
    }

    deinit { shutdown() }

    /// A port nothing listens on now (the kernel's choice for a socket bound to port 0).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard ok else { throw DevToolsError(description: "no free port: \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    func shutdown() {
        if isShutDown { return }
        isShutDown = true
        if !session.isEmpty { _ = try? request("DELETE", "/session/\(session)", nil, timeout: 10) }
        kill(driver, SIGTERM)
        if Spawn.wait(driver, timeout: 5) == nil {
            kill(driver, SIGKILL)
            _ = Spawn.wait(driver, timeout: 5)
        }
        xvfb.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// One WebDriver command; returns its `value`, or throws its error.
    @discardableResult
    func request(_ method: String, _ path: String, _ body: [String: Any]?, timeout: TimeInterval = 60) throws -> Any? {
        guard let url = URL(string: base + path) else { throw DevToolsError(description: "webkit: bad path \(path)") }
        var r = URLRequest(url: url, timeoutInterval: timeout)
        r.httpMethod = method
        if let body {
            r.httpBody = try JSONSerialization.data(withJSONObject: body)
            r.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        final class Box: @unchecked Sendable { var data: Data?, error: Error? }
        let box = Box(), done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: r) { data, _, error in
            box.data = data
            box.error = error
            done.signal()
        }.resume()
        done.wait()
        if let error = box.error { throw DevToolsError(description: "webkit: \(method) \(path): \(error)") }
        guard let data = box.data, let o = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw DevToolsError(description: "webkit: \(method) \(path): no JSON answer")
        }
        let value = o["value"]
        if let v = value as? [String: Any], let error = v["error"] as? String {
            throw DevToolsError(description: "webkit: \(method) \(path): \(error): \(v["message"] ?? "")")
        }
        return value
    }

    func navigate(_ url: String) throws {
        try request("POST", "/session/\(session)/url", ["url": url])
    }

    func evaluateToString(_ promiseOfString: String) throws -> String {
        let script = "const done = arguments[arguments.length - 1]; (\(promiseOfString)).then(done);"
        guard let s = try request("POST", "/session/\(session)/execute/async", ["script": script, "args": []]) as? String else {
            throw DevToolsError(description: "webkit: the script gave no string")
        }
        return s
    }

    func perform(_ sources: [[String: Any]]) throws {
        try request("POST", "/session/\(session)/actions", ["actions": sources])
        try request("DELETE", "/session/\(session)/actions", nil)
    }

    func setFiles(_ selector: String, _ paths: [String]) throws {
        guard
            let found = try request("POST", "/session/\(session)/element", ["using": "css selector", "value": selector]) as? [String: Any],
            let id = found.values.first as? String
        else { throw DevToolsError(description: "webkit: no element matches \(selector)") }
        try request("POST", "/session/\(session)/element/\(id)/value", ["text": paths.joined(separator: "\n")])
    }
}
