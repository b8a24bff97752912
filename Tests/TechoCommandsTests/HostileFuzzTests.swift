// The fuzz targets (techo-fuzz, docs/fuzzing.md) run for a few seeded seconds each in the
// suite, and every input a fuzzer ever found is replayed as a named regression case.
import Foundation
import Testing

@Suite struct HostileFuzzTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fuzzer = Workspace.binary.deletingLastPathComponent().appendingPathComponent("techo-fuzz")
    static let corpora = ["Tests/TechoCodecsTests/Fixtures", "Tests/TechoModelTests/Fixtures", "Resources/demo"]

    /// `Fuzz/regressions/TARGET/NAME`: the inputs the fuzzers found, named after what they broke.
    static let regressions: [String] = {
        let root = repo.appendingPathComponent("Fuzz/regressions")
        var out: [String] = []
        for target in (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? [] {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(target).path)) ?? []
            where !name.hasPrefix(".") {
                out.append("\(target)/\(name)")
            }
        }
        return out.sorted()
    }()

    @Test(arguments: ["json", "svg", "png", "jpeg", "heif", "webp", "svgimage", "text", "editor", "operations"])
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

    @Test(arguments: regressions)
    func regressionInputIsHandled(input: String) throws {
        let ws = try Workspace()
        let target = String(input.prefix { $0 != "/" })
        let file = HostileFuzzTests.repo.appendingPathComponent("Fuzz/regressions/\(input)").path
        let (r, timedOut) = try ws.runProcess(HostileFuzzTests.fuzzer.path, [target, "--crashes", ws.dir.path, "--replay", file], timeout: 60)
        #expect(!timedOut, "\(input) hung")
        #expect(r.code == 0, "\(input): exit \(r.code)\n\(r.err.suffix(2000))")
        #expect(r.out.hasPrefix(file + ": "), "\(r.out)")
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
