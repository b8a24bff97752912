// The PNG writer's settings on the bench pages: every row filter (none, sub, up, average, paeth,
// and the adaptive choice) at every libdeflate level 1…9, bytes and process CPU time (the
// bands are compressed on every core, so CPU is the cost; median of 3), against the bytes
// rsvg-convert writes for the same page where the page section left its PNG. Pages: the
// reference page and the real-grain page (A5, bench-out/page/*-p01.png, made by the page
// section) and an A6 page of the long journal (made by pages200). Alone:
// `.build/release/techo-bench pngsettings`; the table is in docs/decisions/png.md.
import Foundation
import TechoCodecs
import TechoRaster

func pngSettingsBench() {
    func cpu() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
    let pages: [(String, String, String?)] = [
        ("reference page", "bench-out/page/reference-p01.png", "bench-out/page/reference-rsvg.png"),
        ("real-grain page", "bench-out/page/grain-p01.png", "bench-out/page/grain-rsvg.png"),
        ("A6 page of pages200", "bench-out/page/many-200-pages/001-d001.png", nil),
    ]
    let levels = (ProcessInfo.processInfo.environment["TECHO_BENCH_LEVELS"] ?? "1,2,3,4,5,6,7,8,9").split(separator: ",").compactMap { Int($0) }
        .filter { (0...9).contains($0) }
    let filters: [PNGEncoder.Filter] = [.none, .sub, .up, .average, .paeth, .adaptive]
    for (label, path, rsvg) in pages {
        guard let page = try? ImageDecoder.decode(contentsOf: path).pixels else {
            print("  \(label): run the page and pages200 sections first (needs \(path))")
            continue
        }
        let reference = rsvg.flatMap { try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int }
        print("  \(label), \(page.width)x\(page.height)" + (reference.map { ", rsvg-convert writes \($0) bytes" } ?? ""))
        print("    level filter     bytes     CPU ms" + (reference == nil ? "" : "  x rsvg"))
        for level in levels {
            for filter in filters {
                var cpus: [Double] = []
                var size = 0
                for _ in 0..<3 {
                    let c0 = cpu()
                    size = (try? PNGEncoder.encode(page, level: level, filter: filter).count) ?? 0
                    cpus.append(cpu() - c0)
                }
                let ratio = reference.map { String(format: "  %.3f", Double(size) / Double($0)) } ?? ""
                print(
                    String(
                        format: "    %5d %@ %9d %10.1f", level, "\(filter)".padding(toLength: 9, withPad: " ", startingAt: 0), size,
                        cpus.sorted()[1] * 1000) + ratio)
            }
        }
    }
}
