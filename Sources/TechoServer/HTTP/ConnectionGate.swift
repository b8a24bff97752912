// The door in front of libmicrohttpd. One thread accepts every connection and holds it, in one
// poll set, until its request head is whole (RequestHead); it answers a bad head or a request
// the editor refuses (no token, a foreign Host) with JSON itself, and hands only the rest to the
// library (MHD_add_connection), which reads the same bytes again: the head is read with
// MSG_PEEK and left in the socket. So a connection without the token never takes one of the
// library's connection threads, however many there are or however slowly they send.
//
// What bounds the heads that are waiting: a deadline from the moment the connection was
// accepted, which bytes do not extend; a head size limit; and a limit on waiting connections
// per client address and in all, past which the oldest waiting one is closed to make room for
// the new one (a client sends its head at once, so it is served long before it is the oldest).
// While a head is incomplete, SO_RCVLOWAT is set one byte past what has arrived, so poll wakes
// only when there is more to read, never for bytes already looked at.
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Holds new connections until their request heads are read and screened.
final class ConnectionGate: @unchecked Sendable {
    /// How long and how many heads may wait.
    struct Limits: Sendable {
        /// Seconds from accepting a connection to its whole head; bytes do not extend it. Default 10.
        var headSeconds = 10.0
        /// Longest head, in bytes. Default `RequestHead.defaultLimit` (16 KiB).
        var headBytes = RequestHead.defaultLimit
        /// Connections waiting for their head, from one address. Default 64.
        var waitingPerAddress = 64
        /// Connections waiting for their head, in all. Default 512.
        var waiting = 512
    }

    /// What becomes of a connection whose head was read.
    enum Decision {
        /// Answer this and close.
        case answer(HTTPResponse)
        /// Hand the connection over (the gate no longer owns the socket).
        case handOver
    }

    /// A connection waiting for its head.
    struct Waiting {
        var fd: Int32
        var address: sockaddr_storage
        var addressLength: socklen_t
        /// The address without the port, to count connections by.
        var key: [UInt8]
        var deadline: Double
    }

    /// POLLRDHUP (the peer shut its side), which Glibc declares only for _GNU_SOURCE.
    static let pollReadHangUp: Int16 = 0x2000

    let listener: Int32
    let limits: Limits
    /// The connections speak TLS (HTTPS): the head is encrypted, so the gate waits for the
    /// client's first TLS record (its ClientHello) whole and hands the connection over; the
    /// library screens the head after the handshake (HTTPDaemon).
    let tls: Bool
    /// Hands a TLS connection over without a head (the gate no longer owns the socket).
    let handOverTLS: (Int32, UnsafePointer<sockaddr>, socklen_t) -> Void
    /// Screens a complete head: refuse, or hand over (`fd`, address) to the library.
    let decide: (HTTPRequest, Int32, UnsafePointer<sockaddr>, socklen_t) -> Decision
    /// The JSON answer to a head that cannot be served.
    let refuse: (_ method: String, _ target: String, _ status: Int, _ message: String) -> HTTPResponse
    private var waiting: [Waiting] = []
    private var wake: [Int32] = [-1, -1]
    private let finished = DispatchSemaphore(value: 0)
    private var running = false
    private let statsLock = NSLock()
    private var counts = (handedOver: 0, refused: 0, timedOut: 0, evicted: 0)

    init(
        listener: Int32, limits: Limits, decide: @escaping (HTTPRequest, Int32, UnsafePointer<sockaddr>, socklen_t) -> Decision,
        refuse: @escaping (String, String, Int, String) -> HTTPResponse, tls: Bool = false,
        handOverTLS: @escaping (Int32, UnsafePointer<sockaddr>, socklen_t) -> Void = { fd, _, _ in close(fd) }
    ) {
        self.listener = listener
        self.limits = limits
        self.tls = tls
        self.handOverTLS = handOverTLS
        self.decide = decide
        self.refuse = refuse
    }

    /// Connections handed over, answered by the gate, timed out and closed to make room.
    var statistics: (handedOver: Int, refused: Int, timedOut: Int, evicted: Int) {
        statsLock.lock()
        defer { statsLock.unlock() }
        return counts
    }

    func start() {
        precondition(!running, "ConnectionGate.start called twice")
        guard pipe(&wake) == 0 else { preconditionFailure("ConnectionGate: pipe failed: errno \(errno)") }
        running = true
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.name = "techo-serve-gate"
        thread.start()
    }

