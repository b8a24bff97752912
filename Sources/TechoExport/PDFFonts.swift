// The fonts of the vector PDF: cairo FreeType font faces made from the same font files (and
// collection indices) TechoText laid the text out with, so the glyph ids of the layout are the
// glyph ids cairo subsets and embeds, with a ToUnicode map built from the text clusters.
//
// cairo holds on to font faces past the end of a document (its caches of scaled fonts), so each
// FreeType face is released by cairo itself, through the font face's user data, when cairo
// drops the last reference. The FreeType library that made the faces is never released, and
// every face is opened and closed under one lock (FreeType's rule for one library).

import CCairo
import CFreeType
import Foundation
import TechoText

enum PDFFonts {
    private static let lock = NSLock()
    /// Opened on first use, then kept for the life of the process.
    nonisolated(unsafe) private static var library: FT_Library?
    /// The address cairo keys the FreeType face's release by.
    nonisolated(unsafe) private static let releaseKey = UnsafeMutablePointer<cairo_user_data_key_t>.allocate(capacity: 1)

    /// A cairo font face for `key` (a new reference, to be destroyed by the caller) and the
    /// face's units per em.
    /// - Throws: `ExportError` naming the font file when FreeType cannot open it.
    static func face(_ key: FaceKey) throws -> (face: OpaquePointer, unitsPerEm: Double) {
        lock.lock()
        defer { lock.unlock() }
        if library == nil {
            var lib: FT_Library?
            guard FT_Init_FreeType(&lib) == 0, let lib else { throw ExportError(cannotCreate: false, "PDF export: FreeType could not start") }
            library = lib
        }
        var ft: FT_Face?
        guard FT_New_Face(library, key.path, FT_Long(key.index), &ft) == 0, let ft else {
            throw ExportError(cannotCreate: false, "PDF export: cannot open the font \(key.path) (face \(key.index))")
        }
        let upem = Double(ft.pointee.units_per_EM)
        guard upem > 0, let face = cairo_ft_font_face_create_for_ft_face(ft, 0) else {
            FT_Done_Face(ft)
            throw ExportError(cannotCreate: false, "PDF export: the font \(key.path) (face \(key.index)) has no outlines cairo can use")
        }
        let attached = cairo_font_face_set_user_data(face, releaseKey, UnsafeMutableRawPointer(ft)) { ft in
            PDFFonts.lock.lock()
            FT_Done_Face(ft?.assumingMemoryBound(to: FT_FaceRec.self))
            PDFFonts.lock.unlock()
        }
        guard attached == CAIRO_STATUS_SUCCESS, cairo_font_face_status(face) == CAIRO_STATUS_SUCCESS else {
            cairo_font_face_destroy(face)
            FT_Done_Face(ft)
            throw ExportError(cannotCreate: false, "PDF export: cairo could not use the font \(key.path)")
        }
        if key.embolden { cairo_ft_font_face_set_synthesize(face, UInt32(CAIRO_FT_SYNTHESIZE_BOLD.rawValue)) }
        return (face, upem)
    }
}
