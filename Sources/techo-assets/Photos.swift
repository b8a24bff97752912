// Photo-like landscapes, painted procedurally: a sky gradient with sun or moon and clouds,
// layered ridges in aerial perspective, then water, meadow or sand in front. Each layer is a
// function of x (ridge heights) or of the pixel, so a 12-megapixel photo paints in about a second.
import Foundation

enum Scene: String, CaseIterable {
    case sunsetLake, meadow, seaside, nightHills
}

struct Palette {
    var skyTop: RGBA, skyHorizon: RGBA, sun: RGBA, ridges: [RGBA], front: RGBA, frontFar: RGBA
}

func palette(_ s: Scene) -> Palette {
    switch s {
    case .sunsetLake:
        return Palette(
            skyTop: RGBA(hex: 0x2E3A6E), skyHorizon: RGBA(hex: 0xF6A86B), sun: RGBA(hex: 0xFFE6B0),
            ridges: [RGBA(hex: 0x9C6A8A), RGBA(hex: 0x6B4A6E), RGBA(hex: 0x3A2C48)],
            front: RGBA(hex: 0x1F2A44), frontFar: RGBA(hex: 0xE89A6C))
    case .meadow:
        return Palette(
            skyTop: RGBA(hex: 0x5C9ED8), skyHorizon: RGBA(hex: 0xDCEEF7), sun: RGBA(hex: 0xFFFBEA),
            ridges: [RGBA(hex: 0x9DB8B0), RGBA(hex: 0x7FA36A), RGBA(hex: 0x5E8C45)],
            front: RGBA(hex: 0x4E7F2F), frontFar: RGBA(hex: 0x8DB255))
    case .seaside:
        return Palette(
            skyTop: RGBA(hex: 0x7FB7E0), skyHorizon: RGBA(hex: 0xF3E9DA), sun: RGBA(hex: 0xFFF7E0),
            ridges: [RGBA(hex: 0xA7BFC9)],
            front: RGBA(hex: 0xE8D2A8), frontFar: RGBA(hex: 0x2F9AA8))
    case .nightHills:
        return Palette(
            skyTop: RGBA(hex: 0x0B1230), skyHorizon: RGBA(hex: 0x3B4A80), sun: RGBA(hex: 0xF4F1DA),
            ridges: [RGBA(hex: 0x2A3260), RGBA(hex: 0x1A1F40), RGBA(hex: 0x10132A)],
            front: RGBA(hex: 0x0A0C1C), frontFar: RGBA(hex: 0x151A36))
    }
}

