// One opened font face: the FreeType face, the HarfBuzz font made from it, and the caches of
// glyphs loaded from it. Access to the FreeType face is serialised by a per-face lock.
import CFreeType
import CHarfBuzz
import Foundation
import TechoGeometry

/// Identifies a face on disk plus the synthetic styles fontconfig asked for.
public struct FaceKey: Hashable, Sendable, CustomStringConvertible {
    /// The font file. Default: none (required).
    public var path: String
    /// The face index inside a collection (`.ttc`). Default 0.
    public var index: Int
    /// Synthetic bold (the family has no bold face): outlines are thickened. Default false.
    public var embolden: Bool
    /// Synthetic italic shear (x += shear · y, font units, y up); 0 for none. Default 0.
    public var shear: Double

    public init(path: String, index: Int = 0, embolden: Bool = false, shear: Double = 0) {
        self.path = path
        self.index = index
        self.embolden = embolden
        self.shear = shear
    }

    public var description: String { "\(path)#\(index)\(embolden ? " +bold" : "")\(shear != 0 ? " +oblique" : "")" }
}

/// Owns an `FT_Library`; every face keeps its library alive, so a face can never outlive it.
final class FreeTypeLibrary: @unchecked Sendable {
    let handle: FT_Library

    init?() {
        var lib: FT_Library?
        guard FT_Init_FreeType(&lib) == 0, let lib else { return nil }
        handle = lib
    }

    deinit { FT_Done_FreeType(handle) }
}

/// An opened font face.
///
/// ## Thread safety
/// FreeType faces are not thread-safe, and HarfBuzz's hb-ft face reads tables through the
/// FreeType face. Every use of `ft` and `hbFont` goes through `withLock`, so one face serves
/// one thread at a time; different faces work in parallel. Face creation is serialised by the
/// `FontCatalog` that owns the FreeType library. Faces live as long as their catalog.
public final class FontFace: @unchecked Sendable {
    /// Where the face comes from.
    public let key: FaceKey
    /// The family name the font declares (first one), e.g. "DejaVu Sans".
    public let familyName: String
    /// Design units per em (e.g. 2048 for DejaVu Sans, 1000 for Noto Sans CJK).
    public let unitsPerEm: Int
    /// Ascender and descender (descender negative) in font units, y up.
    public let ascender: Double, descender: Double
    /// A bitmap-only colour font (CBDT/sbix, like Noto Color Emoji): glyphs are images.
    public let isColorBitmap: Bool
    /// Bitmap strike sizes in pixels per em (empty for scalable fonts).
    public let strikes: [Int]

    let ft: FT_Face
    let hbFont: OpaquePointer
    private let library: FreeTypeLibrary
    private let lock = NSLock()
    var outlineCache: [UInt32: GlyphOutline] = [:]
    var bitmapCache: [UInt32: ColorGlyph?] = [:]

    init(library: FreeTypeLibrary, key: FaceKey) throws {
        guard FileManager.default.isReadableFile(atPath: key.path) else { throw FontError.fileNotFound(path: key.path) }
        var face: FT_Face?
        try checkFreeType(FT_New_Face(library.handle, key.path, FT_Long(key.index), &face), path: key.path, index: key.index)
        guard let face else { throw FontError.unreadable(path: key.path, index: key.index, code: -1) }
        let flags = face.pointee.face_flags
        let scalable = flags & FT_Long(FT_FACE_FLAG_SCALABLE) != 0
        let color = flags & FT_Long(FT_FACE_FLAG_COLOR) != 0
        var strikes: [Int] = []
        for i in 0..<Int(face.pointee.num_fixed_sizes) {
            strikes.append(Int(face.pointee.available_sizes[i].y_ppem >> 6))
        }
        var upem = Int(face.pointee.units_per_EM)
        if upem <= 0 { upem = 1000 }
        guard scalable || (color && !strikes.isEmpty) else {
            FT_Done_Face(face)
            throw FontError.unreadable(path: key.path, index: key.index, code: -2)
        }
        self.key = key
        self.library = library
        self.ft = face
        self.unitsPerEm = upem
        self.isColorBitmap = !scalable && color
        self.strikes = strikes
        self.familyName = face.pointee.family_name.map { String(cString: $0) } ?? ""
        var asc = Double(face.pointee.ascender), desc = Double(face.pointee.descender)
        if asc <= 0 && desc >= 0 { asc = 0.8 * Double(upem); desc = -0.2 * Double(upem) }
        self.ascender = asc
        self.descender = desc
        // hb-ft builds the HarfBuzz face on the FreeType face (sharing its tables); metrics come
        // from HarfBuzz's own OpenType functions at a scale of one font unit, so advances and
        // kerning are exact, unhinted and independent of the pixel size.
        let hbFace = hb_ft_face_create_referenced(face)
        let font = hb_font_create(hbFace)!
        hb_face_destroy(hbFace)
        hb_ot_font_set_funcs(font)
        hb_font_set_scale(font, Int32(upem), Int32(upem))
        self.hbFont = font
    }

    deinit {
        hb_font_destroy(hbFont)
        FT_Done_Face(ft)
    }

    /// Runs `body` holding this face's lock: the only way to touch `ft` or `hbFont`.
    func withLock<R>(_ body: () throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
