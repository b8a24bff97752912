// Small per-pixel helpers for shadows and outlines.

extension Pixmap {
    /// A copy where every pixel takes `color` at the pixel's own coverage: alpha becomes
    /// `a · color.a` and the colour is `color`, premultiplied. The silhouette of a sticker, for
    /// a drop shadow (then `blurred(radius:)`) or a die-cut outline.
    public func tinted(_ color: Color) -> Pixmap {
        let c = Color(r: color.r, g: color.g, b: color.b, a: 1).premultiplied8
        let ca = UInt32((clamp01(color.a) * 255).rounded())
        var out = self
        out.data.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i < p.count {
                let a = div255(UInt32(p[i + 3]) * ca)
                p[i] = UInt8(truncatingIfNeeded: div255(UInt32(c.r) * a))
                p[i + 1] = UInt8(truncatingIfNeeded: div255(UInt32(c.g) * a))
                p[i + 2] = UInt8(truncatingIfNeeded: div255(UInt32(c.b) * a))
                p[i + 3] = UInt8(truncatingIfNeeded: a)
                i += 4
            }
        }
        return out
    }
}

extension Mask {
    /// A mask from the alpha channel of `pixmap` placed with its top-left corner at device
    /// pixel (x, y): clip to a sticker's shape, or to a layer drawn by any means.
    public init(alphaOf pixmap: Pixmap, x: Int = 0, y: Int = 0) {
        self.init(bounds: IntRect(x0: x, y0: y, x1: x + pixmap.width, y1: y + pixmap.height))
        var i = 0
        for k in 0..<data.count {
            data[k] = pixmap.data[i + 3]
            i += 4
        }
    }
}
