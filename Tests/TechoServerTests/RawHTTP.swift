// A small HTTP/1.1 client over a POSIX socket, so tests control every byte: headers the browser
// would never send (a foreign Host), a declared length bigger than what is sent, a connection
// closed mid-body, a stream read line by line.
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

struct RawResponse {
    var status: Int
    var headers: [String: String]
    var body: [UInt8]
    var text: String { String(decoding: body, as: UTF8.self) }
    func header(_ name: String) -> String? { headers[name.lowercased()] }
}

struct RawHTTPError: Error, CustomStringConvertible {
    var description: String
}

/// One TCP connection to 127.0.0.1:port.
final class RawConnection {
    let fd: Int32
    private var buffer: [UInt8] = []

    /// `source`: the local address to connect from (any of 127.0.0.0/8 on Linux), so a test
    /// can be several clients; nil lets the kernel choose.
    init(port: UInt16, address: String = "127.0.0.1", from source: String? = nil, timeout: Double = 30) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw RawHTTPError(description: "socket failed") }
        var tv = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        if let source {
            var src = sockaddr_in()
            src.sin_family = sa_family_t(AF_INET)
            inet_pton(AF_INET, source, &src.sin_addr)
            let bound = withUnsafePointer(to: &src) { p in
                p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else { close(fd); throw RawHTTPError(description: "bind to \(source) failed: errno \(errno)") }
        }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        inet_pton(AF_INET, address, &addr.sin_addr)
        let ok = withUnsafePointer(to: &addr) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard ok == 0 else { close(fd); throw RawHTTPError(description: "connect to \(address) port \(port) failed: errno \(errno)") }
    }

    deinit { close(fd) }

    func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw RawHTTPError(description: "send failed: errno \(errno)") }
            sent += n
        }
    }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Waits until the server has read all but at most the last `unread` bytes sent so far: this
    /// socket's send queue is empty and the server's end of the connection holds no more than
    /// that unread (the kernel's table of TCP sockets, /proc/net/tcp, by the two ports). A
    /// condition to wait on where nothing the server answers says it has taken a request's head
    /// (`unread`: the body bytes sent after it, which the server may leave until it wants them).
    func waitUntilTheServerHasRead(allBut unread: Int = 0, timeout: TimeInterval = 20) throws {
        var addr = sockaddr_in()
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let got = withUnsafeMutablePointer(to: &addr) { p in p.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        var peer = sockaddr_in()
        var peerLen = socklen_t(MemoryLayout<sockaddr_in>.size)
        let gotPeer = withUnsafeMutablePointer(to: &peer) { p in p.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &peerLen) } }
        guard got == 0, gotPeer == 0 else { throw RawHTTPError(description: "getsockname/getpeername failed: errno \(errno)") }
        let mine = String(format: ":%04X", UInt16(bigEndian: addr.sin_port)), theirs = String(format: ":%04X", UInt16(bigEndian: peer.sin_port))
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            // Columns: sl, local address, remote address, state, tx_queue:rx_queue, …
            // Read to its end: a /proc file has no size, and a single read may stop at a page.
            let table = String(decoding: FileHandle(forReadingAtPath: "/proc/net/tcp")?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
            let rows = table.split(separator: "\n").map { $0.split(separator: " ") }
            func queues(local: String, remote: String) -> (tx: Int, rx: Int)? {
                guard let r = rows.first(where: { $0.count > 4 && $0[1].hasSuffix(local) && $0[2].hasSuffix(remote) }) else { return nil }
                let q = r[4].split(separator: ":").compactMap { Int($0, radix: 16) }
                return q.count == 2 ? (q[0], q[1]) : nil
            }
            if let client = queues(local: mine, remote: theirs), let server = queues(local: theirs, remote: mine), client.tx == 0, server.rx <= unread {
                return
            }
            if Date() > deadline {
                let seen =
                    "client \(String(describing: queues(local: mine, remote: theirs))), server \(String(describing: queues(local: theirs, remote: mine)))"
                throw RawHTTPError(description: "the server did not read what was sent within \(Int(timeout)) s (send and receive queues: \(seen))")
            }
            usleep(2_000)
        }
    }

    /// Reads more bytes; false at the end of the stream.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n < 0 { throw RawHTTPError(description: "receive failed or timed out: errno \(errno)") }
        if n == 0 { return false }
        buffer += chunk[0..<n]
        return true
    }

    /// One line without its CRLF (or LF).
    func readLine() throws -> String? {
        while true {
            if let i = buffer.firstIndex(of: 10) {
                var line = Array(buffer[..<i])
                buffer.removeFirst(i + 1)
                if line.last == 13 { line.removeLast() }
                return String(decoding: line, as: UTF8.self)
            }
            if try !fill() { return nil }
        }
    }

    func read(count: Int) throws -> [UInt8] {
        while buffer.count < count { if try !fill() { throw RawHTTPError(description: "connection closed early") } }
        let out = Array(buffer[..<count])
        buffer.removeFirst(count)
        return out
    }

    /// The status line and headers.
    func readHead() throws -> (Int, [String: String]) {
        guard let status = try readLine() else { throw RawHTTPError(description: "connection closed before a response") }
        let parts = status.split(separator: " ")
        guard parts.count >= 2, let code = Int(parts[1]) else { throw RawHTTPError(description: "bad status line '\(status)'") }
        var headers: [String: String] = [:]
        while let line = try readLine(), !line.isEmpty {
            if let c = line.firstIndex(of: ":") {
                headers[line[..<c].lowercased()] = line[line.index(after: c)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return (code, headers)
    }

    /// A whole response (Content-Length or chunked body).
    func readResponse() throws -> RawResponse {
        let (code, headers) = try readHead()
        var body: [UInt8] = []
        if let n = headers["content-length"].flatMap({ Int($0) }) {
            body = try read(count: n)
        } else if headers["transfer-encoding"]?.lowercased() == "chunked" {
            while let sizeLine = try readLine(), let size = Int(sizeLine.split(separator: ";")[0], radix: 16) {
                if size == 0 { _ = try readLine(); break }
                body += try read(count: size)
                _ = try readLine()
            }
        }
        return RawResponse(status: code, headers: headers, body: body)
    }
}

/// Requests to a test server.
struct Client {
    var port: UInt16
    var token: String?
    var host: String?

    func request(_ method: String, _ path: String, body: [UInt8] = [], headers: [String: String] = [:]) throws -> RawResponse {
        let c = try RawConnection(port: port)
        try c.send(head(method, path, length: body.isEmpty && method == "GET" ? nil : body.count, headers: headers) + body)
        return try c.readResponse()
    }

    func head(_ method: String, _ path: String, length: Int?, headers: [String: String] = [:]) -> [UInt8] {
        var lines = ["\(method) \(path) HTTP/1.1", "Host: \(host ?? "127.0.0.1:\(port)")", "Connection: close"]
        if let token { lines.append("X-Techo-Token: \(token)") }
        if let length { lines.append("Content-Length: \(length)") }
        for (k, v) in headers.sorted(by: { $0.key < $1.key }) { lines.append("\(k): \(v)") }
        return Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }

    func get(_ path: String) throws -> RawResponse { try request("GET", path) }

    func post(_ path: String, json: String, headers: [String: String] = [:]) throws -> RawResponse {
        try request("POST", path, body: Array(json.utf8), headers: ["Content-Type": "application/json"].merging(headers) { $1 })
    }
}
