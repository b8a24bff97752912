// Output files appear whole or not at all: bytes go to a hidden temp file in the destination
// folder, are flushed to disk, and are renamed over the final name only when every file of the
// command is ready. Staging a file only starts its write-back; the commit waits for all of
// them at once (fsync of each, most already on disk by then), so a long export does not stop a
// core on the disk after every page.
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// glibc's `sync_file_range(2)`, which the Glibc module does not export (it is a GNU extension).
@_silgen_name("sync_file_range")
private func startWriteBack(_ fd: Int32, _ offset: Int64, _ count: Int64, _ flags: UInt32) -> Int32

/// A file written under a temp name, waiting to be renamed into place.
public struct StagedFile: Sendable {
    public let temp: URL
    public let final: URL

    /// Writes `bytes` next to `final` under a hidden temp name and starts writing them to disk
    /// (`commit` waits until they are there).
    public static func stage(_ bytes: [UInt8], as final: URL) throws -> StagedFile {
        let dir = final.deletingLastPathComponent()
        var st = stat()
        if lstat(final.path, &st) == 0 && st.st_mode & S_IFMT == S_IFDIR {
            throw ExportError(cannotCreate: true, "\(final.path): is a folder; the exported file cannot replace it (remove it or choose another -o)")
        }
        removeStaleTemps(of: final)
        let temp = dir.appendingPathComponent(".\(final.lastPathComponent).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        let fd = open(temp.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw ExportError(cannotCreate: true, "\(final.path): cannot create: \(String(cString: strerror(errno)))") }
        var ok = false
        defer {
            close(fd)
            if !ok { unlink(temp.path) }
        }
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, bytes.count - done) }
            if n < 0 {
                if errno == EINTR { continue }
                throw ExportError(cannotCreate: false, "\(final.path): cannot write: \(String(cString: strerror(errno)))")
            }
            done += n
        }
        // Write-back starts now, without waiting for it: the commit's fsync then finds the bytes
        // on disk or on their way. Where the call is not supported the commit's fsync does it all.
        _ = startWriteBack(fd, 0, 0, 2)  // SYNC_FILE_RANGE_WRITE
        ok = true
        return StagedFile(temp: temp, final: final)
    }

    /// Waits until every staged file is on disk, renames each into place, then syncs their
    /// folders. A file that cannot be synced fails the commit before anything is renamed.
    public static func commit(_ files: [StagedFile]) throws {
        for f in files {
            let fd = open(f.temp.path, O_RDONLY | O_CLOEXEC)
            let synced = fd >= 0 && fsync(fd) == 0
            let why = String(cString: strerror(errno))
            if fd >= 0 { close(fd) }
            if !synced {
                discard(files)
                throw ExportError(cannotCreate: false, "\(f.final.path): cannot write: \(why)")
            }
        }
        for f in files where rename(f.temp.path, f.final.path) != 0 {
            let why = String(cString: strerror(errno))
            discard(files)
            throw ExportError(cannotCreate: false, "\(f.final.path): cannot move into place: \(why)")
        }
        for dir in Set(files.map { $0.final.deletingLastPathComponent().path }) {
            let fd = open(dir, O_RDONLY | O_DIRECTORY)
            if fd >= 0 { fsync(fd); close(fd) }
        }
    }

    /// Removes temp files a killed export left for `final` (`.NAME.tmp-PID-N` whose process
    /// is gone). Temp files of a live process, maybe another export running now, stay.
    static func removeStaleTemps(of final: URL) {
        let dir = final.deletingLastPathComponent()
        let prefix = ".\(final.lastPathComponent).tmp-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            guard let pid = Int32(name.dropFirst(prefix.count).prefix { $0 != "-" }), pid > 0, pid != getpid() else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH { unlink(dir.appendingPathComponent(name).path) }
        }
    }

    /// Removes the temp files of a command that failed.
    public static func discard(_ files: [StagedFile]) {
        for f in files { unlink(f.temp.path) }
    }
}
