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
              FT_Load_Glyph(ft, gid, Int32(FT_LOAD_COLOR)) == 0, let slot = ft.pointee.glyph else { return nil }
        let bm = slot.pointee.bitmap
        let w = Int(bm.width), h = Int(bm.rows), pitch = Int(bm.pitch)
        guard w > 0, h > 0, w <= 4096, h <= 4096, let buf = bm.buffer,
              bm.pixel_mode == UInt8(FT_PIXEL_MODE_BGRA.rawValue) else { return nil }
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
        return ColorGlyph(image: Pixmap(width: w, height: h, premultiplied: data),
                          left: Double(slot.pointee.bitmap_left), top: Double(slot.pointee.bitmap_top),
                          ppem: ppem > 0 ? ppem : Double(strikes[strike]))
    }
}
