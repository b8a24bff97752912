// Crash-safe file writes: write a temp file in the same folder, fsync it, rename it over the
// target, fsync the folder; a crash at any moment leaves the old or the new file, never a mix.

import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Points in a save where a test can inject a crash.
public enum SaveStage: Sendable, Equatable {
    /// The temp file is written and synced, not yet renamed.
    case tempWritten
    /// The file is renamed into place.
    case renamed
}

/// Called at each save stage with the bundle-relative path; throwing simulates a crash there.
public typealias FaultHook = (SaveStage, String) throws -> Void

enum FileIO {
    /// Prefix of temp files; `check` reports leftovers.
    static let tempPrefix = ".tmp-"

    /// Reads a whole file, or nil when it does not exist. Refuses files over `limit` bytes and
    /// anything but a regular file (opened non-blocking, so a FIFO fails instead of hanging).
    /// Unless `followSymlinks`, a symbolic link as the last component is refused: techo writes
    /// bundle files itself and never as links, so a link there could only lead elsewhere.
    static func readFile(_ url: URL, name: String, limit: Int = 1 << 30, followSymlinks: Bool = false) throws -> [UInt8]? {
        try readFileAndFingerprint(url, name: name, limit: limit, followSymlinks: followSymlinks)?.bytes
    }

    /// `readFile`, with the fingerprint of the file that was read (from the open descriptor).
    /// With `unchanged`, a file whose fingerprint differs after the read from before it is
    /// refused ("changed while being read"): the bytes may mix two versions.
    static func readFileAndFingerprint(
        _ url: URL, name: String, limit: Int = 1 << 30,
        followSymlinks: Bool = false, unchanged: Bool = false
    ) throws -> (bytes: [UInt8], fingerprint: SourceFingerprint)? {
        try readFileAndStat(url, name: name, limit: limit, followSymlinks: followSymlinks, unchanged: unchanged).map {
            ($0.bytes, SourceFingerprint($0.stat))
        }
    }

    /// Called by `readFileAndStat(unchanged: true)` between the read and the second `fstat`,
    /// with the open descriptor and the name; tests change a file there. Default none.
    static let afterSourceRead = SourceReadHook()

