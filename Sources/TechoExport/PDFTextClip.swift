// Text drawn through its own outlines, for cairo's PDF output (docs/decisions/pdf.md, "Text and
// poppler"). Each text object of the content streams gets text rendering mode 7 (its glyphs
// become the clipping path: still text, in its embedded font, with its ToUnicode map, so it is
// selected, searched and extracted as before) and is followed by a fill of its colour through
// that clip, all inside its own q … Q. Every reader shows the same marks; poppler's rasteriser
// (Splash) then draws the glyphs from their outlines at the positions the file gives, where in
// fill mode it stamps glyph bitmaps from a cache made at whole device pixels down and quarter
// pixels across, up to a pixel from those positions.
//
// cairo 1.16 has no call for a text rendering mode, so the content streams are rewritten after
// cairo wrote them: inflated, changed where a text object holds nothing but text operators and
// marked content (anything else, or an inline image or a rendering mode already set anywhere in
// the stream, leaves the stream as cairo wrote it), deflated again, and the objects put back with
// the cross-reference table moved to match (PDFClassicFile). The text state (font, spacing,
// scaling, leading, rise) belongs to the graphics state, so the q … Q around a text object would
// forget what it set for the next one; the state in force before each object is therefore set
// again at its start, following q and Q as a reader does.

enum PDFTextClip {
    /// What a text object may hold to be rewritten: text state, positioning, showing, marked
    /// content.
    private static let allowed: Set<String> = [
        "Tf", "Tc", "Tw", "Tz", "TL", "Ts", "Tm", "Td", "TD", "T*", "TJ", "Tj", "'", "\"", "BDC", "BMC", "EMC", "MP", "DP",
    ]
    /// The text state operators, which q and Q save and restore.
    private static let state = ["Tf", "Tc", "Tw", "Tz", "TL", "Ts"]
    /// The largest content stream rewritten (inflated).
    static let maxContentBytes = 64 << 20

    /// `pdf` with the text objects of its page and form content streams drawn as clip-mode text
    /// and a fill; nil when the file is not laid out as cairo writes it (the caller keeps it as
    /// it is: right, only drawn by poppler from glyph bitmaps).
    static func rewritten(_ pdf: [UInt8]) -> [UInt8]? {
        guard let file = PDFClassicFile(pdf) else { return nil }
        var replacements: [(range: Range<Int>, bytes: [UInt8])] = []
        for n in file.offsets.indices {
            guard let s = file.stream(n), isContent(pdf[s.dictionary]),
                let content = try? PDFFlate.inflate(pdf[s.data], limit: maxContentBytes),
                let changed = rewrite(content), let packed = try? PDFFlate.deflate(changed)
            else { continue }
            let dictionary = withLength(packed.count, pdf[s.dictionary])
            let whole = Array("\(n) 0 obj\n".utf8) + dictionary + Array("\nstream\n".utf8) + packed + Array("\nendstream\nendobj".utf8)
            replacements.append((s.whole, whole))
        }
        return replacements.isEmpty ? pdf : file.rebuilt(replacing: replacements)
    }

    /// A page's content stream (cairo gives it only a length and a filter) or a form's.
    /// (A ToUnicode map looks the same from outside; it holds no text object, so nothing in it
    /// changes.)
    private static func isContent(_ dictionary: ArraySlice<UInt8>) -> Bool {
        let text = String(decoding: dictionary, as: UTF8.self)
        return text.contains("/Filter /FlateDecode") && (!text.contains("/Subtype") || text.contains("/Subtype /Form"))
            && !text.contains("/DecodeParms") && !text.contains("/Length1")
    }

