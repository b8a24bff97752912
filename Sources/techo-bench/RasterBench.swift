// Raster engine figures: pencil strokes on a page, many small fills, a photo shrunk and rotated.

import Foundation
import TechoGeometry
import TechoRaster

/// Median wall time in milliseconds of `runs` calls of `body` (after one warm-up call).
private func medianMs(runs: Int, _ body: () -> Void) -> Double {
    body()
    var times: [Double] = []
    for _ in 0..<runs {
        let t0 = DispatchTime.now().uptimeNanoseconds
        body()
        times.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
    }
    return times.sorted()[times.count / 2]
}

/// A smooth path through `pts`: Catmull-Rom segments as cubics.
private func smoothPath(_ pts: [Point]) -> Path {
    var p = Path()
    p.move(to: pts[0])
    for i in 0..<(pts.count - 1) {
        let p0 = pts[max(0, i - 1)], p1 = pts[i], p2 = pts[i + 1], p3 = pts[min(pts.count - 1, i + 2)]
        p.cubic(to: p2, control1: p1 + (p2 - p0) / 6, control2: p2 - (p3 - p1) / 6)
    }
    return p
}

func rasterBench() {
    var rng = SplitMix64(seed: 2024)
    // 150 pencil strokes of 40 points, widths 2-10, on an A5 page at 300 dpi.
    var strokes: [(Path, Double, Color)] = []
    for _ in 0..<150 {
        var pts: [Point] = []
        var x = 100 + rng.unit() * 1548, y = 100 + rng.unit() * 2280
        var angle = rng.unit() * 2 * Double.pi
        for _ in 0..<40 {
            pts.append(Point(x, y))
            angle += (rng.unit() - 0.5) * 0.8
            x += cos(angle) * 12; y += sin(angle) * 12
        }
        strokes.append((smoothPath(pts), 2 + rng.unit() * 8, Color(r: rng.unit(), g: rng.unit(), b: rng.unit(), a: 0.9)))
    }
    var page = Pixmap(width: 1748, height: 2480)
    let strokesMs = medianMs(runs: 5) {
        for (path, width, color) in strokes {
            page.stroke(path, style: StrokeStyle(width: width), paint: Paint(color: color))
        }
    }
    print(String(format: "pencil strokes (150 x 40 points, widths 2-10, 1748x2480): %.1f ms", strokesMs))

    // 10 000 small filled shapes: circles, rectangles, triangles of 4-24 px.
    var shapes: [(Path, Color)] = []
    for i in 0..<10_000 {
        let cx = rng.unit() * 1748, cy = rng.unit() * 2480, r = 2 + rng.unit() * 10
        let path: Path
        switch i % 3 {
        case 0: path = .circle(center: Point(cx, cy), radius: r)
        case 1: path = .rect(Rect(x: cx - r, y: cy - r, width: 2 * r, height: 1.5 * r))
        default: path = .polyline([Point(cx, cy - r), Point(cx + r, cy + r), Point(cx - r, cy + r * 0.7)], closed: true)
        }
        shapes.append((path, Color(r: rng.unit(), g: rng.unit(), b: rng.unit(), a: 0.5 + rng.unit() / 2)))
    }
    let shapesMs = medianMs(runs: 5) {
        for (path, color) in shapes { page.fill(path, paint: Paint(color: color)) }
    }
    print(String(format: "small fills (10 000 shapes of 4-24 px): %.1f ms", shapesMs))

    // A 4032x3024 photo drawn 700 px wide, rotated 7 degrees, onto the page.
    var photo = Pixmap(width: 4032, height: 3024)
    photo.data.withUnsafeMutableBufferPointer { p in
        for y in 0..<3024 {
            for x in 0..<4032 {
                let i = (y * 4032 + x) * 4
                p[i] = UInt8(truncatingIfNeeded: x ^ y); p[i + 1] = UInt8(truncatingIfNeeded: x &* 3)
                p[i + 2] = UInt8(truncatingIfNeeded: y); p[i + 3] = 255
            }
        }
    }
    let s = 700.0 / 4032
    let t = Transform.translation(-2016, -1512).concatenating(.scale(s)).concatenating(.rotation(degrees: 7))
        .concatenating(.translation(874, 1240))
    for filter in [ImageFilter.bilinear, .good] {
        let ms = medianMs(runs: 5) { page.draw(photo, transform: t, filter: filter) }
        print(String(format: "photo 4032x3024 -> 700 px wide, rotated 7 deg (%@): %.1f ms", "\(filter)", ms))
    }

    let blurSrc = Pixmap(width: 800, height: 600)
    let blurMs = medianMs(runs: 5) { _ = blurSrc.blurred(radius: 12) }
    print(String(format: "shadow blur 800x600, sigma 12: %.1f ms", blurMs))
}
