// Start-up: whole-process wall time of `techo --version` and `techo --help` (commands that need
// no library beyond Foundation), against a Foundation-only Swift program compiled here, so the
// figure says what techo adds to the least a Swift program costs. The three are alternated run
// by run (so all see the same machine), after warm-ups; medians with min-max. Then what the
// dynamic loader does for `techo --version`: the shared objects it maps (LD_TRACE_LOADED_OBJECTS,
// what ldd prints) and its own time (LD_DEBUG=statistics, in TSC cycles, converted with the
// clock /proc/cpuinfo reports, so approximate).
//
// TECHO_BENCH_STARTUP_COMPARE=/path/to/another/techo adds that binary's --version and --help to
// the alternation (a build from before a change, say). Files go to bench-out/startup/.
import Foundation

func startupBench() {
    let bin = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    let techo = bin.appendingPathComponent("techo").path
    guard FileManager.default.isExecutableFile(atPath: techo) else {
        print("  needs techo beside techo-bench (make bench builds it)")
        return
    }
    let runs = Int(ProcessInfo.processInfo.environment["TECHO_BENCH_STARTUP_RUNS"] ?? "") ?? 41
    let dir = FileManager.default.currentDirectoryPath + "/bench-out/startup"
    try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)

    var commands: [(String, [String])] = [("techo --version", [techo, "--version"]), ("techo --help", [techo, "--help"])]
    if let other = ProcessInfo.processInfo.environment["TECHO_BENCH_STARTUP_COMPARE"], !other.isEmpty {
        commands += [("compared techo --version", [other, "--version"]), ("compared techo --help", [other, "--help"])]
    }
    if let baseline = buildBaseline(in: dir) {
        commands.append(("Foundation-only Swift program", [baseline]))
    } else {
        print("  (no swiftc on PATH: the Foundation-only baseline is left out)")
    }
    var results = Array(repeating: [ChildRun](), count: commands.count)
    for i in 0..<(runs + 3) {
        for (k, command) in commands.enumerated() {
            let r = runChild(command.1)
            guard r.status == 0 else {
                print("  failed (exit \(r.status)): \(command.0)\n  \(r.stderr)")
                return
            }
            if i >= 3 { results[k].append(r) }
        }
    }
    for (k, command) in commands.enumerated() {
        let wall = results[k].map { $0.seconds * 1000 }, cpu = results[k].map { $0.cpu * 1000 }
        print(
            String(
                format: "  %@ %.1f ms median of %d (min %.1f, max %.1f), CPU %.1f ms, peak RSS %.1f MiB",
                command.0.padding(toLength: 31, withPad: " ", startingAt: 0), startupMedian(wall), wall.count, wall.min() ?? 0,
                wall.max() ?? 0, startupMedian(cpu), results[k].map(\.maxRSS).max() ?? 0))
    }
    loaderFigures(techo, label: "techo", in: dir)
    if let other = ProcessInfo.processInfo.environment["TECHO_BENCH_STARTUP_COMPARE"], !other.isEmpty {
        loaderFigures(other, label: "compared techo", in: dir)
    }
}

/// The median of `v` (the mean of the middle two for an even count).
private func startupMedian(_ v: [Double]) -> Double {
    let s = v.sorted()
    guard !s.isEmpty else { return 0 }
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

/// Compiles a program that loads Foundation and prints one line, as `techo --version` does;
/// nil when there is no swiftc. Built once per bench-out folder.
private func buildBaseline(in dir: String) -> String? {
    let source = dir + "/baseline.swift", binary = dir + "/baseline"
    if FileManager.default.isExecutableFile(atPath: binary) { return binary }
    let text = "import Foundation\nprint(\"baseline \\(ProcessInfo.processInfo.processIdentifier > 0)\")\n"
    guard (try? Data(text.utf8).write(to: URL(fileURLWithPath: source))) != nil else { return nil }
    let r = runChild(["swiftc", "-O", source, "-o", binary])
    return r.status == 0 ? binary : nil
}

/// Runs `argv` with `env` added, returning its stderr (stdout goes to /dev/null).
private func stderrOf(_ argv: [String], env: [String: String]) -> String {
    runChild(argv, env: env).stderr
}

/// The shared objects `techo --version` maps, and the loader's own time from its statistics.
private func loaderFigures(_ techo: String, label: String, in dir: String) {
    // With LD_TRACE_LOADED_OBJECTS the loader lists the objects (as ldd does) and stops; the
    // list goes to stdout, so it is captured through a file.
    let list = dir + "/loaded-objects-\(label.replacingOccurrences(of: " ", with: "-")).txt"
    let trace = Process()
    trace.executableURL = URL(fileURLWithPath: techo)
    trace.arguments = ["--version"]
    trace.environment = ProcessInfo.processInfo.environment.merging(["LD_TRACE_LOADED_OBJECTS": "1"]) { $1 }
    _ = FileManager.default.createFile(atPath: list, contents: nil)
    trace.standardOutput = FileHandle(forWritingAtPath: list)
    if (try? trace.run()) != nil { trace.waitUntilExit() }
    let objects = ((try? String(contentsOfFile: list, encoding: .utf8)) ?? "").split(separator: "\n").filter { $0.contains("=>") }
    print("  \(label) --version maps \(objects.count) shared libraries (the list: \(list))")

    let mhz =
        ((try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? "").split(separator: "\n")
        .first { $0.hasPrefix("cpu MHz") }.flatMap { Double($0.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") }
    var totals: [Double] = [], relocations: [Double] = [], loading: [Double] = []
    for _ in 0..<11 {
        let text = stderrOf([techo, "--version"], env: ["LD_DEBUG": "statistics"])
        func cycles(_ key: String) -> Double? {
            guard let line = text.split(separator: "\n").first(where: { $0.contains(key) }),
                let r = line.range(of: key)
            else { return nil }
            return Double(line[r.upperBound...].trimmingCharacters(in: .whitespaces).prefix { $0.isNumber })
        }
        if let t = cycles("total startup time in dynamic loader:") { totals.append(t) }
        if let t = cycles("time needed for relocation:") { relocations.append(t) }
        if let t = cycles("time needed to load objects:") { loading.append(t) }
    }
    guard !totals.isEmpty else {
        print("  (LD_DEBUG=statistics printed nothing)")
        return
    }
    let ms = { (c: Double) -> String in mhz.map { String(format: "%.1f ms", c / ($0 * 1000)) } ?? "?" }
    print(
        String(
            format: "  dynamic loader, %@ --version (median of %d): %.1f Mcycles (~%@ at %.0f MHz): relocation %.1f Mcycles, loading objects %.1f Mcycles",
            label, totals.count, startupMedian(totals) / 1e6, ms(startupMedian(totals)), mhz ?? 0, startupMedian(relocations) / 1e6,
            startupMedian(loading) / 1e6))
}