    /// The dictionary with its `/Length` value replaced by `length`.
    private static func withLength(_ length: Int, _ dictionary: ArraySlice<UInt8>) -> [UInt8] {
        let key = Array("/Length".utf8)
        var i = dictionary.startIndex
        while i + key.count < dictionary.endIndex {
            if dictionary[i..<(i + key.count)].elementsEqual(key) && PDFClassicFile.isSpace(dictionary[i + key.count]) {
                let end = dictionary[(i + key.count)...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: ">") } ?? dictionary.endIndex
                return Array(dictionary[..<(i + key.count)]) + Array(" \(length)\n   ".utf8) + Array(dictionary[end...])
            }
            i += 1
        }
        return Array(dictionary)
    }

    /// One content stream with its text objects rewritten; nil when nothing was (or may be)
    /// changed.
    static func rewrite(_ content: [UInt8]) -> [UInt8]? {
        guard let tokens = ContentTokens.split(content) else { return nil }
        func name(_ t: ContentTokens.Token) -> String { String(decoding: content[t.range], as: UTF8.self) }
        // A stream that sets a rendering mode itself, or holds an inline image, is left alone.
        if tokens.contains(where: { $0.isOperator && (content[$0.range].elementsEqual("Tr".utf8) || content[$0.range].elementsEqual("BI".utf8)) }) {
            return nil
        }
        var out = [UInt8]()
        out.reserveCapacity(content.count + content.count / 4)
        var current: [String: [UInt8]] = [:], saved: [[String: [UInt8]]] = []
        var changed = false, copied = 0
        var operandsFrom: Int?  // where the operands of the next operator start
        var i = 0
        while i < tokens.count {
            let t = tokens[i]
            guard t.isOperator else {
                if operandsFrom == nil { operandsFrom = t.range.lowerBound }
                i += 1
                continue
            }
            let op = name(t)
            defer { operandsFrom = nil }
            if op == "q" {
                saved.append(current)
            } else if op == "Q" {
                current = saved.popLast() ?? current
            } else if state.contains(op), let from = operandsFrom {
                current[op] = Array(content[from..<t.range.upperBound])
            } else if op == "BT" {
                guard let end = tokens[(i + 1)...].firstIndex(where: { $0.isOperator && content[$0.range].elementsEqual("ET".utf8) }) else { return nil }
                let inner = tokens[(i + 1)..<end]
                if inner.allSatisfy({ !$0.isOperator || allowed.contains(name($0)) }) {
                    out += content[copied..<t.range.lowerBound]
                    out += Array("q BT 7 Tr".utf8)
                    for s in state { if let v = current[s] { out += [0x20] + v } }
                    out += content[t.range.upperBound..<tokens[end].range.upperBound]
                    // Wider than any page: the clip keeps only the glyphs.
                    out += Array(" -32767 -32767 65534 65534 re f Q".utf8)
                    copied = tokens[end].range.upperBound
                    changed = true
                }
                // The text state the object leaves behind.
                var from: Int?
                for u in inner {
                    guard u.isOperator else {
                        if from == nil { from = u.range.lowerBound }
                        continue
                    }
                    if state.contains(name(u)), let f = from { current[name(u)] = Array(content[f..<u.range.upperBound]) }
                    from = nil
                }
                i = end + 1
                continue
            }
            i += 1
        }
        guard changed else { return nil }
        out += content[copied...]
        return out
    }
}

/// The tokens of a content stream (ISO 32000-1 §7.2, §8.1): operands (numbers, names, strings,
/// arrays and dictionaries by their brackets, booleans, null) and operators.
enum ContentTokens {
    struct Token {
        var range: Range<Int>
        var isOperator: Bool
    }

    private static func isDelimiter(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "["), UInt8(ascii: "]"),
            UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "/"), UInt8(ascii: "%"):
            return true
        default: return false
        }
    }

    /// The tokens, or nil when a string or comment does not end.
    static func split(_ c: [UInt8]) -> [Token]? {
        var tokens: [Token] = []
        var i = 0
        while i < c.count {
            let b = c[i]
            if PDFClassicFile.isSpace(b) {
                i += 1
                continue
            }
            let start = i
            switch b {
            case UInt8(ascii: "%"):
                while i < c.count && c[i] != 0x0A && c[i] != 0x0D { i += 1 }
                continue
            case UInt8(ascii: "("):
                var depth = 0
                repeat {
                    guard i < c.count else { return nil }
                    if c[i] == UInt8(ascii: "\\") {
                        i += 1
                    } else if c[i] == UInt8(ascii: "(") {
                        depth += 1
                    } else if c[i] == UInt8(ascii: ")") {
                        depth -= 1
                    }
                    i += 1
                } while depth > 0
            case UInt8(ascii: "<") where i + 1 < c.count && c[i + 1] == UInt8(ascii: "<"):
                i += 2
            case UInt8(ascii: ">") where i + 1 < c.count && c[i + 1] == UInt8(ascii: ">"):
                i += 2
            case UInt8(ascii: "<"):
                guard let close = c[i...].firstIndex(of: UInt8(ascii: ">")) else { return nil }
                i = close + 1
            case UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"):
                i += 1
            case UInt8(ascii: "/"):
                i += 1
                while i < c.count && !PDFClassicFile.isSpace(c[i]) && !isDelimiter(c[i]) { i += 1 }
            default:
                while i < c.count && !PDFClassicFile.isSpace(c[i]) && !isDelimiter(c[i]) { i += 1 }
                if i == start { i += 1 }  // a stray ')' or '>'
                let word = c[start..<i]
                let first = word[word.startIndex]
                let operand =
                    (0x30...0x39).contains(first) || first == UInt8(ascii: "+") || first == UInt8(ascii: "-") || first == UInt8(ascii: ".")
                    || word.elementsEqual("true".utf8) || word.elementsEqual("false".utf8) || word.elementsEqual("null".utf8)
                tokens.append(Token(range: start..<i, isOperator: !operand))
                continue
            }
            tokens.append(Token(range: start..<i, isOperator: false))
        }
        return tokens
    }
}
