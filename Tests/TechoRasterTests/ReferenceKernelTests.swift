import Foundation
import TechoGeometry
import TechoTestSupport
import Testing

@testable import TechoRaster

/// Fast kernels against slow, obvious versions written here in plain Swift.
@Suite struct ReferenceKernelTests {
    /// Exact area of polygon ∩ pixel square (Sutherland–Hodgman clip, then the shoelace
    /// formula), in `Double`.
    static func pixelArea(_ poly: [Point], _ px: Int, _ py: Int) -> Double {
        var pts = poly
        let x0 = Double(px), x1 = x0 + 1, y0 = Double(py), y1 = y0 + 1
        let planes: [(Point) -> Double] = [{ $0.x - x0 }, { x1 - $0.x }, { $0.y - y0 }, { y1 - $0.y }]
        for inside in planes {
            var out: [Point] = []
            for i in 0..<pts.count {
                let a = pts[i], b = pts[(i + 1) % pts.count]
                let da = inside(a), db = inside(b)
                if da >= 0 { out.append(a) }
                if (da >= 0) != (db >= 0) { out.append(a.lerp(b, da / (da - db))) }
            }
            pts = out
            if pts.isEmpty { return 0 }
        }
        var s = 0.0
        for i in 0..<pts.count { s += pts[i].cross(pts[(i + 1) % pts.count]) }
        return abs(s) / 2
    }

    @Test func rasterizerMatchesExactPolygonClippingOnStarShapedPolygons() {
        var rng = SplitMix64(seed: 11)
        for _ in 0..<30 {
            let c = Point(rng.double(in: 10...22), rng.double(in: 10...22))
            let n = rng.int(in: 3...9)
            let angles = (0..<n).map { _ in rng.double(in: 0...(2 * Double.pi)) }.sorted()
            let poly = angles.map { a in c + Point(cos(a), sin(a)) * rng.double(in: 2...14) }
            let cov = Pixmap(width: 32, height: 32).coverageRows(.polyline(poly, closed: true))
            for y in 0..<32 {
                for x in 0..<32 {
                    let want = Self.pixelArea(poly, x, y) * 255
                    #expect(abs(Double(cov[y * 32 + x]) - want) <= 0.6, "(\(x), \(y)) got \(cov[y * 32 + x]) want \(want)")
                }
            }
        }
    }

    /// The obvious bilinear sample at source position (u, v) (pixel centres at integers),
    /// edges clamped, with the same 8-bit weights as the fast kernel.
    static func bilinear(_ img: Pixmap, _ u: Double, _ v: Double) -> [UInt8] {
        let uc = min(max(u, -1), Double(img.width)), vc = min(max(v, -1), Double(img.height))
        let fx = Int(uc.rounded(.down)), fy = Int(vc.rounded(.down))
        let wx = Int(((uc - Double(fx)) * 256).rounded()), wy = Int(((vc - Double(fy)) * 256).rounded())
        func px(_ x: Int, _ y: Int) -> [Int] {
            let p = img.pixel(min(max(x, 0), img.width - 1), min(max(y, 0), img.height - 1))
            return [Int(p.r), Int(p.g), Int(p.b), Int(p.a)]
        }
        let a = px(fx, fy), b = px(fx + 1, fy), c = px(fx, fy + 1), d = px(fx + 1, fy + 1)
        return (0..<4).map { k in
            let t = a[k] * (256 - wx) * (256 - wy) + b[k] * wx * (256 - wy) + c[k] * (256 - wx) * wy + d[k] * wx * wy
            return UInt8((t + 32768) >> 16)
        }
    }

