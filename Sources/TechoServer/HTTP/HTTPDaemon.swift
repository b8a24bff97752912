// The HTTP server: GNU libmicrohttpd with a thread per connection (so a render or a held-open
// event stream blocks only its own connection), after the library's own examples: one access
// handler per request, called first with the headers, then once per chunk of the body, then
// once more when the body is complete. Bodies are counted against their limit as they arrive
// and refused with 413 at once; a route runs only when its body is whole, so a client that
// disconnects mid-upload leaves nothing behind. C calls back into Swift through @convention(c)
// closures that get this object back from an Unmanaged context pointer. The library listens on
// nothing itself: this object owns the listening socket, and ConnectionGate reads and screens
// each connection's head before handing it over, so the library serves token holders only.
import CLibMicroHTTPD
import CTechoLazy
import Foundation
import TechoCodecs

#if canImport(Glibc)
    import Glibc
#endif

/// What decides about requests: first from the headers alone, then with the body.
public protocol HTTPHandler: AnyObject, Sendable {
    /// Called with the headers (the body is empty). Returns a response to send now without
    /// reading the body (a refusal), or nil to read a body of at most `bodyLimit` bytes.
    func screen(_ request: HTTPRequest) -> (refusal: HTTPResponse?, bodyLimit: Int)
    /// Called when the body is complete.
    func respond(to request: HTTPRequest) -> HTTPResponse
    /// Called for a request refused before `screen` because its request line or headers are
    /// malformed (`target` as sent): the answer, a JSON error with `status`.
    func malformed(method: String, target: String, status: Int, message: String) -> HTTPResponse
}

/// A failure to start listening.
public struct ServerStartError: Error, CustomStringConvertible {
    public var description: String
}

/// A running libmicrohttpd daemon.
public final class HTTPDaemon: @unchecked Sendable {
    /// Connection limits and timeouts.
    public struct Limits: Sendable {
        /// Requests served at once (each connection has a thread; it serves one request, so
        /// this counts requests, event streams included). Default 128; past it the answer is 503.
        /// (A closed connection is counted until the library has cleaned it up.)
        public var connections: UInt32 = 128
        /// Seconds a served connection may stay idle. Default 60 (event streams write every 15 s).
        public var idleTimeout: UInt32 = 60
        /// Memory libmicrohttpd may use per connection for headers and buffers. Default 64 KiB.
        public var connectionMemory = 64 * 1024
        /// Seconds from accepting a connection to its whole request head. Default 10.
        public var headSeconds = 10.0
        /// Connections waiting for their head from one address. Default 64.
        public var waitingPerAddress = 64
        /// Connections waiting for their head in all. Default 512.
        public var waiting = 512
        /// Bytes of request bodies held at once, all connections together (each request reserves
        /// its Content-Length when its head is screened; past it the answer is 503). Default
        /// 768 MiB: the largest upload and room for everything else.
        public var bodyBytes = 768 << 20
        /// With TLS: connections from one address at once (the gate cannot read an encrypted
        /// head, so the library holds a connection from its handshake on). Default 16.
        public var tlsConnectionsPerAddress: UInt32 = 16
        public init() {}
    }

    /// A certificate chain and its private key, PEM, for HTTPS.
    public struct TLSCredentials: Sendable {
        public var certificate: [UInt8]
        public var key: [UInt8]
        public init(certificate: [UInt8], key: [UInt8]) { self.certificate = certificate; self.key = key }
    }

    /// The port it listens on (the chosen one when asked for port 0).
    public private(set) var port: UInt16 = 0
    /// It speaks HTTPS.
    public let tls: Bool
    let handler: HTTPHandler
    let limits: Limits
    private var daemon: OpaquePointer?
    private var gate: ConnectionGate?
    private let lock = NSCondition()
    private var inFlight = 0
    /// Connections handed to libmicrohttpd and not yet closed.
    private var served = 0
    /// Body bytes reserved by the requests being received or answered.
    private var bodyBytesReserved = 0

