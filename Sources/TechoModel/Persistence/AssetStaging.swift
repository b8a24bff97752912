// Assets written ahead of the journal's write. A build reads and hashes each source file once;
// it writes those same bytes at once into a hidden folder beside the journal, and the journal's
// write later links them into `assets/` (docs/decisions/sources.md). No source file is read a
// second time, the pages are drawn from exactly the bytes the journal gets (the staged files
// stay until the command ends, so a page still being drawn reads them), and the disk has been
// writing them back since they were read.
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// glibc's `sync_file_range(2)`, which the Glibc module does not export (it is a GNU extension).
@_silgen_name("sync_file_range")
private func startWriteBack(_ fd: Int32, _ offset: Int64, _ count: Int64, _ flags: UInt32) -> Int32

/// A folder of assets staged for one command, beside the journal they are for (so on its file
/// system: a hard link puts each into the bundle). Thread-safe.
///
/// ## Guarantees
/// - A staged file holds exactly the bytes `stage` was given, under `<sha256>.<ext>` of its
///   reference; it is never changed after `stage` returns.
/// - `remove` takes the folder and whatever is left in it away; a killed command leaves a
///   `.tmp-` folder beside the journal, as a killed `JournalStore.create` does.
public final class AssetStaging: @unchecked Sendable {
    /// The folder: `.tmp-NAME-import-PID-RANDOM` beside the journal.
    public let folder: URL
    private let lock = NSLock()
    private var files: [AssetRef: URL] = [:]

    /// A new, empty staging folder beside `journal`; nil when none can be made there (a folder
    /// the process may not write): the command then copies from the source files. Folders a
    /// killed command left beside it (their process gone) are removed first.
    public init?(beside journal: URL) {
        let dest = journal.standardizedFileURL
        AssetStaging.removeStale(beside: dest)
        folder = dest.deletingLastPathComponent()
            .appendingPathComponent("\(FileIO.tempPrefix)\(dest.lastPathComponent)-import-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        guard mkdir(folder.path, 0o700) == 0 else { return nil }
    }

    /// Removes the staging folders a killed command left beside `journal`
    /// (`.tmp-NAME-import-PID-N` whose process is gone). Those of a live process, maybe another
    /// build running now, stay.
    static func removeStale(beside journal: URL) {
        let dir = journal.deletingLastPathComponent()
        let prefix = "\(FileIO.tempPrefix)\(journal.lastPathComponent)-import-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            guard let pid = Int32(name.dropFirst(prefix.count).prefix { $0 != "-" }), pid > 0, pid != getpid() else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH { try? FileManager.default.removeItem(at: dir.appendingPathComponent(name)) }
        }
    }

    /// Writes `bytes`, whose SHA-256 the caller vouches is `ref.sha256`, as the staged file of
    /// `ref` and starts writing it to disk (the journal's write syncs it). Staging an asset
    /// again writes nothing. Answers the file.
    public func stage(_ bytes: [UInt8], as ref: AssetRef) throws -> URL {
        if let known = file(ref) { return known }
        let url = folder.appendingPathComponent(ref.sha256 + "." + ref.ext)
        let name = url.lastPathComponent
        let fd = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else { throw StorageError.errno(name, "cannot stage a copy beside the journal") }
        var ok = false
        defer {
            close(fd)
            if !ok { unlink(url.path) }
        }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { b in b.baseAddress.map { write(fd, $0 + written, b.count - written) } ?? 0 }
            if n < 0 {
                if errno == EINTR { continue }
                throw StorageError.errno(name, "cannot stage a copy beside the journal")
            }
            written += n
        }
        // SYNC_FILE_RANGE_WRITE (2): start the write-back; a failure here only means the sync
        // at the journal's write does all of it.
        _ = startWriteBack(fd, 0, 0, 2)
        ok = true
        lock.lock()
        files[ref] = url
        lock.unlock()
        return url
    }

    /// The staged file of `ref`, or nil when it was not staged.
    public func file(_ ref: AssetRef) -> URL? {
        lock.lock()
        defer { lock.unlock() }
        return files[ref]
    }

    /// Removes the folder with every file still in it (those not moved into a journal).
    public func remove() {
        lock.lock()
        files = [:]
        lock.unlock()
        try? FileManager.default.removeItem(at: folder)
    }
}
