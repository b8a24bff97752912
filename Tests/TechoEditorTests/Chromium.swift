// Debian's headless Chromium driven through the DevTools protocol over --remote-debugging-pipe:
// the browser reads NUL-terminated JSON commands on its fd 3 and writes replies and events on its
// fd 4, so no WebSocket client is needed. The browser is started with posix_spawn and file
// actions that put our two pipes on those descriptors.

import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A DevTools protocol error or a browser that went away.
struct DevToolsError: Error, CustomStringConvertible {
    var description: String
}

/// One headless Chromium process and its protocol connection.
final class Chromium: @unchecked Sendable {
    let pid: pid_t
    let profile: URL
    private let commands: Int32  // our end of the browser's fd 3
    private let replies: Int32  // our end of the browser's fd 4
    private let lock = NSCondition()
    private var nextId = 1
    private var answers: [Int: [String: Any]] = [:]
    private var events: [[String: Any]] = []
    private var closed = false
    private var isShutDown = false
    private var reader: Thread?

    /// The Chromium binary the setup installs (Debian's `chromium` package).
    static let binary = "/usr/bin/chromium"

    /// Starts the browser with an empty profile in a temporary folder.
    /// `extraArguments` go on the command line after the usual ones.
    init(windowSize: (Int, Int) = (1440, 900), extraArguments: [String] = []) throws {
        guard FileManager.default.isExecutableFile(atPath: Chromium.binary) else {
            throw DevToolsError(description: "\(Chromium.binary) is missing: scripts/setup-deps.sh installs the chromium package")
        }
        profile = FileManager.default.temporaryDirectory.appendingPathComponent("techo-chromium-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        let toBrowser = try Spawn.pipePair(), fromBrowser = try Spawn.pipePair()
        commands = toBrowser.write
        replies = fromBrowser.read
        let args =
            [
                Chromium.binary, "--headless=new", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
                "--user-data-dir=\(profile.path)", "--no-first-run", "--no-default-browser-check",
                "--disable-extensions", "--disable-background-networking", "--disable-sync",
                "--disable-component-update", "--disable-dev-shm-usage", "--mute-audio", "--hide-scrollbars",
                "--disable-renderer-backgrounding", "--disable-background-timer-throttling",
                "--disable-backgrounding-occluded-windows", "--force-color-profile=srgb",
                "--window-size=\(windowSize.0),\(windowSize.1)",
            ] + extraArguments + ["about:blank"]
        let child: pid_t
        do {
            child = try Spawn.start(
                Chromium.binary, args, log: profile.appendingPathComponent("chromium.log").path,
                dup: [(toBrowser.read, 3), (fromBrowser.write, 4)])
        } catch {
            for fd in [toBrowser.read, toBrowser.write, fromBrowser.read, fromBrowser.write] { close(fd) }
            throw error
        }
        close(toBrowser.read); close(fromBrowser.write)
        pid = child
        let t = Thread { [weak self] in self?.readLoop() }
        t.name = "chromium-reader"
        reader = t
        t.start()
    }

    deinit { shutdown() }

    /// Asks the browser to quit, then makes sure it did, and removes its profile. Once: a second
    /// call (the fixture's, then `deinit`'s) must not close the command pipe's descriptor again,
    /// whose number another thread may hold by then (a socket, a pipe) and would lose.
    func shutdown() {
        lock.lock()
        let wasClosed = closed
        let again = isShutDown
        closed = true
        isShutDown = true
        lock.unlock()
        if again { return }
        if !wasClosed { _ = try? sendUnlocked("Browser.close", [:], session: nil, timeout: 5) }
        close(commands)
        if Spawn.wait(pid, timeout: 5) == nil {
            kill(pid, SIGKILL)
            _ = Spawn.wait(pid, timeout: 5)
        }
        try? FileManager.default.removeItem(at: profile)
    }

    private func readLoop() {
        var pending = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(replies, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            pending.append(contentsOf: buffer[0..<n])
            while let end = pending.firstIndex(of: 0) {
                let message = Data(pending[0..<end])
                pending.removeSubrange(0...end)
                guard let object = try? JSONSerialization.jsonObject(with: message) as? [String: Any] else { continue }
                lock.lock()
                if let id = object["id"] as? Int { answers[id] = object } else { events.append(object) }
                lock.broadcast()
                lock.unlock()
            }
        }
        close(replies)
        lock.lock()
        closed = true
        lock.broadcast()
        lock.unlock()
    }

    /// Sends one command and waits for its answer's `result`.
    @discardableResult
    func send(_ method: String, _ params: [String: Any] = [:], session: String? = nil, timeout: TimeInterval = 30) throws -> [String: Any] {
        lock.lock()
        let isClosed = closed
        lock.unlock()
        if isClosed { throw DevToolsError(description: "\(method): the browser has gone away") }
        return try sendUnlocked(method, params, session: session, timeout: timeout)
    }

    /// Sends several commands at once, without waiting for one's answer before writing the next,
    /// then waits for every answer: input events sent this way reach the page between two of its
    /// frames, as a 240 Hz pen's do (the browser coalesces them into one event of that frame).
    func sendAll(_ commands: [(String, [String: Any])], session: String? = nil, timeout: TimeInterval = 30) throws {
        lock.lock()
        let isClosed = closed
        let first = nextId
        nextId += commands.count
        lock.unlock()
        if isClosed { throw DevToolsError(description: "the browser has gone away") }
        var bytes = [UInt8]()
        for (i, (method, params)) in commands.enumerated() {
            var message: [String: Any] = ["id": first + i, "method": method, "params": params]
            if let session { message["sessionId"] = session }
            bytes += [UInt8](try JSONSerialization.data(withJSONObject: message))
            bytes.append(0)
        }
        try writeAll(bytes, what: "")
        let deadline = Date().addingTimeInterval(timeout)
        lock.lock()
        defer { lock.unlock() }
        for (i, (method, _)) in commands.enumerated() {
            while answers[first + i] == nil {
                if !lock.wait(until: deadline) || (closed && answers[first + i] == nil) {
                    throw DevToolsError(description: "\(method): no answer from the browser within \(Int(timeout)) s")
                }
            }
            let answer = answers.removeValue(forKey: first + i) ?? [:]
            if let error = answer["error"] as? [String: Any] {
                throw DevToolsError(description: "\(method): \(error["message"] ?? error)")
            }
        }
    }

    /// Writes every byte of `bytes` to the browser's command pipe; `what` starts the error.
    private func writeAll(_ bytes: [UInt8], what: String) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { write(commands, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw DevToolsError(description: "\(what)cannot write to the browser: \(String(cString: strerror(errno)))") }
            offset += n
        }
    }

