// Die-cut sticker outlines: the sticker's alpha is thresholded at one half, an exact Euclidean
// distance transform (Felzenszwalb & Huttenlocher, "Distance Transforms of Sampled Functions",
// 2012: the lower envelope of parabolas, one row pass and one column pass) gives every pixel's
// distance to the nearest opaque pixel centre, and the border takes coverage
// clamp(width + ½ − distance, 0, 1): round, anti-aliased, without the stair steps of a
// morphological dilation, and computed in device space so it turns with the sticker.

import TechoRaster

enum DieCut {
    /// `pixmap` over a border of `width` device pixels in `color` that follows its alpha edge.
    /// Pixels more than `width + 1` from the shape stay transparent, so pad the pixmap by that.
    ///
    /// - Complexity: O(width × height) of the pixmap, whatever the border width.
    static func outlined(_ pixmap: Pixmap, width: Double, color: Color) -> Pixmap {
        let w = pixmap.width, h = pixmap.height
        let coverage = border(pixmap, width: width)
        var out = Pixmap(width: w, height: h)
        let c = color.premultiplied8
        out.data.withUnsafeMutableBufferPointer { o in
            for i in 0..<(w * h) {
                let k = UInt32(coverage[i])
                if k == 0 { continue }
                o[4 * i] = UInt8((UInt32(c.r) * k + 127) / 255)
                o[4 * i + 1] = UInt8((UInt32(c.g) * k + 127) / 255)
                o[4 * i + 2] = UInt8((UInt32(c.b) * k + 127) / 255)
                o[4 * i + 3] = UInt8((UInt32(c.a) * k + 127) / 255)
            }
        }
        out.composite(pixmap, x: 0, y: 0)
        return out
    }

    /// The border's coverage (0…255) of every pixel of `pixmap`: what `outlined` paints in its
    /// colour before the sticker goes over it (the vector PDF uses it as a soft mask).
    static func border(_ pixmap: Pixmap, width: Double) -> [UInt8] {
        let distance = squaredDistances(pixmap)
        let limit = Float(width + 0.5)
        return distance.map { d in
            let cov = min(1, max(0, limit - d.squareRoot()))
            return cov <= 0 ? 0 : UInt8((cov * 255).rounded())
        }
    }

    /// For every pixel, the squared distance (pixels²) to the nearest pixel whose alpha is at
    /// least 128; a huge value when there is none.
    static func squaredDistances(_ pixmap: Pixmap) -> [Float] {
        let w = pixmap.width, h = pixmap.height
        let far: Float = 1e20
        var f = [Float](repeating: far, count: w * h)
        pixmap.data.withUnsafeBufferPointer { p in
            for i in 0..<(w * h) where p[4 * i + 3] >= 128 { f[i] = 0 }
        }
        let n = max(w, h)
        var line = [Float](repeating: 0, count: n), result = [Float](repeating: 0, count: n)
        var v = [Int](repeating: 0, count: n), z = [Float](repeating: 0, count: n + 1)
        // Columns first, then rows.
        for x in 0..<w {
            for y in 0..<h { line[y] = f[y * w + x] }
            transform1D(line, count: h, v: &v, z: &z, into: &result)
            for y in 0..<h { f[y * w + x] = result[y] }
        }
        for y in 0..<h {
            for x in 0..<w { line[x] = f[y * w + x] }
            transform1D(line, count: w, v: &v, z: &z, into: &result)
            for x in 0..<w { f[y * w + x] = result[x] }
        }
        return f
    }

    /// The 1-D squared distance transform of sampled function `f` (lower envelope of parabolas).
    private static func transform1D(_ f: [Float], count n: Int, v: inout [Int], z: inout [Float], into d: inout [Float]) {
        let far: Float = 1e20
        var k = -1
        for q in 0..<n where f[q] < far {
            let fq = f[q] + Float(q * q)
            while k >= 0 {
                let p = v[k]
                let s = (fq - (f[p] + Float(p * p))) / Float(2 * (q - p))
                if s <= z[k] { k -= 1 } else { break }
            }
            k += 1
            v[k] = q
            z[k] =
                k == 0
                ? -.infinity
                : {
                    let p = v[k - 1]
                    return (fq - (f[p] + Float(p * p))) / Float(2 * (q - p))
                }()
            z[k + 1] = .infinity
        }
        if k < 0 {
            for q in 0..<n { d[q] = far }
            return
        }
        var j = 0
        for q in 0..<n {
            while z[j + 1] < Float(q) { j += 1 }
            let p = v[j], dq = Float(q - p)
            d[q] = dq * dq + f[p]
        }
    }
}
