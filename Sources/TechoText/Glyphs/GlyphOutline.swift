// Glyph outlines: FreeType's unscaled outline walked with FT_Outline_Decompose into a `Path`
// in font units, so the renderer can draw it through any transform (sharp under rotation and
// scale). Cached per face and glyph id.
import CFreeType
import TechoGeometry

/// A glyph's outline in font units, y up (as the font stores it).
public struct GlyphOutline: Sendable {
    /// The outline; empty for a blank glyph (space). Default: empty.
    public var path: Path
    /// `path.controlBounds`, precomputed.
    public var bounds: Rect
}

/// Collects decomposed outline commands; FreeType calls back into it through a raw pointer.
private final class OutlineSink {
    var path = Path()
    var open = false
}

private func sink(_ user: UnsafeMutableRawPointer?) -> OutlineSink {
    Unmanaged<OutlineSink>.fromOpaque(user!).takeUnretainedValue()
}

private func point(_ v: UnsafePointer<FT_Vector>?) -> Point {
    guard let v else { return .zero }
    return Point(Double(v.pointee.x), Double(v.pointee.y))
}

extension FontFace {
    /// The outline of glyph `gid` in font units, loaded unscaled and unhinted
    /// (`FT_LOAD_NO_SCALE` implies no hinting and no bitmaps), thickened for synthetic bold.
    /// Nil when the face has no outline for it (bitmap-only fonts).
    func outline(_ gid: UInt32) -> GlyphOutline? {
        withLock {
            if let o = outlineCache[gid] { return o }
            guard !isColorBitmap else { return nil }
            let flags = Int32(FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP)
            guard FT_Load_Glyph(ft, gid, flags) == 0, let slot = ft.pointee.glyph,
                slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE
            else {
                outlineCache[gid] = GlyphOutline(path: Path(), bounds: .null)
                return outlineCache[gid]
            }
            if key.embolden {
                // FreeType's synthetic bold strength: 1/24 em.
                FT_Outline_Embolden(&slot.pointee.outline, FT_Pos(unitsPerEm / 24))
            }
            let s = OutlineSink()
            var funcs = FT_Outline_Funcs(
                move_to: { to, user in
                    let s = sink(user)
                    if s.open { s.path.close() }
                    s.path.move(to: point(to))
                    s.open = true
                    return 0
                },
                line_to: { to, user in
                    sink(user).path.line(to: point(to)); return 0
                },
                conic_to: { c, to, user in
                    sink(user).path.quad(to: point(to), control: point(c)); return 0
                },
                cubic_to: { c1, c2, to, user in
                    sink(user).path.cubic(to: point(to), control1: point(c1), control2: point(c2))
                    return 0
                },
                shift: 0, delta: 0)
            let um = Unmanaged.passUnretained(s)
            _ = withExtendedLifetime(s) {
                FT_Outline_Decompose(&slot.pointee.outline, &funcs, um.toOpaque())
            }
            if s.open { s.path.close() }
            let o = GlyphOutline(path: s.path, bounds: s.path.isEmpty ? .null : s.path.controlBounds)
            outlineCache[gid] = o
            return o
        }
    }
}
