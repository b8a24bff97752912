// A page file read without a JSON value for every stroke point. Ink strokes of the common shape
// (`color`, `opacity`, `points`, `tool`, `width`, plain numbers, no units) are decoded straight
// from the bytes; everything else in the file (the page's own keys, every other element and
// stroke) is parsed into `JSONValue`s and decoded by the ordinary decoders, with the same JSON
// paths. The bytes are lexed by the same `JSONByteParser` as `JSONParser`, so the two accept
// the same text.
//
// The reader only takes files it can read completely and without a problem: anything else
// (a syntax error, a duplicate key, an unknown key, a value out of range, a unit string in a
// stroke) makes it answer nil, and the caller reads the file with the complete decoder, which
// reports every problem as before. Each check it makes on a fast stroke is the check the
// decoder makes on the same field (tests compare the two on seeded random pages, valid and
// damaged).
//
// It also tells which elements are written exactly as `PageFileWriter` writes them, so that
// a change can copy their bytes instead of writing them again: an ink layer when every byte of
// white space, every key's order and presence and every number's spelling is the writer's (a
// number's spelling is checked from its text alone, see `isWriterNumber`), any other element
// when writing it again gives its bytes.

#if canImport(Glibc)
    import Glibc
#endif

/// Reads page files techo wrote.
enum PageFileReader {
    /// A page read: where each element's object is in the bytes (from its `{` to its `}`), and
    /// whether those bytes are the ones `PageFileWriter` writes for the element.
    struct Read {
        var page: Page
        var elements: [Range<Int>]
        var asWritten: [Bool]
    }

    /// An element as the first pass leaves it.
    enum Item {
        /// An ink layer read here; its strokes wait for the page's dpi when any is a `JSONValue`.
        case ink(id: String, opacity: Double?, hidden: Bool?, strokes: [StrokeItem], asWritten: Bool)
        /// Any other element, for `Element.decode`.
        case value(JSONValue)
    }

    /// A stroke as the first pass leaves it.
    enum StrokeItem {
        case stroke(Stroke)
        case value(JSONValue)
    }

    /// The page in `bytes`, or nil when the reader does not take the file (then
    /// `Page.decodeValue` reads it and reports its problems).
    static func read(_ bytes: [UInt8], file: String?, limits: ModelLimits) -> Read? {
        // A file over the size limit is refused by the complete reader; the fast one assumes a
        // stroke's point (depth 7) is within the nesting limit.
        guard bytes.count <= limits.json.maxBytes, limits.json.maxDepth >= 8 else { return nil }
        let first: (header: [String: JSONValue], items: [Item], spans: [Range<Int>])? = bytes.withUnsafeBufferPointer { buf in
            var p = JSONByteParser(buf: buf, file: file, maxDepth: limits.json.maxDepth)
            return try? p.readPage(limits: limits)
        }
        guard let first else { return nil }
        var header = first.header
        header["elements"] = .array([])
        let ctx = DecodingContext(file: file, limits: limits)
        guard let shell = Page.decode(ctx.root(.object(header))), ctx.isClean else { return nil }
        var elements: [Element] = []
        var asWritten: [Bool] = []
        elements.reserveCapacity(first.items.count)
        asWritten.reserveCapacity(first.items.count)
        var ids = Set<String>()
        for (i, item) in first.items.enumerated() {
            guard let e = element(item, index: i, dpi: shell.dpi, context: ctx), ids.insert(e.id).inserted else { return nil }
            elements.append(e)
            asWritten.append(isAsWritten(item, e, bytes[first.spans[i]]))
        }
        guard ctx.isClean,
            let page = try? Page(
                id: shell.id, size: shell.size, dpi: shell.dpi, background: shell.background, margin: shell.margin,
                slots: shell.slots, elements: elements, limits: limits)
        else { return nil }
        return Read(page: page, elements: first.spans, asWritten: asWritten)
    }

