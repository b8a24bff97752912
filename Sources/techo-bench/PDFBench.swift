// The demo journal (six A5 pages at 300 dpi, Resources/demo/kyoto.json) exported three ways,
// each a whole `techo export` process, median of runs: every page to PNG, the vector PDF, and
// the page-image PDF (--raster); with the files' sizes beside the bytes of the journal's assets
// (the vector PDF's budget is those bytes plus 600 KB).
import Foundation

func pdfBench() {
    guard let (techo, assets) = benchTools() else { return }
    let fm = FileManager.default
    let work = URL(fileURLWithPath: "bench-out/pdf", relativeTo: URL(fileURLWithPath: fm.currentDirectoryPath)).standardizedFileURL.path
    let runs = Int(ProcessInfo.processInfo.environment["TECHO_BENCH_RUNS"] ?? "") ?? 5
    try? fm.removeItem(atPath: work)
    do {
        try fm.createDirectory(atPath: work, withIntermediateDirectories: true)
        // The demo's manifest names its pictures relative to itself: paint them beside a copy.
        guard runChild([assets, "demo", work + "/assets"]).status == 0 else { print("  techo-assets demo failed"); return }
        try fm.copyItem(atPath: "Resources/demo/kyoto.json", toPath: work + "/kyoto.json")
        let journal = work + "/kyoto.techo"
        let built = runChild([techo, "build", work + "/kyoto.json", "--journal", journal, "-o", work + "/built"])
        guard built.status == 0 else { print("  techo build failed: \(built.stderr)"); return }
        let assetBytes = try fm.contentsOfDirectory(atPath: journal + "/assets").reduce(0) { $0 + size(journal + "/assets/" + $1) }
        print("  demo journal: 6 A5 pages at 300 dpi, assets \(assetBytes / 1024) KB")
        let cases: [(String, [String], String)] = [
            ("PNG, every page", ["-o", work + "/png"], work + "/png"),
            ("PDF, vectors", ["-o", work + "/kyoto.pdf"], work + "/kyoto.pdf"),
            ("PDF, page images (--raster)", ["-o", work + "/raster.pdf", "--raster"], work + "/raster.pdf"),
        ]
        for (label, args, output) in cases {
            guard let r = measureRuns([techo, "export", journal] + args, runs: runs, prepare: { _ in try? fm.removeItem(atPath: output) }) else { return }
            let wall = r.map(\.seconds).sorted(), cpu = r.map(\.cpu).sorted()
            var isDir: ObjCBool = false
            fm.fileExists(atPath: output, isDirectory: &isDir)
            let bytes = isDir.boolValue ? ((try? fm.contentsOfDirectory(atPath: output)) ?? []).reduce(0) { $0 + size(output + "/" + $1) } : size(output)
            print(
                String(
                    format: "  %@ %.3f s wall, %.3f s CPU (medians of %d), peak RSS %.0f MiB, %d KB",
                    label.padding(toLength: 30, withPad: " ", startingAt: 0), wall[wall.count / 2], cpu[cpu.count / 2], r.count,
                    r.map(\.maxRSS).max() ?? 0, bytes / 1024))
        }
        let pdf = size(work + "/kyoto.pdf")
        print(
            "  vector PDF \(pdf / 1024) KB against a budget of \((assetBytes + 600 * 1024) / 1024) KB (assets + 600 KB): \(pdf <= assetBytes + 600 * 1024 ? "within" : "OVER")"
        )
    } catch {
        print("  pdf bench failed: \(error)")
    }
}

private func size(_ path: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? NSNumber)?.intValue ?? 0
}
