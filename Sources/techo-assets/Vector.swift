// The demo's vector sticker and WebP sticker: an SVG written as text (a cherry blossom with a
// white die-cut border, gradients and no text, so it renders the same everywhere), and a
// canvas encoded as lossy WebP with alpha through libwebp, as chat sticker packs ship them.
import CLibWebP
import Foundation

/// A cherry blossom as SVG source, `size` px square.
func sakuraSVG(size: Int) -> [UInt8] {
    func f(_ v: Double) -> String { String(format: "%.2f", v) }
    var petals = ""
    for k in 0..<5 {
        let a = Double(k) * 72
        // A petal: a rounded teardrop pointing out, with a notch at its tip.
        petals += """
              <path transform="rotate(\(f(a)) 50 50)" d="M50 50 C36 40 30 22 38 10 Q44 4 50 11 Q56 4 62 10 C70 22 64 40 50 50 Z"/>

            """
    }
    let svg = """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(size)" height="\(size)" viewBox="0 0 100 100">
          <defs>
            <radialGradient id="petal" cx="50" cy="50" r="42" gradientUnits="userSpaceOnUse">
              <stop offset="0" stop-color="#e0607e"/>
              <stop offset="0.35" stop-color="#f7a8bf"/>
              <stop offset="1" stop-color="#fde3ec"/>
            </radialGradient>
          </defs>
          <g fill="#ffffff" stroke="#ffffff" stroke-width="7" stroke-linejoin="round">
        \(petals)  </g>
          <g fill="url(#petal)" stroke="#d9738f" stroke-width="0.8">
        \(petals)  </g>
          <g stroke="#c2405f" stroke-width="1.1" stroke-linecap="round">
            \((0..<10).map { k -> String in
                let a = Double(k) * 36 * .pi / 180, r = k % 2 == 0 ? 14.0 : 11.0
                return "<line x1=\"50\" y1=\"50\" x2=\"\(f(50 + r * sin(a)))\" y2=\"\(f(50 - r * cos(a)))\"/>"
            }.joined())
          </g>
          <circle cx="50" cy="50" r="4" fill="#ffe28a"/>
        </svg>

        """
    return Array(svg.utf8)
}

struct WebPEncodeError: Error, CustomStringConvertible {
    var description: String
}

/// Straight RGBA as lossy WebP with an alpha plane, at `quality` (0…100).
func encodeWebP(_ c: Canvas, quality: Float) throws -> [UInt8] {
    let rgba = c.rgba8()
    var output: UnsafeMutablePointer<UInt8>?
    let n = rgba.withUnsafeBufferPointer {
        WebPEncodeRGBA($0.baseAddress, Int32(c.width), Int32(c.height), Int32(c.width * 4), quality, &output)
    }
    guard n > 0, let output else { throw WebPEncodeError(description: "libwebp could not encode the sticker") }
    defer { WebPFree(output) }
    return Array(UnsafeBufferPointer(start: output, count: n))
}
