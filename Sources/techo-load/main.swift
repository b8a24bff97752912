// techo-load: `techo serve` under hostile and heavy load, measured from outside, over raw
// sockets. It makes a scratch journal with the techo binary it is given, starts `techo serve`
// on it, and runs one scenario:
//
//   lockout  296 connections without the token (200 that send nothing, 64 that send half a
//            request line, 32 that drip a byte every 2 s), and meanwhile a client with the token
//            asks GET /api/journal every 0.25 s: how long each answer took.
//   mixed    CLIENTS clients for SECONDS seconds, each in a loop: 35 % renders of the page at a
//            scale of 0.25, 0.5, 0.75 or 1, 55 % edits (a one-pixel pan of the client's own
//            sticker, a gesture), 10 % reads of the page. Then: every edit answered 200 is in
//            the journal exactly once (each sticker moved by exactly its count of pans), the
//            server's peak memory (VmHWM), and `techo check`.
//
// Usage: techo-load lockout|mixed --techo PATH [--clients N] [--seconds S] [--tries N]
// Prints medians, p95 and maxima in milliseconds; exits 1 if a target of the contract is missed.
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

// MARK: Arguments

var arguments = Array(CommandLine.arguments.dropFirst())
guard let scenario = arguments.first, ["lockout", "mixed"].contains(scenario) else {
    FileHandle.standardError.write(Data("usage: techo-load lockout|mixed --techo PATH [--clients N] [--seconds S] [--tries N]\n".utf8))
    exit(64)
}
func option(_ name: String) -> String? {
    guard let i = arguments.firstIndex(of: "--" + name), i + 1 < arguments.count else { return nil }
    return arguments[i + 1]
}
let techoPath = option("techo") ?? ".build/release/techo"
let clients = Int(option("clients") ?? "") ?? 50
let seconds = Double(option("seconds") ?? "") ?? 30
let tries = Int(option("tries") ?? "") ?? 40

// MARK: Helpers

@Sendable func now() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

@discardableResult
func run(_ args: [String], stdout: FileHandle? = nil) throws -> (Int32, String) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: techoPath)
    p.arguments = args
    let out = Pipe()
    p.standardOutput = stdout ?? out
    p.standardError = FileHandle.nullDevice
    try p.run()
    let data = stdout == nil ? out.fileHandleForReading.readDataToEndOfFile() : Data()
    p.waitUntilExit()
    return (p.terminationStatus, String(decoding: data, as: UTF8.self))
}

/// Median, p95 and max of `values` (seconds) in milliseconds.
func summary(_ values: [Double]) -> String {
    guard !values.isEmpty else { return "none" }
    let s = values.sorted()
    func q(_ p: Double) -> Double { s[min(s.count - 1, Int((Double(s.count - 1) * p).rounded()))] * 1000 }
    return String(format: "n %d  median %.1f ms  p95 %.1f ms  max %.1f ms", s.count, q(0.5), q(0.95), s.last! * 1000)
}

func p95(_ values: [Double]) -> Double {
    let s = values.sorted()
    return s.isEmpty ? 0 : s[min(s.count - 1, Int((Double(s.count - 1) * 0.95).rounded()))]
}

/// A TCP connection to 127.0.0.1:port.
final class Connection {
    let fd: Int32
    init?(port: UInt16, timeout: Int = 30) {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if fd < 0 { return nil }
        var tv = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr)
        let ok = withUnsafePointer(to: &addr) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if ok != 0 {
            close(fd)
            return nil
        }
    }
    deinit { close(fd) }

    func send(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return false }
            sent += n
        }
        return true
    }

    /// Reads to the end (the server closes after each response); the status, or nil.
    func readStatus() -> (Int, [UInt8])? {
        var all: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            all += chunk[..<n]
        }
        guard all.count > 12, let code = Int(String(decoding: all[9..<12], as: UTF8.self)) else { return nil }
        let body = all.firstRange(of: [13, 10, 13, 10]).map { Array(all[$0.upperBound...]) } ?? []
        return (code, body)
    }
}

struct Server {
    let process: Process
    let port: UInt16
    let token: String

