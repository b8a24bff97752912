// Crash safety: techo is killed with SIGKILL while it saves or exports, at seeded random
// moments and at each of its file steps (every write, sync, rename and removal, through strace);
// afterwards the journal passes `techo check` and holds either the old or the new state, and an
// export never leaves a partial file under its final name.
import Foundation
import TechoGeometry
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite(.serialized) struct CrashSafetyTests {
    /// The journal's state as the user sees it: journal.json and every page file.
    func state(_ ws: Workspace, _ folder: String) -> [String: [UInt8]] {
        ws.snapshot("\(folder)/j.techo").filter { $0.key == "journal.json" || ($0.key.hasPrefix("pages/") && !$0.key.contains("/.")) }
    }

    /// Output files of an export folder or file: visible names → bytes; hidden temp names listed apart.
    func outputs(_ ws: Workspace, _ folder: String) -> (files: [String: [UInt8]], temps: [String]) {
        var files: [String: [UInt8]] = [:], temps: [String] = []
        for (k, v) in ws.snapshot(folder) where !k.hasPrefix("j.techo/") && !k.hasPrefix(".out-") && !k.hasPrefix(".err-") {
            let name = (k as NSString).lastPathComponent
            // A temp file, or a file in a temp folder (a build's staged pictures).
            if k.split(separator: "/").contains(where: { $0.hasPrefix(".") && $0.contains(".tmp-") }) || (name.hasPrefix(".") && name.contains(".tmp-")) {
                temps.append(k)
            } else if k.hasSuffix(".png") && !k.hasPrefix("t.png") && !k.hasPrefix("s.png") {
                files[k] = v
            }
        }
        return (files, temps)
    }

    func copy(_ ws: Workspace, _ from: String, _ to: String) throws {
        try? FileManager.default.removeItem(at: ws.url(to))
        try FileManager.default.copyItem(at: ws.url(from), to: ws.url(to))
    }

    /// Starts techo in `folder`, kills it after `delay` seconds (if still running), waits.
    func killed(_ ws: Workspace, _ folder: String, _ args: [String], after delay: Double) throws -> Bool {
        let p = Process()
        p.executableURL = Workspace.binary
        p.arguments = args
        p.currentDirectoryURL = ws.url(folder)
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        p.standardInput = FileHandle.nullDevice
        try p.run()
        usleep(UInt32(delay * 1_000_000))
        let wasRunning = p.isRunning
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        return wasRunning && p.terminationReason == .uncaughtSignal
    }

    /// The commands killed, each run in a copy of `base` (`makeBase`); `exports`: it writes
    /// files outside the journal.
    static let commands: [(name: String, args: [String], exports: Bool)] = [
        ("add", ["add", "image", "j.techo", "p1", "t.png", "--at", "200,200", "--rotate", "10"], false),
        ("gesture", ["gesture", "j.techo", "p1", "image-1", "--pan", "5,7", "--pinch", "1.3", "--rotate", "20"], false),
        ("draw", ["draw", "j.techo", "p2", "--tool", "pencil", "--points", "1,1 50,50,0.5 80,20 120,90"], false),
        ("undo", ["undo", "j.techo"], false),
        ("export", ["export", "j.techo", "-o", "out"], true),
        ("build", ["build", "m.json", "--journal", "j.techo", "-o", "out"], true),
    ]

    /// `base/`: a journal of two pages (a picture and a text on p1), two pictures and a
    /// manifest that rebuilds the journal.
    func makeBase(_ ws: Workspace) throws {
        try FileManager.default.createDirectory(at: ws.url("base"), withIntermediateDirectories: true)
        try ws.write("base/s.png", LyingFiles.noisePNG(64, 64, seed: 1))
        try ws.write("base/t.png", LyingFiles.noisePNG(80, 60, seed: 2))
        for args in [
            ["init", "j.techo", "--size", "300x300"], ["add", "image", "j.techo", "p1", "s.png", "--at", "100,100"],
            ["add", "text", "j.techo", "p1", "Kyoto 京都", "--at", "150,40", "--size", "24"], ["page", "add", "j.techo"],
        ] {
            let r = try ws.shell("cd base && \"$TECHO\" " + args.map { "'\($0)'" }.joined(separator: " ")).result
            #expect(r.code == 0, "\(args): \(r.err)")
        }
        try ws.write(
            "base/m.json",
            #"{"page":{"size":"300x300"},"pages":[{"id":"p1","elements":[{"type":"image","src":"t.png","at":[90,90]},"#
                + #"{"type":"text","text":"built","at":[150,200]}]},{"id":"p2"},{"id":"p3","elements":[{"type":"ink","strokes":[{"tool":"pencil","width":3,"points":[[1,1],[50,60],[90,10]]}]}]}]}"#
        )
    }

    /// After a kill in `folder`: the next opener finishes or drops the interrupted change, the
    /// journal passes `techo check` and holds `old` or `new`, every export output is whole
    /// (`newOut`'s bytes), and the next export removes the temp files a killed one left.
    func expectOldOrNew(
        _ ws: Workspace, _ folder: String, _ c: (name: String, args: [String], exports: Bool), killed how: String,
        old: [String: [UInt8]], new: [String: [UInt8]], newOut: [String: [UInt8]]
    ) throws {
        let show = try ws.shell("cd \(folder) && \"$TECHO\" show j.techo --json").result
        #expect(show.code == 0, "\(c.name) killed \(how): show failed: \(show.err)")
        let check = try ws.shell("cd \(folder) && \"$TECHO\" check j.techo").result
        #expect(check.code == 0, "\(c.name) killed \(how): \(check.out) \(check.err)")
        let now = state(ws, folder)
        #expect(now == old || now == new, "\(c.name) killed \(how): neither the old nor the new state: \(changedFiles(now, old, new))")
        // Outputs are whole or absent; only hidden temp files may remain.
        let (files, temps) = outputs(ws, folder)
        for (name, bytes) in files {
            #expect(newOut[name] == bytes, "\(c.name) killed \(how): \(name) is not the complete export")
        }
        for t in temps { #expect(t.split(separator: "/").contains { $0.hasPrefix(".") }, "\(t)") }
        if c.exports && !temps.isEmpty {
            // The next export of the same files removes what the killed one left.
            let again = try ws.shell("cd \(folder) && \"$TECHO\" " + c.args.map { "'\($0)'" }.joined(separator: " ")).result
            #expect(again.code == 0, "\(again.err)")
            #expect(outputs(ws, folder).temps.isEmpty, "stale temp files stay: \(outputs(ws, folder).temps)")
        }
    }

    /// The files of `now` that are neither as in `old` nor as in `new`: what a mixed state mixes.
    func changedFiles(_ now: [String: [UInt8]], _ old: [String: [UInt8]], _ new: [String: [UInt8]]) -> String {
        let names = Set(now.keys).union(old.keys).union(new.keys).sorted()
        let mixed = names.map { n in "\(n): \(now[n] == old[n] ? "old" : now[n] == new[n] ? "new" : "neither")" }
        return mixed.joined(separator: ", ")
    }

    @Test func killedSavesAndExportsLeaveTheOldOrTheNewState() throws {
        let ws = try Workspace()
        var rng = SplitMix64(seed: 20261129)  // a failing run can be repeated with its seed
        try makeBase(ws)
        let commands = CrashSafetyTests.commands
        var kills = 0, interrupted = 0
        for (ci, c) in commands.enumerated() {
            // The new state: the command run to the end in a copy.
            try copy(ws, "base", "ref")
            let start = Date()
            let full = try ws.shell("cd ref && \"$TECHO\" " + c.args.map { "'\($0)'" }.joined(separator: " ")).result
            let duration = Date().timeIntervalSince(start)
            #expect(full.code == 0, "\(c.name): \(full.err)")
            let old = state(ws, "base"), new = state(ws, "ref")
            #expect(old != new || c.name == "export", "\(c.name) changed nothing")
            let newOut = outputs(ws, "ref").files
            for k in 0..<8 {
                let folder = "t\(ci)-\(k)"
                // A kill that lands after the command has finished proves nothing: on a loaded
                // machine the command's time varies, so the delay is halved and the kill made
                // again (on a fresh copy) until it interrupts the command.
                var delay = rng.unit() * duration * 1.1
                for _ in 0..<16 {
                    try copy(ws, "base", folder)
                    if try killed(ws, folder, c.args, after: delay) { interrupted += 1; break }
                    delay /= 2
                }
                kills += 1
                // The next opener finishes or drops the interrupted change; then all is well.
                try expectOldOrNew(ws, folder, c, killed: "after \(delay) s", old: old, new: new, newOut: newOut)
                try? FileManager.default.removeItem(at: ws.url(folder))
            }
        }
        print("crash safety: \(kills) kills, \(interrupted) interrupted a running command (seed 20261129)")
        #expect(kills >= 30)
        // Every kill landed while techo ran.
        #expect(interrupted == kills, "only \(interrupted) of \(kills) kills interrupted a command")
    }

    /// The file-changing system calls a kill lands on in `killedAtEachFileStepLeavesTheOldOrTheNewState`.
    static let fileCalls = ["write", "pwrite64", "ftruncate", "fsync", "rename", "unlink", "unlinkat"]

    /// Kills at each of the command's file steps instead of at random moments: techo runs under
    /// strace, which sends SIGKILL as the Nth call of a system call begins
    /// (`-e inject=CALL:signal=KILL:when=N`, N counted per thread), for each file-changing call
    /// and each N up to the most times one thread made it in a whole run. Every step is hit,
    /// the microseconds between two renames as surely as a long render, with no delay to land
    /// and nothing that depends on the machine's speed.
    @Test func killedAtEachFileStepLeavesTheOldOrTheNewState() throws {
        let ws = try Workspace()
        let strace = "/usr/bin/strace"
        guard FileManager.default.isExecutableFile(atPath: strace) else {
            Issue.record("\(strace) is not installed: run scripts/setup-deps.sh (strace)")
            return
        }
        try makeBase(ws)
        func traced(_ folder: String, _ options: [String], _ args: [String]) throws -> RunResult {
            let words = [strace, "-f", "-qq"] + options + ["--", "$TECHO"] + args
            return try ws.shell("cd \(folder) && " + words.map { $0 == "$TECHO" ? "\"$TECHO\"" : "'\($0)'" }.joined(separator: " ")).result
        }
        var kills = 0
        for (ci, c) in CrashSafetyTests.commands.enumerated() {
            // The new state, and how many times each thread made each call, from a whole run.
            try copy(ws, "base", "ref")
            let trace = ws.url("trace-\(ci).txt").path
            let full = try traced("ref", ["-o", trace, "-e", "trace=" + CrashSafetyTests.fileCalls.joined(separator: ",")], c.args)
            #expect(full.code == 0, "\(c.name): \(full.err)")
            var calls: [String: [Substring: Int]] = [:]  // call → thread id → times
            for line in try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n") {
                // "TID  call(arguments) = result", the thread id padded with spaces.
                let thread = line.prefix { $0.isNumber }
                let rest = line.dropFirst(thread.count).drop { $0 == " " }
                guard !thread.isEmpty, let open = rest.firstIndex(of: "(") else { continue }
                calls[String(rest[..<open]), default: [:]][thread, default: 0] += 1
            }
            let old = state(ws, "base"), new = state(ws, "ref")
            #expect(old != new || c.name == "export", "\(c.name) changed nothing")
            let newOut = outputs(ws, "ref").files
            var landed = 0, landedAtRename = 0
            for call in CrashSafetyTests.fileCalls {
                for n in 0..<(calls[call]?.values.max() ?? 0) {
                    let folder = "s\(ci)-\(call)-\(n + 1)"
                    try copy(ws, "base", folder)
                    let r = try traced(folder, ["-o", "/dev/null", "-e", "trace=\(call)", "-e", "inject=\(call):signal=KILL:when=\(n + 1)"], c.args)
                    // 128 + SIGKILL from the shell: the kill landed. 0: no thread made the call
                    // that often in this run (threads share work differently from run to run).
                    #expect(r.code == 137 || r.code == 0, "\(c.name) under strace: exit \(r.code) \(r.err)")
                    if r.code == 137 { landed += 1; landedAtRename += call == "rename" ? 1 : 0 }
                    try expectOldOrNew(ws, folder, c, killed: "at \(call) #\(n + 1)", old: old, new: new, newOut: newOut)
                    try? FileManager.default.removeItem(at: ws.url(folder))
                }
            }
            // The renames, which change what the journal and the outputs hold, are made one
            // after another by the command's own thread, the same every run: each of those
            // kills must land, or this test would be checking runs that were never interrupted.
            let renames = calls["rename"]?.values.max() ?? 0
            #expect(renames > 0 && landedAtRename == renames, "\(c.name): \(landedAtRename) of \(renames) kills at a rename landed: \(calls)")
            kills += landed
            print("crash safety: \(c.name): \(landed) kills landed, \(landedAtRename) of them at a rename")
        }
        print("crash safety: \(kills) kills at file steps")
    }
}