    /// Stops accepting, closes every waiting connection and the listening socket. Safe to call twice.
    func stop() {
        guard running else { return }
        running = false
        var one: UInt8 = 1
        _ = write(wake[1], &one, 1)
        finished.wait()
        for w in waiting { close(w.fd) }
        waiting = []
        close(listener)
        close(wake[0])
        close(wake[1])
    }

    // MARK: The loop

    static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    private func run() {
        var buffer = [UInt8](repeating: 0, count: limits.headBytes)
        var listenerPausedUntil = 0.0
        while true {
            let now = ConnectionGate.now()
            var fds = [pollfd(fd: wake[0], events: Int16(POLLIN), revents: 0)]
            fds.append(pollfd(fd: now >= listenerPausedUntil ? listener : -1, events: Int16(POLLIN), revents: 0))
            for w in waiting { fds.append(pollfd(fd: w.fd, events: Int16(POLLIN) | ConnectionGate.pollReadHangUp, revents: 0)) }
            var timeout = 1000.0
            if let next = waiting.map(\.deadline).min() { timeout = min(timeout, max(0, (next - now) * 1000) + 1) }
            if listenerPausedUntil > now { timeout = min(timeout, (listenerPausedUntil - now) * 1000 + 1) }
            let ready = poll(&fds, nfds_t(fds.count), Int32(timeout))
            if ready < 0 {
                // EINTR, or a shortage (ENOMEM) that may pass: look again shortly, never give up.
                if errno != EINTR { usleep(10_000) }
                continue
            }
            if fds[0].revents != 0 { break }
            var gone = Set<Int32>()
            for (k, w) in waiting.enumerated() where fds[k + 2].revents != 0 {
                if look(at: w, events: fds[k + 2].revents, buffer: &buffer) { gone.insert(w.fd) }
            }
            let later = ConnectionGate.now()
            for w in waiting where !gone.contains(w.fd) && w.deadline <= later {
                count(\.timedOut)
                if tls {
                    close(w.fd)  // no plain-text answer to a TLS client
                } else {
                    answer(w.fd, refuse("", "", 408, "the request's head did not arrive within \(numberText(limits.headSeconds)) seconds"))
                }
                gone.insert(w.fd)
            }
            if !gone.isEmpty { waiting.removeAll { gone.contains($0.fd) } }
            if fds[1].revents != 0, !accept(&listenerPausedUntil) { break }
        }
    }

    private func count(_ key: WritableKeyPath<(handedOver: Int, refused: Int, timedOut: Int, evicted: Int), Int>) {
        statsLock.lock()
        counts[keyPath: key] += 1
        statsLock.unlock()
    }

