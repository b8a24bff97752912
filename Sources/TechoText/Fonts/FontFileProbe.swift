// Checking a font file before a journal imports it: its bytes must be a font FreeType opens
// (TrueType, OpenType/CFF, a collection), within a size limit, so a text that uses it renders
// on any machine the journal is copied to.
import CFreeType

public enum FontFileProbe {
    /// The largest font file a journal imports: 64 MiB (a full CJK collection is about 20–40 MiB).
    public static let maxBytes = 64 << 20

    /// The file extension for the font in `bytes` (`ttf`, `otf`, `ttc`), after FreeType has
    /// opened its first face. `name` is what errors call the file.
    /// - Throws: `FontError.unreadable` when FreeType refuses it, `FontError.notAFont` when its
    ///   first bytes are no font format or it is over `maxBytes`.
    public static func check(_ bytes: [UInt8], name: String) throws -> String {
        guard bytes.count <= maxBytes else { throw FontError.notAFont(name: name, why: "\(bytes.count) bytes is over the limit of \(maxBytes)") }
        guard bytes.count >= 12 else { throw FontError.notAFont(name: name, why: "too short to be a font") }
        let tag = bytes[0..<4]
        let ext: String
        switch Array(tag) {
        case [0, 1, 0, 0], Array("true".utf8): ext = "ttf"
        case Array("OTTO".utf8): ext = "otf"
        case Array("ttcf".utf8): ext = "ttc"
        default: throw FontError.notAFont(name: name, why: "its bytes are not a TrueType, OpenType or collection font")
        }
        var lib: FT_Library?
        guard FT_Init_FreeType(&lib) == 0, let lib else { throw FontError.unreadable(path: name, index: 0, code: -3) }
        defer { FT_Done_FreeType(lib) }
        var face: FT_Face?
        let code = bytes.withUnsafeBufferPointer { b in FT_New_Memory_Face(lib, b.baseAddress, FT_Long(b.count), 0, &face) }
        try checkFreeType(code, path: name, index: 0)
        defer { if let face { FT_Done_Face(face) } }
        guard let face, face.pointee.num_glyphs > 0 else { throw FontError.notAFont(name: name, why: "it has no glyphs") }
        return ext
    }
}
