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
