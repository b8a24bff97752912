// One sticker moved on a crowded page: what a change costs when the page holds much more than
// the change touches. The journal is made here, deterministically (SplitMix64): one A5 page with
// 50 stickers of one small PNG and one ink layer of 5,000 pencil strokes with pressure, as a
// page of small handwriting is (each stroke 6–60 px long, log-uniform, a point about every
// 10 px as a pen at writing speed gives at 60 Hz; coordinates to 0.01 px and pressure to 0.001,
// as the editor rounds them). Then, over several runs with medians:
//   (a) `techo --version` (the process start-up every command pays),
//   (b) `techo gesture J p1 STICKER --pan 5,3`, alternating with `--pan -5,-3` so every run is
//       a real edit,
//   (c) the same move through the library (`JournalEditor`): opened and moved, and moved again
//       on an editor already open; and on an open store with fsync off (`durable = false`),
//       which leaves out the disk flushes whose latency the machine's other writers decide,
//   (d) the move through a running `techo serve`'s gesture route (a POST, timed from the
//       request to the response; the server has answered one gesture before, so it holds the
//       journal), with the server's own CPU time per request.
// TECHO_BENCH_BASELINE=PATH names another techo binary (an older build) whose CLI and server
// runs are alternated with these, each on its own copy of the journal: before/after figures
// taken under the same load.
// Files go to bench-out/move/ in the current folder.
import Foundation
import Techo
import TechoCodecs
import TechoEditing
import TechoGeometry
import TechoModel
import TechoRaster

#if canImport(Glibc)
    import Glibc
#endif

/// The crowded page's journal at `url` (made anew).
func makeCrowdedJournal(at url: URL, stickers: Int = 50, strokes: Int = 5000) throws {
    try? FileManager.default.removeItem(at: url)
    var rng = SplitMix64(seed: 0x7EC0_5EED)
    // A 96 px round sticker with a soft edge: a small PNG with alpha.
    var pixmap = Pixmap(width: 96, height: 96)
    for y in 0..<96 {
        for x in 0..<96 {
            let d = ((Double(x) - 47.5) * (Double(x) - 47.5) + (Double(y) - 47.5) * (Double(y) - 47.5)).squareRoot()
            let a = UInt8(max(0, min(255, (46 - d) * 64)))
            // Premultiplied: a warm pink scaled by coverage.
            pixmap.setPixel(x, y, (UInt8(Int(a) * 232 / 255), UInt8(Int(a) * 160 / 255), UInt8(Int(a) * 160 / 255), a))
        }
    }
    let png = try PNGEncoder.encode(pixmap)
    let asset = try AssetImport(bytes: png, ext: "png")
    func round(_ v: Double, _ by: Double) -> Double { (v * by).rounded() / by }
    func sticker(_ n: Int) throws -> Element {
        // Placements as gestures leave them: any double, not round numbers.
        let placement = try Placement(
            center: Point(rng.uniform(80...1668), rng.uniform(80...2400)), scale: rng.uniform(0.4...1.6),
            rotation: rng.uniform(-179...180), flipH: rng.next() % 5 == 0)
        return try Element(
            id: "image-\(n)", content: .image(ImageContent(asset: asset.ref, naturalWidth: 96, naturalHeight: 96)),
            placement: placement)
    }
    let palette = try ["#2b2b2b", "#e07a5f", "#3d405b", "#81b29a", "#1d3557"].map { try RGBA(parsing: $0) }
    var ink: [Stroke] = []
    ink.reserveCapacity(strokes)
    for _ in 0..<strokes {
        let length = 6 * pow(10, rng.unit())  // 6…60 px, log-uniform
        let n = max(2, Int((length / 10).rounded()) + 1)
        var x = rng.uniform(60...1688), y = rng.uniform(60...2420)
        var angle = rng.uniform(-Double.pi...Double.pi)
        var pressure = rng.uniform(0.2...0.9)
        var points: [StrokePoint] = []
        for _ in 0..<n {
            points.append(StrokePoint(round(x, 100), round(y, 100), pressure: round(pressure, 1000)))
            let step = length / Double(n - 1)
            angle += rng.uniform(-0.6...0.6)
            x += step * cos(angle); y += step * sin(angle)
            pressure = min(1, max(0.05, pressure + rng.uniform(-0.08...0.08)))
        }
        ink.append(
            try Stroke(
                tool: .pencil, color: palette[Int(rng.next() % UInt64(palette.count))], width: [2, 3, 4, 6][Int(rng.next() % 4)],
                points: points))
    }
    var elements = try (1...stickers / 2).map(sticker)
    elements.append(try Element(id: "ink-1", content: .ink(InkContent(strokes: ink))))
    elements += try (stickers / 2 + 1...stickers).map(sticker)
    let page = try Page(
        id: "p1", size: PageSize(parsing: "A5", dpi: 300),
        background: Background(color: try RGBA(parsing: "#f6f0e4"), paper: try Paper(pattern: .dots, spacing: 59)), elements: elements)
    _ = try JournalStore.create(at: url, journal: Journal(title: "crowded", pageOrder: ["p1"]), pages: [page], assets: [asset])
}