    func request(_ method: String, _ target: String, json: String? = nil) -> (Int, [UInt8])? {
        guard let c = Connection(port: port) else { return nil }
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX-Techo-Token: \(token)\r\n"
        let body = Array((json ?? "").utf8)
        if json != nil { head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n" }
        guard c.send(Array((head + "\r\n").utf8) + body) else { return nil }
        return c.readStatus()
    }

    /// The server's resident memory now and at its peak, in MiB.
    func memory() -> (now: Double, peak: Double) {
        let text = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
        func field(_ name: String) -> Double {
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(name) }) else { return 0 }
            return (Double(line.split(separator: " ").dropFirst().first ?? "0") ?? 0) / 1024
        }
        return (field("VmRSS:"), field("VmHWM:"))
    }
}

func startServer(_ journal: String) throws -> Server {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: techoPath)
    p.arguments = ["serve", journal, "--port", "0"]
    let out = Pipe()
    p.standardOutput = out
    p.standardError = FileHandle.nullDevice
    try p.run()
    var line = [UInt8]()
    while line.last != 10 {
        let d = out.fileHandleForReading.readData(ofLength: 1)
        if d.isEmpty { break }
        line += d
    }
    let url = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    guard let colon = url.range(of: ":", options: .backwards, range: url.index(url.startIndex, offsetBy: 7)..<url.endIndex),
        let slash = url[colon.upperBound...].firstIndex(of: "/"), let port = UInt16(url[colon.upperBound..<slash]),
        let token = url.components(separatedBy: "token=").last
    else { throw NSError(domain: "techo-load", code: 1, userInfo: [NSLocalizedDescriptionKey: "techo serve printed '\(url)'"]) }
    return Server(process: p, port: port, token: token)
}

// MARK: The journal

let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("techo-load-\(getpid())")
try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: scratch) }
let journal = scratch.appendingPathComponent("load.techo").path
try run(["init", journal, "--title", "Load", "--size", "1200x1600", "--dpi", "150"])
let stickers = 10
for k in 0..<stickers {
    try run(["add", "washi", journal, "p1", "--from", "\(100 + k * 90),100", "--to", "\(160 + k * 90),700", "--width", "40"])
}
for k in 0..<4 { try run(["add", "text", journal, "p1", "Line \(k) of the load page", "--at", "600,\(900 + k * 120)", "--size", "48"]) }
let server = try startServer(journal)
defer {
    server.process.terminate()
    server.process.waitUntilExit()
}
print("techo-load \(scenario): techo serve on port \(server.port), pid \(server.process.processIdentifier)")

var failed = false

// MARK: lockout

if scenario == "lockout" {
    var held: [Connection] = []
    for _ in 0..<200 { if let c = Connection(port: server.port) { held.append(c) } }
    for _ in 0..<64 {
        if let c = Connection(port: server.port) {
            _ = c.send(Array("GET /api/jour".utf8))
            held.append(c)
        }
    }
    var drippers: [Connection] = []
    for _ in 0..<32 {
        if let c = Connection(port: server.port) {
            _ = c.send(Array("G".utf8))
            drippers.append(c)
        }
    }
    print("  held \(held.count + drippers.count) connections without the token")
    var times: [Double] = []
    var missed = 0
    var lastDrip = now()
    for _ in 0..<tries {
        if now() - lastDrip > 2 {
            for d in drippers { _ = d.send(Array("E".utf8)) }
            lastDrip = now()
        }
        let t0 = now()
        let r = server.request("GET", "/api/journal")
        let took = now() - t0
        if r?.0 == 200 { times.append(took) } else { missed += 1 }
        if took > 1 { missed += r?.0 == 200 ? 1 : 0 }
        usleep(250_000)
    }
    // The attackers' connections are still open (or were closed by the server to make room).
    withExtendedLifetime(held) {}
    print("  token client, GET /api/journal: \(summary(times)); not served within 1 s: \(missed) of \(tries)")
    let m = server.memory()
    print(String(format: "  server memory: %.0f MiB now, %.0f MiB peak", m.now, m.peak))
    failed = missed > 0
}

// MARK: mixed

