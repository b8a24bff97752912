// Phone photos as phones store them: 4032x3024 HEICs, each a grid of 8x6 HEVC tiles of 512 px
// (2.4-2.5 MB), made by `techo-assets bench-heic` into bench-out/heic/ and kept between runs.
// Whole processes, measured like the page section (runChild / measureRuns: wall time median of
// the runs after a warm-up, min-max, the child's CPU and peak RSS):
//
//   - the import: `techo add photo` of one of them into a new journal (`techo init` before each
//     run, unmeasured), and `techo init` + `techo add photo` as one shell command;
//   - the export of an A5 page at 300 dpi holding the four, each 700 px wide in a polaroid frame
//     at the reference page's places and angles, with the exporter's phases (TECHO_TIMINGS).
//
// Each figure is printed beside its target.
import Foundation

/// "met" or "NOT met" for a median against a target in seconds.
private func verdict(_ runs: [ChildRun], target: Double) -> String {
    let m = medianOf(runs.map(\.seconds))
    return String(format: "target <= %.1f s: %@", target, m <= target ? "met" : "NOT met")
}

/// The page of the four grid photos as a manifest (image paths relative to its folder).
private func heicPageManifest() -> String {
    let spots = [(470, 700), (1290, 760), (470, 1640), (1300, 1700)], turns = [-6, 4, 3, -5]
    let photos = (0..<4).map { i in
        "{\"type\":\"photo\",\"src\":\"phone\(i + 1).heic\",\"at\":[\(spots[i].0),\(spots[i].1)],\"width\":700,\"rotate\":\(turns[i]),\"frame\":\"polaroid\"}"
    }
    return """
        {"techo": 1, "title": "Four phone HEICs",
         "page": {"size": "A5", "dpi": 300, "background": {"color": "#f4ecdc"}},
         "pages": [{"id": "p01", "elements": [
          \(photos.joined(separator: ",\n  "))]}]}

        """
}

func heicBench() {
    guard let (techo, assets) = benchTools() else { return }
    let root = URL(fileURLWithPath: "bench-out", relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).standardizedFileURL
    let dir = root.appendingPathComponent("heic"), work = dir.path
    let runs = Int(ProcessInfo.processInfo.environment["TECHO_BENCH_RUNS"] ?? "") ?? 7
    func clean(_ paths: String...) { for p in paths { try? FileManager.default.removeItem(atPath: p) } }
    do {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        // About a minute of x265 the first time; the files are kept afterwards.
        let made = runChild([assets, "bench-heic", root.path])
        guard made.status == 0 else { print("  techo-assets failed: \(made.stderr)"); return }
        let photos = (1...4).map { "\(work)/phone\($0).heic" }
        let sizes = photos.map { ((try? FileManager.default.attributesOfItem(atPath: $0)[.size]) as? NSNumber)?.intValue ?? 0 }
        print(
            "  photos: 4 HEICs of 4032x3024, each a grid of 8x6 HEVC tiles of 512x512 (x265, 4:2:0), "
                + sizes.map { String(format: "%.2f", Double($0) / 1e6) }.joined(separator: ", ") + " MB")
        if let load = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8).split(separator: " ").first {
            print("  machine: \(ProcessInfo.processInfo.activeProcessorCount) cores, load average \(load) before the runs")
        }

        // The import.
        let journal = work + "/import.techo"
        guard
            let added = measureRuns(
                [techo, "add", "photo", journal, "p1", photos[0]], runs: runs,
                prepare: { _ in
                    clean(journal)
                    _ = runChild([techo, "init", journal])
                })
        else { return }
        print("  techo add photo (import), one photo:      " + runSummary(added) + "; " + verdict(added, target: 0.6))
        let both = "\(techo) init \(journal) && \(techo) add photo \(journal) p1 \(photos[0])"
        guard let initAndAdd = measureRuns(["sh", "-c", both], runs: runs, prepare: { _ in clean(journal) }) else { return }
        print("  techo init + techo add photo, one shell:   " + runSummary(initAndAdd))

        // The page of four.
        let manifest = dir.appendingPathComponent("page.json")
        try Data(heicPageManifest().utf8).write(to: manifest)
        let pageJournal = work + "/page.techo", built = work + "/built"
        clean(pageJournal, built)
        let build = runChild([techo, "build", manifest.path, "--journal", pageJournal, "-o", built])
        guard build.status == 0 else { print("  techo build failed: \(build.stderr)"); return }
        let out = work + "/page-p01.png"
        // The output is removed before each run: an export whose output is already up to date
        // (its render key matches) is skipped.
        guard
            let exported = measureRuns(
                [techo, "export", pageJournal, "--page", "p01", "-o", out], env: ["TECHO_TIMINGS": "1"], runs: runs,
                prepare: { _ in clean(out) })
        else { return }
        print("  techo export, A5 300 dpi, the 4 photos:   " + runSummary(exported) + "; " + verdict(exported, target: 1.5))
        func phase(_ key: String) -> Double {
            medianOf(
                exported.compactMap { run -> Double? in
                    guard let line = run.stderr.split(separator: "\n").last(where: { $0.hasPrefix("techo: timings:") }),
                        let r = line.range(of: " \(key) ")
                    else { return nil }
                    return Double(line[r.upperBound...].prefix { $0 == "." || $0.isNumber })
                })
        }
        print(
            String(
                format: "  phases (median): render %.0f ms, decode %.0f ms (summed over threads), encode %.0f ms, write %.0f ms",
                phase("render") * 1000, phase("decode") * 1000, phase("encode") * 1000, phase("write") * 1000))
    } catch {
        print("  heic bench failed: \(error)")
    }
}
