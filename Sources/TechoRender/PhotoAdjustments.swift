// Photo adjustments, applied to the decoded pixels before they are drawn. They work on
// sRGB-encoded values in 0…1 (not linear light), as CSS Filter Effects do, with the Filter
// Effects matrices and Rec. 709 luma weights (0.2126, 0.7152, 0.0722), clamping to 0…1 after
// each step, in this fixed order: brightness, contrast, saturation, warmth, grayscale, sepia,
// fade. See docs/rendering.md for each formula.

import TechoModel
import TechoRaster

/// The adjustments of a photo as a chain of 3×4 colour matrices.
struct PhotoAdjustments {
    /// Row-major 3×4 matrices (r, g, b, offset per output channel), applied in order.
    private(set) var steps: [[Float]] = []

    init(_ p: PhotoContent) {
        let (b, c, s, w, g, sp, f) = (
            Float(p.brightness), Float(p.contrast), Float(p.saturation), Float(p.warmth),
            Float(p.grayscale), Float(p.sepia), Float(p.fade)
        )
        // brightness(1 + b): a linear multiplier.
        if b != 0 { steps.append(PhotoAdjustments.diagonal(1 + b, 1 + b, 1 + b)) }
        // contrast(1 + c): scale about mid-grey.
        if c != 0 {
            let k = 1 + c, o = 0.5 - 0.5 * k
            steps.append([k, 0, 0, o, 0, k, 0, o, 0, 0, k, o])
        }
        // saturate(1 + s).
        if s != 0 { steps.append(PhotoAdjustments.saturate(1 + s)) }
        // Warmth: red up and blue down (or the reverse), green a little, like a white-balance shift.
        if w != 0 { steps.append(PhotoAdjustments.diagonal(1 + 0.12 * w, 1 + 0.03 * w, 1 - 0.12 * w)) }
        // grayscale(g): CSS defines it as saturate(1 − g).
        if g != 0 { steps.append(PhotoAdjustments.saturate(1 - g)) }
        // sepia(amount): the CSS matrix.
        if sp != 0 {
            let a = 1 - sp
            steps.append([
                0.393 + 0.607 * a, 0.769 - 0.769 * a, 0.189 - 0.189 * a, 0,
                0.349 - 0.349 * a, 0.686 + 0.314 * a, 0.168 - 0.168 * a, 0,
                0.272 - 0.272 * a, 0.534 - 0.534 * a, 0.131 + 0.869 * a, 0,
            ])
        }
        // Fade: blacks lifted to 0.15·f and whites lowered by 0.05·f, a film look.
        if f != 0 {
            let k = 1 - 0.2 * f, o = 0.15 * f
            steps.append([k, 0, 0, o, 0, k, 0, o, 0, 0, k, o])
        }
    }

    /// True when every adjustment is zero: the pixels are used as decoded, byte for byte.
    var isIdentity: Bool { steps.isEmpty }

    private static func diagonal(_ r: Float, _ g: Float, _ b: Float) -> [Float] { [r, 0, 0, 0, 0, g, 0, 0, 0, 0, b, 0] }

    /// The CSS `saturate(s)` matrix (Rec. 709 luma).
    static func saturate(_ s: Float) -> [Float] {
        [
            0.2126 + 0.7874 * s, 0.7152 - 0.7152 * s, 0.0722 - 0.0722 * s, 0,
            0.2126 - 0.2126 * s, 0.7152 + 0.2848 * s, 0.0722 - 0.0722 * s, 0,
            0.2126 - 0.2126 * s, 0.7152 - 0.7152 * s, 0.0722 + 0.9278 * s, 0,
        ]
    }

    /// One straight-alpha sRGB colour (0…1) through every step.
    func apply(_ rgb: (Float, Float, Float)) -> (Float, Float, Float) {
        var (r, g, b) = rgb
        for m in steps {
            let nr = m[0] * r + m[1] * g + m[2] * b + m[3]
            let ng = m[4] * r + m[5] * g + m[6] * b + m[7]
            let nb = m[8] * r + m[9] * g + m[10] * b + m[11]
            r = min(1, max(0, nr)); g = min(1, max(0, ng)); b = min(1, max(0, nb))
        }
        return (r, g, b)
    }

    /// The pixmap with every pixel adjusted (colour un-premultiplied first, alpha kept).
    func applied(to pixmap: Pixmap) -> Pixmap {
        if isIdentity { return pixmap }
        var out = pixmap
        // Opaque photos have few distinct colours per row run; a small cache of the last input
        // colour saves the matrix chain on flat areas.
        var lastIn: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0), lastOut: (UInt8, UInt8, UInt8) = (0, 0, 0)
        var hasLast = false
        out.data.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i < p.count {
                let a = p[i + 3]
                if a != 0 {
                    let px = (p[i], p[i + 1], p[i + 2], a)
                    if !(hasLast && px == lastIn) {
                        let r = Float(unpremultiply(px.0, a)) / 255, g = Float(unpremultiply(px.1, a)) / 255
                        let b = Float(unpremultiply(px.2, a)) / 255
                        let (nr, ng, nb) = apply((r, g, b))
                        let q = { (v: Float) in premultiply(UInt8(v * 255 + 0.5), a) }
                        lastIn = px; lastOut = (q(nr), q(ng), q(nb)); hasLast = true
                    }
                    p[i] = lastOut.0; p[i + 1] = lastOut.1; p[i + 2] = lastOut.2
                }
                i += 4
            }
        }
        return out
    }
}