/// Paints `scene` at `width`×`height`.
func landscape(_ scene: Scene, width: Int, height: Int, seed: UInt32) -> Canvas {
    let pal = palette(scene)
    let w = Float(width), h = Float(height)
    let unit = min(w, h)
    let horizon = h * (scene == .seaside ? 0.52 : 0.6)
    let sun = (
        x: w * (scene == .meadow ? 0.22 : 0.68), y: horizon - unit * (scene == .nightHills ? 0.42 : 0.3),
        r: unit * (scene == .nightHills ? 0.06 : 0.075)
    )

    // Ridge heights, per column.
    var ridgeY: [[Float]] = []
    for (k, _) in pal.ridges.enumerated() {
        let base = horizon - unit * (0.2 - 0.06 * Float(k)) * (scene == .seaside ? 0.4 : 1)
        let amp = unit * (0.09 - 0.015 * Float(k)) * (scene == .meadow ? 0.6 : 1) * (scene == .seaside ? 0.4 : 1)
        var row = [Float](repeating: 0, count: width)
        let s = seed &+ UInt32(k) &* 977
        for x in 0..<width {
            let u = Float(x) / unit
            let n = fbm(u * 3.2 + Float(k) * 7, Float(k) * 3.1, period: 4096, octaves: 6, seed: s)
            let roll = sin(u * (2.1 + Float(k)) + Float(k) * 1.7) * 0.35
            row[x] = base - amp * (n * 1.6 + roll)
        }
        ridgeY.append(row)
    }

    var c = Canvas(width: width, height: height)
    c.shade { x, y in
        // Sky.
        let t = clamp01(y / horizon)
        var col = pal.skyTop.mixed(pal.skyHorizon, pow(t, 1.6))
        let dx = x - sun.x, dy = y - sun.y
        let dist = (dx * dx + dy * dy).squareRoot()
        let glow = exp(-dist / (unit * 0.18)) * (scene == .nightHills ? 0.25 : 0.55)
        col = col.mixed(pal.sun, glow)
        if scene != .nightHills {
            let cloud = fbm(x / unit * 2.5, y / unit * 7, period: 4096, octaves: 5, seed: seed &+ 11)
            let cl = smoothstep(0.6, 0.82, cloud) * (1 - t * 0.6)
            col = col.mixed(RGBA(1, 0.98, 0.95), cl * 0.75)
        } else {
            let star = hash01(UInt32(Int(x) &* 7919 &+ Int(y) &* 104_729), seed)
            if star > 0.9993 { col = col.mixed(RGBA(1, 1, 0.95), 0.9) }
        }
        let sunCov = clamp01(sun.r - dist + 0.5)
        col = col.mixed(pal.sun, sunCov)
        // Ridges, far to near, hazier far away.
        let ix = min(width - 1, max(0, Int(x)))
        for (k, ridge) in pal.ridges.enumerated() {
            let cov = clamp01(y - ridgeY[k][ix] + 0.5)
            if cov > 0 {
                let shade = 1 - 0.12 * fbm(x / unit * 14, y / unit * 14, period: 4096, octaves: 3, seed: seed &+ UInt32(k))
                col = col.mixed(ridge.scaled(shade).mixed(pal.skyHorizon, 0.15 / Float(k + 1)), cov)
            }
        }
        // Foreground.
        if y > horizon {
            let ft = clamp01((y - horizon) / (h - horizon))
            switch scene {
            case .sunsetLake, .nightHills:
                // Water reflecting the sky, with ripples and a path of light under the sun.
                let ry = horizon - (y - horizon) * 0.9
                let sky = pal.skyHorizon.mixed(pal.skyTop, clamp01((horizon - ry) / horizon) * 0.8)
                var water = sky.mixed(pal.front, 0.35 + 0.45 * ft)
                let ripple = sin(y * 0.9 / max(1, unit / 400) + fbm(x / unit * 8, y / unit * 40, period: 4096, octaves: 3, seed: seed) * 9)
                let path = exp(-abs(x - sun.x) / (unit * (0.03 + 0.1 * ft))) * (0.5 + 0.5 * ripple)
                water = water.mixed(pal.sun, path * (scene == .nightHills ? 0.35 : 0.6) * (1 - ft * 0.5))
                col = water.scaled(0.96 + 0.04 * ripple)
            case .meadow:
                let g = pal.frontFar.mixed(pal.front, pow(ft, 0.7))
                let blades = fbm(x / unit * 60, y / unit * 6, period: 4096, octaves: 3, seed: seed &+ 5)
                col = g.scaled(0.8 + 0.35 * blades)
                // Flowers: at most one per cell, cells growing towards the viewer.
                let cell = unit * (0.006 + 0.03 * ft * ft)
                let cx = (x / cell).rounded(.down), cy = (y / cell).rounded(.down)
                let key = UInt32(truncatingIfNeeded: Int(cx) &* 3571 &+ Int(cy) &* 7919)
                if hash01(key, seed &+ 3) > 0.55 {
                    let fx = (cx + 0.25 + 0.5 * hash01(key, seed &+ 4)) * cell
                    let fy = (cy + 0.25 + 0.5 * hash01(key, seed &+ 6)) * cell
                    let r = cell * 0.22
                    let d = len(x - fx, y - fy)
                    let colors = [RGBA(hex: 0xF7C6D9), RGBA(hex: 0xFFF1A8), RGBA(hex: 0xFFFFFF), RGBA(hex: 0xE8A0BF)]
                    let fc = colors[Int(hash01(key, seed &+ 8) * 3.999)]
                    col = col.mixed(fc, clamp01(r - d + 0.5) * 0.95)
                    col = col.mixed(RGBA(hex: 0xF2B134), clamp01(r * 0.35 - d + 0.5))
                }
            case .seaside:
                let shore = horizon + (h - horizon) * (0.45 + 0.08 * sin(x / unit * 3))
                if y < shore {
                    let st = clamp01((y - horizon) / (shore - horizon))
                    let sea = pal.frontFar.mixed(RGBA(hex: 0x7FD3D0), st)
                    let wave = fbm(x / unit * 20, y / unit * 80, period: 4096, octaves: 3, seed: seed &+ 9)
                    col = sea.mixed(RGBA(1, 1, 1), smoothstep(0.7, 0.8, wave) * 0.5 + smoothstep(shore - unit * 0.02, shore, y) * 0.8)
                } else {
                    let sand = fbm(x / unit * 90, y / unit * 90, period: 4096, octaves: 2, seed: seed &+ 2)
                    col = pal.front.scaled(0.92 + 0.12 * sand)
                }
            }
        }
        // Vignette, as phone photos have.
        let vx = (x / w - 0.5) * 2, vy = (y / h - 0.5) * 2
        let v = 1 - 0.18 * clamp01((vx * vx + vy * vy) * 0.5)
        return RGBA(col.r * v, col.g * v, col.b * v, 1)
    }
    return c
}