if scenario == "mixed" {
    final class Results: @unchecked Sendable {
        let lock = NSLock()
        var renders: [Double] = [], edits: [Double] = [], reads: [Double] = []
        var editsOK = [Int](repeating: 0, count: 64)
        var errors: [String: Int] = [:]
        var peak = 0.0
        func add(_ kind: String, _ t: Double, _ status: Int?) {
            lock.lock()
            defer { lock.unlock() }
            guard status == 200 else {
                errors["\(kind) \(status.map(String.init) ?? "no answer")", default: 0] += 1
                return
            }
            switch kind {
            case "render": renders.append(t)
            case "edit": edits.append(t)
            default: reads.append(t)
            }
        }
    }
    let results = Results()
    /// Each sticker's horizontal position (the tx of its transform), from the server.
    func positions() -> [String: Double] {
        guard let (_, body) = server.request("GET", "/api/pages/p1"),
            let o = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any], let elements = o["elements"] as? [[String: Any]]
        else { return [:] }
        var out: [String: Double] = [:]
        for e in elements { if let id = e["id"] as? String, let t = e["transform"] as? [Double], t.count == 6 { out[id] = t[4] } }
        return out
    }
    let before = positions()
    let stop = now() + seconds
    let group = DispatchGroup()
    let watcher = Thread {
        while now() < stop + 1 {
            let m = server.memory().now
            results.lock.lock()
            results.peak = max(results.peak, m)
            results.lock.unlock()
            usleep(100_000)
        }
    }
    watcher.start()
    for k in 0..<clients {
        group.enter()
        let thread = Thread {
            var rng = SystemRandomNumberGenerator()
            let sticker = "washi-\(k % stickers + 1)"
            while now() < stop {
                let x = Double.random(in: 0..<1, using: &rng)
                let t0 = now()
                if x < 0.35 {
                    let scale = [0.25, 0.5, 0.75, 1][Int.random(in: 0..<4, using: &rng)]
                    let r = server.request("GET", "/api/pages/p1/render?scale=\(scale)")
                    results.add("render", now() - t0, r?.0)
                } else if x < 0.90 {
                    let r = server.request(
                        "POST", "/api/pages/p1/gesture",
                        json: "{\"element\": \"\(sticker)\", \"events\": [{\"gesture\": \"pan\", \"state\": \"changed\", \"translation\": [1, 0]}]}")
                    results.add("edit", now() - t0, r?.0)
                    if r?.0 == 200 {
                        results.lock.lock()
                        results.editsOK[k % stickers] += 1
                        results.lock.unlock()
                    }
                } else {
                    let r = server.request("GET", "/api/pages/p1")
                    results.add("read", now() - t0, r?.0)
                }
            }
            group.leave()
        }
        thread.start()
    }
    group.wait()
    usleep(1_200_000)
    print("  \(clients) clients, \(Int(seconds)) s")
    print("  renders: \(summary(results.renders))")
    print("  edits:   \(summary(results.edits))")
    print("  reads:   \(summary(results.reads))")
    print("  errors:  \(results.errors.isEmpty ? "none" : results.errors.map { "\($0.key): \($0.value)" }.sorted().joined(separator: ", "))")
    let m = server.memory()
    print(String(format: "  server memory: %.0f MiB now, %.0f MiB peak (VmHWM), %.0f MiB peak seen", m.now, m.peak, results.peak))
    // Every edit answered 200 is in the journal once: each sticker moved by exactly its count.
    let after = positions()
    var lostOrDoubled = 0
    for k in 0..<stickers {
        let id = "washi-\(k + 1)"
        let moved = (after[id] ?? .nan) - (before[id] ?? .nan)
        if abs(moved - Double(results.editsOK[k])) > 1e-6 { lostOrDoubled += 1 }
    }
    let ok = results.editsOK.reduce(0, +)
    print("  edits answered 200: \(ok); stickers not moved by exactly their count of edits: \(lostOrDoubled) of \(stickers)")
    let (checked, _) = try run(["check", journal])
    print("  techo check: exit \(checked)")
    failed =
        lostOrDoubled > 0 || checked != 0 || p95(results.edits) > 0.5 || p95(results.renders) > 2 || m.peak > 400
        || !results.errors.isEmpty
}

print(failed ? "techo-load: a target was missed" : "techo-load: every target met")
exit(failed ? 1 : 0)
