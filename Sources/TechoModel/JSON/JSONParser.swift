// A recursive-descent JSON parser (RFC 8259) over UTF-8 bytes, with limits checked before anything
// big is built: the input size up front, the nesting depth on every open bracket.

/// Limits the parser enforces. Defaults are the product limits: 8 MB, depth 64.
public struct JSONLimits: Sendable, Equatable {
    /// Largest accepted input, bytes. Default 8 MiB.
    public var maxBytes: Int
    /// Deepest accepted nesting of arrays and objects. Default 64.
    public var maxDepth: Int

    public init(maxBytes: Int = 8 << 20, maxDepth: Int = 64) {
        self.maxBytes = maxBytes; self.maxDepth = maxDepth
    }
    public static let `default` = JSONLimits()
}

/// Parses JSON text into a `JSONValue`.
public enum JSONParser {
    /// Parses `bytes` (UTF-8). Throws `JSONSyntaxError` naming `file`, line and column.
    public static func parse(_ bytes: [UInt8], file: String? = nil, limits: JSONLimits = .default) throws -> JSONValue {
        guard bytes.count <= limits.maxBytes else {
            throw JSONSyntaxError(
                file: file, line: 1, column: 1,
                message: "JSON is \(bytes.count) bytes, over the limit of \(limits.maxBytes) bytes")
        }
        return try bytes.withUnsafeBufferPointer { buf in
            var p = JSONByteParser(buf: buf, file: file, maxDepth: limits.maxDepth)
            p.skipSpace()
            let v = try p.value(depth: 0)
            p.skipSpace()
            if p.pos < buf.count { throw p.error("unexpected \(p.describe(buf[p.pos])) after the JSON value") }
            return v
        }
    }

    /// Parses a string of JSON text.
    public static func parse(_ text: String, file: String? = nil, limits: JSONLimits = .default) throws -> JSONValue {
        try parse(Array(text.utf8), file: file, limits: limits)
    }
}

/// The parser's cursor over UTF-8 bytes. `JSONParser` builds `JSONValue`s with it; the page
/// file reader (`PageFileReader`) uses the same lexing (numbers, strings, literals, nesting) to
/// read ink strokes without building them, so both accept and refuse exactly the same text.
struct JSONByteParser {
    let buf: UnsafeBufferPointer<UInt8>
    let file: String?
    let maxDepth: Int
    var pos = 0
    /// Reused by `PageFileReader` for each stroke's points.
    var scratchPoints: [StrokePoint] = []

    init(buf: UnsafeBufferPointer<UInt8>, file: String?, maxDepth: Int) { self.buf = buf; self.file = file; self.maxDepth = maxDepth }

    func error(_ message: String, at offset: Int? = nil) -> JSONSyntaxError {
        let end = min(offset ?? pos, buf.count)
        var line = 1, col = 1
        for i in 0..<end {
            if buf[i] == 0x0A { line += 1; col = 1 } else if buf[i] & 0xC0 != 0x80 { col += 1 }
        }
        return JSONSyntaxError(file: file, line: line, column: col, message: message)
    }

    func describe(_ b: UInt8) -> String {
        if b >= 0x21 && b < 0x7F { return "'\(Character(UnicodeScalar(b)))'" }
        return "byte 0x" + String(b, radix: 16)
    }

    mutating func skipSpace() {
        while pos < buf.count {
            switch buf[pos] {
            case 0x20, 0x09, 0x0A, 0x0D: pos += 1
            default: return
            }
        }
    }

    mutating func value(depth: Int) throws -> JSONValue {
        guard pos < buf.count else { throw error("unexpected end of input, expected a value") }
        switch buf[pos] {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw error("unexpected \(describe(buf[pos])), expected a value")
        }
    }

    mutating func literal(_ word: String) throws {
        let start = pos
        for c in word.utf8 {
            guard pos < buf.count, buf[pos] == c else { throw error("invalid literal, expected '\(word)'", at: start) }
            pos += 1
        }
    }