    /// Starts listening on `host` (an IPv4 or IPv6 literal) and `port` (0: any free port); with
    /// `dualStack`, an IPv6 `host` (`::`) takes IPv4 connections too.
    /// With `tls`, it speaks HTTPS only.
    public init(
        host: String, port: UInt16, limits: Limits = Limits(), dualStack: Bool = false, tls credentials: TLSCredentials? = nil, handler: HTTPHandler
    ) throws {
        self.handler = handler
        self.limits = limits
        self.tls = credentials != nil
        if let why = LazyLibraries.missing([TECHO_LAZY_MICROHTTPD]) { throw ServerStartError(description: why) }
        let listener = try HTTPDaemon.listen(host: host, port: port, dualStack: dualStack)
        let flags = UInt32(
            MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_THREAD_PER_CONNECTION.rawValue
                | MHD_USE_ITC.rawValue | MHD_USE_POLL.rawValue | MHD_USE_NO_LISTEN_SOCKET.rawValue)
        let context = Unmanaged.passUnretained(self).toOpaque()
        let started: OpaquePointer?
        if let credentials {
            // Until its head is in, a TLS connection may idle only as long as a head may take at
            // the gate; the access handler then gives it the usual idle timeout.
            let headTimeout = UInt32(max(1, limits.headSeconds.rounded(.up)))
            started = techo_mhd_start_tls(
                flags, HTTPDaemon.access, HTTPDaemon.completed, HTTPDaemon.notify, HTTPDaemon.keepEscapes, context,
                limits.connections * 2, headTimeout, limits.connectionMemory, limits.tlsConnectionsPerAddress,
                String(decoding: credentials.certificate, as: UTF8.self), String(decoding: credentials.key, as: UTF8.self))
        } else {
            started = techo_mhd_start(
                flags, HTTPDaemon.access, HTTPDaemon.completed, HTTPDaemon.notify, HTTPDaemon.keepEscapes, context,
                limits.connections * 2, limits.idleTimeout, limits.connectionMemory)
        }
        guard let started else {
            close(listener.fd)
            throw ServerStartError(
                description: credentials == nil
                    ? "libmicrohttpd did not start"
                    : "HTTPS did not start with the certificate and key given: both must be PEM, and the key the certificate's")
        }
        daemon = started
        self.port = listener.port
        var gateLimits = ConnectionGate.Limits()
        gateLimits.headSeconds = limits.headSeconds
        gateLimits.waitingPerAddress = limits.waitingPerAddress
        gateLimits.waiting = limits.waiting
        let gate = ConnectionGate(
            listener: listener.fd, limits: gateLimits,
            decide: { [unowned self] request, fd, address, length in self.decide(request, fd, address, length) },
            refuse: { [unowned self] method, target, status, message in
                self.handler.malformed(method: method, target: target, status: status, message: message)
            }, tls: credentials != nil,
            handOverTLS: { [unowned self] fd, address, length in self.handOver(fd, address, length) })
        self.gate = gate
        gate.start()
    }

