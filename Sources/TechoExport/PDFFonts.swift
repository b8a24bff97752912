// The fonts of the vector PDF: cairo FreeType font faces made from the same font files (and
// collection indices) TechoText laid the text out with, so the glyph ids of the layout are the
// glyph ids cairo subsets and embeds, with a ToUnicode map built from the text clusters.
//
// A face may instead be made from a subset of the file (PDFFontSubset: the same glyph ids, only
// the glyphs the document draws), which FreeType reads from memory; those bytes then live as
// long as the face.
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

    /// A FreeType face and the bytes it was read from, when it was read from memory: released
    /// together, after cairo's last reference.
    private final class Held {
        let face: FT_Face
        let bytes: UnsafeMutableRawPointer?

        init(face: FT_Face, bytes: UnsafeMutableRawPointer?) {
            self.face = face
            self.bytes = bytes
        }

        /// Under `PDFFonts.lock`.
        func release() {
            FT_Done_Face(face)
            free(bytes)
        }
    }

    /// A cairo font face for `key` (a new reference, to be destroyed by the caller) and the
    /// face's units per em: from `subset`, the bytes of a single-face font with the same glyph
    /// ids as the file, when given; from the file otherwise.
    /// - Throws: `ExportError` naming the font file when FreeType cannot open it.
    static func face(_ key: FaceKey, subset: [UInt8]? = nil) throws -> (face: OpaquePointer, unitsPerEm: Double) {
        lock.lock()
        defer { lock.unlock() }
        if library == nil {
            var lib: FT_Library?
            guard FT_Init_FreeType(&lib) == 0, let lib else { throw ExportError(cannotCreate: false, "PDF export: FreeType could not start") }
            library = lib
        }
        var ft: FT_Face?
        var bytes: UnsafeMutableRawPointer?
        if let subset, !subset.isEmpty {
            guard let copy = malloc(subset.count) else { throw ExportError(cannotCreate: false, "PDF export: out of memory for the font \(key.path)") }
            subset.withUnsafeBytes { src in if let base = src.baseAddress { copy.copyMemory(from: base, byteCount: subset.count) } }
            bytes = copy
            guard FT_New_Memory_Face(library, copy.assumingMemoryBound(to: FT_Byte.self), FT_Long(subset.count), 0, &ft) == 0 else {
                free(copy)
                throw ExportError(cannotCreate: false, "PDF export: FreeType cannot read the subset of the font \(key.path) (face \(key.index))")
            }
        } else {
            guard FT_New_Face(library, key.path, FT_Long(key.index), &ft) == 0 else {
                throw ExportError(cannotCreate: false, "PDF export: cannot open the font \(key.path) (face \(key.index))")
            }
        }
        guard let ft else {
            free(bytes)
            throw ExportError(cannotCreate: false, "PDF export: cannot open the font \(key.path) (face \(key.index))")
        }
        let held = Held(face: ft, bytes: bytes)
        let upem = Double(ft.pointee.units_per_EM)
        guard upem > 0, let face = cairo_ft_font_face_create_for_ft_face(ft, 0) else {
            held.release()
            throw ExportError(cannotCreate: false, "PDF export: the font \(key.path) (face \(key.index)) has no outlines cairo can use")
        }
        // Checked before the release is attached: destroying a face that carries it takes the lock
        // held here.
        guard cairo_font_face_status(face) == CAIRO_STATUS_SUCCESS else {
            cairo_font_face_destroy(face)
            held.release()
            throw ExportError(cannotCreate: false, "PDF export: cairo could not use the font \(key.path)")
        }
        let token = Unmanaged.passRetained(held).toOpaque()
        let attached = cairo_font_face_set_user_data(face, releaseKey, token) { token in
            guard let token else { return }
            PDFFonts.lock.lock()
            Unmanaged<Held>.fromOpaque(token).takeRetainedValue().release()
            PDFFonts.lock.unlock()
        }
        guard attached == CAIRO_STATUS_SUCCESS else {
            cairo_font_face_destroy(face)
            Unmanaged<Held>.fromOpaque(token).release()
            held.release()
            throw ExportError(cannotCreate: false, "PDF export: cairo could not use the font \(key.path)")
        }
        if key.embolden { cairo_ft_font_face_set_synthesize(face, UInt32(CAIRO_FT_SYNTHESIZE_BOLD.rawValue)) }
        return (face, upem)
    }
}
