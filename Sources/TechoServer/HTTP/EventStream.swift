// Server-sent events for one client: `event: revision` with the journal's revision at once and
// after every change, a comment every 15 s so proxies and the browser keep the stream open.
// libmicrohttpd asks for bytes from the connection's own thread (a thread per connection), so
// waiting here for the next change blocks only this stream.
import CLibMicroHTTPD
import Foundation

/// The revision everyone watches, and the streams waiting on it.
public final class RevisionHub: @unchecked Sendable {
    private let condition = NSCondition()
    private var revision: UInt64
    private var closed = false

    public init(revision: UInt64) { self.revision = revision }

    /// The latest revision.
    public var current: UInt64 { condition.lock(); defer { condition.unlock() }; return revision }

    /// Publishes a revision; every stream sends it.
    public func publish(_ r: UInt64) {
        condition.lock()
        if r != revision { revision = r; condition.broadcast() }
        condition.unlock()
    }

    /// Ends every stream (the server is stopping).
    public func close() {
        condition.lock(); closed = true; condition.broadcast(); condition.unlock()
    }

    /// Waits until the revision differs from `seen`, the hub closes or `deadline` passes.
    /// Returns the revision, or nil when closed.
    func wait(after seen: UInt64?, until deadline: Date) -> UInt64? {
        condition.lock()
        defer { condition.unlock() }
        while !closed && revision == seen && condition.wait(until: deadline) {}
        return closed ? nil : revision
    }
}

/// One client's event stream.
public final class EventStream: @unchecked Sendable {
    let hub: RevisionHub
    /// Seconds between keep-alive comments. Default 15.
    let keepAlive: Double
    private var sent: UInt64?
    private var pending: [UInt8] = []

    init(hub: RevisionHub, keepAlive: Double = 15) { self.hub = hub; self.keepAlive = keepAlive }

    static func frame(_ revision: UInt64) -> [UInt8] {
        Array("event: revision\ndata: {\"revision\": \(revision)}\n\n".utf8)
    }

    /// The next bytes to send (blocking until there are some), or nil at the end.
    func next() -> [UInt8]? {
        if pending.isEmpty {
            guard let r = hub.wait(after: sent, until: Date(timeIntervalSinceNow: keepAlive)) else { return nil }
            if r != sent {
                sent = r
                pending = EventStream.frame(r)
            } else {
                pending = Array(": keep-alive\n\n".utf8)
            }
        }
        return pending
    }

    /// Marks `n` bytes of what `next()` gave as sent.
    func consume(_ n: Int) { pending.removeFirst(min(n, pending.count)) }

    static let read: MHD_ContentReaderCallback = { cls, _, buf, max in
        guard let cls, let buf else { return -2 }
        let stream = Unmanaged<EventStream>.fromOpaque(cls).takeUnretainedValue()
        guard let bytes = stream.next() else { return -1 }  // MHD_CONTENT_READER_END_OF_STREAM
        let n = Swift.min(bytes.count, max)
        bytes.withUnsafeBytes { raw in
            if let base = raw.baseAddress { UnsafeMutableRawPointer(buf).copyMemory(from: base, byteCount: n) }
        }
        stream.consume(n)
        return n
    }

    static let release: MHD_ContentReaderFreeCallback = { cls in
        guard let cls else { return }
        Unmanaged<EventStream>.fromOpaque(cls).release()
    }
}