    /// Looks at what a waiting connection has sent; true when the gate is done with it.
    private func look(at w: Waiting, events: Int16, buffer: inout [UInt8]) -> Bool {
        let n = buffer.withUnsafeMutableBytes { recv(w.fd, $0.baseAddress, $0.count, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT)) }
        if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { return false }
        if n <= 0 {
            close(w.fd)
            return true
        }
        if tls { return lookTLS(at: w, events: events, buffer: buffer, count: n) }
        switch RequestHead.parse(Array(buffer[..<n]), limit: limits.headBytes) {
        case .incomplete:
            if events & (ConnectionGate.pollReadHangUp | Int16(POLLHUP) | Int16(POLLERR)) != 0 {
                close(w.fd)
                return true
            }
            var low = Int32(n + 1)
            setsockopt(w.fd, SOL_SOCKET, SO_RCVLOWAT, &low, socklen_t(MemoryLayout<Int32>.size))
            return false
        case .refused(let status, let message, let method, let target):
            count(\.refused)
            answer(w.fd, refuse(method, target, status, message))
            return true
        case .complete(let request, _):
            var low: Int32 = 1
            setsockopt(w.fd, SOL_SOCKET, SO_RCVLOWAT, &low, socklen_t(MemoryLayout<Int32>.size))
            var address = w.address
            let decision = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { decide(request, w.fd, $0, w.addressLength) }
            }
            switch decision {
            case .answer(let response):
                count(\.refused)
                answer(w.fd, response)
            case .handOver:
                count(\.handedOver)
            }
            return true
        }
    }

    /// `look` for a TLS connection: the first record whole (a handshake record: type 22, a
    /// 3.x version, its length) hands it over; plain HTTP sent to it is told to use https.
    private func lookTLS(at w: Waiting, events: Int16, buffer: [UInt8], count n: Int) -> Bool {
        if buffer[0] != 22 {
            if (65...90).contains(buffer[0]) {  // an HTTP method's first letter
                count(\.refused)
                answer(w.fd, refuse("", "", 400, "this server speaks HTTPS: open the https:// URL techo serve printed"))
            } else {
                close(w.fd)
            }
            return true
        }
        let whole = n >= 5 ? min(buffer.count, 5 + (Int(buffer[3]) << 8 | Int(buffer[4]))) : 5
        if n < whole || (n >= 2 && buffer[1] != 3) {
            if n >= 2 && buffer[1] != 3 || events & (ConnectionGate.pollReadHangUp | Int16(POLLHUP) | Int16(POLLERR)) != 0 {
                close(w.fd)
                return true
            }
            var low = Int32(n < 5 ? n + 1 : whole)
            setsockopt(w.fd, SOL_SOCKET, SO_RCVLOWAT, &low, socklen_t(MemoryLayout<Int32>.size))
            return false
        }
        var low: Int32 = 1
        setsockopt(w.fd, SOL_SOCKET, SO_RCVLOWAT, &low, socklen_t(MemoryLayout<Int32>.size))
        var address = w.address
        withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { handOverTLS(w.fd, $0, w.addressLength) } }
        count(\.handedOver)
        return true
    }

    /// Accepts what is waiting on the listening socket; false when it is gone.
    private func accept(_ pausedUntil: inout Double) -> Bool {
        for _ in 0..<64 {
            var address = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let fd = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.accept(listener, $0, &length) }
            }
            if fd >= 0 {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
            if fd < 0 {
                switch errno {
                case EAGAIN, EWOULDBLOCK, EINTR, ECONNABORTED: return true
                case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                    // Out of descriptors: make room by closing the oldest head still waiting,
                    // or stop accepting for a moment.
                    if !waiting.isEmpty { evict(at: 0) } else { pausedUntil = ConnectionGate.now() + 0.1 }
                    return true
                case EBADF, EINVAL, ENOTSOCK: return false  // the listening socket is gone
                default: return true  // this one connection failed (a firewall's EPERM, EPROTO)
                }
            }
            let key = ConnectionGate.key(of: address)
            if waiting.filter({ $0.key == key }).count >= limits.waitingPerAddress, let oldest = waiting.firstIndex(where: { $0.key == key }) {
                evict(at: oldest)
            }
            if waiting.count >= limits.waiting { evict(at: 0) }
            waiting.append(Waiting(fd: fd, address: address, addressLength: length, key: key, deadline: ConnectionGate.now() + limits.headSeconds))
        }
        return true
    }

    private func evict(at index: Int) {
        close(waiting[index].fd)
        waiting.remove(at: index)
        count(\.evicted)
    }

    /// The address of `storage` without its port.
    static func key(of storage: sockaddr_storage) -> [UInt8] {
        var s = storage
        return withUnsafeBytes(of: &s) { raw -> [UInt8] in
            if storage.ss_family == sa_family_t(AF_INET6) {
                return Array(raw[8..<24])  // sin6_addr
            }
            return Array(raw[4..<8])  // sin_addr
        }
    }

    /// Sends `response` as far as the socket takes it at once, then closes the connection. What
    /// the client sent is read away first, so the close is a FIN and not a reset that could
    /// destroy the answer before the client reads it.
    private func answer(_ fd: Int32, _ response: HTTPResponse) {
        let bytes = ConnectionGate.serialize(response)
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
        shutdown(fd, Int32(SHUT_WR))
        var sink = [UInt8](repeating: 0, count: 65536)
        for _ in 0..<4 {
            let n = sink.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n <= 0 { break }
        }
        close(fd)
    }

    /// A response as HTTP/1.1 bytes; the connection closes after it.
    static func serialize(_ response: HTTPResponse) -> [UInt8] {
        var body: [UInt8] = []
        if case .bytes(let b) = response.body { body = b }
        var head = "HTTP/1.1 \(response.status) \(reason(response.status))\r\n"
        for (name, value) in response.headers where name.lowercased() != "connection" && name.lowercased() != "content-length" {
            head += "\(name): \(value)\r\n"
        }
        head += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        return Array(head.utf8) + body
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 400: return "Bad Request"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 408: return "Request Timeout"
        case 411: return "Length Required"
        case 413: return "Content Too Large"
        case 431: return "Request Header Fields Too Large"
        case 503: return "Service Unavailable"
        case 505: return "HTTP Version Not Supported"
        default: return "Error"
        }
    }
}
