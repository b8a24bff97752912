// Encoded renders kept for reuse: a small least-recently-used list keyed by the page's whole
// content, the scale and what was left out. The key is the page value itself (compared in full),
// so an edit anywhere on the page, or an undo back to an earlier state, finds the right entry;
// assets are content-addressed, so equal pages always draw equal pixels.
import Foundation
import TechoModel

/// Encoded PNGs by (page, scale, variant).
final class RenderCache: @unchecked Sendable {
    struct Key: Hashable {
        var page: Page
        var scale: Double
        /// `without=EID`, or `sprite:EID` for an element drawn alone; empty for the whole page
        /// as the editor shows it, `export` for the file `techo export` writes.
        var variant: String
    }

    struct Entry {
        var png: [UInt8]
        /// Extra headers that belong to the render (a sprite's rectangle).
        var headers: [(String, String)]
    }

    /// Entries kept at most. Default 24.
    let capacity: Int
    /// Bytes kept at most. Default 96 MiB.
    let maxBytes: Int
    private let lock = NSLock()
    private var entries: [Key: Entry] = [:]
    private var order: [Key] = []  // least recently used first
    private var bytes = 0
    private(set) var hits = 0
    private(set) var misses = 0

    init(capacity: Int = 24, maxBytes: Int = 96 << 20) { self.capacity = capacity; self.maxBytes = maxBytes }

    /// The cached render, or one made by `make` (outside the lock, so renders run in parallel).
    func render(_ key: Key, make: () throws -> Entry) rethrows -> Entry {
        lock.lock()
        if let e = entries[key] {
            hits += 1
            touch(key)
            lock.unlock()
            return e
        }
        misses += 1
        lock.unlock()
        let e = try make()
        lock.lock()
        if entries[key] == nil, e.png.count <= maxBytes {
            entries[key] = e
            order.append(key)
            bytes += e.png.count
            while entries.count > capacity || bytes > maxBytes, let oldest = order.first {
                order.removeFirst()
                bytes -= entries.removeValue(forKey: oldest)?.png.count ?? 0
            }
        }
        lock.unlock()
        return e
    }

    private func touch(_ key: Key) {
        if let i = order.firstIndex(of: key) { order.remove(at: i) }
        order.append(key)
    }
}
