// The request line and headers as the bytes arrive, read by the server itself before
// libmicrohttpd sees the connection (ConnectionGate): strictly, after RFC 9112, so that what
// the library parses next is a head this parser accepted. Whatever is refused here is refused
// with the contract's JSON (the library's own refusals are HTML pages and have no hook).
// A complete head becomes the same HTTPRequest the routes see, through the same strict
// decoding of the path and query (RequestTarget) and the same check of repeated headers.
import Foundation

/// Parsing of a request head from raw bytes.
public enum RequestHead {
    /// What a prefix of a connection's bytes is.
    public enum Outcome {
        /// No blank line yet, and nothing wrong so far.
        case incomplete
        /// A whole head (`length` bytes, blank line included) and the request it makes
        /// (with an empty body).
        case complete(HTTPRequest, length: Int)
        /// A head that will never be served: the status and message of the JSON answer, with
        /// the method and target as sent (for the log), when they could be read.
        case refused(status: Int, message: String, method: String, target: String)
    }

    /// Longest head read, in bytes (request line and headers). Default 16 KiB.
    public static let defaultLimit = 16 * 1024
    /// Most header lines.
    static let maxHeaders = 100

    /// Reads `bytes`, the start of what a connection sent.
    /// - Complexity: O(n) in the bytes looked at (at most `limit`).
    public static func parse(_ bytes: [UInt8], limit: Int = defaultLimit) -> Outcome {
        let end = terminator(in: bytes, limit: limit)
        let head = bytes[..<(end ?? min(bytes.count, limit))]
        // A byte no head may hold is refused at once, without waiting for the rest.
        if let bad = head.firstIndex(where: { ($0 < 0x20 && $0 != 0x0D && $0 != 0x0A && $0 != 0x09) || $0 == 0x7F }) {
            return refuse(400, "the request has a control character (byte \(head[bad])) in its head", head)
        }
        guard let end else {
            if bytes.count >= limit { return refuse(431, "the request's headers are over the limit of \(limit) bytes", head) }
            return .incomplete
        }
        var lines: [ArraySlice<UInt8>] = []
        var start = head.startIndex
        var i = head.startIndex
        while i < head.endIndex {
            if head[i] == 0x0D {
                guard i + 1 < head.endIndex, head[i + 1] == 0x0A else { return refuse(400, "a CR in the request's head is not followed by LF", head) }
                lines.append(head[start..<i])
                i += 2
                start = i
            } else if head[i] == 0x0A {
                return refuse(400, "a line of the request's head ends in LF without CR", head)
            } else {
                i += 1
            }
        }
        lines.append(head[start..<head.endIndex])
        return parse(lines: lines, length: end + 4, head: head)
    }

    /// Where the blank line that ends the head starts, if it is within `limit` bytes.
    static func terminator(in bytes: [UInt8], limit: Int) -> Int? {
        let n = min(bytes.count, limit)
        guard n >= 4 else { return nil }
        for i in 0...(n - 4) where bytes[i] == 0x0D && bytes[i + 1] == 0x0A && bytes[i + 2] == 0x0D && bytes[i + 3] == 0x0A { return i }
        return nil
    }

    static func parse(lines: [ArraySlice<UInt8>], length: Int, head: ArraySlice<UInt8>) -> Outcome {
        guard let first = lines.first else { return refuse(400, "the request has no request line", head) }
        let parts = first.split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 3 else { return refuse(400, "the request line must be METHOD TARGET HTTP/1.1", head) }
        let method = String(decoding: parts[0], as: UTF8.self)
        let target = String(decoding: parts[1], as: UTF8.self)
        let version = String(decoding: parts[2], as: UTF8.self)
        func no(_ status: Int, _ message: String) -> Outcome { .refused(status: status, message: message, method: method, target: target) }
        guard (1...16).contains(parts[0].count), parts[0].allSatisfy({ (0x41...0x5A).contains($0) }) else {
            return no(400, "the request's method is not a method")
        }
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else { return no(505, "only HTTP/1.1 and HTTP/1.0 are served") }
        guard parts[1].first == UInt8(ascii: "/"), parts[1].allSatisfy({ (0x21...0x7E).contains($0) }) else {
            return no(400, "the request target must be a path starting with / and of visible ASCII characters")
        }
        guard lines.count - 1 <= maxHeaders else { return no(431, "the request has more than \(maxHeaders) headers") }
        var headers: [(String, String)] = []
        for line in lines.dropFirst() {
            if line.first == 0x20 || line.first == 0x09 { return no(400, "a header is folded over two lines") }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return no(400, "a header line has no ':'") }
            let name = line[..<colon]
            guard !name.isEmpty, name.allSatisfy(isTokenByte) else { return no(400, "a header's name is not a token") }
            var value = line[(colon + 1)...]
            while let f = value.first, f == 0x20 || f == 0x09 { value = value.dropFirst() }
            while let l = value.last, l == 0x20 || l == 0x09 { value = value.dropLast() }
            headers.append((String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self)))
        }
        let named = { (n: String) in headers.filter { $0.0.lowercased() == n }.map(\.1) }
        if version == "HTTP/1.1" && named("host").isEmpty { return no(400, "the request has no Host header") }
        if !named("transfer-encoding").isEmpty {
            return no(411, "send the body with a Content-Length (Transfer-Encoding is not accepted)")
        }
        for length in named("content-length") where !(1...15).contains(length.count) || !length.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
            return no(400, "Content-Length: expected a number of bytes, got '\(length)'")
        }
        let pathEnd = target.firstIndex(of: "?") ?? target.endIndex
        var query: [(String, String)] = []
        if pathEnd < target.endIndex {
            for pair in target[target.index(after: pathEnd)...].split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let plus = { (s: Substring) in s.replacingOccurrences(of: "+", with: " ") }
                query.append((plus(kv[0]), kv.count > 1 ? plus(kv[1]) : ""))
            }
        }
        var cookies: [(String, String)] = []
        for header in named("cookie") {
            for part in header.split(separator: ";") {
                let kv = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                if kv.count == 2 { cookies.append((kv[0], kv[1])) }
            }
        }
        do {
            let request = try HTTPRequest(
                method: method, rawPath: String(target[..<pathEnd]), rawQuery: query, headers: headers, cookies: cookies)
            return .complete(request, length: length)
        } catch let e as MalformedRequest {
            return no(400, e.message)
        } catch {
            return no(400, "\(error)")
        }
    }

    /// RFC 9110's `tchar`.
    static func isTokenByte(_ b: UInt8) -> Bool {
        switch b {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
        default: return Array("!#$%&'*+-.^_`|~".utf8).contains(b)
        }
    }

    /// A refusal before the request line could be read whole: the method and target are what
    /// the first line holds, if anything.
    static func refuse(_ status: Int, _ message: String, _ head: ArraySlice<UInt8>) -> Outcome {
        let line = head.prefix { $0 != 0x0D && $0 != 0x0A }.prefix(512)
        let parts = line.split(separator: 0x20, maxSplits: 2, omittingEmptySubsequences: false)
        let method = parts.first.map { String(decoding: $0.prefix(16), as: UTF8.self) } ?? ""
        let target = parts.count > 1 ? String(decoding: parts[1], as: UTF8.self) : ""
        return .refused(status: status, message: message, method: method, target: target)
    }
}
