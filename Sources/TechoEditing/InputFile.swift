// Reading a small input file a user named (points, gesture recordings, manifests, templates),
// refusing folders, FIFOs, devices, missing files and files over the size limit before reading
// them. Opened non-blocking, so a FIFO nobody writes to is refused instead of hanging.
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

public enum InputFile {
    /// The bytes of the file at `path`; errors name it `name`, as the user typed it.
    public static func read(_ name: String, path: String, limit: Int) throws(EditError) -> [UInt8] {
        try checkRegular(name, path: path)
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            throw EditError(.notFound, "\(name): cannot be read: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else {
            throw EditError(.notFound, "\(name): is not a regular file")
        }
        var out = [UInt8](repeating: 0, count: min(Int(st.st_size), limit) + 1)
        var done = 0
        while done < out.count {
            let n = out.withUnsafeMutableBytes { b in Glibc.read(fd, b.baseAddress! + done, b.count - done) }
            if n < 0 {
                if errno == EINTR { continue }
                throw EditError(.notFound, "\(name): cannot be read: \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            done += n
        }
        guard done <= limit else { throw EditError(.tooLarge, "\(name): larger than the limit of \(limit) bytes") }
        out.removeSubrange(done...)
        return out
    }

    /// Fails unless `path` (as typed: `name`) is an existing regular file (symlinks followed).
    public static func checkRegular(_ name: String, path: String) throws(EditError) {
        var st = stat()
        guard stat(path, &st) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { throw EditError(.notFound, "\(name): no such file") }
            throw EditError(.notFound, "\(name): cannot be read: \(String(cString: strerror(errno)))")
        }
        switch st.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: throw EditError(.notFound, "\(name): is a folder, not a file")
        default: throw EditError(.notFound, "\(name): is not a regular file (a FIFO, socket or device)")
        }
    }
}