    mutating func object(depth: Int) throws -> JSONValue {
        guard depth <= maxDepth else { throw error("nesting deeper than \(maxDepth) levels") }
        pos += 1
        var dict: [String: JSONValue] = [:]
        skipSpace()
        if pos < buf.count && buf[pos] == UInt8(ascii: "}") { pos += 1; return .object(dict) }
        while true {
            skipSpace()
            guard pos < buf.count, buf[pos] == UInt8(ascii: "\"") else {
                throw error(pos < buf.count ? "expected a string key, found \(describe(buf[pos]))" : "unexpected end of input in an object")
            }
            let keyStart = pos
            let key = try string()
            skipSpace()
            guard pos < buf.count, buf[pos] == UInt8(ascii: ":") else { throw error("expected ':' after key \"\(key)\"") }
            pos += 1
            skipSpace()
            let v = try value(depth: depth)
            if dict.updateValue(v, forKey: key) != nil { throw error("duplicate key \"\(key)\"", at: keyStart) }
            skipSpace()
            guard pos < buf.count else { throw error("unexpected end of input in an object") }
            if buf[pos] == UInt8(ascii: ",") { pos += 1; continue }
            if buf[pos] == UInt8(ascii: "}") { pos += 1; return .object(dict) }
            throw error("expected ',' or '}' in an object, found \(describe(buf[pos]))")
        }
    }

    mutating func array(depth: Int) throws -> JSONValue {
        guard depth <= maxDepth else { throw error("nesting deeper than \(maxDepth) levels") }
        pos += 1
        var items: [JSONValue] = []
        skipSpace()
        if pos < buf.count && buf[pos] == UInt8(ascii: "]") { pos += 1; return .array(items) }
        while true {
            skipSpace()
            items.append(try value(depth: depth))
            skipSpace()
            guard pos < buf.count else { throw error("unexpected end of input in an array") }
            if buf[pos] == UInt8(ascii: ",") { pos += 1; continue }
            if buf[pos] == UInt8(ascii: "]") { pos += 1; return .array(items) }
            throw error("expected ',' or ']' in an array, found \(describe(buf[pos]))")
        }
    }

    mutating func number() throws -> Double {
        let start = pos
        if let d = shortNumber() { return d }
        func digits() -> Int {
            let s = pos
            while pos < buf.count && buf[pos] >= 0x30 && buf[pos] <= 0x39 { pos += 1 }
            return pos - s
        }
        if buf[pos] == UInt8(ascii: "-") { pos += 1 }
        guard pos < buf.count else { throw error("invalid number", at: start) }
        if buf[pos] == UInt8(ascii: "0") {
            pos += 1
            if pos < buf.count && buf[pos] >= 0x30 && buf[pos] <= 0x39 { throw error("invalid number: leading zero", at: start) }
        } else if digits() == 0 {
            throw error("invalid number", at: start)
        }
        if pos < buf.count && buf[pos] == UInt8(ascii: ".") {
            pos += 1
            if digits() == 0 { throw error("invalid number: no digits after '.'", at: start) }
        }
        if pos < buf.count && (buf[pos] == UInt8(ascii: "e") || buf[pos] == UInt8(ascii: "E")) {
            pos += 1
            if pos < buf.count && (buf[pos] == UInt8(ascii: "+") || buf[pos] == UInt8(ascii: "-")) { pos += 1 }
            if digits() == 0 { throw error("invalid number: no digits in the exponent", at: start) }
        }
        if let d = fastNumber(start, pos) { return d }
        let text = String(decoding: UnsafeBufferPointer(rebasing: buf[start..<pos]), as: UTF8.self)
        guard let d = Double(text) else { throw error("invalid number \(text)", at: start) }
        guard d.isFinite else { throw error("number \(text) is out of range", at: start) }
        return d
    }

