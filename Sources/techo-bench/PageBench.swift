// The reference page, end to end: whole-process wall time of `techo export` (median of runs
// after a warm-up, min-max), peak memory (max RSS of the child, from wait4), output size and the
// exporter's phase split (TECHO_TIMINGS=1); 20 pages on 1 core against 2; time against page count;
// and rsvg-convert rendering an equivalent SVG of the same page, when it is installed.
//
// Files go to bench-out/page/ in the current folder; the pictures are made by techo-assets.
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One finished child process.
struct ChildRun {
    var seconds: Double
    /// Peak resident memory, MiB (ru_maxrss).
    var maxRSS: Double
    /// User + system CPU seconds of the child.
    var cpu: Double
    var status: Int32
    var stderr: String
}

/// Spawns `argv` (looked up in PATH when it has no slash) with `env` (nil: ours), optionally
/// redirecting stdout and stderr to files, and waits for it: (exit status, rusage, wall seconds).
private func spawnAndWait(_ argv: [String], env: [String]?, stdout: String?, stderr: String?) -> (Int32, rusage, Double)? {
    let cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
    let cEnv: [UnsafeMutablePointer<CChar>?]? = env.map { $0.map { strdup($0) } + [nil] }
    defer {
        cArgs.forEach { free($0) }
        cEnv?.forEach { free($0) }
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    if let stdout { posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
    if let stderr { posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
    var pid: pid_t = 0
    let start = DispatchTime.now().uptimeNanoseconds
    let rc = cEnv.map { e in posix_spawnp(&pid, argv[0], &actions, nil, cArgs, e) } ?? posix_spawnp(&pid, argv[0], &actions, nil, cArgs, environ)
    guard rc == 0 else { return nil }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    let exit = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    return (exit, usage, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
}

/// `techo-bench --measure RESULT COMMAND…`: runs COMMAND and writes "wall maxrss-KiB cpu status"
/// to RESULT. The bench measures through this small process because on Linux a child's
/// ru_maxrss also counts the memory of the process that spawned it (the spawner's address space
/// is what exec replaces), and the bench itself grows large; this one stays small.
func measureMain(_ args: [String]) -> Never {
    guard args.count >= 2, let r = spawnAndWait(Array(args[1...]), env: nil, stdout: nil, stderr: nil) else { exit(70) }
    let (status, u, wall) = r
    let cpu = Double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + Double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6
    try? Data("\(wall) \(u.ru_maxrss) \(cpu) \(status)\n".utf8).write(to: URL(fileURLWithPath: args[0]))
    exit(status)
}

/// Runs `argv` with `env` added to ours; stdout to /dev/null, stderr captured. Wall time, CPU
/// time and peak memory are the command's own (see `measureMain`).
func runChild(_ argv: [String], env extra: [String: String] = [:]) -> ChildRun {
    let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("techo-bench-\(getpid())-\(UUID().uuidString)").path
    let errPath = tmp + ".err", resultPath = tmp + ".result"
    defer {
        unlink(errPath)
        unlink(resultPath)
    }
    var env = ProcessInfo.processInfo.environment
    for (k, v) in extra { env[k] = v }
    let me = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
    guard spawnAndWait([me, "--measure", resultPath] + argv, env: env.map { "\($0.key)=\($0.value)" }, stdout: "/dev/null", stderr: errPath) != nil,
        let fields = try? String(contentsOfFile: resultPath, encoding: .utf8).split(separator: " "), fields.count == 4,
        let wall = Double(fields[0]), let rss = Double(fields[1]), let cpu = Double(fields[2]),
        let status = Int32(fields[3].trimmingCharacters(in: .whitespacesAndNewlines))
    else {
        return ChildRun(seconds: 0, maxRSS: 0, cpu: 0, status: -1, stderr: "cannot run \(argv[0])")
    }
    let err = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
    return ChildRun(seconds: wall, maxRSS: rss / 1024, cpu: cpu, status: status, stderr: err)
}

/// Several runs after `warmups` unmeasured ones; fails loudly when a run fails.
func measureRuns(_ argv: [String], env: [String: String] = [:], runs: Int, warmups: Int = 1, prepare: (Int) -> Void = { _ in }) -> [ChildRun]? {
    var out: [ChildRun] = []
    for i in 0..<(warmups + runs) {
        prepare(i)
        let r = runChild(argv, env: env)
        guard r.status == 0 else {
            print("  failed (exit \(r.status)): \(argv.joined(separator: " "))\n  \(r.stderr)")
            return nil
        }
        if i >= warmups { out.append(r) }
    }
    return out
}

/// The median; NaN for no values.
func medianOf(_ v: [Double]) -> Double {
    guard !v.isEmpty else { return .nan }
    let s = v.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

/// Median wall time of the runs, min-max, CPU and peak memory, on one line.
func runSummary(_ runs: [ChildRun]) -> String {
    let t = runs.map(\.seconds)
    return String(
        format: "%.3f s median of %d (min %.3f, max %.3f), CPU %.3f s, peak RSS %.1f MiB",
        medianOf(t), runs.count, t.min() ?? 0, t.max() ?? 0, medianOf(runs.map(\.cpu)), runs.map(\.maxRSS).max() ?? 0)
}

/// The value after `key ` in a TECHO_TIMINGS line ("… decode 0.0912 s, …").
private func timing(_ key: String, in text: String) -> Double? {
    guard let line = text.split(separator: "\n").last(where: { $0.hasPrefix("techo: timings:") }),
        let r = line.range(of: " \(key) ")
    else { return nil }
    return Double(line[r.upperBound...].prefix { $0 == "." || $0.isNumber })
}

func fileSize(_ path: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? NSNumber)?.intValue ?? 0
}

/// Runs a techo command and rsvg-convert one after the other, `runs` times after a warm-up of
/// each, so both see the same machine; `prepare(i)` runs before the i-th techo run (unmeasured).
/// Returns the techo runs and the rsvg-convert runs (none when it is not installed).
private func alternated(
    _ argv: [String], rsvg: [String]?, env: [String: String] = [:], runs: Int,
    prepare: (Int) -> Void = { _ in }
) -> (techo: [ChildRun], rsvg: [ChildRun])? {
    var techo: [ChildRun] = [], other: [ChildRun] = []
    for i in 0...runs {
        prepare(i)
        let t = runChild(argv, env: env)
        guard t.status == 0 else {
            print("  failed (exit \(t.status)): \(argv.joined(separator: " "))\n  \(t.stderr)")
            return nil
        }
        if i > 0 { techo.append(t) }
        if let rsvg {
            let r = runChild(rsvg)
            guard r.status == 0 else { print("  rsvg-convert failed: \(r.stderr)"); return nil }
            if i > 0 { other.append(r) }
        }
    }
    return (techo, other)
}

/// One line of the alternated table: techo's summary and the ratio to rsvg-convert's median.
private func report(_ label: String, _ r: (techo: [ChildRun], rsvg: [ChildRun])) {
    var line = "  " + label.padding(toLength: 44, withPad: " ", startingAt: 0) + runSummary(r.techo)
    if !r.rsvg.isEmpty {
        line += String(
            format: "; rsvg-convert %.3f s: %.1fx faster", medianOf(r.rsvg.map(\.seconds)),
            medianOf(r.rsvg.map(\.seconds)) / medianOf(r.techo.map(\.seconds)))
    }
    print(line)
}

/// techo and techo-assets, beside techo-bench (where `make bench` builds them); nil, after saying
/// so, when either is missing.
func benchTools() -> (techo: String, assets: String)? {
    let bin = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    let techo = bin.appendingPathComponent("techo").path, assets = bin.appendingPathComponent("techo-assets").path
    guard FileManager.default.isExecutableFile(atPath: techo), FileManager.default.isExecutableFile(atPath: assets) else {
        print("  needs techo and techo-assets beside techo-bench (make bench builds them)")
        return nil
    }
    return (techo, assets)
}

func pageBench() {
    guard let (techo, assets) = benchTools() else { return }
    let dir = URL(fileURLWithPath: "bench-out/page", relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).standardizedFileURL
    let work = dir.path
    let runs = Int(ProcessInfo.processInfo.environment["TECHO_BENCH_RUNS"] ?? "") ?? 7
    do {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        guard runChild([assets, "bench", work]).status == 0 else { print("  techo-assets failed"); return }
        let page = ReferencePage()
        // A journal of the page alone, and one of 20 copies of it for the multi-page figures.
        var journals: [String] = []
        for pages in [1, 20] {
            let manifest = dir.appendingPathComponent("reference-\(pages).json")
            try Data(page.manifest(pages: pages).utf8).write(to: manifest)
            let journal = dir.appendingPathComponent("reference-\(pages).techo").path
            try? FileManager.default.removeItem(atPath: journal)
            let built = runChild([techo, "build", manifest.path, "--journal", journal, "-o", work + "/built"])
            guard built.status == 0 else { print("  techo build failed: \(built.stderr)"); return }
            try? FileManager.default.removeItem(atPath: work + "/built")
            journals.append(journal)
        }
        // Wall times on a busy machine include waiting for a core; say how busy it is.
        if let load = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8).split(separator: " ").first {
            print("  machine: \(ProcessInfo.processInfo.activeProcessorCount) cores, load average \(load) before the runs")
        }
        let hasRSVG = runChild(["rsvg-convert", "--version"]).status == 0
        if !hasRSVG { print("  rsvg-convert not installed (Debian librsvg2-bin): no comparison") }
        /// The one-page figures of `page` (files named `name`-…), exporting `journal` (nil: the
        /// journal the build figures made). False when a command failed (it says why).
        func onePage(_ page: ReferencePage, name: String, journal: String?) throws -> Bool {
            let out = work + "/\(name)-p01.png"
            let export = [techo, "export", journal ?? work + "/\(name)-fresh.techo", "--page", "p01", "-o", out]
            // What people run, each alternated with rsvg-convert of the same page as SVG.
            let svg = dir.appendingPathComponent("\(name).svg")
            try Data(try page.svg().utf8).write(to: svg)
            let rsvgOut = work + "/\(name)-rsvg.png"
            let rsvg = hasRSVG ? ["rsvg-convert", "-o", rsvgOut, svg.path] : nil
            let manifest = dir.appendingPathComponent("\(name)-1.json").path
            try Data(page.manifest(pages: 1).utf8).write(to: URL(fileURLWithPath: manifest))
            let moved = [0.0, 40].map { dir.appendingPathComponent("\(name)-1-moved-\(Int($0)).json").path }
            for (k, path) in moved.enumerated() { try Data(page.manifest(pages: 1, nudge: k == 0 ? 0 : 40).utf8).write(to: URL(fileURLWithPath: path)) }
            let fresh = work + "/\(name)-fresh.techo", builtOut = work + "/\(name)-built"
            func clean(_ paths: String...) { for p in paths { try? FileManager.default.removeItem(atPath: p) } }
            guard
                let newBuild = alternated(
                    [techo, "build", manifest, "--journal", fresh, "-o", builtOut], rsvg: rsvg, runs: runs,
                    prepare: { _ in clean(fresh, builtOut) })
            else { return false }
            report("techo build into a new journal:", newBuild)
            guard let rebuild = alternated([techo, "build", manifest, "--journal", fresh, "-o", builtOut], rsvg: rsvg, runs: runs) else { return false }
            report("techo build again, manifest unchanged:", rebuild)
            // Each run moves the sticker to the other place, so every run is a real change.
            clean(fresh, builtOut)
            guard runChild([techo, "build", moved[1], "--journal", fresh, "-o", builtOut]).status == 0 else { print("  build failed"); return false }
            var movedRuns: [ChildRun] = [], movedRSVG: [ChildRun] = []
            for i in 0...runs {
                let r = runChild([techo, "build", moved[i % 2], "--journal", fresh, "-o", builtOut])
                guard r.status == 0 else { print("  failed: \(r.stderr)"); return false }
                if i > 0 { movedRuns.append(r) }
                if let rsvg, i > 0 { movedRSVG.append(runChild(rsvg)) }
            }
            report("techo build again, one sticker moved:", (movedRuns, movedRSVG))
            // Each export starts with no output file, so it renders (an unchanged output is kept).
            guard let exported = alternated(export, rsvg: rsvg, env: ["TECHO_TIMINGS": "1"], runs: runs, prepare: { _ in clean(out) }) else {
                return false
            }
            report("techo export, 1 page:", exported)
            let single = exported.techo
            guard let oneCore = alternated(["taskset", "-c", "0"] + export, rsvg: rsvg, runs: runs, prepare: { _ in clean(out) }) else { return false }
            report("techo export, 1 page on 1 core (taskset):", oneCore)
            print(
                String(
                    format: "  1 page, 2 cores against 1: %.2fx faster (%.3f s against %.3f s)",
                    medianOf(oneCore.techo.map(\.seconds)) / medianOf(single.map(\.seconds)), medianOf(single.map(\.seconds)),
                    medianOf(oneCore.techo.map(\.seconds))))
            if hasRSVG { print("  rsvg-convert output: \(fileSize(rsvgOut)) bytes") }
            let first = try Data(contentsOf: URL(fileURLWithPath: out))
            print(String(format: "  output: %d bytes (%.2f MB)", first.count, Double(first.count) / 1e6))
            let phases = ["render", "decode", "encode", "write"].map { key in medianOf(single.compactMap { timing(key, in: $0.stderr) }) }
            print(
                String(
                    format: "  phases (median): render %.0f ms (decoding %.0f ms on other cores meanwhile), encode %.0f ms, write %.0f ms; process %.0f ms",
                    phases[0] * 1000, phases[1] * 1000, phases[2] * 1000, phases[3] * 1000, medianOf(single.map(\.seconds)) * 1000))
            clean(out)
            _ = runChild(export)
            let again = try Data(contentsOf: URL(fileURLWithPath: out))
            print("  deterministic: \(again == first ? "yes, the exports on 1 core and on 2 are byte-identical" : "NO, the exports on 1 core and on 2 differ")")
            return true
        }
        print("  page: A5 at 300 dpi (1748x2480), 4 photos 4032x3024, 12 stickers, 6 text blocks, 182 ink strokes")
        print("  -- smooth photos (0.5-1.2 MB JPEGs), erasers as an SVG mask for rsvg-convert")
        guard try onePage(page, name: "reference", journal: journals[0]) else { return }
        print("  -- photos with a real phone's grain (3.4-3.9 MB JPEGs), erasers drawn without a mask for rsvg-convert")
        guard try onePage(ReferencePage(realGrain: true), name: "grain", journal: nil) else { return }

        // Pages on one core against two, and time against page count.
        let ids = (1...20).map { String(format: "p%02d", $0) }
        func pagesArgs(_ n: Int) -> [String] {
            [techo, "export", journals[1]] + ids.prefix(n).flatMap { ["--page", $0] } + ["-o", work + "/pages-\(n)"]
        }
        // Every run starts without its output folder, so it renders (unchanged pages are kept).
        func noPages(_ n: Int) -> (Int) -> Void { { _ in try? FileManager.default.removeItem(atPath: work + "/pages-\(n)") } }
        let multiRuns = max(1, runs / 3)
        var byCount: [(Int, Double)] = []
        for n in [5, 10, 20] {
            guard let r = measureRuns(pagesArgs(n), runs: multiRuns, prepare: noPages(n)) else { return }
            print(String(format: "  %2d pages, 2 cores: ", n) + runSummary(r) + String(format: ", %.3f s a page", medianOf(r.map(\.seconds)) / Double(n)))
            byCount.append((n, medianOf(r.map(\.seconds))))
        }
        // Linear growth: a least-squares line t = a + b·n through the three counts, and how far
        // the points are from it.
        let ns = byCount.map { Double($0.0) }, ts = byCount.map(\.1)
        let mn = ns.reduce(0, +) / 3, mt = ts.reduce(0, +) / 3
        let slope = zip(ns, ts).reduce(0) { $0 + ($1.0 - mn) * ($1.1 - mt) } / ns.reduce(0) { $0 + ($1 - mn) * ($1 - mn) }
        let start = mt - slope * mn
        let worst = zip(ns, ts).map { abs($0.1 - (start + slope * $0.0)) / $0.1 }.max()!
        print(String(format: "  linearity: t = %.3f s + %.3f s x pages; the counts lie within %.1f%% of that line", start, slope, worst * 100))
        if let one = measureRuns(["taskset", "-c", "0"] + pagesArgs(20), runs: multiRuns, prepare: noPages(20)) {
            print("  20 pages, 1 core:  " + runSummary(one))
            print(String(format: "  2 cores against 1: %.2fx faster", medianOf(one.map(\.seconds)) / byCount[2].1))
        }
        // What a second core gives on this machine at all: two one-page exports at once against
        // the same two one after the other (a shared or throttled machine caps the line above).
        var pairs: [Double] = [], turns: [Double] = []
        // Every export here starts without its output file, so it renders (an unchanged output
        // would be kept).
        func exportAfresh() -> ChildRun {
            let out = work + "/reference-p01.png"
            try? FileManager.default.removeItem(atPath: out)
            return runChild([techo, "export", journals[0], "--page", "p01", "-o", out])
        }
        for _ in 0..<3 {
            for k in 0..<2 { try? FileManager.default.removeItem(atPath: work + "/pair-\(k).png") }
            let t0 = DispatchTime.now().uptimeNanoseconds
            DispatchQueue.concurrentPerform(iterations: 2) { k in
                _ = runChild([techo, "export", journals[0], "--page", "p01", "-o", work + "/pair-\(k).png"])
            }
            pairs.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9)
            turns.append(exportAfresh().seconds + exportAfresh().seconds)
        }
        print(
            String(
                format: "  machine check: two 1-page exports at once %.3f s, one after the other %.3f s: %.2fx from the second core",
                medianOf(pairs), medianOf(turns), medianOf(turns) / medianOf(pairs)))

    } catch {
        print("  page bench failed: \(error)")
    }
}
