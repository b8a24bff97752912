// Seamlessly tiling paper textures and tape patterns: every noise lattice is periodic in the
import Foundation

// tile size, so copies placed side by side show no seam.

/// Kraft or rice paper: warm base colour, soft mottling and long fibres along x.
func paperTexture(size: Int, kraft: Bool, seed: UInt32) -> Canvas {
    var c = Canvas(width: size, height: size)
    let base = kraft ? RGBA(hex: 0xC9A77C) : RGBA(hex: 0xF4EEE2)
    let cells = 8
    let scale = Float(cells) / Float(size)
    c.shade { x, y in
        let mottle = fbm(x * scale, y * scale, period: cells, octaves: 5, seed: seed)
        let fibre = fbm(x * scale * 0.5, y * scale * 8, period: cells * 4, octaves: 3, seed: seed &+ 77)
        let speck = hash01(UInt32(Int(x) &+ Int(y) &* size), seed &+ 5) > 0.997 ? Float(0.7) : 1
        let v = (0.9 + 0.16 * mottle) * (0.96 + 0.08 * fibre) * speck
        return RGBA(base.r * v, base.g * v, base.b * v, 1)
    }
    return c
}

/// A small repeating pattern for washi tape: gingham, dots or stripes.
func tapePattern(_ kind: String, size: Int) -> Canvas {
    var c = Canvas(width: size, height: size)
    let s = Float(size)
    switch kind {
    case "gingham":
        c.shade { x, y in
            let a: Float = (x.truncatingRemainder(dividingBy: s) < s / 2) ? 1 : 0
            let b: Float = (y.truncatingRemainder(dividingBy: s) < s / 2) ? 1 : 0
            let ink = (a + b) / 2
            return RGBA(hex: 0xFFFFFF).mixed(RGBA(hex: 0xE07A8F), ink * 0.8)
        }
    case "dots":
        c.shade { _, _ in RGBA(hex: 0xBFE3D7) }
        c.paint(RGBA(hex: 0xFFFFFF)) { x, y in sdCircle(x, y, s / 4, s / 4, s * 0.11) }
        c.paint(RGBA(hex: 0xFFFFFF)) { x, y in sdCircle(x, y, 3 * s / 4, 3 * s / 4, s * 0.11) }
    default:
        c.shade { x, y in
            let t = ((x + y).truncatingRemainder(dividingBy: s)) / s
            return t < 0.5 ? RGBA(hex: 0xF6D365) : RGBA(hex: 0xFFF6D8)
        }
    }
    return c
}