    /// `readFile`, with the `stat` of the file that was read (from the open descriptor, before
    /// reading). With `unchanged`, the file is `fstat`ed again after the read and refused when
    /// its size, modification time, inode or device moved.
    static func readFileAndStat(
        _ url: URL, name: String, limit: Int = 1 << 30,
        followSymlinks: Bool = false, unchanged: Bool = false
    ) throws -> (bytes: [UInt8], stat: stat)? {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | (followSymlinks ? 0 : O_NOFOLLOW))
        if fd < 0 {
            if errno == ENOENT { return nil }
            if errno == ELOOP { throw StorageError(path: name, message: "is a symbolic link; journal files must be regular files") }
            throw StorageError.errno(name, "cannot open")
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw StorageError.errno(name, "cannot stat") }
        guard st.st_mode & S_IFMT == S_IFREG else { throw StorageError(path: name, message: "not a regular file") }
        guard Int(st.st_size) <= limit else { throw StorageError(path: name, message: "\(st.st_size) bytes is over the limit of \(limit)") }
        var out = [UInt8](repeating: 0, count: Int(st.st_size))
        var done = 0
        while done < out.count {
            let n = out.withUnsafeMutableBytes { b in b.baseAddress.map { Glibc.read(fd, $0 + done, b.count - done) } ?? 0 }
            if n < 0 { if errno == EINTR { continue }; throw StorageError.errno(name, "cannot read") }
            if n == 0 { out.removeSubrange(done...); break }
            done += n
        }
        if unchanged {
            afterSourceRead.call(fd, name)
            var after = stat()
            guard fstat(fd, &after) == 0 else { throw StorageError.errno(name, "cannot stat") }
            // A write during the read moves the modification time (or the size); the bytes
            // read may then hold parts of two versions.
            guard SourceFingerprint(after) == SourceFingerprint(st), out.count == Int(st.st_size) else {
                throw StorageError(path: name, message: "changed while being read")
            }
        }
        return (out, st)
    }

    /// Puts the content of `staged` (a file this process wrote, in a folder on the same file
    /// system) at `url` as `writeAtomically` puts bytes there, without reading it: its data
    /// synced (when `durable`), a hard link to it made beside `url` under a temp name, renamed
    /// into place, the folder synced. `staged` itself stays (a page being drawn may still read
    /// it). `hook` sees `.tempWritten` before the rename and `.renamed` after. Where no link can
    /// be made (another file system) the file is copied instead.
    static func linkIntoPlace(_ staged: URL, to url: URL, name: String, hook: FaultHook?, durable: Bool = true) throws {
        let fd = open(staged.path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { throw StorageError.errno(name, "cannot open its staged copy") }
        do {
            defer { close(fd) }
            var st = stat()
            guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { throw StorageError(path: name, message: "its staged copy is not a regular file") }
            if durable { guard fsync(fd) == 0 else { throw StorageError.errno(name, "cannot sync") } }
        }
        let temp = url.deletingLastPathComponent()
            .appendingPathComponent("\(tempPrefix)\(url.lastPathComponent)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        guard link(staged.path, temp.path) == 0 else {
            guard [EXDEV, EPERM, EMLINK, ENOTSUP].contains(errno), let bytes = try readFile(staged, name: name) else {
                throw StorageError.errno(name, "cannot link into place")
            }
            try writeAtomically(bytes, to: url, name: name, hook: hook, durable: durable)
            return
        }
        var ok = false
        defer { if !ok { unlink(temp.path) } }
        if let hook {
            // A simulated crash leaves the temp link behind, as a real one would.
            do { try hook(.tempWritten, name) } catch { ok = true; throw error }
        }
        guard rename(temp.path, url.path) == 0 else { throw StorageError.errno(name, "cannot rename into place") }
        ok = true
        if durable { try syncDirectory(url.deletingLastPathComponent(), name: name) }
        try hook?(.renamed, name)
    }

    /// Writes `bytes` to `url` atomically, and durably when `durable`: the data is synced before
    /// the rename, and the folder after it unless `syncFolder` is false (the caller then syncs
    /// the folder once for a batch of files).
    static func writeAtomically(
        _ bytes: [UInt8], to url: URL, name: String, hook: FaultHook?, durable: Bool = true,
        syncFolder: Bool = true, onRenamed: () -> Void = {}
    ) throws {
        let dir = url.deletingLastPathComponent()
        let (temp, fd) = try createTemp(for: url, name: name, bytes: bytes)
        var ok = false
        defer { if !ok { unlink(temp.path) } }
        do {
            defer { close(fd) }
            if durable { guard fsync(fd) == 0 else { throw StorageError.errno(name, "cannot sync") } }
        }
        if let hook {
            // A simulated crash leaves the temp file behind, as a real one would.
            do { try hook(.tempWritten, name) } catch { ok = true; throw error }
        }
        guard rename(temp.path, url.path) == 0 else { throw StorageError.errno(name, "cannot rename into place") }
        ok = true
        onRenamed()
        if durable && syncFolder { try syncDirectory(dir, name: name) }
        try hook?(.renamed, name)
    }

    /// Writes and removes several files, in order, each atomically as `writeAtomically` does,
    /// and syncs each folder they are in once at the end. When `durable`, the disk is asked to
    /// flush twice instead of once per file and folder: every temp file is written, then all are
    /// synced at once (concurrent `fsync`s share a journal commit and a cache flush on ext4);
    /// each is renamed into place (or its file removed), in order, then their folders are synced
    /// at once. `hook` sees `.tempWritten` (just before the rename) and `.renamed` of each write.
    /// A simulated crash leaves the temp files behind, as a real one would; the next lock holder
    /// removes them.
    static func writeAll(_ writes: [(url: URL, name: String, bytes: [UInt8]?)], hook: FaultHook?, durable: Bool) throws {
        var temps: [(url: URL, fd: Int32)?] = []
        var done = 0, crashed = false
        defer {
            for case let (url, fd)? in temps[done...] {
                if fd >= 0 { close(fd) }
                if !crashed { unlink(url.path) }
            }
        }
        for w in writes {
            guard let bytes = w.bytes else { temps.append(nil); continue }
            temps.append(try createTemp(for: w.url, name: w.name, bytes: bytes))
        }
        if durable {
            let synced = temps.enumerated().compactMap { k, t in t.map { (k, $0.fd) } }
            if let (i, e) = syncAll(synced.map(\.1)) {
                throw StorageError(path: writes[synced[i].0].name, message: "cannot sync: \(String(cString: strerror(e)))")
            }
        }
        var folders = Set<String>()
        for (k, w) in writes.enumerated() {
            if let (temp, fd) = temps[k] {
                close(fd)
                temps[k] = (temp, -1)
                if let hook {
                    do { try hook(.tempWritten, w.name) } catch { crashed = true; throw error }
                }
                guard rename(temp.path, w.url.path) == 0 else { throw StorageError.errno(w.name, "cannot rename into place") }
                done = k + 1
                if let hook {
                    do { try hook(.renamed, w.name) } catch { crashed = true; throw error }
                }
            } else {
                try remove(w.url, name: w.name, syncFolder: false)
                done = k + 1
            }
            folders.insert(w.url.deletingLastPathComponent().path)
        }
        if durable { try syncFolders(folders.sorted()) }
    }

    /// A change made through a record slot (`ChangeRecord`, docs/decisions/storage.md), with one
    /// round of syncs when `durable`:
    ///
    /// 1. every new content is written to a temp file beside its target (invisible: until a
    ///    rename nothing has changed); `hook` sees `.tempWritten` of the slot;
    /// 2. the record naming those temps (their lengths and checksums) and the files to remove is
    ///    written over `slot`, and everything is synced at once: the slot, every temp, and the
    ///    folders of the temps and of `settle` (the folders of earlier records' files, whose
    ///    renames become durable here, before a later change may reuse their slot). Once that
    ///    round is done the change happens (`onCommitPoint`, then `.renamed` of the slot): if
    ///    not now, then by the next lock holder, who finds the temps the record names;
    /// 3. each removal (of a file that is still the one it was), then each rename, in order,
    ///    with `.tempWritten` and `.renamed` of each write. The renames are not synced here: the
    ///    next change's round syncs their folders, and until then the record finishes them.
    ///
    /// Answers the record written.
    static func commit(
        slot: (url: URL, name: String), seq: UInt64, settle: Set<String>,
        writes: [(url: URL, name: String, bytes: [UInt8]?)],
        hook: FaultHook?, durable: Bool, onCommitPoint: () -> Void
    ) throws -> ChangeRecord {
        var temps: [(url: URL, fd: Int32)?] = []
        var committed = false, crashed = false
        defer {
            for case let (url, fd)? in temps {
                if fd >= 0 { close(fd) }
                if !committed && !crashed { unlink(url.path) }
            }
        }
        var record = ChangeRecord(seq: seq, removals: [], writes: [])
        var removed: [URL] = []  // the files of `record.removals`, in order
        var folders = settle
        for w in writes {
            let folder = w.url.deletingLastPathComponent()
            guard let bytes = w.bytes else {
                temps.append(nil)
                if let was = FileIdentity.of(w.url.path) {
                    record.removals.append(.init(path: w.name, was: was))
                    removed.append(w.url)
                }
                continue
            }
            let temp = try createTemp(for: w.url, name: w.name, bytes: bytes)
            temps.append(temp)
            folders.insert(folder.path)
            record.writes.append(
                .init(path: w.name, temp: temp.url.lastPathComponent, length: bytes.count, checksum: ChangeRecord.checksum(bytes)))
        }
        if let hook {
            do { try hook(.tempWritten, slot.name) } catch { crashed = true; throw error }
        }
        let fd = open(slot.url.path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else { throw StorageError.errno(slot.name, "cannot open the change record") }
        defer { close(fd) }
        let bytes = record.bytes
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { b in b.baseAddress.map { pwrite(fd, $0 + written, b.count - written, off_t(written)) } ?? 0 }
            if n < 0 { if errno == EINTR { continue }; throw StorageError.errno(slot.name, "cannot write") }
            written += n
        }
        guard ftruncate(fd, off_t(bytes.count)) == 0 else { throw StorageError.errno(slot.name, "cannot write") }
        if durable {
            folders.insert(slot.url.deletingLastPathComponent().path)
            let sorted = folders.sorted()
            let dirs = try openFolders(sorted)
            defer { for d in dirs { close(d) } }
            let files = [(slot.name, fd)] + zip(writes, temps).compactMap { w, t in t.map { (w.name, $0.fd) } }
            if let (i, e) = syncAll(files.map(\.1) + dirs, ignoring: EINVAL) {
                let what = i < files.count ? files[i].0 : sorted[i - files.count]
                throw StorageError(path: what, message: "cannot sync: \(String(cString: strerror(e)))")
            }
        }
        committed = true
        onCommitPoint()
        if let hook {
            do { try hook(.renamed, slot.name) } catch { crashed = true; throw error }
        }
        for (removal, url) in zip(record.removals, removed) {
            if let now = FileIdentity.of(url.path), now.isSameFile(as: removal.was) { try remove(url, name: removal.path, syncFolder: false) }
        }
        for (k, w) in writes.enumerated() {
            guard let (temp, tfd) = temps[k] else { continue }
            close(tfd)
            temps[k] = (temp, -1)
            if let hook {
                do { try hook(.tempWritten, w.name) } catch { crashed = true; throw error }
            }
            guard rename(temp.path, w.url.path) == 0 else { throw StorageError.errno(w.name, "cannot rename into place") }
            temps[k] = nil
            if let hook {
                do { try hook(.renamed, w.name) } catch { crashed = true; throw error }
            }
        }
        return record
    }

    /// A new temp file beside `url` holding `bytes`, still open (so that it can be synced).
    static func createTemp(for url: URL, name: String, bytes: [UInt8]) throws -> (url: URL, fd: Int32) {
        let temp = url.deletingLastPathComponent()
            .appendingPathComponent("\(tempPrefix)\(url.lastPathComponent)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        let fd = open(temp.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw StorageError.errno(name, "cannot create a temp file") }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { b in b.baseAddress.map { Glibc.write(fd, $0 + written, b.count - written) } ?? 0 }
            if n < 0 {
                if errno == EINTR { continue }
                let e = StorageError.errno(name, "cannot write")
                close(fd)
                unlink(temp.path)
                throw e
            }
            written += n
        }
        return (temp, fd)
    }

    /// Syncs the folders at `paths` at once.
    static func syncFolders(_ paths: [String]) throws {
        let fds = try openFolders(paths)
        defer { for fd in fds { close(fd) } }
        if let (i, e) = syncAll(fds, ignoring: EINVAL) {
            throw StorageError(path: paths[i], message: "cannot sync its folder: \(String(cString: strerror(e)))")
        }
    }

    /// The folders at `paths`, opened to be synced (the caller closes them); none is left open
    /// when one cannot be opened.
    static func openFolders(_ paths: [String]) throws -> [Int32] {
        var fds: [Int32] = []
        for folder in paths {
            let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard fd >= 0 else {
                let e = StorageError.errno(folder, "cannot open its folder")
                for open in fds { close(open) }
                throw e
            }
            fds.append(fd)
        }
        return fds
    }

    /// Runs `fsync` on every descriptor at once (one thread each but the last, which the
    /// caller's thread syncs); answers the index and errno of the first that failed.
    static func syncAll(_ fds: [Int32], ignoring ignored: Int32 = 0) -> (Int, Int32)? {
        guard !fds.isEmpty else { return nil }
        let results = LockedResults(count: fds.count)
        let group = DispatchGroup()
        for i in 0..<(fds.count - 1) {
            group.enter()
            let fd = fds[i]
            let t = Thread {
                results.set(i, fsync(fd) == 0 ? 0 : errno)
                group.leave()
            }
            t.start()
        }
        results.set(fds.count - 1, fsync(fds[fds.count - 1]) == 0 ? 0 : errno)
        group.wait()
        return results.firstFailure(ignoring: ignored)
    }

    /// Removes a file (a missing file is fine), syncing its folder when `syncFolder`.
    static func remove(_ url: URL, name: String, syncFolder: Bool = true) throws {
        if unlink(url.path) != 0 && errno != ENOENT { throw StorageError.errno(name, "cannot remove") }
        if syncFolder { try syncDirectory(url.deletingLastPathComponent(), name: name) }
    }

    static func syncDirectory(_ dir: URL, name: String) throws {
        let fd = open(dir.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw StorageError.errno(name, "cannot open its folder") }
        defer { close(fd) }
        if fsync(fd) != 0 && errno != EINVAL { throw StorageError.errno(name, "cannot sync its folder") }
    }

    static func makeDirectory(_ url: URL, name: String) throws {
        if mkdir(url.path, 0o755) != 0 && errno != EEXIST { throw StorageError.errno(name, "cannot create folder") }
    }

    /// Names in a folder (empty when it does not exist).
    static func list(_ url: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
    }
}

