// Gaussian blur approximated by three successive box blurs per axis (Wells 1986; box sizes
// from Kovesi, "Fast Almost-Gaussian Filtering", 2010), each a running sum, so the cost is
// independent of the radius.

import Foundation

extension Pixmap {
    /// A copy blurred by an approximate Gaussian of standard deviation `radius` pixels (the CSS
    /// `blur()` / shadow-blur convention), for drop shadows.
    ///
    /// The result has the same size; pixels outside the pixmap count as transparent, so pad
    /// the source by about `3 × radius` to keep the whole shadow. A radius that is not positive
    /// and finite returns the pixmap unchanged; radii over 2000 are clamped.
    ///
    /// - Complexity: O(width × height), whatever the radius.
    public func blurred(radius: Double) -> Pixmap {
        guard radius > 0 && radius.isFinite else { return self }
        let sizes = Pixmap.boxSizes(sigma: min(radius, 2000), passes: 3)
        var out = self
        var tmp = [UInt8](repeating: 0, count: data.count)
        for r in sizes where r > 0 {
            // Horizontal then vertical; each pass reads `out` and writes it back via `tmp`.
            Pixmap.boxPass(&out.data, &tmp, count: height, length: width, step: 4, lineStride: width * 4, radius: r)
            Pixmap.verticalBoxPass(&out.data, &tmp, width: width, height: height, radius: r)
        }
        return out
    }

    /// Half-widths of `passes` box filters whose repeated application approximates a Gaussian
    /// of `sigma` (Kovesi 2010): n boxes of width wl or wl + 2, chosen to match the variance.
    static func boxSizes(sigma: Double, passes n: Int) -> [Int] {
        let wIdeal = (12 * sigma * sigma / Double(n) + 1).squareRoot()
        var wl = Int(wIdeal.rounded(.down))
        if wl % 2 == 0 { wl -= 1 }
        let wu = wl + 2
        let mIdeal = (12 * sigma * sigma - Double(n * wl * wl) - Double(4 * n * wl) - Double(3 * n)) / Double(-4 * wl - 4)
        let m = Int(mIdeal.rounded())
        return (0..<n).map { i in ((i < m ? wl : wu) - 1) / 2 }
    }

    /// `ceil(2^40 / d)`: `(x · m) >> 40 == x / d` exactly whenever `x · d < 2^40`, which holds
    /// for the box sums here (x ≤ 256·d and d ≤ 4001 at the clamped radius).
    static func reciprocal(_ d: UInt32) -> UInt64 {
        ((1 << 40) + UInt64(d) - 1) / UInt64(d)
    }

    /// The vertical box blur, row by row: one running sum per column, so memory is read in
    /// order (walking down columns missed the cache on every pixel). Same result as
    /// `boxPass` down each column.
    static func verticalBoxPass(_ data: inout [UInt8], _ tmp: inout [UInt8], width: Int, height: Int, radius r: Int) {
        let div = UInt32(2 * r + 1)
        let half = div / 2
        let m = Pixmap.reciprocal(div)
        let rowBytes = width * 4
        var sums = [UInt32](repeating: 0, count: rowBytes)
        data.withUnsafeMutableBufferPointer { d in
            tmp.withUnsafeMutableBufferPointer { t in
                sums.withUnsafeMutableBufferPointer { s in
                    for y in 0..<min(r, height) {
                        let base = y * rowBytes
                        for k in 0..<rowBytes { s[k] &+= UInt32(d[base + k]) }
                    }
                    for y in 0..<height {
                        if y + r < height {
                            let base = (y + r) * rowBytes
                            for k in 0..<rowBytes { s[k] &+= UInt32(d[base + k]) }
                        }
                        let o = y * rowBytes
                        for k in 0..<rowBytes { t[o + k] = UInt8(truncatingIfNeeded: (UInt64(s[k] + half) &* m) >> 40) }
                        if y - r >= 0 {
                            let base = (y - r) * rowBytes
                            for k in 0..<rowBytes { s[k] &-= UInt32(d[base + k]) }
                        }
                    }
                }
                for k in 0..<d.count { d[k] = t[k] }
            }
        }
    }

    /// One box blur of half-width `radius` along `count` lines of `length` pixels, transparent
    /// outside, with rounding: out = round(sum / (2r + 1)).
    static func boxPass(
        _ data: inout [UInt8], _ tmp: inout [UInt8], count: Int, length: Int, step: Int,
        lineStride: Int, radius r: Int
    ) {
        let div = UInt32(2 * r + 1)
        let half = div / 2
        let m = Pixmap.reciprocal(div)
        @inline(__always) func q(_ v: UInt32) -> UInt8 { UInt8(truncatingIfNeeded: (UInt64(v + half) &* m) >> 40) }
        data.withUnsafeMutableBufferPointer { d in
            tmp.withUnsafeMutableBufferPointer { t in
                for line in 0..<count {
                    let base = line * lineStride
                    var sum: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
                    // Prime with pixels 0...r-1 (the window for pixel 0 is -r...r).
                    for i in 0..<min(r, length) {
                        let p = base + i * step
                        sum.0 += UInt32(d[p]); sum.1 += UInt32(d[p + 1]); sum.2 += UInt32(d[p + 2]); sum.3 += UInt32(d[p + 3])
                    }
                    for i in 0..<length {
                        let add = i + r
                        if add < length {
                            let p = base + add * step
                            sum.0 += UInt32(d[p]); sum.1 += UInt32(d[p + 1]); sum.2 += UInt32(d[p + 2]); sum.3 += UInt32(d[p + 3])
                        }
                        let o = base + i * step
                        t[o] = q(sum.0); t[o + 1] = q(sum.1); t[o + 2] = q(sum.2); t[o + 3] = q(sum.3)
                        let sub = i - r
                        if sub >= 0 {
                            let p = base + sub * step
                            sum.0 -= UInt32(d[p]); sum.1 -= UInt32(d[p + 1]); sum.2 -= UInt32(d[p + 2]); sum.3 -= UInt32(d[p + 3])
                        }
                    }
                    for i in 0..<length {
                        let o = base + i * step
                        d[o] = t[o]; d[o + 1] = t[o + 1]; d[o + 2] = t[o + 2]; d[o + 3] = t[o + 3]
                    }
                }
            }
        }
    }
}