private func median(_ v: [Double]) -> Double {
    let s = v.sorted()
    return s.isEmpty ? .nan : s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

private func ms(_ v: [Double]) -> String {
    String(format: "%7.1f ms (min %.1f, max %.1f)", median(v) * 1000, (v.min() ?? .nan) * 1000, (v.max() ?? .nan) * 1000)
}

/// This process's CPU time (user + system, all threads), seconds.
private func processCPU() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

private func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

/// CPU time (user + system) of process `pid` so far, all threads, ended ones included
/// (/proc/PID/stat, in clock ticks of 10 ms: only a total over many requests is exact enough).
private func cpuOf(_ pid: pid_t) -> Double {
    guard let s = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = s.lastIndex(of: ")") else { return .nan }
    // Fields after the command name: state is field 3; utime and stime are fields 14 and 15.
    let fields = s[s.index(after: close)...].split(separator: " ")
    guard fields.count > 13, let u = Double(fields[11]), let k = Double(fields[12]) else { return .nan }
    return (u + k) / Double(sysconf(Int32(_SC_CLK_TCK)))
}

/// One HTTP/1.1 request over a fresh loopback connection; the status code and the seconds from
/// connecting to the last byte of the response.
private func httpRequest(port: UInt16, _ text: [UInt8]) -> (status: Int, seconds: Double, body: String) {
    let start = now()
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return (-1, 0, "") }
    defer { close(fd) }
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_port = port.bigEndian
    addr.sin_addr.s_addr = inet_addr("127.0.0.1")
    let ok = withUnsafePointer(to: &addr) { p in
        p.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
    }
    guard ok else { return (-1, 0, "") }
    var sent = 0
    while sent < text.count {
        let n = text.withUnsafeBytes { send(fd, $0.baseAddress! + sent, text.count - sent, 0) }
        guard n > 0 else { return (-1, 0, "") }
        sent += n
    }
    var response: [UInt8] = []
    var buf = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = buf.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
        if n <= 0 { break }
        response += buf[0..<n]
    }
    let seconds = now() - start
    let s = String(decoding: response, as: UTF8.self)
    let status = s.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) } ?? -1
    let body = s.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n")
    return (status, seconds, body)
}