    private func sendUnlocked(_ method: String, _ params: [String: Any], session: String?, timeout: TimeInterval) throws -> [String: Any] {
        lock.lock()
        let id = nextId
        nextId += 1
        lock.unlock()
        var message: [String: Any] = ["id": id, "method": method, "params": params]
        if let session { message["sessionId"] = session }
        var bytes = [UInt8](try JSONSerialization.data(withJSONObject: message))
        bytes.append(0)
        try writeAll(bytes, what: "\(method): ")
        let deadline = Date().addingTimeInterval(timeout)
        lock.lock()
        defer { lock.unlock() }
        while answers[id] == nil {
            if !lock.wait(until: deadline) || (closed && answers[id] == nil) {
                throw DevToolsError(description: "\(method): no answer from the browser within \(Int(timeout)) s")
            }
        }
        let answer = answers.removeValue(forKey: id) ?? [:]
        if let error = answer["error"] as? [String: Any] {
            throw DevToolsError(description: "\(method): \(error["message"] ?? error)")
        }
        return answer["result"] as? [String: Any] ?? [:]
    }

    /// Waits for an event `method` (of `session`, or of the browser when nil) that `matches`;
    /// events already received count. Returns its `params`.
    @discardableResult
    func waitForEvent(
        _ method: String, session: String? = nil, timeout: TimeInterval = 30,
        matching matches: ([String: Any]) -> Bool = { _ in true }
    ) throws -> [String: Any] {
        let deadline = Date().addingTimeInterval(timeout)
        lock.lock()
        defer { lock.unlock() }
        while true {
            if let i = events.firstIndex(where: {
                $0["method"] as? String == method && $0["sessionId"] as? String == session
                    && matches($0["params"] as? [String: Any] ?? [:])
            }) {
                return events.remove(at: i)["params"] as? [String: Any] ?? [:]
            }
            if closed || !lock.wait(until: deadline) {
                throw DevToolsError(description: "no \(method) event within \(Int(timeout)) s")
            }
        }
    }

    /// Every event of `method` received so far for `session`, removed from the queue.
    func takeEvents(_ method: String, session: String?) -> [[String: Any]] {
        lock.lock()
        defer { lock.unlock() }
        var taken: [[String: Any]] = []
        events.removeAll { e in
            let hit = e["method"] as? String == method && e["sessionId"] as? String == session
            if hit { taken.append(e["params"] as? [String: Any] ?? [:]) }
            return hit
        }
        // Unclaimed events of other kinds are dropped once they pile up, so memory stays bounded.
        if events.count > 10_000 { events.removeFirst(events.count - 10_000) }
        return taken
    }
}
