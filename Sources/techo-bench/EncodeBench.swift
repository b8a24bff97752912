// The PNG writer against libpng on a rendered page (bench-out/page/p01.png, made by the page
// section), wall and process CPU time, so the comparison holds on a busy machine too.
import Foundation
import TechoCodecs
import TechoRaster

private func cpuSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

func encodeBench() {
    let path = "bench-out/page/p01.png"
    guard let page = try? ImageDecoder.decode(contentsOf: path).pixels else {
        print("  run the page section first (needs \(path))")
        return
    }
    func measure(_ label: String, _ body: () throws -> [UInt8]) rethrows {
        var walls: [Double] = [], cpus: [Double] = []
        var size = 0
        for _ in 0..<5 {
            let c0 = cpuSeconds(), w0 = DispatchTime.now().uptimeNanoseconds
            size = try body().count
            walls.append(Double(DispatchTime.now().uptimeNanoseconds - w0) / 1e9)
            cpus.append(cpuSeconds() - c0)
        }
        print(
            String(
                format: "  %@ %7.1f ms wall, %7.1f ms CPU (medians of 5), %d bytes",
                label.padding(toLength: 34, withPad: " ", startingAt: 0), walls.sorted()[2] * 1000, cpus.sorted()[2] * 1000, size))
    }
    do {
        print("  \(page.width)x\(page.height) page, opaque: \(page.isOpaque)")
        for filter in [PNGEncoder.Filter.none, .sub, .up, .average, .paeth] {
            try measure("techo level 6, filter \(filter)") { try PNGEncoder.encode(page, level: 6, filter: filter) }
        }
        for level in [6, 4, 3, 2, 1] {
            try measure("libpng (zlib) level \(level)") { try PNGEncoder.encodeWithLibPNG(page, level: level) }
            try measure("techo (libdeflate, bands) level \(level)") { try PNGEncoder.encode(page, level: level) }
        }
    } catch {
        print("  encode bench failed: \(error)")
    }
}