/// Starts `argv` with stdout and stderr to files; returns its pid.
private func spawnDetached(_ argv: [String], stdout: String, stderr: String) -> pid_t? {
    let cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
    defer { cArgs.forEach { free($0) } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    var pid: pid_t = 0
    guard posix_spawnp(&pid, argv[0], &actions, nil, cArgs, environ) == 0 else { return nil }
    return pid
}

/// A `techo serve` started by the bench.
private struct BenchServer {
    var pid: pid_t
    var port: UInt16
    var token: String

    /// POSTs a pan of `element` by (dx, dy) to the gesture route.
    func postPan(_ element: String, _ dx: Int, _ dy: Int) -> (status: Int, seconds: Double, body: String) {
        let body = #"{"element":"\#(element)","events":[{"gesture":"pan","state":"changed","translation":[\#(dx),\#(dy)]}]}"#
        let head =
            "POST /api/pages/p1/gesture HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX-Techo-Token: \(token)\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
        return httpRequest(port: port, Array((head + body).utf8))
    }

    func stop() {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }
}

/// Starts `techo serve` on `journal` on any free port and reads its URL.
private func startServer(_ techo: String, journal: URL, dir: URL, name: String) -> BenchServer? {
    let urlFile = dir.appendingPathComponent("\(name).url").path, logFile = dir.appendingPathComponent("\(name).log").path
    guard let pid = spawnDetached([techo, "serve", journal.path, "--port", "0"], stdout: urlFile, stderr: logFile) else {
        print("  cannot start techo serve")
        return nil
    }
    var url = ""
    for _ in 0..<300 {
        if let s = try? String(contentsOfFile: urlFile, encoding: .utf8), s.contains("\n") { url = s; break }
        usleep(20_000)
    }
    guard let tokenRange = url.range(of: "token="), let portStart = url.range(of: "127.0.0.1:"),
        let port = UInt16(url[portStart.upperBound...].prefix { $0.isNumber })
    else {
        print("  techo serve did not print its URL: \((try? String(contentsOfFile: logFile, encoding: .utf8)) ?? "")")
        kill(pid, SIGTERM)
        return nil
    }
    return BenchServer(pid: pid, port: port, token: url[tokenRange.upperBound...].trimmingCharacters(in: .whitespacesAndNewlines))
}

/// The size of the newest history step of the journal at `journal`.
private func lastStepBytes(_ journal: String) -> Int? {
    guard let state = try? Data(contentsOf: URL(fileURLWithPath: journal + "/history/state.json")),
        case .object(let o)? = try? JSONParser.parse([UInt8](state)), case .number(let n)? = o["current"]
    else { return nil }
    let attrs = try? FileManager.default.attributesOfItem(atPath: journal + "/history/\(Int(n)).json")
    return (attrs?[.size] as? NSNumber)?.intValue
}

func moveBench() {
    let bin = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    let techo = bin.appendingPathComponent("techo").path
    guard FileManager.default.isExecutableFile(atPath: techo) else {
        print("  needs techo beside techo-bench (make bench builds it)")
        return
    }
    let dir = URL(fileURLWithPath: "bench-out/move", relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).standardizedFileURL
    let runs = Int(ProcessInfo.processInfo.environment["TECHO_BENCH_RUNS"] ?? "") ?? 15
    let journal = dir.appendingPathComponent("crowded.techo")
    do {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try makeCrowdedJournal(at: journal)
        func size(_ name: String) -> Double {
            Double((try? FileManager.default.attributesOfItem(atPath: journal.path + "/pages/" + name)[.size] as? NSNumber)?.intValue ?? 0) / 1e6
        }
        print(
            String(
                format: "  page: 50 stickers (one 96 px PNG), 1 ink layer of 5000 pencil strokes; page file %.3f MB, ink file %.2f MB",
                size("p1.json"), size("p1.ink.json")))
        if let load = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8).split(separator: " ").first {
            print("  machine: \(ProcessInfo.processInfo.activeProcessorCount) cores, load average \(load) before the runs")
        }
        let sticker = "image-3"

        // TECHO_BENCH_BASELINE=PATH: another techo binary (an older build) whose gesture and
        // server runs are alternated with this one's, each on its own copy of the journal.
        let baseline = ProcessInfo.processInfo.environment["TECHO_BENCH_BASELINE"].flatMap { FileManager.default.isExecutableFile(atPath: $0) ? $0 : nil }
        let baseJournal = dir.appendingPathComponent("crowded-baseline.techo")
        if baseline != nil {
            try? FileManager.default.removeItem(at: baseJournal)
            try FileManager.default.copyItem(at: journal, to: baseJournal)
            // A version 1 techo reads the page whole, its strokes in its page file.
            let jpath = baseJournal.appendingPathComponent("journal.json")
            let text = try String(contentsOf: jpath, encoding: .utf8)
            try text.replacingOccurrences(of: "\"techo\": \(Journal.currentFormatVersion)", with: "\"techo\": 1").write(
                to: jpath, atomically: true, encoding: .utf8)
            let pagePath = baseJournal.appendingPathComponent("pages/p1.json"), inkPath = baseJournal.appendingPathComponent("pages/p1.ink.json")
            let page = try Page.decode(
                pageFile: [UInt8](try Data(contentsOf: pagePath)), inkFile: (try? Data(contentsOf: inkPath)).map { [UInt8]($0) }, id: "p1")
            try Data(page.serialized()).write(to: pagePath)
            try? FileManager.default.removeItem(at: inkPath)
        }

        // (a) and (b), alternated run by run so all see the same machine.
        var version: [ChildRun] = [], gesture: [ChildRun] = [], baseVersion: [ChildRun] = [], baseGesture: [ChildRun] = []
        for i in 0...runs {
            let v = runChild([techo, "--version"])
            let pan = i % 2 == 0 ? "5,3" : "-5,-3"
            let g = runChild([techo, "gesture", journal.path, "p1", sticker, "--pan", pan])
            guard v.status == 0, g.status == 0 else { print("  failed: \(v.stderr)\(g.stderr)"); return }
            if i > 0 { version.append(v); gesture.append(g) }
            if let baseline {
                let bv = runChild([baseline, "--version"])
                let bg = runChild([baseline, "gesture", baseJournal.path, "p1", sticker, "--pan", pan])
                guard bv.status == 0, bg.status == 0 else { print("  baseline failed: \(bv.stderr)\(bg.stderr)"); return }
                if i > 0 { baseVersion.append(bv); baseGesture.append(bg) }
            }
        }
        func added(_ g: [ChildRun], _ v: [ChildRun]) -> String {
            String(
                format: "      the move adds %.1f ms wall, %.1f ms CPU to start-up (medians of %d, each after a warm-up)",
                (median(g.map(\.seconds)) - median(v.map(\.seconds))) * 1000, (median(g.map(\.cpu)) - median(v.map(\.cpu))) * 1000, g.count)
        }
        print("  (a) techo --version                  wall \(ms(version.map(\.seconds))), CPU \(ms(version.map(\.cpu)))")
        print("  (b) techo gesture --pan (CLI)        wall \(ms(gesture.map(\.seconds))), CPU \(ms(gesture.map(\.cpu)))")
        print(added(gesture, version))
        if let step = lastStepBytes(journal.path) { print("      history step: \(step) bytes") }
        if baseline != nil {
            print("      baseline techo --version         wall \(ms(baseVersion.map(\.seconds))), CPU \(ms(baseVersion.map(\.cpu)))")
            print("      baseline techo gesture           wall \(ms(baseGesture.map(\.seconds))), CPU \(ms(baseGesture.map(\.cpu)))")
            print(added(baseGesture, baseVersion))
            if let step = lastStepBytes(baseJournal.path) { print("      baseline history step: \(step) bytes") }
        }

        // (c) The library, in this process.
        var openWall: [Double] = [], openCPU: [Double] = [], heldWall: [Double] = [], heldCPU: [Double] = []
        for i in 0...runs {
            let g: [Gesture] = [.pan(dx: i % 2 == 0 ? 5 : -5, dy: i % 2 == 0 ? 3 : -3)]
            let t0 = now(), c0 = processCPU()
            let editor = try JournalEditor.open(journal)
            try editor.apply(g, to: sticker, on: "p1")
            if i > 0 { openWall.append(now() - t0); openCPU.append(processCPU() - c0) }
        }
        let held = try JournalEditor.open(journal)
        for i in 0...runs {
            let g: [Gesture] = [.pan(dx: i % 2 == 0 ? 5 : -5, dy: i % 2 == 0 ? 3 : -3)]
            let t0 = now(), c0 = processCPU()
            try held.apply(g, to: sticker, on: "p1")
            if i > 0 { heldWall.append(now() - t0); heldCPU.append(processCPU() - c0) }
        }
        print("  (c) JournalEditor.open + apply       wall \(ms(openWall)), CPU \(ms(openCPU))")
        print("      apply on an open JournalEditor   wall \(ms(heldWall)), CPU \(ms(heldCPU))")
        // The same change on an open store without fsync: what is left when the disk flushes
        // (whose latency the machine's other writers decide) are taken away.
        let store = try JournalStore.open(journal)
        store.durable = false
        var fastWall: [Double] = [], fastCPU: [Double] = []
        for i in 0...runs {
            let t0 = now(), c0 = processCPU()
            try store.transaction(description: "gesture \(sticker)") { _, pages in
                guard var page = pages["p1"] else { return }
                try PageEdits.move(sticker, on: &page, by: [.pan(dx: i % 2 == 0 ? 5 : -5, dy: i % 2 == 0 ? 3 : -3)])
                pages["p1"] = page
            }
            if i > 0 { fastWall.append(now() - t0); fastCPU.append(processCPU() - c0) }
        }
        print("      the same on an open store, no fsync  wall \(ms(fastWall)), CPU \(ms(fastCPU))")

        // (d) A running server (and the baseline's, alternated request by request).
        guard let server = startServer(techo, journal: journal, dir: dir, name: "serve") else { return }
        defer { server.stop() }
        let baseServer = baseline.flatMap { startServer($0, journal: baseJournal, dir: dir, name: "serve-baseline") }
        defer { baseServer?.stop() }
        var serverWall: [Double] = [], baseWall: [Double] = []
        var cpuBefore = 0.0, baseCPUBefore = 0.0
        for i in 0...runs {
            if i == 1 {
                cpuBefore = cpuOf(server.pid)
                baseCPUBefore = baseServer.map { cpuOf($0.pid) } ?? 0
            }
            let (dx, dy) = i % 2 == 0 ? (5, 3) : (-5, -3)
            let r = server.postPan(sticker, dx, dy)
            guard r.status == 200 else { print("  POST gesture failed: \(r.status) \(r.body)"); return }
            if i > 0 { serverWall.append(r.seconds) }
            if let baseServer {
                let b = baseServer.postPan(sticker, dx, dy)
                guard b.status == 200 else { print("  baseline POST gesture failed: \(b.status) \(b.body)"); return }
                if i > 0 { baseWall.append(b.seconds) }
            }
        }
        let serverCPU = (cpuOf(server.pid) - cpuBefore) / Double(runs)
        print(String(format: "  (d) POST /api/pages/p1/gesture       wall \(ms(serverWall)), server CPU %.1f ms a request (mean)", serverCPU * 1000))
        if let step = lastStepBytes(journal.path) { print("      history step: \(step) bytes") }
        if let baseServer {
            let baseCPU = (cpuOf(baseServer.pid) - baseCPUBefore) / Double(runs)
            print(String(format: "      baseline POST gesture            wall \(ms(baseWall)), server CPU %.1f ms a request (mean)", baseCPU * 1000))
        }
    } catch {
        print("  move bench failed: \(error)")
    }
}
