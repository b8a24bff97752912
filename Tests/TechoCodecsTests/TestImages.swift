// Deterministic synthetic images and small PNG chunk reader for the codec tests.
import TechoCodecs
import TechoGeometry
import TechoRaster

extension SplitMix64 {
    /// The low byte of the next value.
    mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next()) }
}

/// A smooth gradient with some noise, straight RGBA; alpha varies when `translucent`.
func syntheticImage(width: Int, height: Int, translucent: Bool, seed: UInt64 = 1) -> RGBAImage {
    var rng = SplitMix64(seed: seed)
    var bytes = [UInt8](repeating: 0, count: width * height * 4)
    for y in 0..<height {
        for x in 0..<width {
            let i = (y * width + x) * 4
            let n = Int(rng.byte() % 16)
            bytes[i] = UInt8(clamping: x * 255 / max(1, width - 1) / 2 + n)
            bytes[i + 1] = UInt8(clamping: y * 255 / max(1, height - 1) / 2 + n)
            bytes[i + 2] = UInt8(clamping: (x + y) * 127 / max(1, width + height - 2) + n)
            bytes[i + 3] = translucent ? UInt8((x * 7 + y * 3) % 256) : 255
        }
    }
    return RGBAImage(width: width, height: height, bytes: bytes)
}

/// The chunks of a PNG file, in order: (type, data).
func pngChunks(_ png: [UInt8]) -> [(String, [UInt8])] {
    var out: [(String, [UInt8])] = []
    var i = 8
    while i + 12 <= png.count {
        let len = Int(png[i]) << 24 | Int(png[i + 1]) << 16 | Int(png[i + 2]) << 8 | Int(png[i + 3])
        let type = String(decoding: png[(i + 4)..<(i + 8)], as: UTF8.self)
        guard i + 12 + len <= png.count else { break }
        out.append((type, Array(png[(i + 8)..<(i + 8 + len)])))
        i += 12 + len
    }
    return out
}

func be32(_ b: [UInt8], _ at: Int) -> UInt32 {
    UInt32(b[at]) << 24 | UInt32(b[at + 1]) << 16 | UInt32(b[at + 2]) << 8 | UInt32(b[at + 3])
}
