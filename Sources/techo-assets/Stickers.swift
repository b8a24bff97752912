// Transparent stickers drawn from signed distance functions (after Inigo Quilez's 2-D distance
import Foundation

// functions, in our own code): each shape is coloured with a soft vertical gradient and a
// highlight, with a white vinyl border baked in on some.

struct V { var x: Float, y: Float; init(_ x: Float, _ y: Float) { self.x = x; self.y = y } }
@inline(__always) func len(_ x: Float, _ y: Float) -> Float { (x * x + y * y).squareRoot() }

func sdCircle(_ x: Float, _ y: Float, _ cx: Float, _ cy: Float, _ r: Float) -> Float { len(x - cx, y - cy) - r }

/// Signed distance to a polygon (negative inside), exact.
func sdPolygon(_ x: Float, _ y: Float, _ v: [V]) -> Float {
    var d = (x - v[0].x) * (x - v[0].x) + (y - v[0].y) * (y - v[0].y)
    var s: Float = 1
    var j = v.count - 1
    for i in 0..<v.count {
        let ex = v[j].x - v[i].x, ey = v[j].y - v[i].y
        let wx = x - v[i].x, wy = y - v[i].y
        let t = clamp01((wx * ex + wy * ey) / (ex * ex + ey * ey))
        let bx = wx - ex * t, by = wy - ey * t
        d = min(d, bx * bx + by * by)
        let c1 = y >= v[i].y, c2 = y < v[j].y, c3 = ex * wy > ey * wx
        if (c1 && c2 && c3) || (!c1 && !c2 && !c3) { s = -s }
        j = i
    }
    return s * d.squareRoot()
}

/// Heart with its point at the bottom, centred on (cx, cy), `size` tall.
func sdHeart(_ x: Float, _ y: Float, _ cx: Float, _ cy: Float, _ size: Float) -> Float {
    // Quilez's heart lives in a unit box with y up; map into it.
    var px = abs(x - cx) / size
    let py = (cy + size * 0.5 - y) / size
    px = abs(px)
    let d: Float
    if py + px > 1 {
        d = len(px - 0.25, py - 0.75) - 1.41421356 / 4
    } else {
        let m = 0.5 * max(px + py, 0)
        let a = (px * px + (py - 1) * (py - 1))
        let b = (px - m) * (px - m) + (py - m) * (py - m)
        d = min(a, b).squareRoot() * (px - py >= 0 ? 1 : -1)
    }
    return d * size
}

func starPoints(_ cx: Float, _ cy: Float, _ r: Float, _ inner: Float, _ n: Int, _ rot: Float) -> [V] {
    (0..<(2 * n)).map { i in
        let a = rot + Float(i) * .pi / Float(n)
        let rr = i % 2 == 0 ? r : r * inner
        return V(cx + rr * sin(a), cy - rr * cos(a))
    }
}

enum StickerKind: String, CaseIterable { case star, heart, sakura, cat, leaf, cloud, moon, strawberry }