    /// A listening socket on `host` and `port`, and the port it got.
    static func listen(host: String, port: UInt16, dualStack: Bool = false) throws -> (fd: Int32, port: UInt16) {
        var v4 = sockaddr_in(), v6 = sockaddr_in6()
        let family: Int32
        if inet_pton(AF_INET, host, &v4.sin_addr) == 1 {
            family = AF_INET
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = port.bigEndian
        } else if inet_pton(AF_INET6, host, &v6.sin6_addr) == 1 {
            family = AF_INET6
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = port.bigEndian
        } else {
            throw ServerStartError(description: "--host: '\(host)' is not an IPv4 or IPv6 address (such as 127.0.0.1 or ::1)")
        }
        let cannot = ServerStartError(
            description: "cannot listen on \(host.contains(":") ? "[\(host)]" : host):\(port) (in use, or not an address of this machine)")
        let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw cannot }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        if family == AF_INET6 {
            var only: Int32 = dualStack ? 0 : 1
            setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &only, socklen_t(MemoryLayout<Int32>.size))
        }
        let bound: Int32
        if family == AF_INET {
            bound = withUnsafePointer(to: &v4) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        } else {
            bound = withUnsafePointer(to: &v6) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        }
        guard bound == 0, Glibc.listen(fd, 256) == 0 else {
            close(fd)
            throw cannot
        }
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        let chosen = withUnsafeBytes(of: &address) { raw in UInt16(raw[2]) << 8 | UInt16(raw[3]) }  // sin_port / sin6_port, network order
        return (fd, chosen)
    }

    /// What becomes of a connection whose head the gate read: refused by the editor's
    /// screening, refused because every connection thread is busy, or handed to the library.
    func decide(_ request: HTTPRequest, _ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> ConnectionGate.Decision {
        let (refusal, _) = handler.screen(request)
        if let refusal { return .answer(refusal) }
        guard add(fd, address, length) else {
            return .answer(
                handler.malformed(
                    method: request.method, target: request.path, status: 503, message: "the server is busy: \(limits.connections) requests at once; try again")
            )
        }
        return .handOver
    }

    /// Hands a TLS connection to the library before its head (which only the library can
    /// decrypt): the access handler screens it. Past the connection limit it is closed.
    func handOver(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) {
        if !add(fd, address, length) { close(fd) }
    }

    /// Counts a connection in and gives it to the library; false, the socket still the caller's,
    /// when `limits.connections` are served already or the daemon has stopped.
    private func add(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Bool {
        lock.lock()
        guard served < Int(limits.connections), let daemon else {
            lock.unlock()
            return false
        }
        served += 1
        lock.unlock()
        // The socket is the library's from here, whatever the call returns.
        if MHD_add_connection(daemon, fd, address, length) != .YES {
            lock.lock(); served -= 1; lock.unlock()
        }
        return true
    }

    /// Stops accepting connections, waits up to `grace` seconds for requests in flight to finish
    /// (event streams must already have been told to end), then stops the daemon.
    public func stop(grace: Double = 30) {
        guard let d = daemon else { return }
        gate?.stop()
        gate = nil
        let deadline = Date(timeIntervalSinceNow: grace)
        lock.lock()
        while inFlight > 0 && lock.wait(until: deadline) {}
        lock.unlock()
        MHD_stop_daemon(d)
        daemon = nil
    }

    /// The limits the gate holds waiting heads to (nil once stopped).
    var gateLimits: ConnectionGate.Limits? { gate?.limits }

    /// Connections the gate handed over, answered itself, timed out and closed to make room.
    var gateStatistics: (handedOver: Int, refused: Int, timedOut: Int, evicted: Int) {
        gate?.statistics ?? (0, 0, 0, 0)
    }

    deinit { stop(grace: 0) }

    /// How many requests are being received or answered.
    public var requestsInFlight: Int { lock.lock(); defer { lock.unlock() }; return inFlight }

    // MARK: Per-request state

    /// One request while its body arrives.
    final class Exchange {
        var request: HTTPRequest
        var limit: Int
        /// Body bytes reserved for it (its Content-Length), given back when it completes.
        var reserved = 0
        /// A response is queued already (a refusal or a 413): the rest of the body is discarded.
        var answered = false
        init(request: HTTPRequest, limit: Int) { self.request = request; self.limit = limit }
    }

    /// Reserves `bytes` of body memory (gives it back when negative); false when that would pass the limit.
    @discardableResult
    func reserve(_ bytes: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if bytes > 0 && bodyBytesReserved + bytes > limits.bodyBytes { return false }
        bodyBytesReserved += bytes
        return true
    }

    private func begin() { lock.lock(); inFlight += 1; lock.unlock() }
    private func end() { lock.lock(); inFlight -= 1; lock.broadcast(); lock.unlock() }

    // MARK: Callbacks from C

    static let access: MHD_AccessHandlerCallback = { cls, connection, url, method, _, uploadData, uploadSize, conCls in
        guard let cls, let connection, let conCls, let uploadSize else { return .NO }
        let daemon = Unmanaged<HTTPDaemon>.fromOpaque(cls).takeUnretainedValue()
        if conCls.pointee == nil {
            // First call: the headers are here, the body is not.
            daemon.begin()
            if daemon.tls { _ = techo_mhd_connection_timeout(connection, daemon.limits.idleTimeout) }
            let methodText = method.map { String(cString: $0) } ?? "GET"
            let target = url.map { String(cString: $0) } ?? "/"
            let request: HTTPRequest
            do {
                request = try HTTPRequest(
                    method: methodText, rawPath: target, rawQuery: values(connection, .GET_ARGUMENT_KIND),
                    headers: values(connection, .HEADER_KIND), cookies: values(connection, .COOKIE_KIND))
            } catch let problem as MalformedRequest {
                let exchange = Exchange(request: HTTPRequest(method: methodText, path: "/"), limit: 0)
                exchange.answered = true
                conCls.pointee = Unmanaged.passRetained(exchange).toOpaque()
                return queue(daemon.handler.malformed(method: methodText, target: target, status: 400, message: problem.message), on: connection)
            } catch {
                return .NO
            }
            let exchange = Exchange(request: request, limit: 0)
            conCls.pointee = Unmanaged.passRetained(exchange).toOpaque()
            let (refusal, limit) = daemon.handler.screen(request)
            exchange.limit = limit
            if let refusal {
                exchange.answered = true
                return queue(refusal, on: connection)
            }
            let length = request.header("content-length").flatMap { Int($0) } ?? 0
            if length > limit {
                exchange.answered = true
                return queue(tooLarge(limit), on: connection)
            }
            guard daemon.reserve(length) else {
                exchange.answered = true
                let busy = HTTPResponse.error(503, "the server is busy: it holds as many request bodies as it may; try again")
                return queue(busy, on: connection)
            }
            exchange.reserved = length
            return .YES
        }
        let exchange = Unmanaged<Exchange>.fromOpaque(conCls.pointee!).takeUnretainedValue()
        if uploadSize.pointee > 0 {
            let n = uploadSize.pointee
            uploadSize.pointee = 0
            if exchange.answered { return .YES }
            if exchange.request.body.count + n > exchange.limit {
                // Over the limit mid-body (a chunked upload with no length): answer now if the
                // library lets us, else drop the connection; nothing more is kept either way.
                exchange.answered = true
                exchange.request.body = []
                return queue(tooLarge(exchange.limit), on: connection)
            }
            if let uploadData {
                uploadData.withMemoryRebound(to: UInt8.self, capacity: n) { exchange.request.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: n)) }
            }
            return .YES
        }
        if exchange.answered { return .YES }
        exchange.answered = true
        return queue(daemon.handler.respond(to: exchange.request), on: connection)
    }

    static let notify: MHD_NotifyConnectionCallback = { cls, _, _, code in
        // MHD_CONNECTION_NOTIFY_CLOSED is 1 (the enum's cases do not import by name).
        guard let cls, code.rawValue == 1 else { return }
        let daemon = Unmanaged<HTTPDaemon>.fromOpaque(cls).takeUnretainedValue()
        daemon.lock.lock()
        daemon.served -= 1
        daemon.lock.unlock()
    }

    static let completed: MHD_RequestCompletedCallback = { cls, _, conCls, _ in
        guard let cls else { return }
        let daemon = Unmanaged<HTTPDaemon>.fromOpaque(cls).takeUnretainedValue()
        if let conCls, let p = conCls.pointee {
            daemon.reserve(-Unmanaged<Exchange>.fromOpaque(p).takeUnretainedValue().reserved)
            Unmanaged<Exchange>.fromOpaque(p).release()
            conCls.pointee = nil
            daemon.end()
        }
    }

    static func tooLarge(_ limit: Int) -> HTTPResponse {
        HTTPResponse.error(413, "the request body is over the limit of \(limit) bytes")
    }

    /// The connection's values of one kind (headers, query arguments or cookies), in the order
    /// sent, repeats included.
    static func values(_ connection: OpaquePointer, _ kind: MHD_ValueKind) -> [(String, String)] {
        final class Box { var pairs: [(String, String)] = [] }
        let box = Box()
        let iterator: MHD_KeyValueIterator = { cls, _, key, value in
            guard let cls, let key else { return .YES }
            let box = Unmanaged<Box>.fromOpaque(cls).takeUnretainedValue()
            box.pairs.append((String(cString: key), value.map { String(cString: $0) } ?? ""))
            return .YES
        }
        withExtendedLifetime(box) {
            _ = MHD_get_connection_values(connection, kind, iterator, Unmanaged.passUnretained(box).toOpaque())
        }
        return box.pairs
    }

    /// The unescape callback: leaves the path and query arguments as sent, so that
    /// `RequestTarget` decodes them (strictly) instead of the library (which stops at a NUL).
    static let keepEscapes: techo_mhd_unescape_callback = { _, _, s in s.map { strlen($0) } ?? 0 }

    /// Hands a response to libmicrohttpd.
    /// MHD_RESPMEM_MUST_COPY (2): the library copies the bytes, so Swift's buffer may go at once.
    /// The enum's cases do not import by name, so it is made from its value, which the C API fixes.
    static let mustCopy = MHD_ResponseMemoryMode(rawValue: 2)!

    static func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
        let made: OpaquePointer?
        switch response.body {
        case .bytes(let bytes):
            made = bytes.withUnsafeBytes { raw in
                MHD_create_response_from_buffer(raw.count, UnsafeMutableRawPointer(mutating: raw.baseAddress), mustCopy)
            }
        case .events(let stream):
            let cls = Unmanaged.passRetained(stream).toOpaque()
            made = MHD_create_response_from_callback(UInt64.max, 4096, EventStream.read, cls, EventStream.release)
            if made == nil { Unmanaged<EventStream>.fromOpaque(cls).release() }
        }
        guard let r = made else { return .NO }
        defer { MHD_destroy_response(r) }
        for (name, value) in response.headers where name.lowercased() != "connection" { _ = MHD_add_response_header(r, name, value) }
        // One request per connection: the next one comes on a new connection, through the gate.
        _ = MHD_add_response_header(r, "Connection", "close")
        return MHD_queue_response(connection, UInt32(response.status), r)
    }
}
