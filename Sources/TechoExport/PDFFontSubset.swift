// Each text font of the vector PDF cut down to the glyphs the document draws with it, by
// HarfBuzz's subsetter, before cairo sees the font (docs/decisions/pdf.md, "Fonts").
//
// Why not leave it to cairo: cairo 1.16 subsets a CFF font's subroutines by walking each glyph's
// charstring, and when a walk fails it keeps every subroutine of the font dict; on Noto Sans
// CJK that is most of a megabyte for a few dozen glyphs. A desubroutinised font has no
// subroutines to walk, so cairo's own subset of it holds the charstrings of the glyphs it
// draws and nothing else. The glyph ids stay the ones the layout chose (the subsetter keeps
// each glyph at its own index and leaves the others empty), so the glyph runs need no mapping.
// Layout tables (GSUB, GPOS, ...) are dropped first: cairo does not read them, and the
// subsetter would otherwise add every glyph a substitution could reach.

import CHarfBuzzSubset
import CTechoLazy
import TechoCodecs

/// Why HarfBuzz could not subset a face. The export then hands cairo the whole font file, which
/// it subsets itself: a larger file, never a wrong one.
enum FontSubsetError: Error, Equatable, CustomStringConvertible {
    /// libharfbuzz-subset could not be opened (CTechoLazy's message).
    case libraryMissing(String)
    /// HarfBuzz could not read the font file.
    case unreadable(path: String)
    /// The face has no glyph `glyph`: the layout and the file disagree.
    case noSuchGlyph(path: String, index: Int, glyph: UInt32, count: UInt32)
    /// A HarfBuzz call that makes `what` returned nothing (out of memory, or a font it cannot
    /// subset).
    case failed(path: String, index: Int, what: String)

    var description: String {
        switch self {
        case .libraryMissing(let why): return "font subsetting: \(why)"
        case .unreadable(let path): return "font subsetting: HarfBuzz cannot read \(path)"
        case .noSuchGlyph(let path, let index, let glyph, let count):
            return "font subsetting: \(path) (face \(index)) has \(count) glyphs, the text uses glyph \(glyph)"
        case .failed(let path, let index, let what): return "font subsetting: HarfBuzz could not make \(what) for \(path) (face \(index))"
        }
    }
}

/// HarfBuzz's subsetter, for the fonts the vector PDF embeds.
enum PDFFontSubset {
    /// The tables the subset drops: layout, which cairo never reads, and vertical metrics.
    private static let dropped = ["GSUB", "GPOS", "GDEF", "BASE", "JSTF", "MATH", "morx", "kerx", "vhea", "vmtx", "VORG"]

    /// Face `index` of the font file at `path` with only `glyphs` (and `.notdef`) left, each at
    /// its own glyph id, CFF charstrings desubroutinised: the bytes of a single-face OpenType
    /// file. Nil for a colour font (bitmap, layered or SVG glyphs), which is left whole: its
    /// glyphs are drawn as pictures, not from its outlines.
    /// - Complexity: HarfBuzz reads only the tables it keeps, and writes the kept glyphs; the
    ///   empty ones cost a few bytes each.
    /// - Throws: `FontSubsetError`.
    static func subset(path: String, index: Int, glyphs: Set<UInt32>) throws -> [UInt8]? {
        if let why = LazyLibraries.missing([TECHO_LAZY_HARFBUZZ, TECHO_LAZY_HARFBUZZ_SUBSET]) { throw FontSubsetError.libraryMissing(why) }
        guard let blob = hb_blob_create_from_file_or_fail(path) else { throw FontSubsetError.unreadable(path: path) }
        defer { hb_blob_destroy(blob) }
        let face = try made(hb_face_create(blob, UInt32(index)), path, index, "the face")
        defer { hb_face_destroy(face) }
        let count = hb_face_get_glyph_count(face)
        guard count > 0 else { throw FontSubsetError.failed(path: path, index: index, what: "the face") }
        if hb_ot_color_has_png(face) != 0 || hb_ot_color_has_layers(face) != 0 || hb_ot_color_has_svg(face) != 0 { return nil }
        if let bad = glyphs.first(where: { $0 >= count }) {
            throw FontSubsetError.noSuchGlyph(path: path, index: index, glyph: bad, count: count)
        }

        let input = try made(hb_subset_input_create_or_fail(), path, index, "a subset input")
        defer { hb_subset_input_destroy(input) }
        hb_subset_input_set_flags(input, HB_SUBSET_FLAGS_RETAIN_GIDS.rawValue | HB_SUBSET_FLAGS_DESUBROUTINIZE.rawValue)
        let kept = try made(hb_subset_input_set(input, HB_SUBSET_SETS_GLYPH_INDEX), path, index, "the glyph set")
        for g in glyphs { hb_set_add(kept, g) }
        let drop = try made(hb_subset_input_set(input, HB_SUBSET_SETS_DROP_TABLE_TAG), path, index, "the table set")
        for tag in dropped { hb_set_add(drop, Self.tag(tag)) }

        let small = try made(hb_subset_or_fail(face, input), path, index, "the subset")
        defer { hb_face_destroy(small) }
        let out = try made(hb_face_reference_blob(small), path, index, "the subset's bytes")
        defer { hb_blob_destroy(out) }
        var length: UInt32 = 0
        guard let data = hb_blob_get_data(out, &length), length > 0 else { throw FontSubsetError.failed(path: path, index: index, what: "the subset's bytes") }
        return data.withMemoryRebound(to: UInt8.self, capacity: Int(length)) { Array(UnsafeBufferPointer(start: $0, count: Int(length))) }
    }

    /// HarfBuzz's way of failing (a null object) as a `FontSubsetError`: the one place it
    /// becomes a Swift error.
    private static func made<T>(_ object: T?, _ path: String, _ index: Int, _ what: String) throws -> T {
        guard let object else { throw FontSubsetError.failed(path: path, index: index, what: what) }
        return object
    }

    /// An OpenType table tag as HarfBuzz's big-endian number.
    private static func tag(_ name: String) -> UInt32 {
        name.utf8.reduce(0) { $0 << 8 | UInt32($1) }
    }
}
