// A deterministic JSON writer: sorted keys, two-space indentation, integers without ".0",
// shortest round-trip doubles, arrays of scalars on one line, a trailing newline. Writes UTF-8
// bytes directly into a `ByteSink`; strings are copied eight bytes at a time between the bytes
// that need an escape, numbers are spelled without Foundation (JSONNumberText).

extension JSONValue {
    /// The value as pretty-printed JSON bytes (UTF-8) ending in a newline; the same value always
    /// gives the same bytes.
    public func serializedBytes() -> [UInt8] {
        let out = ByteSink(capacity: 1024)
        JSONWriter.write(self, indent: 0, into: out)
        out.append(0x0A)
        return out.bytes
    }

    /// `serializedBytes()` as a string.
    public func serialized() -> String { String(decoding: serializedBytes(), as: UTF8.self) }
}

enum JSONWriter {
    static func write(_ v: JSONValue, indent: Int, into out: ByteSink) {
        switch v {
        case .null: out.append("null")
        case .bool(let b): out.append(b ? "true" : "false")
        case .number(let d): JSONNumberText.append(d, to: out)
        case .string(let s): writeString(s, into: out)
        case .array(let items):
            if items.isEmpty { out.append("[]"); return }
            if items.allSatisfy(\.isScalar) {
                out.append(UInt8(ascii: "["))
                for (i, item) in items.enumerated() {
                    if i > 0 { out.append(", ") }
                    write(item, indent: indent, into: out)
                }
                out.append(UInt8(ascii: "]"))
                return
            }
            out.append("[\n")
            for (i, item) in items.enumerated() {
                out.pad(indent + 1)
                write(item, indent: indent + 1, into: out)
                out.append(i + 1 < items.count ? ",\n" : "\n")
            }
            out.pad(indent)
            out.append(UInt8(ascii: "]"))
        case .object(let dict):
            if dict.isEmpty { out.append("{}"); return }
            out.append("{\n")
            let keys = dict.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for (i, key) in keys.enumerated() {
                out.pad(indent + 1)
                writeString(key, into: out)
                out.append(": ")
                write(dict[key] ?? .null, indent: indent + 1, into: out)
                out.append(i + 1 < keys.count ? ",\n" : "\n")
            }
            out.pad(indent)
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Integers (|d| < 2^53) without a fraction; other values in Swift's shortest round-trip form
    /// (`JSONNumberText`). Non-finite values have no JSON form; the model never holds them, so
    /// they trap here.
    static func formatNumber(_ d: Double) -> String { JSONNumberText.string(d) }

    /// Appends `s` as a JSON string.
    static func writeString(_ s: String, into out: ByteSink) {
        var s = s
        s.withUTF8 { writeString(utf8: $0, into: out) }
    }

    /// The bytes among eight (little-endian in `x`) that are zero, as bit 7 of each.
    @inline(__always)
    static func zeroBytes(_ x: UInt64) -> UInt64 {
        let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        return ~((((x & low) &+ low) | x) | low)
    }

    /// The bytes among eight that a string must not copy as they are: control characters,
    /// '"', '\\' and 0xE2 (which may start U+2028 or U+2029), as bit 7 of each.
    @inline(__always)
    static func specialBytes(_ x: UInt64) -> UInt64 {
        zeroBytes(x & 0xE0E0_E0E0_E0E0_E0E0) | zeroBytes(x ^ 0x2222_2222_2222_2222) | zeroBytes(x ^ 0x5C5C_5C5C_5C5C_5C5C)
            | zeroBytes(x ^ 0xE2E2_E2E2_E2E2_E2E2)
    }

    /// `writeString` for UTF-8 bytes. A page file's pending record holds the whole page as one
    /// string, so the bytes are copied eight at a time up to the next that needs an escape,
    /// straight into the sink, a block at a time (each input byte is at most six output bytes).
    static func writeString(utf8 u: UnsafeBufferPointer<UInt8>, into out: ByteSink) {
        out.append(0x22)
        writeStringBody(utf8: u, into: out)
        out.append(0x22)
    }

    /// `writeString(utf8:into:)` without the quotes. Each byte is escaped on its own but for
    /// U+2028 and U+2029 (three bytes), so the body of a prefix that ends before an ASCII byte
    /// is a prefix of the body of the whole.
    static func writeStringBody(utf8 u: UnsafeBufferPointer<UInt8>, into out: ByteSink) {
        guard let src = u.baseAddress else { return }
        let raw = UnsafeRawPointer(src)
        let hex: StaticString = "0123456789abcdef"
        var i = 0
        while i < u.count {
            let end = Swift.min(i + 4096, u.count)
            out.write(upTo: 6 * (end - i) + 8) { dst in
                var o = 0
                func put(_ s: StaticString) {
                    (dst + o).update(from: s.utf8Start, count: s.utf8CodeUnitCount)
                    o += s.utf8CodeUnitCount
                }
                while i < end {
                    if i + 8 <= end {
                        let word = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                        let special = specialBytes(word)
                        // The whole word is stored; only the bytes before the first special one count.
                        UnsafeMutableRawPointer(dst + o).storeBytes(of: word, as: UInt64.self)
                        let plain = special == 0 ? 8 : special.trailingZeroBitCount >> 3
                        i += plain
                        o += plain
                        if plain == 8 { continue }
                    }
                    let c = src[i]
                    var short: UInt8 = 0  // the letter of a two-byte escape
                    switch c {
                    case 0x22: short = 0x22
                    case 0x5C: short = 0x5C
                    case 0x0A: short = UInt8(ascii: "n")
                    case 0x0D: short = UInt8(ascii: "r")
                    case 0x09: short = UInt8(ascii: "t")
                    case 0x08: short = UInt8(ascii: "b")
                    case 0x0C: short = UInt8(ascii: "f")
                    case 0xE2:
                        // U+2028 / U+2029 are valid JSON but break JavaScript readers; escape them.
                        if i + 2 < u.count && src[i + 1] == 0x80 && (src[i + 2] == 0xA8 || src[i + 2] == 0xA9) {
                            put(src[i + 2] == 0xA8 ? "\\u2028" : "\\u2029")
                            i += 2
                        } else {
                            dst[o] = c
                            o += 1
                        }
                    case 0..<0x20:
                        put("\\u00")
                        dst[o] = hex.utf8Start[Int(c >> 4)]
                        dst[o + 1] = hex.utf8Start[Int(c & 15)]
                        o += 2
                    default:
                        dst[o] = c
                        o += 1
                    }
                    if short != 0 {
                        dst[o] = 0x5C
                        dst[o + 1] = short
                        o += 2
                    }
                    i += 1
                }
                return o
            }
        }
    }
}

extension JSONValue {
    var isScalar: Bool {
        switch self {
        case .array, .object: return false
        default: return true
        }
    }
}
