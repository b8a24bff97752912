// A deterministic JSON writer: sorted keys, two-space indentation, integers without ".0",
// shortest round-trip doubles, arrays of scalars on one line, a trailing newline. Writes UTF-8
// bytes directly; strings without characters to escape are copied whole.

extension JSONValue {
    /// The value as pretty-printed JSON bytes (UTF-8) ending in a newline; the same value always
    /// gives the same bytes.
    public func serializedBytes() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(1024)
        JSONWriter.write(self, indent: 0, into: &out)
        out.append(0x0A)
        return out
    }

    /// `serializedBytes()` as a string.
    public func serialized() -> String { String(decoding: serializedBytes(), as: UTF8.self) }
}

enum JSONWriter {
    static func write(_ v: JSONValue, indent: Int, into out: inout [UInt8]) {
        switch v {
        case .null: out += "null".utf8
        case .bool(let b): out += (b ? "true" : "false").utf8
        case .number(let d): out += formatNumber(d).utf8
        case .string(let s): writeString(s, into: &out)
        case .array(let items):
            if items.isEmpty { out += "[]".utf8; return }
            if items.allSatisfy(\.isScalar) {
                out.append(UInt8(ascii: "["))
                for (i, item) in items.enumerated() {
                    if i > 0 { out += ", ".utf8 }
                    write(item, indent: indent, into: &out)
                }
                out.append(UInt8(ascii: "]"))
                return
            }
            out += "[\n".utf8
            for (i, item) in items.enumerated() {
                pad(indent + 1, &out)
                write(item, indent: indent + 1, into: &out)
                out += (i + 1 < items.count ? ",\n" : "\n").utf8
            }
            pad(indent, &out)
            out.append(UInt8(ascii: "]"))
        case .object(let dict):
            if dict.isEmpty { out += "{}".utf8; return }
            out += "{\n".utf8
            let keys = dict.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for (i, key) in keys.enumerated() {
                pad(indent + 1, &out)
                writeString(key, into: &out)
                out += ": ".utf8
                write(dict[key] ?? .null, indent: indent + 1, into: &out)
                out += (i + 1 < keys.count ? ",\n" : "\n").utf8
            }
            pad(indent, &out)
            out.append(UInt8(ascii: "}"))
        }
    }

    static func pad(_ n: Int, _ out: inout [UInt8]) {
        out.append(contentsOf: repeatElement(0x20, count: 2 * n))
    }

    /// Integers (|d| < 2^53) without a fraction; other values in Swift's shortest round-trip form.
    /// Non-finite values have no JSON form; the model never holds them, so they trap here.
    static func formatNumber(_ d: Double) -> String {
        precondition(d.isFinite, "JSON cannot hold \(d)")
        if d == d.rounded() && abs(d) < 9_007_199_254_740_992 {
            return String(Int64(d))
        }
        return d.description
    }

    static func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(0x22)
        var s = s
        s.withUTF8 { u in
            var run = 0
            var i = 0
            func flush() { if run < i { out.append(contentsOf: UnsafeBufferPointer(rebasing: u[run..<i])) } }
            while i < u.count {
                let c = u[i]
                var escape: String?
                switch c {
                case 0x22: escape = "\\\""
                case 0x5C: escape = "\\\\"
                case 0x0A: escape = "\\n"
                case 0x0D: escape = "\\r"
                case 0x09: escape = "\\t"
                case 0x08: escape = "\\b"
                case 0x0C: escape = "\\f"
                case 0..<0x20:
                    let h = String(c, radix: 16)
                    escape = "\\u" + String(repeating: "0", count: 4 - h.count) + h
                case 0xE2 where i + 2 < u.count && u[i + 1] == 0x80 && (u[i + 2] == 0xA8 || u[i + 2] == 0xA9):
                    // U+2028 / U+2029 are valid JSON but break JavaScript readers; escape them.
                    flush()
                    out += (u[i + 2] == 0xA8 ? "\\u2028" : "\\u2029").utf8
                    i += 3; run = i
                    continue
                default: break
                }
                if let escape {
                    flush()
                    out += escape.utf8
                    run = i + 1
                }
                i += 1
            }
            flush()
        }
        out.append(0x22)
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