/// A test's hook into source reads (`FileIO.afterSourceRead`), set and called under a lock.
final class SourceReadHook: @unchecked Sendable {
    private let lock = NSLock()
    private var hook: ((Int32, String) -> Void)?

    /// Sets (or with nil, clears) the hook.
    func set(_ hook: ((Int32, String) -> Void)?) {
        lock.lock()
        self.hook = hook
        lock.unlock()
    }

    func call(_ fd: Int32, _ name: String) {
        lock.lock()
        let h = hook
        lock.unlock()
        h?(fd, name)
    }
}

/// Results filled in by several threads.
private final class LockedResults: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Int32]
    init(count: Int) { values = Array(repeating: 0, count: count) }
    func set(_ i: Int, _ v: Int32) { lock.lock(); values[i] = v; lock.unlock() }
    func firstFailure(ignoring ignored: Int32) -> (Int, Int32)? {
        lock.lock()
        defer { lock.unlock() }
        return values.firstIndex { $0 != 0 && $0 != ignored }.map { ($0, values[$0]) }
    }
}

/// The identity of a file on disk: device, inode, size, and modification and change times in
/// nanoseconds. techo replaces files by rename (a new inode); any other write changes the
/// modification time, and the change time cannot be set back. Only a write in place of the same
/// size within one timestamp tick keeps all of them, which is why `HeldFiles` trusts an
/// identity alone only for a file that was already older than `SourceIndex.racyWindowNanoseconds`
/// when it was recorded (git's racy rule).
struct FileIdentity: Equatable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var mtime: Int64
    var ctime: Int64

    init(device: UInt64, inode: UInt64, size: Int64, mtime: Int64, ctime: Int64) {
        self.device = device
        self.inode = inode
        self.size = size
        self.mtime = mtime
        self.ctime = ctime
    }

    init(_ st: stat) {
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
        size = Int64(st.st_size)
        mtime = Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
        ctime = Int64(st.st_ctim.tv_sec) * 1_000_000_000 + Int64(st.st_ctim.tv_nsec)
    }

    /// The identity of the regular file at `path` (not following a symbolic link), or nil.
    static func of(_ path: String) -> FileIdentity? {
        var st = stat()
        guard lstat(path, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return nil }
        return FileIdentity(st)
    }

    /// Whether this is the same file as `other` in the same state, whatever device number the
    /// file system has today: same inode, size and times. A file that is replaced gets a new
    /// inode, and an inode number used again has a later change time.
    func isSameFile(as other: FileIdentity) -> Bool {
        inode == other.inode && size == other.size && mtime == other.mtime && ctime == other.ctime
    }

    /// Whether the file was last changed at least `window` nanoseconds before `now`.
    func isOlder(than window: Int64, at now: Int64) -> Bool { Swift.max(mtime, ctime) <= now - window }

    /// Now, in nanoseconds since 1970 (the clock file times come from).
    static func now() -> Int64 {
        var t = timespec()
        clock_gettime(CLOCK_REALTIME, &t)
        return Int64(t.tv_sec) * 1_000_000_000 + Int64(t.tv_nsec)
    }
}