    /// The number at `pos` in one pass when it is the common kind: no exponent and at most 15
    /// digits, which Clinger's fast path (`fastNumber`) converts exactly; moves past it. Nil (not
    /// moved) for any other text, which `number()` then reads, reporting what is wrong.
    @inline(__always)
    mutating func shortNumber() -> Double? {
        var i = pos
        let n = buf.count
        let negative = i < n && buf[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        guard i < n else { return nil }
        var mantissa: Int64 = 0
        var digits = 0
        if buf[i] == UInt8(ascii: "0") {
            i += 1
            digits = 1
            if i < n && buf[i] >= 0x30 && buf[i] <= 0x39 { return nil }
        } else {
            while i < n && buf[i] >= 0x30 && buf[i] <= 0x39 {
                mantissa = mantissa &* 10 &+ Int64(buf[i] &- 0x30)
                digits += 1
                i += 1
            }
            if digits == 0 { return nil }
        }
        var fraction = 0
        if i < n && buf[i] == UInt8(ascii: ".") {
            i += 1
            let s = i
            while i < n && buf[i] >= 0x30 && buf[i] <= 0x39 {
                mantissa = mantissa &* 10 &+ Int64(buf[i] &- 0x30)
                i += 1
            }
            fraction = i - s
            digits += fraction
            if fraction == 0 { return nil }
        }
        if i < n && (buf[i] == UInt8(ascii: "e") || buf[i] == UInt8(ascii: "E")) { return nil }
        guard digits <= 15 else { return nil }
        pos = i
        let v = Double(mantissa) / JSONByteParser.powersOfTen[fraction]
        return negative ? -v : v
    }

    static let powersOfTen: [Double] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15]

    /// Clinger's fast path: a number with at most 15 significant digits and no exponent is an
    /// exact integer divided by an exact power of ten, so one division rounds correctly.
    func fastNumber(_ start: Int, _ end: Int) -> Double? {
        var i = start
        let negative = buf[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        var mantissa: Int64 = 0
        var digits = 0
        var fraction = 0
        var seenDot = false
        while i < end {
            let c = buf[i]
            if c == UInt8(ascii: ".") { seenDot = true; i += 1; continue }
            guard c >= 0x30 && c <= 0x39 else { return nil }
            mantissa = mantissa * 10 + Int64(c - 0x30)
            digits += 1
            if seenDot { fraction += 1 }
            if digits > 15 { return nil }
            i += 1
        }
        let v = Double(mantissa) / JSONByteParser.powersOfTen[fraction]
        return negative ? -v : v
    }

    mutating func hex4() throws -> UInt32 {
        guard pos + 4 <= buf.count else { throw error("truncated \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = buf[pos]
            let d: UInt32
            switch c {
            case 0x30...0x39: d = UInt32(c - 0x30)
            case 0x41...0x46: d = UInt32(c - 0x41 + 10)
            case 0x61...0x66: d = UInt32(c - 0x61 + 10)
            default: throw error("invalid hex digit in \\u escape")
            }
            v = v << 4 | d
            pos += 1
        }
        return v
    }

    mutating func string() throws -> String {
        let start = pos
        pos += 1
        var out: [UInt8] = []
        var runStart = pos
        while true {
            guard pos < buf.count else { throw error("unterminated string", at: start) }
            let c = buf[pos]
            if c == UInt8(ascii: "\"") {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: buf[runStart..<pos]))
                pos += 1
                break
            }
            if c < 0x20 { throw error("control character \(describe(c)) in a string (escape it)") }
            if c != UInt8(ascii: "\\") { pos += 1; continue }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buf[runStart..<pos]))
            pos += 1
            guard pos < buf.count else { throw error("unterminated string", at: start) }
            let e = buf[pos]
            pos += 1
            switch e {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if scalar >= 0xD800 && scalar < 0xDC00 {
                    guard pos + 6 <= buf.count, buf[pos] == UInt8(ascii: "\\"), buf[pos + 1] == UInt8(ascii: "u") else {
                        throw error("unpaired surrogate in \\u escape")
                    }
                    pos += 2
                    let low = try hex4()
                    guard low >= 0xDC00 && low < 0xE000 else { throw error("unpaired surrogate in \\u escape") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if scalar >= 0xDC00 && scalar < 0xE000 {
                    throw error("unpaired surrogate in \\u escape")
                }
                guard let u = Unicode.Scalar(scalar) else { throw error("invalid \\u escape") }
                out.append(contentsOf: Array(String(Character(u)).utf8))
            default:
                throw error("invalid escape '\\\(Character(UnicodeScalar(e)))'")
            }
            runStart = pos
        }
        guard let s = String(validating: out, as: UTF8.self) else { throw error("invalid UTF-8 in a string", at: start) }
        return s
    }
}
