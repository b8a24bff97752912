// The journal's revision, derived from its files on disk so that a change by anyone (this
// server, a `techo` command in a terminal, another server) is seen: a hash of the name, inode,
// size and modification time of `journal.json`, `history/state.json` and every `pages/*.json`.
// Saves replace files by rename, so each save gives a file a new inode as well as a new time.
// A thread polls the fingerprint (a few stat calls) every `interval` seconds; polling rather than
// inotify keeps it simple and works on every file system, and 0.25 s is far inside the 2 s the
// product promises.
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Watches a journal folder and publishes its revision.
public final class JournalWatcher: @unchecked Sendable {
    let folder: URL
    let hub: RevisionHub
    let interval: Double
    private let lock = NSLock()
    private var stopped = false
    private var thread: Thread?

    /// Starts watching `folder`, publishing to a new hub (`hub`).
    public init(folder: URL, interval: Double = 0.25) {
        self.folder = folder
        self.interval = interval
        hub = RevisionHub(revision: JournalWatcher.fingerprint(of: folder))
        let t = Thread { [weak self] in
            while let self, !self.isStopped {
                self.refresh()
                Thread.sleep(forTimeInterval: self.interval)
            }
        }
        t.name = "techo journal watcher"
        thread = t
        t.start()
    }

    private var isStopped: Bool { lock.lock(); defer { lock.unlock() }; return stopped }

    /// Stops the polling thread (the hub stays readable).
    public func stop() { lock.lock(); stopped = true; lock.unlock() }

    /// Re-reads the fingerprint now and publishes it; returns the revision.
    @discardableResult
    public func refresh() -> UInt64 {
        let r = JournalWatcher.fingerprint(of: folder)
        hub.publish(r)
        return r
    }

    /// The revision of the journal in `folder`: a 53-bit number (exact in JSON and JavaScript).
    public static func fingerprint(of folder: URL) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a, 64-bit
        func mix(_ v: UInt64) {
            var v = v
            for _ in 0..<8 { h = (h ^ (v & 0xff)) &* 0x100_0000_01b3; v >>= 8 }
        }
        func file(_ relative: String) {
            for b in relative.utf8 { mix(UInt64(b)) }
            var st = stat()
            guard lstat(folder.appendingPathComponent(relative).path, &st) == 0 else { mix(0); return }
            mix(UInt64(st.st_ino)); mix(UInt64(bitPattern: Int64(st.st_size)))
            mix(UInt64(bitPattern: Int64(st.st_mtim.tv_sec))); mix(UInt64(bitPattern: Int64(st.st_mtim.tv_nsec)))
        }
        file("journal.json")
        file("history/state.json")
        let pages = (try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("pages").path)) ?? []
        for name in pages.sorted() where name.hasSuffix(".json") { file("pages/" + name) }
        return h & ((1 << 53) - 1)
    }
}