/// A `size`×`size` transparent sticker. `hueShift` 0…1 varies its colours for the benchmark set.
func sticker(_ kind: StickerKind, size: Int, variant: Int = 0) -> Canvas {
    var c = Canvas(width: size, height: size)
    let s = Float(size), m = s / 2
    let border = s * 0.035
    let tints: [UInt32] = [0xFFD45C, 0xFF8FAB, 0xF7B7D2, 0xF2A65A, 0x8CC26B, 0xD8ECFF, 0xFFE9A8, 0xE84A5F]
    func gradient(_ base: RGBA) -> (Float) -> RGBA {
        { y in base.mixed(RGBA(1, 1, 1), 0.25 * (1 - y / s)).mixed(base.scaled(0.8), 0.3 * (y / s)) }
    }
    func fillShape(_ base: RGBA, outlined: Bool = true, _ sdf: (Float, Float) -> Float) {
        if outlined { c.paint(RGBA(1, 1, 1)) { x, y in sdf(x, y) - border } }
        let g = gradient(base)
        for y in 0..<size {
            let fy = Float(y) + 0.5
            let col = g(fy)
            for x in 0..<size {
                let cov = clamp01(0.5 - sdf(Float(x) + 0.5, fy))
                if cov > 0 { c.blend(x, y, col, cov) }
            }
        }
    }
    let tint = RGBA(hex: tints[(StickerKind.allCases.firstIndex(of: kind)! + variant) % tints.count])
    switch kind {
    case .star:
        let pts = starPoints(m, m * 1.04, s * 0.44, 0.48, 5, 0)
        fillShape(tint) { x, y in sdPolygon(x, y, pts) - s * 0.02 }
        c.paint(RGBA(1, 1, 1, 0.55)) { x, y in sdCircle(x, y, m - s * 0.1, m - s * 0.08, s * 0.045) }
    case .heart:
        fillShape(tint) { x, y in sdHeart(x, y, m, m * 1.02, s * 0.78) }
        c.paint(RGBA(1, 1, 1, 0.6)) { x, y in sdCircle(x, y, m - s * 0.2, m - s * 0.16, s * 0.05) }
    case .sakura:
        let petals: (Float, Float) -> Float = { x, y in
            var d: Float = .infinity
            for k in 0..<5 {
                let a = Float(k) * 2 * .pi / 5
                let px = m + s * 0.2 * sin(a), py = m - s * 0.2 * cos(a)
                var pd = sdCircle(x, y, px, py, s * 0.2)
                let nx = m + s * 0.41 * sin(a), ny = m - s * 0.41 * cos(a)
                pd = max(pd, -sdCircle(x, y, nx, ny, s * 0.05))
                d = min(d, pd)
            }
            return d
        }
        fillShape(tint, petals)
        c.paint(RGBA(hex: 0xE0607E)) { x, y in sdPolygon(x, y, starPoints(m, m, s * 0.1, 0.45, 5, 0.3)) }
        c.paint(RGBA(hex: 0xFFE28A)) { x, y in sdCircle(x, y, m, m, s * 0.035) }
    case .cat:
        let ears = [
            [V(m - s * 0.27, m - s * 0.1), V(m - s * 0.28, m - s * 0.38), V(m - s * 0.06, m - s * 0.2)],
            [V(m + s * 0.27, m - s * 0.1), V(m + s * 0.28, m - s * 0.38), V(m + s * 0.06, m - s * 0.2)],
        ]
        fillShape(tint) { x, y in
            min(sdCircle(x, y, m, m + s * 0.06, s * 0.33), sdPolygon(x, y, ears[0]) - s * 0.02, sdPolygon(x, y, ears[1]) - s * 0.02)
        }
        let ink = RGBA(hex: 0x3B2A2A)
        c.paint(ink) { x, y in sdCircle(x, y, m - s * 0.12, m + s * 0.02, s * 0.035) }
        c.paint(ink) { x, y in sdCircle(x, y, m + s * 0.12, m + s * 0.02, s * 0.035) }
        c.paint(RGBA(hex: 0xE8788A)) { x, y in sdPolygon(x, y, [V(m - s * 0.04, m + s * 0.1), V(m + s * 0.04, m + s * 0.1), V(m, m + s * 0.15)]) }
        c.paint(RGBA(hex: 0xF5A3B5, alpha: 0.7)) { x, y in sdCircle(x, y, m - s * 0.2, m + s * 0.14, s * 0.05) }
        c.paint(RGBA(hex: 0xF5A3B5, alpha: 0.7)) { x, y in sdCircle(x, y, m + s * 0.2, m + s * 0.14, s * 0.05) }
    case .leaf:
        let r = s * 0.42
        fillShape(tint) { x, y in
            // A vesica: two circles' intersection, turned 40°.
            let a: Float = 0.7, dx = x - m, dy = y - m
            let u = dx * cos(a) + dy * sin(a), v = -dx * sin(a) + dy * cos(a)
            return max(sdCircle(u, v, 0, r * 0.55, r), sdCircle(u, v, 0, -r * 0.55, r))
        }
        c.paint(RGBA(hex: 0x4F7A3A)) { x, y in
            let a: Float = 0.7, dx = x - m, dy = y - m
            let u = dx * cos(a) + dy * sin(a), v = -dx * sin(a) + dy * cos(a)
            return max(abs(v) - s * 0.008, abs(u) - s * 0.36)
        }
    case .cloud:
        fillShape(tint) { x, y in
            min(
                sdCircle(x, y, m - s * 0.17, m + s * 0.05, s * 0.16), sdCircle(x, y, m + s * 0.02, m - s * 0.06, s * 0.22),
                sdCircle(x, y, m + s * 0.22, m + s * 0.06, s * 0.14),
                sdPolygon(x, y, [V(m - s * 0.3, m + s * 0.05), V(m + s * 0.3, m + s * 0.05), V(m + s * 0.3, m + s * 0.2), V(m - s * 0.3, m + s * 0.2)]) - s
                    * 0.01)
        }
        c.paint(RGBA(hex: 0x5B6B8A)) { x, y in sdCircle(x, y, m - s * 0.08, m + s * 0.07, s * 0.02) }
        c.paint(RGBA(hex: 0x5B6B8A)) { x, y in sdCircle(x, y, m + s * 0.1, m + s * 0.07, s * 0.02) }
    case .moon:
        fillShape(tint) { x, y in max(sdCircle(x, y, m, m, s * 0.4), -sdCircle(x, y, m + s * 0.2, m - s * 0.12, s * 0.33)) }
        c.paint(RGBA(hex: 0xFFFFFF, alpha: 0.9)) { x, y in sdPolygon(x, y, starPoints(m + s * 0.25, m + s * 0.2, s * 0.07, 0.45, 4, 0)) }
    case .strawberry:
        fillShape(tint) { x, y in
            let d = sdHeart(x, y, m, m * 1.08, s * 0.72)
            return d
        }
        for k in 0..<14 {
            let a = Float(k) * 2.39996, rr = s * 0.22 * (Float(k) / 14).squareRoot() + s * 0.04
            let sx = m + rr * cos(a), sy = m * 1.1 + rr * sin(a) * 0.9
            c.paint(RGBA(hex: 0xFFE9A0)) { x, y in
                let dx = (x - sx), dy = (y - sy) * 0.6
                return len(dx, dy) - s * 0.012
            }
        }
        c.paint(RGBA(hex: 0x5E9E4A)) { x, y in sdPolygon(x, y, starPoints(m, m * 0.68, s * 0.16, 0.4, 5, 0.3)) }
    }
    return c
}
