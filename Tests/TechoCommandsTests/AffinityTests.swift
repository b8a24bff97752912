// End to end: techo counts the cores it may run on (its affinity mask), not the machine's, so an
// export pinned to one core (`taskset -c 0`, a container's cpuset) renders one page at a time.
import Foundation
import TechoTestSupport
import Testing

@Suite struct AffinityTests {
    static let taskset = ["/usr/bin/taskset", "/bin/taskset"].first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test(.enabled(if: taskset != nil && ProcessInfo.processInfo.activeProcessorCount > 1, "needs taskset and two cores"))
    func anExportPinnedToOneCoreRendersOnePageAtATime() throws {
        let ws = try Workspace()
        #expect(try ws.run("init", "j.techo", "--size", "120x90", "--dpi", "72").code == 0)
        for _ in 0..<3 { #expect(try ws.run("page", "add", "j.techo").code == 0) }
        let r = try ChildProcess.run(
            URL(fileURLWithPath: Self.taskset!), ["-c", "0", Workspace.binary.path, "export", "j.techo", "-o", "out"], in: ws.dir,
            adding: ["TECHO_TIMINGS": "1"])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.err.contains("techo: timings: pages 4, jobs 1,"), "\(r.err)")
        let free = try ws.run(["export", "j.techo", "-o", "out2"], environment: ["TECHO_TIMINGS": "1"])
        #expect(free.err.contains("jobs \(min(4, ProcessInfo.processInfo.activeProcessorCount)),"), "\(free.err)")
    }
}
