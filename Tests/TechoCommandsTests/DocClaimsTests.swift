// End to end: claims of the README, docs/contract.md and docs/templates.md that no other test
// asserted. Each runs the real binary (or, where only the count of something matters, the same
// command in process) and reads back what the claim says: the stored page, the exported pixels,
// what the binary printed on a terminal.
import Foundation
import TechoCodecs
import TechoCommands
import TechoExport
import TechoModel
import TechoRaster
import TechoRender
import TechoTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct DocClaimsTests {
    func ok(_ ws: Workspace, _ args: [String], env: [String: String] = [:]) throws -> String {
        let r = try ws.run(args, environment: env)
        #expect(r.code == 0, "techo \(args.joined(separator: " ")): \(r.err)")
        return r.out
    }

    /// Four 50×50 quadrants: red top-left, green top-right, blue bottom-left, yellow bottom-right.
    func quadrantsPNG(_ ws: Workspace, _ name: String) throws {
        var bytes: [UInt8] = []
        for y in 0..<100 {
            for x in 0..<100 {
                let c: [UInt8] = y < 50 ? (x < 50 ? [255, 0, 0] : [0, 255, 0]) : (x < 50 ? [0, 0, 255] : [255, 255, 0])
                bytes += c + [255]
            }
        }
        try Data(try PNGEncoder.encode(Pixmap(width: 100, height: 100, straightRGBA: bytes), name: name)).write(to: ws.url(name))
    }

    // MARK: README: add photo --crop

    /// `add photo --crop X,Y,W,H` stores the crop (natural pixels) and the export shows only that
    /// part: the yellow quadrant fills the 50×50 photo, centred where it was put.
    @Test func addPhotoCropIsStoredAndExportedAsThePart() throws {
        let ws = try Workspace()
        try quadrantsPNG(ws, "q.png")
        _ = try ok(ws, ["init", "j.techo", "--size", "200x200"])
        #expect(try ok(ws, ["add", "photo", "j.techo", "p1", "q.png", "--crop", "50,50,50,50", "--at", "100,100"]) == "photo-1\n")
        guard case .photo(let p) = try #require(try ws.storedPage("j.techo/pages/p1.json").elements.first).content else {
            Issue.record("not a photo")
            return
        }
        #expect(p.crop == Rect(x: 50, y: 50, width: 50, height: 50), "\(String(describing: p.crop))")
        _ = try ok(ws, ["export", "j.techo", "-o", "out.png"])
        let img = try ws.image("out.png")
        for (x, y) in [(76, 76), (123, 76), (76, 123), (123, 123), (100, 100)] {
            let v = Workspace.straight(img, x, y)
            #expect(v.0 == 255 && v.1 == 255 && v.2 == 0, "(\(x), \(y)) is \(v), not the yellow part")
        }
        // Only the part: white page just outside it.
        for (x, y) in [(73, 100), (126, 100), (100, 73), (100, 126)] {
            let v = Workspace.straight(img, x, y)
            #expect(v.0 == 255 && v.1 == 255 && v.2 == 255, "(\(x), \(y)) is \(v)")
        }
    }

    // MARK: README: progress on a terminal

    /// Runs `techo ARGS` with its stderr on a new pseudo-terminal (stdout on a pipe); returns
    /// the exit code and what came out on the terminal.
    func runWithTerminalStderr(_ ws: Workspace, _ args: [String]) throws -> (code: Int32, terminal: String, out: String) {
        // libc's pseudo-terminal calls (which Swift's Glibc module does not declare).
        func libc<F>(_ name: String, as type: F.Type) throws -> F {
            unsafeBitCast(try #require(dlsym(nil, name), "no \(name) in libc"), to: type)
        }
        let openpt = try libc("posix_openpt", as: (@convention(c) (Int32) -> Int32).self)
        let grantpt = try libc("grantpt", as: (@convention(c) (Int32) -> Int32).self)
        let unlockpt = try libc("unlockpt", as: (@convention(c) (Int32) -> Int32).self)
        let ptsname = try libc("ptsname", as: (@convention(c) (Int32) -> UnsafeMutablePointer<CChar>?).self)
        let master = openpt(O_RDWR | O_NOCTTY | O_CLOEXEC)
        try #require(master >= 0, "posix_openpt: errno \(errno)")
        defer { close(master) }
        try #require(grantpt(master) == 0 && unlockpt(master) == 0)
        let name = String(cString: try #require(ptsname(master)))
        let slave = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC)
        try #require(slave >= 0, "open \(name): errno \(errno)")
        let p = Process()
        p.executableURL = Workspace.binary
        p.arguments = args
        p.currentDirectoryURL = ws.dir
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        p.standardInput = FileHandle.nullDevice
        do { try p.run() } catch {
            close(slave)
            throw error
        }
        close(slave)
        // The terminal reads to its end (EIO) once the child has closed its side.
        var terminal = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, 4096) }
            if n <= 0 { break }
            terminal += buffer[0..<n]
        }
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: terminal, as: UTF8.self), String(decoding: stdout, as: UTF8.self))
    }

    /// "Long exports show progress on stderr when it is a terminal": a three-page export with
    /// stderr on a pseudo-terminal counts the pages there, each over the last (`\r`); the same
    /// export with stderr on a pipe prints nothing on it. Standard output has the files either way.
    @Test func exportShowsProgressOnlyWhenStderrIsATerminal() throws {
        let ws = try Workspace()
        _ = try ok(ws, ["init", "j.techo", "--size", "60x40"])
        _ = try ok(ws, ["page", "add", "j.techo"])
        _ = try ok(ws, ["page", "add", "j.techo"])
        let tty = try runWithTerminalStderr(ws, ["export", "j.techo", "-o", "tty"])
        #expect(tty.code == 0, "\(tty.terminal)")
        for n in 1...3 { #expect(tty.terminal.contains("\rtecho: exported \(n)/3 pages"), "\(tty.terminal.debugDescription)") }
        #expect(tty.out.contains("01-p1.png") && !tty.out.contains("exported"), "\(tty.out)")
        let piped = try ws.run(["export", "j.techo", "-o", "pipe"])
        #expect(piped.code == 0)
        #expect(piped.err == "", "progress on a pipe: \(piped.err.debugDescription)")
        #expect(piped.out.contains("01-p1.png"))
    }

    // MARK: README: 100 history steps by default

    /// Runs techo in this process (as the fuzzer's operations target does): many commands, fast.
    func inProcess(_ ws: Workspace, _ args: [String]) -> (code: Int32, out: String, err: String) {
        var out = "", err = ""
        let io = CommandIO(out: { out += $0 }, err: { err += $0 }, currentDirectory: ws.dir.path)
        return (TechoCommands.Techo.main(["techo"] + args, io: io), out, err)
    }

    /// "History keeps 100 steps by default": `init` writes `"historyLimit": 100`, and a journal
    /// without the setting keeps the last 100 of 103 changes: `history` lists steps 4…103, and
    /// exactly 100 undos succeed.
    @Test func historyKeepsAHundredStepsByDefault() throws {
        let ws = try Workspace()
        _ = try ok(ws, ["init", "j.techo", "--size", "100x100"])
        let file = ws.url("j.techo/journal.json")
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        #expect((json["settings"] as? [String: Any])?["historyLimit"] as? Int == 100, "init wrote \(json["settings"] ?? "no settings")")
        // The same journal without the setting.
        json["settings"] = nil
        try JSONSerialization.data(withJSONObject: json).write(to: file)
        for i in 1...103 {
            let r = inProcess(ws, ["draw", "j.techo", "p1", "--tool", "line", "--from", "\(i % 90),1", "--to", "5,\(i % 90)"])
            try #require(r.code == 0, "draw \(i): \(r.err)")
        }
        let listed = inProcess(ws, ["history", "j.techo"]).out.split(separator: "\n")
        #expect(listed.count == 100, "\(listed.count) steps kept")
        #expect(listed.first?.hasPrefix("* 4\t") == true && listed.last?.hasPrefix("* 103\t") == true, "\(listed.first ?? "") … \(listed.last ?? "")")
        var undone = 0
        while inProcess(ws, ["undo", "j.techo"]).code == 0 && undone < 200 { undone += 1 }
        #expect(undone == 100)
    }

    // MARK: contract §15: TECHO_JOBS

    /// `TECHO_JOBS` reaches the exporter: with `TECHO_TIMINGS=1` the export reports the number
    /// of pages it renders at once, 1 or 2 for four pages as the variable says.
    @Test func techoJobsSetsTheExportsWorkers() throws {
        let ws = try Workspace()
        _ = try ok(ws, ["init", "j.techo", "--size", "60x40"])
        for _ in 0..<3 { _ = try ok(ws, ["page", "add", "j.techo"]) }
        // At most one per core: more would hold more pages in memory and render none sooner.
        let cores = ProcessInfo.processInfo.activeProcessorCount
        for jobs in [1, 2, 999] {
            let r = try ws.run(["export", "j.techo", "-o", "out\(jobs)"], environment: ["TECHO_JOBS": "\(jobs)", "TECHO_TIMINGS": "1"])
            #expect(r.code == 0, "\(r.err)")
            #expect(r.err.contains("techo: timings: pages 4, jobs \(min(jobs, cores)),"), "TECHO_JOBS=\(jobs): \(r.err)")
        }
    }

    /// Counts the pages being rendered: a page starts when the exporter asks its scale (just
    /// before it renders it) and ends when the exporter reports it done.
    final class PageCounter: @unchecked Sendable {
        let cond = NSCondition()
        var started = 0, finished = 0, peak = 0

        /// A page starts; the first `waitFor` wait (up to `seconds`) until that many have started.
        func start(waitFor: Int, seconds: Double) {
            cond.lock()
            defer { cond.unlock() }
            started += 1
            peak = max(peak, started - finished)
            cond.broadcast()
            guard started <= waitFor else { return }
            let deadline = Date(timeIntervalSinceNow: seconds)
            while started < waitFor && cond.wait(until: deadline) {}
        }

        func finish(_ message: String) {
            guard message.contains("exported") else { return }
            cond.lock()
            finished += 1
            cond.unlock()
        }
    }

    /// Exports `count` blank pages through the exporter with `TECHO_JOBS=jobs`; the first
    /// `waitFor` pages wait for one another (up to `seconds`). Returns the most pages that were
    /// being rendered at once.
    func peakPages(jobs: Int, count: Int, waitFor: Int, seconds: Double) throws -> Int {
        let ws = try Workspace()
        let pages = try (1...count).map { try Page(id: "p\($0)", size: PageSize(width: 40, height: 30), dpi: 72) }
        let outputs = (1...count).map { ws.url("p\($0).png") }
        var settings = ExportSettings.fromEnvironment(["TECHO_JOBS": "\(jobs)"])
        let counter = PageCounter()
        settings.scale = { _ in
            counter.start(waitFor: waitFor, seconds: seconds)
            return 1
        }
        let renderer = PageRenderer(assetURL: { _ in throw StorageError(path: "-", message: "no assets") }, composeThreads: 1)
        _ = try Exporter.run(
            pages: pages, outputs: outputs, title: "t", settings: settings, renderer: renderer, showProgress: true, err: counter.finish)
        #expect(counter.finished == count)
        return counter.peak
    }

    /// "`TECHO_JOBS` sets how many pages render at once", counted in the exporter: with 2, two
    /// pages are being rendered at the same moment (the first two wait for each other, at most
    /// 60 s, which only a broken exporter reaches); with 1, never more than one, although the
    /// first page waits half a second for a second to start (on this machine's cores the
    /// default would start one at once).
    @Test func techoJobsBoundsThePagesRenderedAtOnce() throws {
        #expect(try peakPages(jobs: 2, count: 6, waitFor: 2, seconds: 60) == 2)
        #expect(try peakPages(jobs: 1, count: 4, waitFor: 2, seconds: 0.5) == 1)
    }
}
