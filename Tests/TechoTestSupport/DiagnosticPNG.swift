// A minimal PNG writer for test evidence (actual / diff images): RGBA8, zlib "stored" blocks,
// no compression. It depends on nothing so failure images can always be written.

import Foundation
import TechoRaster

/// Writes pixmaps as uncompressed PNG files for looking at test failures.
public enum DiagnosticPNG {
    /// The PNG bytes of `p` (straight alpha, 8-bit RGBA).
    public static func encode(_ p: Pixmap) -> Data {
        let rgba = p.straightRGBA()
        var raw = [UInt8]()
        raw.reserveCapacity((p.width * 4 + 1) * p.height)
        for y in 0..<p.height {
            raw.append(0)
            raw.append(contentsOf: rgba[(y * p.width * 4)..<((y + 1) * p.width * 4)])
        }
        var z: [UInt8] = [0x78, 0x01]
        var i = 0
        repeat {
            let n = min(65535, raw.count - i)
            let final: UInt8 = i + n >= raw.count ? 1 : 0
            z.append(final)
            z.append(UInt8(n & 0xff)); z.append(UInt8(n >> 8))
            z.append(UInt8(~n & 0xff)); z.append(UInt8((~n >> 8) & 0xff))
            z.append(contentsOf: raw[i..<(i + n)])
            i += n
        } while i < raw.count
        var a: UInt32 = 1, b: UInt32 = 0
        for v in raw { a = (a + UInt32(v)) % 65521; b = (b + a) % 65521 }
        let adler = b << 16 | a
        z.append(contentsOf: be32(adler))
        var out = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        out.append(chunk("IHDR", be32(UInt32(p.width)) + be32(UInt32(p.height)) + [8, 6, 0, 0, 0]))
        out.append(chunk("IDAT", z))
        out.append(chunk("IEND", []))
        return out
    }

    private static func be32(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8((v >> 16) & 0xff), UInt8((v >> 8) & 0xff), UInt8(v & 0xff)]
    }

    private static func chunk(_ type: String, _ body: [UInt8]) -> Data {
        let t = Array(type.utf8)
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in t + body {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return Data(be32(UInt32(body.count)) + t + body + be32(~crc))
    }
}
