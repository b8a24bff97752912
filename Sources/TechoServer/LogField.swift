// What a request carries, as the log shows it. Log lines go to stderr one per line, so a field
// that could hold a line break could write a line of its own; every field from a request passes
// through here first.
import Foundation

/// Escaping of request text for the log.
enum LogField {
    /// `text` with every control character (C0, DEL, C1, U+2028 and U+2029) written as `\xHH` or
    /// `\u{HHHH}`, and every backslash as `\\`, so the escapes cannot be forged either.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x5C: out += "\\\\"
            case 0..<0x20, 0x7F: out += String(format: "\\x%02x", scalar.value)
            case 0x80..<0xA0, 0x2028, 0x2029: out += String(format: "\\u{%04x}", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
