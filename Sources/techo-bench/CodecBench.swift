// Codec throughput: JPEG decode (full and 1/4 scale), PNG decode, PNG encode at levels 6 and 1.
// Inputs are made here, deterministically, so the figures do not depend on files on disk.
import Foundation
import TechoCodecs
import TechoRaster

/// A photo-like opaque image: smooth gradients, a few hard edges, and seeded sensor noise.
private func syntheticPhoto(width: Int, height: Int, seed: UInt64) -> Pixmap {
    var state = seed
    func noise() -> Int {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Int((state >> 59) & 15) - 8  // -8...7
    }
    let colR = (0..<width).map { 90 + 60 * sin(Double($0) / 310) }
    let colG = (0..<width).map { 70 * cos(Double($0) / 170) }
    let rowB = (0..<height).map { 120 + 80 * sin(Double($0) / 230) }
    let rowG = (0..<height).map { 110 + 40 * sin(Double($0) / 90) }
    var data = [UInt8](repeating: 255, count: width * height * 4)
    data.withUnsafeMutableBufferPointer { p in
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                // A few rectangles with hard edges, like window frames or a horizon.
                let edge = ((x / 613 + y / 457) & 1) == 0 ? 25 : -25
                p[i] = UInt8(clamping: Int(colR[x]) + edge + noise())
                p[i + 1] = UInt8(clamping: Int(colG[x] + rowG[y]) + noise())
                p[i + 2] = UInt8(clamping: Int(rowB[y]) - edge + noise())
            }
        }
    }
    return Pixmap(width: width, height: height, premultiplied: data)
}

/// A page-like opaque image: paper with grain, ruled lines, dark strokes, and a photo pasted in.
private func syntheticPage(width: Int, height: Int, seed: UInt64) -> Pixmap {
    let photo = syntheticPhoto(width: width / 2, height: height / 3, seed: seed)
    var state = seed
    var data = [UInt8](repeating: 255, count: width * height * 4)
    data.withUnsafeMutableBufferPointer { p in
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                state = state &* 6364136223846793005 &+ 1442695040888963407
                let grain = Int((state >> 62) & 3)
                var (r, g, b) = (248 - grain, 244 - grain, 232 - grain)
                if y % 48 == 0 { (r, g, b) = (190, 205, 225) }  // ruled line
                if (x + 3 * y / 2) % 397 < 3 && y % 300 < 180 { (r, g, b) = (30, 30, 60) }  // pen strokes
                let px = x - width / 4, py = y - height / 2
                if px >= 0, py >= 0, px < photo.width, py < photo.height {
                    let j = (py * photo.width + px) * 4
                    (r, g, b) = (Int(photo.data[j]), Int(photo.data[j + 1]), Int(photo.data[j + 2]))
                }
                p[i] = UInt8(r); p[i + 1] = UInt8(g); p[i + 2] = UInt8(b)
            }
        }
    }
    return Pixmap(width: width, height: height, premultiplied: data)
}

/// Median wall time in seconds of `runs` calls.
private func medianSeconds(runs: Int, _ body: () throws -> Void) rethrows -> Double {
    var times: [Double] = []
    let clock = ContinuousClock()
    for _ in 0..<runs {
        let t = try clock.measure(body)
        times.append(Double(t.components.seconds) + Double(t.components.attoseconds) / 1e18)
    }
    return times.sorted()[runs / 2]
}

private func report(_ what: String, megapixels: Double, seconds: Double, extra: String = "") {
    let label = what + String(repeating: " ", count: max(0, 36 - what.count))
    print(label + String(format: "%7.1f MP/s  (%6.1f ms median)", megapixels / seconds, seconds * 1000) + extra)
}

func codecBench() {
    do {
        // 12 MP JPEG, as a phone camera makes them.
        let photo = syntheticPhoto(width: 4032, height: 3024, seed: 12)
        let mp12 = Double(4032 * 3024) / 1e6
        var jpeg: [UInt8] = []
        let encodeJPEG = try medianSeconds(runs: 3) { jpeg = try JPEGEncoder.encode(photo, quality: 90) }
        report(
            "JPEG encode 4032x3024 q90", megapixels: mp12, seconds: encodeJPEG,
            extra: String(format: "  %.2f MB", Double(jpeg.count) / 1e6))
        let full = try medianSeconds(runs: 5) { _ = try ImageDecoder.decode(jpeg, name: "bench.jpg") }
        report("JPEG decode 4032x3024 full", megapixels: mp12, seconds: full)
        var quarterSize = (0, 0)
        let quarter = try medianSeconds(runs: 5) {
            let d = try ImageDecoder.decode(jpeg, name: "bench.jpg", minimumSize: (1008, 756))
            quarterSize = (d.pixels.width, d.pixels.height)
        }
        report(
            "JPEG decode 4032x3024 at 1/4", megapixels: mp12, seconds: quarter,
            extra: "  → \(quarterSize.0)x\(quarterSize.1), MP/s of the source")

        // 4 MP PNG: a journal page with a photo on it, as export writes them.
        let page = syntheticPage(width: 2000, height: 2000, seed: 4)
        let mp4 = 4.0
        var png6: [UInt8] = [], png1: [UInt8] = []
        let enc6 = try medianSeconds(runs: 3) { png6 = try PNGEncoder.encode(page, level: 6) }
        report(
            "PNG encode 2000x2000 level 6", megapixels: mp4, seconds: enc6,
            extra: String(format: "  %.2f MB", Double(png6.count) / 1e6))
        let enc1 = try medianSeconds(runs: 3) { png1 = try PNGEncoder.encode(page, level: 1) }
        report(
            "PNG encode 2000x2000 level 1", megapixels: mp4, seconds: enc1,
            extra: String(format: "  %.2f MB", Double(png1.count) / 1e6))
        var lib6: [UInt8] = []
        let libEnc6 = try medianSeconds(runs: 3) { lib6 = try PNGEncoder.encodeWithLibPNG(page, level: 6) }
        report(
            "PNG encode 2000x2000 libpng level 6", megapixels: mp4, seconds: libEnc6,
            extra: String(format: "  %.2f MB (reference)", Double(lib6.count) / 1e6))
        let dec6 = try medianSeconds(runs: 5) { _ = try ImageDecoder.decode(png6, name: "bench6.png") }
        report("PNG decode 2000x2000 (level 6 file)", megapixels: mp4, seconds: dec6)
        let dec1 = try medianSeconds(runs: 5) { _ = try ImageDecoder.decode(png1, name: "bench1.png") }
        report("PNG decode 2000x2000 (level 1 file)", megapixels: mp4, seconds: dec1)
    } catch {
        print("codec bench failed: \(error)")
    }
}
