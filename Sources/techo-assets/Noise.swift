// Deterministic hash noise and periodic value noise (fractal sums of it), so every generated
// image is the same on every machine and textures tile seamlessly.

/// A 32-bit integer hash (after the "lowbias32" finaliser) mapped to 0…1.
@inline(__always) func hash01(_ x: UInt32, _ seed: UInt32) -> Float {
    var h = x &* 0x9E37_79B9 ^ seed &* 0x85EB_CA6B
    h ^= h >> 16; h = h &* 0x7FEB_352D
    h ^= h >> 15; h = h &* 0x846C_A68B
    h ^= h >> 16
    return Float(h & 0xFFFFFF) / Float(0xFFFFFF)
}

@inline(__always) func lattice(_ ix: Int, _ iy: Int, _ period: Int, _ seed: UInt32) -> Float {
    let px = ((ix % period) + period) % period, py = ((iy % period) + period) % period
    return hash01(UInt32(px) &* 73_856_093 ^ UInt32(py) &* 19_349_663, seed)
}

/// Value noise in 0…1 with smooth interpolation, periodic with `period` lattice cells.
func valueNoise(_ x: Float, _ y: Float, period: Int, seed: UInt32) -> Float {
    let fx = x.rounded(.down), fy = y.rounded(.down)
    let ix = Int(fx), iy = Int(fy)
    let tx = x - fx, ty = y - fy
    let sx = tx * tx * (3 - 2 * tx), sy = ty * ty * (3 - 2 * ty)
    let a = lattice(ix, iy, period, seed), b = lattice(ix + 1, iy, period, seed)
    let c = lattice(ix, iy + 1, period, seed), d = lattice(ix + 1, iy + 1, period, seed)
    return (a + (b - a) * sx) + ((c + (d - c) * sx) - (a + (b - a) * sx)) * sy
}

/// Fractal sum of `octaves` of value noise, 0…1, periodic in `period` base cells.
func fbm(_ x: Float, _ y: Float, period: Int, octaves: Int, seed: UInt32) -> Float {
    var sum: Float = 0, amp: Float = 0.5, norm: Float = 0, f: Float = 1, p = period
    for o in 0..<octaves {
        sum += amp * valueNoise(x * f, y * f, period: p, seed: seed &+ UInt32(o) &* 1013)
        norm += amp
        amp *= 0.5
        f *= 2
        p *= 2
    }
    return sum / norm
}
