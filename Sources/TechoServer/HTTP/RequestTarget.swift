// A request's path and query arguments decoded from the bytes the client sent, strictly: the
// daemon hands them over undecoded (its unescape callback leaves them as they are) and this is
// the one place they are decoded. A path is taken exactly as sent or refused: a NUL or any other
// control byte, an encoded slash, a `.` or `..` segment (sent or encoded), a bad escape or bytes
// that are not UTF-8 are a 400, never a shorter or different path.
import Foundation

/// Why a request was refused before it was screened: the message of its 400.
struct MalformedRequest: Error, Equatable {
    var message: String
    init(_ message: String) { self.message = message }
}

/// Strict percent-decoding of request targets.
enum RequestTarget {
    /// The decoded path of a raw path (the part of the target before `?`).
    /// - Throws: `MalformedRequest` for anything that would make the decoded path differ from the sent
    ///   one in more than its escapes.
    static func path(_ raw: String) throws -> String {
        let bytes = Array(raw.utf8)
        guard bytes.first == UInt8(ascii: "/") else { throw MalformedRequest("the path must start with /") }
        var segments: [String] = []
        for segment in bytes.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
            let decoded = try decode(Array(segment), what: "the path")
            if decoded.contains(UInt8(ascii: "/")) { throw MalformedRequest("the path has an encoded slash (%2F)") }
            if decoded == [0x2E] || decoded == [0x2E, 0x2E] { throw MalformedRequest("the path has a '.' or '..' segment") }
            guard let text = String(validating: decoded, as: UTF8.self) else { throw MalformedRequest("the path is not UTF-8") }
            segments.append(text)
        }
        return "/" + segments.joined(separator: "/")
    }

    /// One query argument's name or value, as the daemon split it (a `+` is already a space).
    static func component(_ raw: String, name: String) throws -> String {
        let decoded = try decode(Array(raw.utf8), what: "query argument '\(name)'")
        guard let text = String(validating: decoded, as: UTF8.self) else { throw MalformedRequest("query argument '\(name)' is not UTF-8") }
        return text
    }

    /// `%HH` escapes become bytes; a control byte, sent or encoded, or a bad escape is refused.
    static func decode(_ bytes: [UInt8], what: String) throws -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            var b = bytes[i]
            if b == UInt8(ascii: "%") {
                guard i + 2 < bytes.count, let hi = hex(bytes[i + 1]), let lo = hex(bytes[i + 2]) else {
                    throw MalformedRequest("\(what) has a '%' that is not followed by two hex digits")
                }
                b = hi << 4 | lo
                i += 3
            } else {
                i += 1
            }
            if b < 0x20 || b == 0x7F { throw MalformedRequest("\(what) has a control character (byte \(b))") }
            out.append(b)
        }
        return out
    }

    static func hex(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
