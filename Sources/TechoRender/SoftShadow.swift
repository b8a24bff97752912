// Soft drop shadows, cheaply: a shadow has no detail finer than its blur, so the silhouette is
// drawn and blurred at 1/f of the resolution (f about a quarter of the blur radius), and the
// blurred alpha is scaled back up with separable bilinear interpolation into a coverage mask
// through which one solid colour is filled. Only one channel is ever scaled up.

import TechoGeometry
import TechoRaster

enum SoftShadow {
    /// A `width`×`height` coverage mask of `shape` (device path, already offset), blurred by a
    /// Gaussian of `sigma` device pixels.
    static func mask(_ shape: Path, transform: Transform, sigma: Double, width: Int, height: Int) -> Mask {
        let (small, f) = blurred(shape, transform: transform, sigma: sigma, width: width, height: height)
        return upscaledAlpha(small, factor: f, width: width, height: height)
    }

    /// The shadow before it is scaled up: the silhouette drawn and blurred at 1/`factor` of
    /// the resolution, its alpha the coverage. Pixel (i, j) of `small` is centred on device
    /// point ((i + ½)·factor, (j + ½)·factor) of the `width`×`height` mask, which it covers with
    /// a pixel to spare on the right and bottom. The vector PDF embeds this and lets the reader
    /// interpolate, as `mask` does.
    static func blurred(_ shape: Path, transform: Transform, sigma: Double, width: Int, height: Int) -> (small: Pixmap, factor: Int) {
        let f = max(1, min(8, Int(sigma / 4)))
        let sw = (width + f - 1) / f + 1, sh = (height + f - 1) / f + 1
        var small = Pixmap(width: sw, height: sh)
        small.fill(shape, paint: Paint(color: .black), transform: transform.concatenating(.scale(1 / Double(f))))
        return (sigma / Double(f) > 0.2 ? small.blurred(radius: sigma / Double(f)) : small, f)
    }

    /// The alpha channel of `small` scaled up by `factor` (pixel centres aligned) to a mask of
    /// `width`×`height`, bilinear in 8-bit fixed point.
    static func upscaledAlpha(_ small: Pixmap, factor f: Int, width: Int, height: Int) -> Mask {
        var mask = Mask(width: width, height: height)
        let sw = small.width, sh = small.height
        // Source position of output coordinate o: (o + ½)/f − ½, as index and 0…256 weight.
        func taps(_ n: Int, _ limit: Int) -> ([Int], [Int]) {
            var idx = [Int](repeating: 0, count: n), wt = [Int](repeating: 0, count: n)
            for o in 0..<n {
                let s = max(0, (Double(o) + 0.5) / Double(f) - 0.5)
                let i = min(Int(s), limit - 1)
                idx[o] = i
                wt[o] = i + 1 < limit ? Int(((s - Double(i)) * 256).rounded()) : 0
            }
            return (idx, wt)
        }
        let (xi, xw) = taps(width, sw), (yi, yw) = taps(height, sh)
        var row = [Int](repeating: 0, count: sw)
        small.data.withUnsafeBufferPointer { src in
            mask.data.withUnsafeMutableBufferPointer { out in
                for y in 0..<height {
                    let r0 = yi[y] * sw, r1 = min(yi[y] + 1, sh - 1) * sw, w1 = yw[y], w0 = 256 - w1
                    for x in 0..<sw { row[x] = Int(src[4 * (r0 + x) + 3]) * w0 + Int(src[4 * (r1 + x) + 3]) * w1 }
                    let base = y * width
                    for x in 0..<width {
                        let i = xi[x], b = xw[x]
                        let v = row[i] * (256 - b) + (b > 0 ? row[i + 1] * b : 0)
                        out[base + x] = UInt8(truncatingIfNeeded: (v + 32768) >> 16)
                    }
                }
            }
        }
        return mask
    }
}
