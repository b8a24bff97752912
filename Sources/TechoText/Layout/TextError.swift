// Errors and warnings from text layout.

/// Text that cannot be laid out. Each case names the field at fault.
public enum TextError: Error, Equatable, Sendable, CustomStringConvertible {
    /// More than `TextLayout.maxScalars` characters (Unicode scalars).
    case tooLong(count: Int, limit: Int)
    /// A style field is out of range: `field` is the style's property name (`size`,
    /// `lineHeight`, `maxWidth`, `letterSpacing`, `weight`).
    case invalid(field: String, value: String, expected: String)
    /// The font could not be found or opened.
    case font(FontError)

    public var description: String {
        switch self {
        case .tooLong(let count, let limit): return "text: \(count) characters is over the limit of \(limit)"
        case .invalid(let field, let value, let expected): return "\(field): \(value) is out of range (expected \(expected))"
        case .font(let e): return "font: \(e)"
        }
    }
}

/// Something layout did not stop for but the user should know.
public enum TextWarning: Hashable, Sendable, CustomStringConvertible {
    /// No installed font can draw this character; it is left out (never drawn as a box).
    case missingGlyph(scalar: Unicode.Scalar, character: Character)
    /// The requested family is not installed; fontconfig's closest match is used.
    case fontSubstituted(requested: String, used: String)

    public var description: String {
        switch self {
        case .missingGlyph(let s, let c):
            let hex = String(s.value, radix: 16, uppercase: true)
            return "no installed font can draw U+\(String(repeating: "0", count: max(0, 4 - hex.count)))\(hex) '\(c)'"
        case .fontSubstituted(let requested, let used):
            return "font '\(requested)' is not installed; using '\(used)'"
        }
    }
}
