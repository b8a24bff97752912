// Colour bitmap glyphs (CBDT / sbix, e.g. Noto Color Emoji): FreeType hands back BGRA,
// premultiplied; we keep them as premultiplied RGBA `Pixmap`s placed with a transform.
import CFreeType
import TechoGeometry
import TechoRaster

/// A colour glyph bitmap from one strike of a bitmap font.
public struct ColorGlyph: Sendable {
    /// The glyph's pixels, premultiplied RGBA.
    public var image: Pixmap
    /// Offset of the bitmap's top-left corner from the pen position, in strike pixels
    /// (x right, y up, as FreeType reports `bitmap_left` / `bitmap_top`).
    public var left: Double, top: Double
    /// Pixels per em of the strike the bitmap comes from.
    public var ppem: Double
    /// `image` halved again and again (box filter) down to 8 px: `reductions[k]` is
    /// `image` at scale 2^-(k+1), for drawing small without aliasing. Default: built on load.
    public var reductions: [Pixmap]

    init(image: Pixmap, left: Double, top: Double, ppem: Double) {
        self.image = image
        self.left = left
        self.top = top
        self.ppem = ppem
        var r: [Pixmap] = []
        var cur = image
        while cur.width >= 16 && cur.height >= 16 {
            cur = ColorGlyph.halved(cur)
            r.append(cur)
        }
        self.reductions = r
    }

    /// The bitmap to sample when the whole image is drawn at `scale` (device pixels per bitmap
    /// pixel), and how much smaller it is than `image` (1, 2, 4, …): the smallest reduction
    /// that still leaves a remaining scale of at least ½.
    public func image(forScale scale: Double) -> (image: Pixmap, factor: Double) {
        var level = 0
        var s = scale
        while s < 0.5 && level < reductions.count {
            s *= 2
            level += 1
        }
        return level == 0 ? (image, 1) : (reductions[level - 1], Double(1 << level))
    }

    /// 2×2 box average of premultiplied pixels (the last row/column repeats for odd sizes).
    static func halved(_ p: Pixmap) -> Pixmap {
        let w = (p.width + 1) / 2, h = (p.height + 1) / 2
        var out = [UInt8](repeating: 0, count: w * h * 4)
        p.data.withUnsafeBufferPointer { src in
            for y in 0..<h {
                let y0 = 2 * y, y1 = min(2 * y + 1, p.height - 1)
                for x in 0..<w {
                    let x0 = 2 * x, x1 = min(2 * x + 1, p.width - 1)
                    for c in 0..<4 {
                        let sum =
                            Int(src[(y0 * p.width + x0) * 4 + c]) + Int(src[(y0 * p.width + x1) * 4 + c])
                            + Int(src[(y1 * p.width + x0) * 4 + c]) + Int(src[(y1 * p.width + x1) * 4 + c])
                        out[(y * w + x) * 4 + c] = UInt8((sum + 2) / 4)
                    }
                }
            }
        }
        return Pixmap(width: w, height: h, premultiplied: out)
    }
}

extension FontFace {
    /// The strike to use for text `sizePx` high: the smallest strike at least that large,
    /// else the largest (downscaling a big strike stays sharp; upscaling a small one blurs).
    func strikeIndex(forSize sizePx: Double) -> Int? {
        guard !strikes.isEmpty else { return nil }
        let order = strikes.indices.sorted { strikes[$0] < strikes[$1] }
        return order.first { Double(strikes[$0]) >= sizePx } ?? order.last
    }

    /// The colour bitmap of glyph `gid` (cached), or nil when the face has none for it.
    /// All sizes share the largest strike: it is scaled down by the placement transform.
    func colorGlyph(_ gid: UInt32) -> ColorGlyph? {
        withLock {
            if let cached = bitmapCache[gid] { return cached }
            let result = loadColorGlyph(gid)
            bitmapCache[gid] = result
            return result
        }
    }

    private func loadColorGlyph(_ gid: UInt32) -> ColorGlyph? {
        guard isColorBitmap, let strike = strikeIndex(forSize: .infinity),
            FT_Select_Size(ft, Int32(strike)) == 0,
            FT_Load_Glyph(ft, gid, Int32(FT_LOAD_COLOR)) == 0, let slot = ft.pointee.glyph
        else { return nil }
        let bm = slot.pointee.bitmap
        let w = Int(bm.width), h = Int(bm.rows), pitch = Int(bm.pitch)
        guard w > 0, h > 0, w <= 4096, h <= 4096, let buf = bm.buffer,
            bm.pixel_mode == UInt8(FT_PIXEL_MODE_BGRA.rawValue)
        else { return nil }
        var data = [UInt8](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            // A negative pitch means the rows run bottom-up in memory.
            let row = pitch >= 0 ? buf + y * pitch : buf + (h - 1 - y) * (-pitch)
            for x in 0..<w {
                let b = row[x * 4], g = row[x * 4 + 1], r = row[x * 4 + 2], a = row[x * 4 + 3]
                let o = (y * w + x) * 4
                data[o] = min(r, a); data[o + 1] = min(g, a); data[o + 2] = min(b, a); data[o + 3] = a
            }
        }
        let ppem = Double(ft.pointee.size.pointee.metrics.y_ppem)
        return ColorGlyph(
            image: Pixmap(width: w, height: h, premultiplied: data),
            left: Double(slot.pointee.bitmap_left), top: Double(slot.pointee.bitmap_top),
            ppem: ppem > 0 ? ppem : Double(strikes[strike]))
    }
}