    /// Whether `bytes`, element `e` as read from `item`, are what the writer writes for it.
    static func isAsWritten(_ item: Item, _ e: Element, _ bytes: ArraySlice<UInt8>) -> Bool {
        if case .ink(_, _, _, _, let asWritten) = item { return asWritten }
        let out = ByteSink(capacity: bytes.count + 16)
        PageFileWriter.writeElement(e, indent: 2, into: out)
        return out.count == bytes.count
            && bytes.withUnsafeBufferPointer { b in
                b.baseAddress.map { memcmp($0, out.base, bytes.count) == 0 } ?? true
            }
    }

    /// The element whose object is `span` of `bytes`, read as element `index` of a page of
    /// `dpi`; nil when it has any problem (or the span is not one JSON object).
    static func element(in bytes: [UInt8], span: Range<Int>, index: Int, dpi: Double, limits: ModelLimits) -> Element? {
        guard span.lowerBound >= 0, span.upperBound <= bytes.count, limits.json.maxDepth >= 8 else { return nil }
        let item: Item? = bytes.withUnsafeBufferPointer { buf in
            var p = JSONByteParser(buf: UnsafeBufferPointer(rebasing: buf[..<span.upperBound]), file: nil, maxDepth: limits.json.maxDepth)
            p.pos = span.lowerBound
            guard let item = try? p.readElement(limits: limits), p.pos == span.upperBound else { return nil }
            return item
        }
        guard let item else { return nil }
        let ctx = DecodingContext(file: nil, limits: limits)
        guard let e = element(item, index: index, dpi: dpi, context: ctx), ctx.isClean else { return nil }
        return e
    }

    /// The second pass of one element: decodes what the first left as JSON.
    static func element(_ item: Item, index: Int, dpi: Double, context ctx: DecodingContext) -> Element? {
        let env = ElementEnvironment(dpi: dpi, pageCenter: .zero, sources: nil)
        switch item {
        case .value(let v):
            return Element.decode(JSONNode(value: v, path: "elements[\(index)]", context: ctx), env: env, existing: [])
        case .ink(let id, let opacity, let hidden, let items, _):
            var strokes: [Stroke] = []
            strokes.reserveCapacity(items.count)
            for (j, s) in items.enumerated() {
                switch s {
                case .stroke(let stroke): strokes.append(stroke)
                case .value(let v):
                    guard let stroke = Stroke.decode(JSONNode(value: v, path: "elements[\(index)].strokes[\(j)]", context: ctx), dpi: dpi) else {
                        return nil
                    }
                    strokes.append(stroke)
                }
            }
            // As Element.decode checks an ink layer's id, opacity and hidden.
            guard Identifier.isValid(id), opacity.map({ (0...1).contains($0) }) ?? true else { return nil }
            return try? Element(id: id, content: .ink(InkContent(strokes: strokes)), opacity: opacity ?? 1, hidden: hidden ?? false)
        }
    }
}

extension JSONByteParser {
    /// The next byte, or nil at the end.
    var next: UInt8? { pos < buf.count ? buf[pos] : nil }

    /// Whether the next byte can start a number.
    var atNumber: Bool {
        guard let c = next else { return false }
        return c == UInt8(ascii: "-") || (c >= 0x30 && c <= 0x39)
    }

    /// Moves past `c` (after white space) or answers false.
    mutating func take(_ c: UInt8) -> Bool {
        skipSpace()
        guard next == c else { return false }
        pos += 1
        return true
    }

