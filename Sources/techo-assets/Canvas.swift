// A floating-point drawing surface for making the demo and benchmark images procedurally:
// shapes are signed distance functions, anti-aliased by clamping distance to a pixel-wide ramp.

/// Straight-alpha RGBA in 0…1.
struct RGBA {
    var r: Float, g: Float, b: Float, a: Float
    init(_ r: Float, _ g: Float, _ b: Float, _ a: Float = 1) { self.r = r; self.g = g; self.b = b; self.a = a }
    init(hex: UInt32, alpha: Float = 1) {
        r = Float((hex >> 16) & 0xff) / 255
        g = Float((hex >> 8) & 0xff) / 255
        b = Float(hex & 0xff) / 255
        a = alpha
    }
    func mixed(_ o: RGBA, _ t: Float) -> RGBA {
        RGBA(r + (o.r - r) * t, g + (o.g - g) * t, b + (o.b - b) * t, a + (o.a - a) * t)
    }
    func scaled(_ s: Float) -> RGBA { RGBA(r * s, g * s, b * s, a) }
}

/// A surface of straight-alpha float pixels.
struct Canvas {
    let width: Int, height: Int
    var px: [RGBA]

    init(width: Int, height: Int, fill: RGBA = RGBA(0, 0, 0, 0)) {
        self.width = width
        self.height = height
        px = Array(repeating: fill, count: width * height)
    }

    /// Sets every pixel from a function of its centre.
    mutating func shade(_ f: (Float, Float) -> RGBA) {
        for y in 0..<height {
            let fy = Float(y) + 0.5
            for x in 0..<width { px[y * width + x] = f(Float(x) + 0.5, fy) }
        }
    }

    /// Paints `color` over the canvas where the signed distance `sdf` (pixels, negative inside)
    /// says, limited to `box` for speed.
    mutating func paint(_ color: RGBA, box: (Int, Int, Int, Int)? = nil, _ sdf: (Float, Float) -> Float) {
        let (x0, y0, x1, y1) = box ?? (0, 0, width, height)
        for y in max(0, y0)..<min(height, y1) {
            let fy = Float(y) + 0.5
            for x in max(0, x0)..<min(width, x1) {
                let d = sdf(Float(x) + 0.5, fy)
                let cov = min(1, max(0, 0.5 - d))
                if cov > 0 { blend(x, y, color, cov) }
            }
        }
    }

    /// Source-over of straight colour `c` with coverage `cov` at (x, y).
    mutating func blend(_ x: Int, _ y: Int, _ c: RGBA, _ cov: Float) {
        let i = y * width + x
        let d = px[i]
        let sa = c.a * cov
        let oa = sa + d.a * (1 - sa)
        if oa <= 0 { return }
        px[i] = RGBA(
            (c.r * sa + d.r * d.a * (1 - sa)) / oa,
            (c.g * sa + d.g * d.a * (1 - sa)) / oa,
            (c.b * sa + d.b * d.a * (1 - sa)) / oa, oa)
    }

    /// 8-bit straight RGBA bytes with the grain and detail of a real phone photo: noise in
    /// luminance (the sum of two hashes, so it peaks at zero like sensor noise) of `luma` either
    /// way plus a third of that in each channel on its own (colour noise), and smooth detail of
    /// three sizes of `texture` each, from `seed`. At 12 MP, luma 0.015 and texture 0.24 give
    /// JPEGs at quality 90 of the size phones write (3.4-3.8 MB), where `rgba8(grain:)`'s light
    /// grain gives 0.5-1.2 MB.
    func rgba8(sensorGrain luma: Float, texture: Float, seed: UInt32) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: width * height * 4)
        let chroma = luma / 3
        for i in 0..<(width * height) {
            let p = px[i]
            let k = UInt32(truncatingIfNeeded: i) &* 4
            // Detail at every scale, as a real scene has (leaves, gravel, fabric): smooth noise
            // of three sizes, not aligned with the JPEG blocks, so it survives downscaling.
            let x = Float(i % width), y = Float(i / width)
            let detail =
                (valueNoise(x / 2.7, y / 2.7, period: 4096, seed: seed &+ 11) - 0.5)
                + (valueNoise(x / 6.3, y / 6.3, period: 4096, seed: seed &+ 12) - 0.5)
                + (valueNoise(x / 14.1, y / 14.1, period: 4096, seed: seed &+ 13) - 0.5)
            let n = (hash01(k, seed) + hash01(k &+ 1, seed) - 1) * luma + detail * texture
            out[i * 4] = byte(p.r + n + (hash01(k &+ 2, seed) - 0.5) * chroma)
            out[i * 4 + 1] = byte(p.g + n + (hash01(k &+ 3, seed) - 0.5) * chroma)
            out[i * 4 + 2] = byte(p.b + n + (hash01(k &+ 3, seed &+ 1) - 0.5) * chroma)
            out[i * 4 + 3] = byte(p.a)
        }
        return out
    }

    /// 8-bit straight RGBA bytes, rounded, with a little dither-free grain from `seed`.
    func rgba8(grain: Float = 0, seed: UInt32 = 0) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: width * height * 4)
        for i in 0..<(width * height) {
            let p = px[i]
            let n = grain == 0 ? 0 : (hash01(UInt32(i), seed) - 0.5) * grain
            out[i * 4] = byte(p.r + n)
            out[i * 4 + 1] = byte(p.g + n)
            out[i * 4 + 2] = byte(p.b + n)
            out[i * 4 + 3] = byte(p.a)
        }
        return out
    }
}

@inline(__always) func byte(_ v: Float) -> UInt8 { UInt8(max(0, min(255, (v * 255).rounded()))) }
@inline(__always) func clamp01(_ v: Float) -> Float { max(0, min(1, v)) }
@inline(__always) func smoothstep(_ a: Float, _ b: Float, _ x: Float) -> Float {
    let t = clamp01((x - a) / (b - a))
    return t * t * (3 - 2 * t)
}
