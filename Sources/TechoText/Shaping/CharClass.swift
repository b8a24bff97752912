// Character classes for fallback, bidi and line breaking: small hand-written tables of the
// Unicode ranges journal text uses (after UAX #9 strong types, UAX #14 ideographic classes and
// the JIS X 4051 kinsoku lists), not the full Unicode property database.

/// Classifies scalars and clusters.
enum CharClass {
    /// Joiners, variation selectors and other scalars no font needs to draw.
    static func isDefaultIgnorable(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x00AD, 0x034F, 0x061C, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180B...0x180F,
            0x200B...0x200F, 0x202A...0x202E, 0x2060...0x206F, 0x3164, 0xFE00...0xFE0F, 0xFEFF,
            0xFFA0, 0x1BCA0...0x1BCA3, 0x1D173...0x1D17A, 0xE0000...0xE0FFF:
            return true
        default:
            return false
        }
    }

    /// A cluster that should be drawn as a colour emoji: it asks for emoji presentation
    /// (U+FE0F), is a flag or keycap sequence, or starts with a scalar whose default
    /// presentation is emoji.
    static func prefersEmojiPresentation(_ scalars: [Unicode.Scalar]) -> Bool {
        if scalars.contains(where: { $0.value == 0xFE0F || $0.value == 0x20E3 }) { return true }
        if scalars.contains(where: { $0.value == 0xFE0E }) { return false }
        guard let s = scalars.first else { return false }
        if s.properties.isEmojiPresentation { return true }
        return false
    }

    /// Resolved direction class for the simple bidi: strong left, strong right, or neutral.
    enum Direction { case ltr, rtl, neutral }

    static func direction(_ s: Unicode.Scalar) -> Direction {
        switch s.value {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF:
            // Hebrew, Arabic, Syriac, Thaana, NKo, Samaritan, Mandaic, presentation forms.
            if s.properties.generalCategory == .nonspacingMark { return .neutral }
            if (0x0660...0x0669).contains(s.value) || (0x06F0...0x06F9).contains(s.value) { return .ltr }
            return s.properties.isAlphabetic ? .rtl : .neutral
        default:
            if s.properties.numericType != nil && s.properties.generalCategory == .decimalNumber { return .ltr }
            return s.properties.isAlphabetic ? .ltr : .neutral
        }
    }

    /// Ideographs, kana, Hangul, CJK punctuation, full-width forms and emoji: a line may break
    /// on either side of these (subject to kinsoku).
    static func isBreakAnywhere(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x1100...0x11FF, 0x2E80...0x2FFF, 0x3000...0x303F, 0x3040...0x30FF, 0x3100...0x31FF,
            0x3200...0x4DBF, 0x4E00...0x9FFF, 0xA960...0xA97F, 0xAC00...0xD7FF, 0xF900...0xFAFF,
            0xFE30...0xFE4F, 0xFF00...0xFFEF, 0x1F000...0x1FAFF, 0x20000...0x3FFFF:
            return true
        default:
            return s.properties.isEmojiPresentation
        }
    }

    /// Closing punctuation and small kana that must not start a line (kinsoku shori, gyōtō kinsoku).
    static func isNoLineStart(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x3001, 0x3002, 0xFF0C, 0xFF0E, 0xFF1A, 0xFF1B, 0xFF01, 0xFF1F,  // 、。，．：；！？
            0x300D, 0x300F, 0x3011, 0x3015, 0x3017, 0x3019, 0x301B, 0x3009, 0x300B,  // 」』】〕〗〙〛〉》
            0xFF09, 0xFF3D, 0xFF5D, 0xFF60, 0xFF63,  // ）］｝｠｣
            0x30FB, 0x30FC, 0x30FD, 0x30FE, 0x309D, 0x309E, 0x3005, 0x303B,  // ・ー ヽヾゝゞ 々 〻
            0x3041, 0x3043, 0x3045, 0x3047, 0x3049, 0x3063, 0x3083, 0x3085, 0x3087, 0x308E, 0x3095, 0x3096,
            0x30A1, 0x30A3, 0x30A5, 0x30A7, 0x30A9, 0x30C3, 0x30E3, 0x30E5, 0x30E7, 0x30EE, 0x30F5, 0x30F6,
            0x31F0...0x31FF, 0x2019, 0x201D, 0x2026, 0x2025, 0x00BB, 0x203A,
            0x0029, 0x005D, 0x007D, 0x002C, 0x002E, 0x003A, 0x003B, 0x0021, 0x003F, 0x0025:
            return true
        default:
            return false
        }
    }

    /// Opening brackets and quotes that must not end a line (gyōmatsu kinsoku).
    static func isNoLineEnd(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x300C, 0x300E, 0x3010, 0x3014, 0x3016, 0x3018, 0x301A, 0x3008, 0x300A,  // 「『【〔〖〘〚〈《
            0xFF08, 0xFF3B, 0xFF5B, 0xFF5F, 0xFF62, 0x2018, 0x201C, 0x00AB, 0x2039,
            0x0028, 0x005B, 0x007B:
            return true
        default:
            return false
        }
    }

    /// Spaces a line may break after; they hang at the end of a line and are not drawn there.
    static func isBreakingSpace(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x0020, 0x0009, 0x1680, 0x2000...0x2006, 0x2008...0x200A, 0x205F, 0x3000: return true
        default: return false
        }
    }

    /// Hard line breaks: LF, CR (and CRLF as one Character), NEL, LS, PS, VT, FF.
    static func isNewline(_ c: Character) -> Bool {
        c == "\n" || c == "\r" || c == "\r\n" || c == "\u{85}" || c == "\u{2028}" || c == "\u{2029}"
            || c == "\u{0B}" || c == "\u{0C}"
    }
}
