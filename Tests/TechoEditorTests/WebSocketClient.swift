// A WebSocket client for the browser tests (RFC 6455, text frames only): the opening handshake
// over a plain TCP socket to 127.0.0.1, masked frames out, unmasked frames in, fragments joined,
// pings answered. Enough for WebDriver BiDi, which sends one JSON message per text frame.

import Foundation

#if canImport(Glibc)
    import Glibc
#endif

final class WebSocketClient: @unchecked Sendable {
    private let fd: Int32
    private let writeLock = NSLock()
    private var pending = [UInt8]()

    /// Connects to `ws://127.0.0.1:port/path` and completes the opening handshake.
    init(port: Int, path: String) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw DevToolsError(description: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard rc == 0 else {
            let message = String(cString: strerror(errno))
            Glibc.close(fd)
            throw DevToolsError(description: "connect to 127.0.0.1:\(port): \(message)")
        }
        let key = Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        let request =
            "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n\r\n"
        try writeAll(Array(request.utf8))
        // The answer's head ends with an empty line; anything after it is already frames.
        while true {
            if let end = pending.indices.dropLast(3).first(where: { pending[$0..<$0 + 4].elementsEqual([13, 10, 13, 10]) }) {
                let head = String(decoding: pending[0..<end], as: UTF8.self)
                pending.removeSubrange(0..<end + 4)
                guard head.hasPrefix("HTTP/1.1 101") else {
                    Glibc.close(fd)
                    throw DevToolsError(description: "WebSocket handshake refused: \(head)")
                }
                break
            }
            guard try fill() else {
                Glibc.close(fd)
                throw DevToolsError(description: "WebSocket handshake: the server closed the connection")
            }
        }
    }

    /// Closes the socket (the reader then sees the end).
    func close() {
        shutdown(fd, Int32(SHUT_RDWR))
        Glibc.close(fd)
    }

    /// Sends one text message.
    func send(_ text: String) throws {
        let payload = [UInt8](text.utf8)
        try sendFrame(opcode: 1, payload)
    }

    /// The next text message, or nil once the connection has ended.
    func receive() throws -> String? {
        var message = [UInt8]()
        while true {
            guard let (fin, opcode, payload) = try readFrame() else { return nil }
            switch opcode {
            case 0x8: return nil
            case 0x9: try sendFrame(opcode: 0xA, payload)
            case 0xA: continue
            default:
                message += payload
                if fin { return String(decoding: message, as: UTF8.self) }
            }
        }
    }

    private func sendFrame(opcode: UInt8, _ payload: [UInt8]) throws {
        var frame: [UInt8] = [0x80 | opcode]
        let n = payload.count
        if n < 126 {
            frame.append(0x80 | UInt8(n))
        } else if n < 65536 {
            frame += [0x80 | 126, UInt8(n >> 8), UInt8(n & 0xff)]
        } else {
            frame.append(0x80 | 127)
            for shift in stride(from: 56, through: 0, by: -8) { frame.append(UInt8((UInt64(n) >> UInt64(shift)) & 0xff)) }
        }
        let mask = (0..<4).map { _ in UInt8.random(in: 0...255) }
        frame += mask
        frame += payload.enumerated().map { $1 ^ mask[$0 & 3] }
        writeLock.lock()
        defer { writeLock.unlock() }
        try writeAll(frame)
    }

    private func readFrame() throws -> (Bool, UInt8, [UInt8])? {
        guard try need(2) else { return nil }
        let fin = pending[0] & 0x80 != 0, opcode = pending[0] & 0x0f
        var length = Int(pending[1] & 0x7f), header = 2
        if length == 126 {
            guard try need(4) else { return nil }
            length = Int(pending[2]) << 8 | Int(pending[3])
            header = 4
        } else if length == 127 {
            guard try need(10) else { return nil }
            length = pending[2..<10].reduce(0) { $0 << 8 | Int($1) }
            header = 10
        }
        // A server never masks its frames (RFC 6455 §5.1).
        guard try need(header + length) else { return nil }
        let payload = Array(pending[header..<header + length])
        pending.removeSubrange(0..<header + length)
        return (fin, opcode, payload)
    }

    private func need(_ count: Int) throws -> Bool {
        while pending.count < count { guard try fill() else { return false } }
        return true
    }

    private func fill() throws -> Bool {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            pending += buffer[0..<n]
            return true
        }
    }

    private func writeAll(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw DevToolsError(description: "WebSocket write: \(String(cString: strerror(errno)))") }
            offset += n
        }
    }
}
