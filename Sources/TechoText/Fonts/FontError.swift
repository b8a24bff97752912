// Typed errors for font loading: every FreeType return code becomes a `FontError` in one place.
import CFreeType

/// A font could not be found or opened.
public enum FontError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A font file named as a family (a path) does not exist or cannot be read.
    case fileNotFound(path: String)
    /// FreeType refused the file (not a font, truncated, or an index past the collection's end).
    case unreadable(path: String, index: Int, code: Int32)
    /// fontconfig could not be initialised (no configuration on this machine).
    case fontconfigUnavailable
    /// A file offered as a font to import is not one (`why` says how).
    case notAFont(name: String, why: String)

    public var description: String {
        switch self {
        case .fileNotFound(let path): return "font file '\(path)' not found"
        case .unreadable(let path, let index, let code):
            return "font file '\(path)' (face \(index)) cannot be read: FreeType error \(code)"
        case .fontconfigUnavailable: return "fontconfig could not be initialised"
        case .notAFont(let name, let why): return "\(name): not a font file: \(why)"
        }
    }
}

/// The one helper that turns a FreeType return code into a Swift error.
@inline(__always)
func checkFreeType(_ code: FT_Error, path: String, index: Int) throws {
    if code != 0 { throw FontError.unreadable(path: path, index: index, code: code) }
}