/// An exclusive advisory lock (`flock`) on a file, held until `unlock()` or deinit. `flock`
/// belongs to the open file description, so each holder opens the file itself: two stores in
/// one process exclude each other as two processes do.
final class FileLock {
    private var fd: Int32

    init(_ url: URL, name: String) throws {
        // O_NOFOLLOW: a lock file replaced by a link must not make techo create a file elsewhere.
        fd = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else { throw StorageError.errno(name, "cannot open the lock file") }
        while flock(fd, LOCK_EX) != 0 {
            if errno == EINTR { continue }
            let e = StorageError.errno(name, "cannot lock")
            close(fd)
            throw e
        }
    }

    private init(fd: Int32) { self.fd = fd }

    /// The lock, taken, when the lock file can be opened for writing (made if missing); nil when
    /// the journal cannot be written here (a read-only file system, or a folder or lock file
    /// the process may not write), so nothing is written and no lock is taken.
    static func ifWritable(_ url: URL, name: String) throws -> FileLock? {
        let fd = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else {
            if [EROFS, EACCES, EPERM].contains(errno) { return nil }
            throw StorageError.errno(name, "cannot open the lock file")
        }
        let lock = FileLock(fd: fd)
        while flock(fd, LOCK_EX) != 0 {
            if errno == EINTR { continue }
            let e = StorageError.errno(name, "cannot lock")
            lock.unlock()
            throw e
        }
        return lock
    }

    func unlock() {
        if fd >= 0 { close(fd); fd = -1 }
    }

    deinit { unlock() }
}
