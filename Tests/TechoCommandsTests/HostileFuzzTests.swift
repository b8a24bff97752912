// The fuzz targets (techo-fuzz, docs/fuzzing.md) run for a few seeded seconds each in the
// suite, and every input a fuzzer ever found is replayed as a named regression case.
import Foundation
import Testing

@Suite struct HostileFuzzTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fuzzer = Workspace.binary.deletingLastPathComponent().appendingPathComponent("techo-fuzz")
    static let corpora = ["Tests/TechoCodecsTests/Fixtures", "Tests/TechoModelTests/Fixtures", "Resources/demo"]

    static let regressionRoot = repo.appendingPathComponent("Fuzz/regressions")

    /// `Fuzz/regressions/TARGET/NAME`: the inputs the fuzzers found, named after what they broke;
    /// `NAME.outcome` beside each is what its replay must print. An unreadable folder gives no
    /// cases here, and `everyRegressionIsListedWithItsOutcome` fails on it.
    static let regressions: [String] = (try? listRegressions()) ?? []

    static func listRegressions() throws -> [String] {
        var out: [String] = []
        for target in try FileManager.default.contentsOfDirectory(atPath: regressionRoot.path) {
            for name in try FileManager.default.contentsOfDirectory(atPath: regressionRoot.appendingPathComponent(target).path)
            where !name.hasPrefix(".") && !name.hasSuffix(".outcome") {
                out.append("\(target)/\(name)")
            }
        }
        return out.sorted()
    }

    /// The count is written here so that a lost folder, a lost file or a file added without its
    /// expected outcome fails, rather than replaying fewer cases and passing.
    @Test func everyRegressionIsListedWithItsOutcome() throws {
        let listed = try HostileFuzzTests.listRegressions()
        #expect(listed.count == 8, "\(listed)")
        #expect(HostileFuzzTests.regressions == listed)
        for input in listed {
            let outcome = HostileFuzzTests.regressionRoot.appendingPathComponent(input + ".outcome")
            #expect(FileManager.default.fileExists(atPath: outcome.path), "\(input) has no expected outcome")
        }
    }

    @Test(arguments: ["json", "inkfile", "svg", "png", "jpeg", "heif", "webp", "svgimage", "text", "editor", "operations"])
    func fuzzTargetRunsCleanForAFewSeconds(target: String) throws {
        let ws = try Workspace()
        let args =
            [target, "--seconds", "2", "--seed", "20261129", "--crashes", ws.dir.path, "--timeout", "30"]
            + HostileFuzzTests.corpora.flatMap { ["--corpus", HostileFuzzTests.repo.appendingPathComponent($0).path] }
        let (r, timedOut) = try ws.runProcess(HostileFuzzTests.fuzzer.path, args, timeout: 180)
        #expect(!timedOut)
        #expect(r.code == 0, "techo-fuzz \(target): exit \(r.code)\n\(r.err.suffix(2000))")
        #expect(r.out.contains("no crash"), "\(r.out)")
        let found = ws.snapshot(".").keys.filter { $0.hasPrefix("crash-") || $0.hasPrefix("timeout-") }
        #expect(found.isEmpty, "techo-fuzz \(target) saved \(found)")
    }

    /// Each regression replays to exactly its expected outcome (the refusal and its message),
    /// and `techo-fuzz --replay` itself exits 1 when it does not.
    @Test(arguments: regressions)
    func regressionInputGivesItsExpectedOutcome(input: String) throws {
        let ws = try Workspace()
        let target = String(input.prefix { $0 != "/" })
        let file = HostileFuzzTests.regressionRoot.appendingPathComponent(input).path
        let expected = try String(contentsOfFile: file + ".outcome", encoding: .utf8).trimmingCharacters(in: .newlines)
        let (r, timedOut) = try ws.runProcess(HostileFuzzTests.fuzzer.path, [target, "--crashes", ws.dir.path, "--replay", file], timeout: 60)
        #expect(!timedOut, "\(input) hung")
        #expect(r.code == 0, "\(input): exit \(r.code)\n\(r.err.suffix(2000))")
        #expect(r.out == "\(file): \(expected)\n", "\(r.out)")
        #expect(expected.contains("error: "), "a regression input is refused: \(expected)")
    }

    /// The replay's own check: the same input paired with another outcome exits 1 and says so.
    @Test func replayExitsNonZeroOnAChangedOutcome() throws {
        let ws = try Workspace()
        let src = HostileFuzzTests.regressionRoot.appendingPathComponent("png/text-chunk-claims-1gb.png")
        try FileManager.default.copyItem(at: src, to: ws.url("x.png"))
        try Data("error: something else\n".utf8).write(to: ws.url("x.png.outcome"))
        let (r, timedOut) = try ws.runProcess(HostileFuzzTests.fuzzer.path, ["png", "--replay", ws.url("x.png").path], timeout: 60)
        #expect(!timedOut)
        #expect(r.code == 1, "exit \(r.code)")
        #expect(r.err.contains("the outcome changed") && r.err.contains("expected: error: something else"), "\(r.err)")
    }

    /// The AVIF finding was a leak, which a replay's exit status cannot see: the replay of that
    /// one file runs under valgrind's memcheck (the ordinary optimised build, no sanitizer build
    /// needed), and any definite leak fails it except dav1d's own, which
    /// `Fuzz/sanitizers/valgrind.supp` suppresses. The suppression must have been used: then the
    /// replay still reached the path that leaked, and a leak of techo's own there (a libheif
    /// object not released on the error path, say) would have been reported beside it.
    /// valgrind 3.19 cannot read the DWARF 5 debug information the Swift toolchain writes, so it
    /// runs a copy of techo-fuzz without it; the symbol table stays, so stacks name functions.
    @Test func avifRegressionLeaksOnlyInDav1dUnderValgrind() throws {
        let ws = try Workspace()
        let valgrind = "/usr/bin/valgrind", objcopy = "/usr/bin/objcopy"
        for tool in [valgrind, objcopy] where !FileManager.default.isExecutableFile(atPath: tool) {
            Issue.record("\(tool) is not installed: run scripts/setup-deps.sh (valgrind, binutils)")
            return
        }
        let stripped = try ws.runProcess(objcopy, ["--strip-debug", HostileFuzzTests.fuzzer.path, ws.url("techo-fuzz").path], timeout: 60)
        #expect(!stripped.timedOut && stripped.result.code == 0, "objcopy: \(stripped.result.err)")
        let input = HostileFuzzTests.regressionRoot.appendingPathComponent("heif/avif-empty-av1-data-leaks-in-dav1d.avif").path
        let suppressions = HostileFuzzTests.repo.appendingPathComponent("Fuzz/sanitizers/valgrind.supp").path
        let (r, timedOut) = try ws.runProcess(
            valgrind,
            [
                "-v", "--leak-check=full", "--show-leak-kinds=definite", "--errors-for-leak-kinds=definite", "--error-exitcode=99",
                "--suppressions=\(suppressions)", "--log-file=\(ws.url("memcheck.log").path)",
                ws.url("techo-fuzz").path, "heif", "--crashes", ws.dir.path, "--replay", input,
            ],
            timeout: 600)
        let log = (try? String(contentsOf: ws.url("memcheck.log"), encoding: .utf8)) ?? ""
        // What memcheck reported at exit: each leak record with its stack, and the summary.
        let lines = log.split(separator: "\n")
        let atExit = lines[(lines.firstIndex { $0.contains("HEAP SUMMARY:") } ?? lines.startIndex)...]
        let report = atExit.filter { !$0.hasPrefix("--") }.map { $0.drop { $0 != " " } }.joined(separator: "\n")
        #expect(!timedOut, "the replay under valgrind hung")
        #expect(r.code != 99, "memcheck found a definite leak that is not dav1d's, or a memory error:\n\(report.suffix(6000))")
        #expect(r.code == 0, "exit \(r.code)\n\(r.err.suffix(2000))\n\(report.suffix(2000))")
        let used = log.split(separator: "\n").filter { $0.contains("used_suppression:") }
        #expect(
            used.contains { $0.contains(" dav1d-keeps-the-data-of-an-empty-av1-payload ") },
            "the replay no longer reaches dav1d's leak, so this check sees nothing:\n\(report.suffix(2000))")
    }

    /// The PNG findings were an allocation, not a crash: libpng reserved the 1–2 GB each chunk
    /// claimed (within the fuzzer's 1 MiB file limit) before finding the file short. Replayed in a
    /// child process, each must reserve no more address space than decoding a valid PNG fixture
    /// does, give or take 64 MiB (the claims are 16 to 32 times that). One malloc arena
    /// (`MALLOC_ARENA_MAX=1`): each extra thread arena briefly reserves 128 MiB, which would make
    /// the peak depend on thread timing, not on the input.
    @Test(arguments: regressions.filter { $0.hasPrefix("png/") })
    func pngChunkClaimAllocatesNothingLikeItsClaim(input: String) throws {
        let ws = try Workspace()
        func peak(_ file: String) throws -> Int {
            let (r, timedOut) = try ws.runProcess(
                HostileFuzzTests.fuzzer.path, ["png", "--crashes", ws.dir.path, "--memory", "--replay", file], timeout: 60, env: ["MALLOC_ARENA_MAX": "1"])
            #expect(!timedOut && r.code == 0, "\(file): exit \(r.code) \(r.err)")
            let line = try #require(r.out.split(separator: "\n").first { $0.hasPrefix("peak memory: ") }, "\(r.out)")
            return try #require(Int(line.dropFirst("peak memory: ".count).prefix { $0.isNumber }))
        }
        let baseline = try peak(HostileFuzzTests.repo.appendingPathComponent("Tests/TechoCodecsTests/Fixtures/pngsuite/basn6a08.png").path)
        let claimed = try peak(HostileFuzzTests.regressionRoot.appendingPathComponent(input).path)
        #expect(baseline > 0)
        #expect(claimed - baseline < 64 << 10, "\(input): peak \(claimed) KiB reserved, a valid PNG \(baseline) KiB")
    }

    /// The PNG finding end to end: a tiny file claiming a gigabyte-long chunk is refused as
    /// truncated by its chunk walk, before libpng allocates the chunk.
    @Test func pngClaimingAHugeChunkIsRefusedBeforeLibpngAllocatesIt() throws {
        let ws = try Workspace()
        try ws.png("s.png", 4, 4, rgba: (0, 0, 0, 255))
        #expect(try ws.run("init", "j.techo", "--size", "100x100").code == 0)
        let src = HostileFuzzTests.repo.appendingPathComponent("Fuzz/regressions/png/text-chunk-claims-1gb.png")
        try FileManager.default.copyItem(at: src, to: ws.url("chunk.png"))
        let r = try ws.run("add", "image", "j.techo", "p1", "chunk.png")
        #expect(r.code == 65)
        #expect(r.err.contains("chunk.png") && r.err.contains("chunk tEXt claims 1073741823 bytes"), "\(r.err)")
    }
}