    /// Whether `c` is JSON white space.
    @inline(__always)
    static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x0A || c == 0x09 || c == 0x0D }

    /// Skips white space; answers whether it was a newline and `indent` levels of two spaces,
    /// as the writer puts before a key, an array item or a closing bracket.
    mutating func skipLine(_ indent: Int) -> Bool {
        let n = 1 + 2 * indent
        // The writer's line, compared eight spaces at a time.
        if pos + n < buf.count, buf[pos] == 0x0A, let base = buf.baseAddress, !JSONByteParser.isSpace(buf[pos + n]) {
            let raw = UnsafeRawPointer(base + pos + 1)
            var k = 0
            while k + 8 <= n - 1 && raw.loadUnaligned(fromByteOffset: k, as: UInt64.self) == 0x2020_2020_2020_2020 { k += 8 }
            while k < n - 1 && raw.load(fromByteOffset: k, as: UInt8.self) == 0x20 { k += 1 }
            if k == n - 1 {
                pos += n
                return true
            }
        }
        skipSpace()
        return false
    }

    /// Skips white space; answers whether there was exactly `spaces` spaces (0 or 1).
    @inline(__always)
    mutating func skipSpaces(_ spaces: Int) -> Bool {
        if spaces == 0 {
            if pos < buf.count && JSONByteParser.isSpace(buf[pos]) {
                skipSpace()
                return false
            }
            return true
        }
        if pos + 1 < buf.count && buf[pos] == 0x20 && !JSONByteParser.isSpace(buf[pos + 1]) {
            pos += 1
            return true
        }
        skipSpace()
        return false
    }

    /// `skipLine`, clearing `flag` when the white space was not the writer's.
    mutating func skipLine(_ indent: Int, noting flag: inout Bool) {
        let ok = skipLine(indent)
        flag = flag && ok
    }

    /// `skipSpaces`, clearing `flag` when the white space was not the writer's.
    mutating func skipSpaces(_ spaces: Int, noting flag: inout Bool) {
        let ok = skipSpaces(spaces)
        flag = flag && ok
    }

    /// The bytes of the string at `pos` when it has no escape and no control character, moving
    /// past it; nil (not moved) otherwise.
    mutating func plainString() -> Range<Int>? {
        guard next == UInt8(ascii: "\"") else { return nil }
        var i = pos + 1
        while i < buf.count {
            let c = buf[i]
            if c == UInt8(ascii: "\"") {
                let r = (pos + 1)..<i
                pos = i + 1
                return r
            }
            if c == UInt8(ascii: "\\") || c < 0x20 { return nil }
            i += 1
        }
        return nil
    }

    /// Whether `r` holds exactly the ASCII `word`.
    func bytes(_ r: Range<Int>, are word: StaticString) -> Bool {
        guard r.count == word.utf8CodeUnitCount else { return false }
        let w = word.utf8Start
        for k in 0..<r.count where buf[r.lowerBound + k] != w[k] { return false }
        return true
    }

    /// The text of `r` when it is valid UTF-8 (as `string()` checks it).
    func text(_ r: Range<Int>) -> String? {
        String(validating: UnsafeBufferPointer(rebasing: buf[r]), as: UTF8.self)
    }

    /// Whether the number text `r` is the writer's spelling of its value (`JSONNumberText`),
    /// judged from the text alone: an integer of at most 15 digits other than `-0`, or a
    /// decimal without exponent or trailing zero of at most 15 significant digits and at least
    /// 0.0001. Such a text is the one shortest form of its value (no other decimal of 15 digits
    /// or fewer rounds to the same double), which is what the writer writes. Other spellings
    /// (exponents, 16 or 17 digits) may be the writer's too; they are only said not to be.
    func isWriterNumber(_ r: Range<Int>) -> Bool {
        var i = r.lowerBound
        let negative = buf[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        let intStart = i
        while i < r.upperBound && buf[i] >= 0x30 && buf[i] <= 0x39 { i += 1 }
        let intDigits = i - intStart
        let zero = intDigits == 1 && buf[intStart] == 0x30
        if i == r.upperBound { return intDigits <= 15 && !(negative && zero) }
        guard buf[i] == UInt8(ascii: ".") else { return false }
        i += 1
        let fracStart = i
        while i < r.upperBound && buf[i] >= 0x30 && buf[i] <= 0x39 { i += 1 }
        let fracDigits = i - fracStart
        guard i == r.upperBound, fracDigits > 0, buf[i - 1] != 0x30 else { return false }
        if zero {
            var leading = 0
            while buf[fracStart + leading] == 0x30 { leading += 1 }
            return leading <= 3 && fracDigits - leading <= 15
        }
        return intDigits + fracDigits <= 15
    }

    /// A number, and whether its text is the writer's spelling (`isWriterNumber`). The common
    /// kind (no exponent, at most 15 digits counting leading zeros) is read in one pass, as
    /// `shortNumber` reads it, with the spelling checked on the way; any other is left to
    /// `number()`.
    mutating func writerNumber() throws -> (value: Double, asWritten: Bool) {
        let start = pos
        var i = pos
        let n = buf.count
        let negative = i < n && buf[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        var mantissa: Int64 = 0
        var digits = 0
        var zero = false
        if i < n && buf[i] == 0x30 {
            i += 1
            digits = 1
            zero = true
        } else {
            while i < n && buf[i] >= 0x30 && buf[i] <= 0x39 {
                mantissa = mantissa &* 10 &+ Int64(buf[i] &- 0x30)
                digits += 1
                i += 1
            }
        }
        var fraction = 0, leading = 0, dot = false
        if i < n && buf[i] == UInt8(ascii: ".") {
            dot = true
            i += 1
            let s = i
            while i < n && buf[i] >= 0x30 && buf[i] <= 0x39 {
                mantissa = mantissa &* 10 &+ Int64(buf[i] &- 0x30)
                if mantissa == 0 { leading += 1 }
                i += 1
            }
            fraction = i - s
            digits += fraction
        }
        // Anything else (no digit, "1.", a leading zero, an exponent, 16 digits or more) is
        // number()'s, which reads or refuses it.
        let ends = i == n || !(buf[i] >= 0x30 && buf[i] <= 0x39 || buf[i] == UInt8(ascii: "e") || buf[i] == UInt8(ascii: "E"))
        if digits > 0 && digits <= 15 && (!dot || fraction > 0) && ends {
            pos = i
            let v = Double(mantissa) / JSONByteParser.powersOfTen[fraction]
            let spelled = dot ? buf[i - 1] != 0x30 && (!zero || leading <= 3) : !(negative && zero)
            return (negative ? -v : v, spelled)
        }
        pos = start
        let v = try number()
        return (v, isWriterNumber(start..<pos))
    }

    /// Moves to the value of the next key of an object whose keys are at `indent`: past `,`
    /// (unless `first`), the key and its `:`. Answers the key's bytes, or `done` at the
    /// object's closing `}` (consumed); nil key and not done for any other text, or a key with
    /// an escape. Clears `asWritten` when the white space is not the writer's.
    mutating func nextKey(first: Bool, indent: Int, asWritten: inout Bool) -> (key: Range<Int>?, done: Bool) {
        if first {
            let line = skipLine(indent)
            if next == UInt8(ascii: "}") { pos += 1; asWritten = false; return (nil, true) }
            asWritten = asWritten && line
        } else {
            let start = pos
            skipSpace()
            if next == UInt8(ascii: "}") {
                let end = pos
                pos = start
                skipLine(indent - 1, noting: &asWritten)
                asWritten = asWritten && pos == end
                pos = end + 1
                return (nil, true)
            }
            guard next == UInt8(ascii: ",") else { return (nil, false) }
            asWritten = asWritten && pos == start
            pos += 1
            skipLine(indent, noting: &asWritten)
        }
        guard let key = plainString() else { return (nil, false) }
        skipSpaces(0, noting: &asWritten)
        guard next == UInt8(ascii: ":") else { return (nil, false) }
        pos += 1
        skipSpaces(1, noting: &asWritten)
        return (key, false)
    }

    /// After an array item at `indent`: past `,` (answers false: more items) or the closing `]`
    /// (answers true), checking the white space is the writer's; throws on anything else.
    mutating func endOfItem(indent: Int, asWritten: inout Bool) throws -> Bool {
        let start = pos
        skipSpace()
        if next == UInt8(ascii: ",") {
            asWritten = asWritten && pos == start
            pos += 1
            return false
        }
        guard next == UInt8(ascii: "]") else { throw error("expected ',' or ']' in an array") }
        let end = pos
        pos = start
        skipLine(indent - 1, noting: &asWritten)
        asWritten = asWritten && pos == end
        pos = end + 1
        return true
    }

    /// The first pass over a page file: its own keys as JSON values (`elements` left out), its
    /// elements, and where each element is. Nil when the fast read stops.
    mutating func readPage(limits: ModelLimits) throws -> (header: [String: JSONValue], items: [PageFileReader.Item], spans: [Range<Int>])? {
        skipSpace()
        guard next == UInt8(ascii: "{") else { return nil }
        pos += 1
        var header: [String: JSONValue] = [:]
        var items: [PageFileReader.Item] = []
        var spans: [Range<Int>] = []
        var sawElements = false
        skipSpace()
        if next == UInt8(ascii: "}") { return nil }
        while true {
            skipSpace()
            guard next == UInt8(ascii: "\"") else { return nil }
            let key = try string()
            guard take(UInt8(ascii: ":")) else { return nil }
            skipSpace()
            if key == "elements" {
                guard !sawElements, next == UInt8(ascii: "[") else { return nil }
                sawElements = true
                pos += 1
                skipSpace()
                if next == UInt8(ascii: "]") {
                    pos += 1
                } else {
                    while true {
                        skipSpace()
                        let start = pos
                        items.append(try readElement(limits: limits))
                        spans.append(start..<pos)
                        skipSpace()
                        if next == UInt8(ascii: ",") { pos += 1; continue }
                        guard next == UInt8(ascii: "]") else { return nil }
                        pos += 1
                        break
                    }
                }
            } else {
                guard header[key] == nil else { return nil }
                header[key] = try value(depth: 1)
            }
            skipSpace()
            if next == UInt8(ascii: ",") { pos += 1; continue }
            guard next == UInt8(ascii: "}") else { return nil }
            pos += 1
            break
        }
        skipSpace()
        guard sawElements, pos == buf.count else { return nil }
        return (header, items, spans)
    }

    /// One element of the elements array (at nesting depth 3): an ink layer read here, or any
    /// element as a JSON value.
    mutating func readElement(limits: ModelLimits) throws -> PageFileReader.Item {
        let start = pos
        if let ink = try inkElement(limits: limits) { return ink }
        pos = start
        return .value(try value(depth: 2))
    }

    /// An ink layer (an element of the page, indent 2) with only `hidden`, `id`, `opacity`,
    /// `strokes` and `type`; nil otherwise.
    mutating func inkElement(limits: ModelLimits) throws -> PageFileReader.Item? {
        guard next == UInt8(ascii: "{") else { return nil }
        pos += 1
        var id: String?, opacity: Double?, hidden: Bool?, strokes: [PageFileReader.StrokeItem]?
        var sawType = false
        var first = true
        // The writer's keys, in its order: hidden, id, opacity, strokes, type.
        var asWritten = true
        var lastKey = -1
        func order(_ k: Int) {
            asWritten = asWritten && k > lastKey
            lastKey = k
        }
        while true {
            let (k, done) = nextKey(first: first, indent: 3, asWritten: &asWritten)
            first = false
            if done { break }
            guard let k else { return nil }
            if bytes(k, are: "id") {
                guard id == nil, next == UInt8(ascii: "\"") else { return nil }
                order(1)
                let start = pos
                if let r = plainString() {
                    id = text(r)
                    if id == nil { return nil }
                } else {
                    pos = start
                    id = try string()
                    asWritten = false
                }
            } else if bytes(k, are: "type") {
                guard !sawType, let t = plainString(), bytes(t, are: "ink") else { return nil }
                order(4)
                sawType = true
            } else if bytes(k, are: "opacity") {
                guard opacity == nil, atNumber else { return nil }
                order(2)
                let (o, spelled) = try writerNumber()
                asWritten = asWritten && spelled && o != 1
                opacity = o
            } else if bytes(k, are: "hidden") {
                guard hidden == nil else { return nil }
                order(0)
                if next == UInt8(ascii: "t") {
                    try literal("true"); hidden = true
                } else if next == UInt8(ascii: "f") {
                    try literal("false"); hidden = false
                    asWritten = false
                } else {
                    return nil
                }
            } else if bytes(k, are: "strokes") {
                guard strokes == nil, next == UInt8(ascii: "[") else { return nil }
                order(3)
                strokes = try strokeItems(limits: limits, asWritten: &asWritten)
            } else {
                return nil
            }
        }
        guard let id, sawType, let strokes else { return nil }
        return .ink(id: id, opacity: opacity, hidden: hidden, strokes: strokes, asWritten: asWritten)
    }

    /// An ink layer's strokes array (depth 4, items at indent 4): plain strokes read here,
    /// others as JSON values.
    mutating func strokeItems(limits: ModelLimits, asWritten: inout Bool) throws -> [PageFileReader.StrokeItem] {
        pos += 1
        var out: [PageFileReader.StrokeItem] = []
        let start = pos
        skipSpace()
        if next == UInt8(ascii: "]") {
            asWritten = asWritten && pos == start
            pos += 1
            return out
        }
        pos = start
        while true {
            skipLine(4, noting: &asWritten)
            let itemStart = pos
            if let (s, spelled) = try plainStroke(limits: limits) {
                out.append(.stroke(s))
                asWritten = asWritten && spelled
            } else {
                pos = itemStart
                out.append(.value(try value(depth: 4)))
                asWritten = false
            }
            if try endOfItem(indent: 4, asWritten: &asWritten) { return out }
        }
    }

    /// A stroke (indent 4) with only `color`, `id`, `opacity`, `points`, `tool` and `width`, each as
    /// `Stroke.decode` takes it without units, and whether its bytes are the writer's; nil for
    /// any other stroke, or one with a problem.
    mutating func plainStroke(limits: ModelLimits) throws -> (Stroke, Bool)? {
        guard next == UInt8(ascii: "{") else { return nil }
        pos += 1
        var tool: Stroke.Tool?, color: RGBA?, width: Double?, opacity: Double?, points: [StrokePoint]?, id: String?
        var first = true
        // The writer's keys, in its order: color, id, opacity, points, tool, width.
        var asWritten = true
        var lastKey = -1
        func order(_ k: Int) {
            asWritten = asWritten && k > lastKey
            lastKey = k
        }
        while true {
            let (k, done) = nextKey(first: first, indent: 5, asWritten: &asWritten)
            first = false
            if done { break }
            guard let k else { return nil }
            if bytes(k, are: "points") {
                guard points == nil, next == UInt8(ascii: "["), let pts = try plainPoints(limits: limits, asWritten: &asWritten) else { return nil }
                order(3)
                points = pts
            } else if bytes(k, are: "color") {
                guard color == nil, let r = plainString(), let (c, spelled) = self.color(r) else { return nil }
                order(0)
                asWritten = asWritten && spelled
                color = c
            } else if bytes(k, are: "width") {
                guard width == nil, atNumber else { return nil }
                order(5)
                let (w, spelled) = try writerNumber()
                guard (1e-3...1e5).contains(w) else { return nil }
                asWritten = asWritten && spelled
                width = w
            } else if bytes(k, are: "tool") {
                guard tool == nil, let r = plainString(), let t = self.tool(r) else { return nil }
                order(4)
                tool = t
            } else if bytes(k, are: "opacity") {
                guard opacity == nil, atNumber else { return nil }
                order(2)
                let (o, spelled) = try writerNumber()
                guard (0...1).contains(o) else { return nil }
                asWritten = asWritten && spelled && o != 1
                opacity = o
            } else if bytes(k, are: "id") {
                guard id == nil, let r = plainString(), let name = text(r), Identifier.isValid(name) else { return nil }
                order(1)
                id = name
            } else {
                return nil
            }
        }
        guard let tool, let width else { return nil }
        let c = color ?? .black
        // A stroke without its id is given one by the page, so its bytes are not the writer's.
        asWritten = asWritten && id != nil
        // The writer leaves out only an eraser's black, and writes points even when empty.
        asWritten = asWritten && (color != nil) == (tool != .eraser || c != .black) && points != nil && points?.isEmpty == false
        guard let stroke = try? Stroke(tool: tool, color: c, width: width, opacity: opacity ?? 1, points: points ?? [], id: id, limits: limits) else {
            return nil
        }
        return (stroke, asWritten)
    }

    /// The tool a string names (its raw value, byte for byte), or nil.
    func tool(_ r: Range<Int>) -> Stroke.Tool? {
        let names: [(StaticString, Stroke.Tool)] = [
            ("pencil", .pencil), ("line", .line), ("dash", .dash), ("rect", .rect), ("ellipse", .ellipse), ("path", .path),
            ("highlighter", .highlighter), ("eraser", .eraser),
        ]
        for (name, tool) in names where bytes(r, are: name) { return tool }
        return nil
    }

    /// A colour string: `#rrggbb` / `#rrggbbaa` in lowercase read here (the writer's spelling
    /// when the alpha digits are there exactly when alpha is not ff), any other through
    /// `RGBA(parsing:)`; nil when it is not a colour.
    func color(_ r: Range<Int>) -> (RGBA, Bool)? {
        if (r.count == 7 || r.count == 9) && buf[r.lowerBound] == UInt8(ascii: "#") {
            var v: UInt32 = 0
            var ok = true
            for k in (r.lowerBound + 1)..<r.upperBound {
                let c = buf[k]
                switch c {
                case 0x30...0x39: v = v << 4 | UInt32(c - 0x30)
                case 0x61...0x66: v = v << 4 | UInt32(c - 0x61 + 10)
                default: ok = false
                }
                if !ok { break }
            }
            if ok {
                if r.count == 7 { v = v << 8 | 0xFF }
                let rgba = RGBA(r: UInt8(v >> 24), g: UInt8(v >> 16 & 0xFF), b: UInt8(v >> 8 & 0xFF), a: UInt8(v & 0xFF))
                return (rgba, (r.count == 7) == (rgba.a == 255))
            }
        }
        guard let s = text(r), let rgba = try? RGBA(parsing: s) else { return nil }
        return (rgba, false)
    }

    /// A points array (depth 6, items at indent 6) of `[x, y]` / `[x, y, pressure]` plain
    /// numbers with |x|, |y| ≤ 10 000 000 and pressure in 0…1 (the decoder's fast case); nil
    /// for anything else.
    mutating func plainPoints(limits: ModelLimits, asWritten: inout Bool) throws -> [StrokePoint]? {
        pos += 1
        // Points go to a scratch array first, so the stroke's own array is made once, at its size.
        var out: [StrokePoint] = []
        swap(&out, &scratchPoints)
        out.removeAll(keepingCapacity: true)
        defer { swap(&out, &scratchPoints) }
        let start = pos
        skipSpace()
        if next == UInt8(ascii: "]") {
            pos += 1
            asWritten = false
            return []
        }
        pos = start
        var spelled = true
        while true {
            skipLine(6, noting: &spelled)
            guard next == UInt8(ascii: "[") else { return nil }
            pos += 1
            skipSpaces(0, noting: &spelled)
            guard atNumber else { return nil }
            let (x, xs) = try writerNumber()
            spelled = spelled && xs
            skipSpaces(0, noting: &spelled)
            guard next == UInt8(ascii: ",") else { return nil }
            pos += 1
            skipSpaces(1, noting: &spelled)
            guard atNumber else { return nil }
            let (y, ys) = try writerNumber()
            guard Swift.abs(x) <= 1e7, Swift.abs(y) <= 1e7 else { return nil }
            spelled = spelled && ys
            skipSpaces(0, noting: &spelled)
            if next == UInt8(ascii: ",") {
                pos += 1
                skipSpaces(1, noting: &spelled)
                guard atNumber else { return nil }
                let (pressure, ps) = try writerNumber()
                spelled = spelled && ps
                skipSpaces(0, noting: &spelled)
                guard pressure >= 0, pressure <= 1, next == UInt8(ascii: "]") else { return nil }
                out.append(StrokePoint(x, y, pressure: pressure))
            } else {
                guard next == UInt8(ascii: "]") else { return nil }
                out.append(StrokePoint(x, y))
            }
            pos += 1
            guard out.count <= limits.maxStrokePoints else { return nil }
            let itemEnd = pos
            skipSpace()
            if next == UInt8(ascii: ",") {
                spelled = spelled && pos == itemEnd
                pos += 1
                continue
            }
            guard next == UInt8(ascii: "]") else { return nil }
            let end = pos
            pos = itemEnd
            skipLine(5, noting: &spelled)
            spelled = spelled && pos == end
            pos = end + 1
            asWritten = asWritten && spelled
            return Array(out[...])
        }
    }
}