    @Test func bilinearRowMatchesTheObviousSampler() {
        let img = ImageDrawingTests.noise(9, 7, seed: 5)
        var rng = SplitMix64(seed: 6)
        for _ in 0..<200 {
            let u0 = rng.double(in: -3...12), v0 = rng.double(in: -3...10)
            let du = rng.double(in: -1.5...1.5), dv = rng.double(in: -1.5...1.5)
            var out = [UInt8](repeating: 0, count: 4 * 16)
            img.data.withUnsafeBufferPointer { s in
                out.withUnsafeMutableBufferPointer { o in
                    Sampler.bilinearRow(s.baseAddress!, width: 9, height: 7, u0: u0, v0: v0, du: du, dv: dv, count: 16, into: o.baseAddress!)
                }
            }
            for i in 0..<16 {
                #expect(Array(out[(4 * i)..<(4 * i + 4)]) == Self.bilinear(img, u0 + Double(i) * du, v0 + Double(i) * dv))
            }
        }
    }

    /// One box blur pass, the obvious way: mean over the window, transparent outside.
    static func boxBlur(_ p: Pixmap, radius r: Int, horizontal: Bool) -> Pixmap {
        var out = p
        for y in 0..<p.height {
            for x in 0..<p.width {
                var s = [0, 0, 0, 0]
                for k in -r...r {
                    let (sx, sy) = horizontal ? (x + k, y) : (x, y + k)
                    guard sx >= 0 && sx < p.width && sy >= 0 && sy < p.height else { continue }
                    let q = p.pixel(sx, sy)
                    s[0] += Int(q.r); s[1] += Int(q.g); s[2] += Int(q.b); s[3] += Int(q.a)
                }
                let n = 2 * r + 1
                let v = s.map { UInt8(($0 + n / 2) / n) }
                out.setPixel(x, y, (v[0], v[1], v[2], v[3]))
            }
        }
        return out
    }

    @Test func blurEqualsRepeatedObviousBoxBlurs() {
        let img = ImageDrawingTests.noise(23, 17, seed: 8)
        for sigma in [0.8, 2.0, 5.5] {
            var want = img
            for r in Pixmap.boxSizes(sigma: sigma, passes: 3) where r > 0 {
                want = Self.boxBlur(want, radius: r, horizontal: true)
                want = Self.boxBlur(want, radius: r, horizontal: false)
            }
            #expect(img.blurred(radius: sigma) == want, "σ=\(sigma)")
        }
    }

    @Test func blurReciprocalDividesExactly() {
        var rng = SplitMix64(seed: 3)
        for d in stride(from: 1, through: 4001, by: 2) {
            let m = Pixmap.reciprocal(UInt32(d))
            let top = 256 * d
            var xs = Array(0...300) + Array(max(0, top - 300)...top)
            for _ in 0..<200 { xs.append(rng.int(in: 0...top)) }
            for x in xs { #expect((UInt64(x) &* m) >> 40 == UInt64(x / d), "x=\(x) d=\(d)") }
        }
    }

    @Test func downsampleEqualsTheObviousBoxMean() {
        let img = ImageDrawingTests.noise(19, 13, seed: 10)
        for (n, m) in [(2, 2), (3, 3), (4, 4), (8, 8), (20, 20), (1, 3), (5, 2), (19, 1)] {
            let d = img.downsampled(byX: n, byY: m)
            #expect(d.width == (19 + n - 1) / n && d.height == (13 + m - 1) / m)
            for oy in 0..<d.height {
                for ox in 0..<d.width {
                    var s = [0, 0, 0, 0], count = 0
                    for y in (oy * m)..<min(img.height, oy * m + m) {
                        for x in (ox * n)..<min(img.width, ox * n + n) {
                            let q = img.pixel(x, y)
                            s[0] += Int(q.r); s[1] += Int(q.g); s[2] += Int(q.b); s[3] += Int(q.a); count += 1
                        }
                    }
                    let want = s.map { UInt8((Double($0) / Double(count)).rounded()) }
                    let got = d.pixel(ox, oy)
                    #expect([got.r, got.g, got.b, got.a] == want, "\(n)x\(m) (\(ox), \(oy))")
                }
            }
        }
    }
}
