// A long journal: 200 A6 pages at 300 dpi (1240x1748), each like a page of a travel journal,
// exported whole (`techo export J -o FOLDER`) on both cores and on one (`taskset -c 0`; techo
// counts the cores of its affinity mask, so it then renders one page at a time), alternated run
// by run, with peak memory. Targets: at least 1.8x from the second core, at most 150 MiB.
//
// Each page: the kraft paper and dot grid of the reference page, two of the eight bench photos
// (the four smooth and the four grainy 4032x3024 JPEGs, in turn) 520 px wide in polaroid frames,
// three of the twelve stickers, a title and a paragraph in Noto Sans CJK, and 30 pencil strokes;
// placements, angles and strokes differ from page to page (seeded). The pictures come from
// `techo-assets bench` (bench-out/page/, shared with the page section).
import Foundation
import TechoGeometry

/// The manifest of `pages` A6 pages, image paths relative to bench-out/page/.
func manyPagesManifest(pages: Int) -> String {
    var rng = SplitMix64(seed: 20_261_203)
    let photos = (1...4).map { "photos/photo\($0).jpg" } + (1...4).map { "grain/photo\($0).jpg" }
    let palette = ["#e07a5f", "#3d405b", "#81b29a", "#5b3a29", "#6d597a", "#2a9d8f"]
    var list: [String] = []
    for n in 0..<pages {
        var els: [String] = []
        for k in 0..<2 {
            let file = photos[(2 * n + k) % photos.count]
            let at = (rng.uniform(380...860), k == 0 ? rng.uniform(420...600) : rng.uniform(1100...1300))
            els.append(
                "{\"type\":\"photo\",\"src\":\(jsonString(file)),\"at\":[\(num(at.0)),\(num(at.1))],\"width\":520,\"rotate\":\(num(rng.uniform(-6...6))),\"frame\":\"polaroid\"}"
            )
        }
        for k in 0..<3 {
            let file = "stickers/sticker\(String(format: "%02d", (3 * n + k) % 12 + 1)).png"
            els.append(
                "{\"type\":\"image\",\"src\":\(jsonString(file)),\"at\":[\(num(rng.uniform(120...1120))),\(num(rng.uniform(200...1640)))],\"scale\":\(num(rng.uniform(0.3...0.6))),\"rotate\":\(num(rng.uniform(-30...30)))}"
            )
        }
        els.append(
            "{\"type\":\"text\",\"text\":\"第\(n + 1)天 · Day \(n + 1)\",\"font\":\(jsonString(ReferencePage.font)),\"size\":64,\"color\":\"#5b3a29\",\"at\":[620,130],\"align\":\"center\"}"
        )
        els.append(
            "{\"type\":\"text\",\"text\":\"今天早上我们去了清水寺, the view over the city was amazing. 樱花开得正好, and we walked down to the river.\",\"font\":\(jsonString(ReferencePage.font)),\"size\":30,\"color\":\"#3d3027\",\"at\":[620,1560],\"maxWidth\":900,\"align\":\"left\"}"
        )
        var ink: [String] = []
        for _ in 0..<30 {
            var x = rng.uniform(80...1160), y = rng.uniform(80...1660), angle = rng.unit() * 2 * Double.pi
            var pts: [String] = []
            for _ in 0..<30 {
                pts.append("[\(num(x)),\(num(y))]")
                angle += (rng.unit() - 0.5) * 0.8
                x += cos(angle) * 12; y += sin(angle) * 12
            }
            let color = palette[Int(rng.unit() * Double(palette.count)) % palette.count]
            ink.append("{\"tool\":\"pencil\",\"width\":\(num(rng.uniform(2...6))),\"color\":\"\(color)\",\"points\":[\(pts.joined(separator: ","))]}")
        }
        els.append("{\"type\":\"ink\",\"strokes\":[\(ink.joined(separator: ","))]}")
        list.append("{\"id\":\"d\(String(format: "%03d", n + 1))\",\"elements\":[\n \(els.joined(separator: ",\n "))]}")
    }
    return """
        {"techo": 1, "title": "A long journal",
         "page": {"size": "A6", "dpi": 300,
                  "background": {"color": "\(ReferencePage.background)", "image": "paper/kraft.png", "mode": "tile", "opacity": 0.35,
                                 "paper": {"pattern": "dots", "color": "\(ReferencePage.paperColor)"}}},
         "pages": [
        \(list.joined(separator: ",\n"))]}

        """
}

func manyPagesBench() {
    guard let (techo, assets) = benchTools() else { return }
    let dir = URL(fileURLWithPath: "bench-out/page", relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).standardizedFileURL
    let work = dir.path
    let pages = Int(ProcessInfo.processInfo.environment["TECHO_BENCH_PAGES"] ?? "") ?? 200
    // Each run is tens of seconds: 2 runs of each by default, alternated.
    let runs = Int(ProcessInfo.processInfo.environment["TECHO_BENCH_RUNS"] ?? "").map { max(1, $0 / 3) } ?? 2
    do {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        guard runChild([assets, "bench", work]).status == 0 else { print("  techo-assets failed"); return }
        let manifest = dir.appendingPathComponent("many-\(pages).json")
        try Data(manyPagesManifest(pages: pages).utf8).write(to: manifest)
        let journal = work + "/many-\(pages).techo", out = work + "/many-\(pages)-pages"
        try? FileManager.default.removeItem(atPath: journal)
        let built = runChild([techo, "build", manifest.path, "--journal", journal, "--no-export"])
        guard built.status == 0 else { print("  techo build failed: \(built.stderr)"); return }
        if let load = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8).split(separator: " ").prefix(3) {
            print("  machine: \(ProcessInfo.processInfo.activeProcessorCount) cores, load average \(load.joined(separator: " ")) before the runs")
        }
        print("  \(pages) A6 pages at 300 dpi (1240x1748): 2 photos, 3 stickers, 2 text blocks, 30 pencil strokes each")
        let export = [techo, "export", journal, "-o", out]
        var two: [ChildRun] = [], one: [ChildRun] = []
        // Every run starts without its output folder, so every page renders.
        for _ in 0..<runs {
            for (argv, into) in [(export, 0), (["taskset", "-c", "0"] + export, 1)] {
                try? FileManager.default.removeItem(atPath: out)
                let r = runChild(argv, env: ["TECHO_TIMINGS": "1"])
                guard r.status == 0 else { print("  failed (exit \(r.status)): \(argv.joined(separator: " "))\n  \(r.stderr)"); return }
                if into == 0 { two.append(r) } else { one.append(r) }
            }
        }
        let bytes = ((try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []).reduce(0) { $0 + fileSize(out + "/" + $1) }
        print("  2 cores: " + runSummary(two))
        print("  1 core:  " + runSummary(one))
        let ratio = medianOf(one.map(\.seconds)) / medianOf(two.map(\.seconds))
        let peak = two.map(\.maxRSS).max() ?? 0
        print(
            String(
                format: "  2 cores against 1: %.2fx faster (target >= 1.8x); peak RSS on 2 cores %.1f MiB (target <= 150 MiB)"
                    + "; %.2f s of CPU a page; output %.1f MB",
                ratio, peak, medianOf(two.map(\.cpu)) / Double(pages), Double(bytes) / 1e6))
        if let line = two.last?.stderr.split(separator: "\n").last(where: { $0.hasPrefix("techo: timings:") }) { print("  last 2-core run: \(line)") }
        if let line = one.last?.stderr.split(separator: "\n").last(where: { $0.hasPrefix("techo: timings:") }) { print("  last 1-core run: \(line)") }
    } catch {
        print("  many-pages bench failed: \(error)")
    }
}
