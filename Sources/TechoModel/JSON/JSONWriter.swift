// A deterministic JSON writer: sorted keys, two-space indentation, integers without ".0",
// shortest round-trip doubles, arrays of scalars on one line, a trailing newline.

extension JSONValue {
    /// The value as pretty-printed JSON text ending in a newline; the same value always gives the
    /// same bytes.
    public func serialized() -> String {
        var out = ""
        out.reserveCapacity(256)
        JSONWriter.write(self, indent: 0, into: &out)
        out += "\n"
        return out
    }

    /// `serialized()` as UTF-8 bytes.
    public func serializedBytes() -> [UInt8] { Array(serialized().utf8) }
}

enum JSONWriter {
    static func write(_ v: JSONValue, indent: Int, into out: inout String) {
        switch v {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let d): out += formatNumber(d)
        case .string(let s): writeString(s, into: &out)
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            if items.allSatisfy(\.isScalar) {
                out += "["
                for (i, item) in items.enumerated() {
                    if i > 0 { out += ", " }
                    write(item, indent: indent, into: &out)
                }
                out += "]"
                return
            }
            out += "[\n"
            for (i, item) in items.enumerated() {
                pad(indent + 1, &out)
                write(item, indent: indent + 1, into: &out)
                out += i + 1 < items.count ? ",\n" : "\n"
            }
            pad(indent, &out)
            out += "]"
        case .object(let dict):
            if dict.isEmpty { out += "{}"; return }
            out += "{\n"
            let keys = dict.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for (i, key) in keys.enumerated() {
                pad(indent + 1, &out)
                writeString(key, into: &out)
                out += ": "
                write(dict[key] ?? .null, indent: indent + 1, into: &out)
                out += i + 1 < keys.count ? ",\n" : "\n"
            }
            pad(indent, &out)
            out += "}"
        }
    }

    static func pad(_ n: Int, _ out: inout String) {
        for _ in 0..<n { out += "  " }
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

    static func writeString(_ s: String, into out: inout String) {
        out += "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                if u.value < 0x20 || u.value == 0x2028 || u.value == 0x2029 {
                    let h = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - h.count) + h
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        out += "\""
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
