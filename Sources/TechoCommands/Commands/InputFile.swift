// Reading a small input file named on the command line (points, gesture recordings, manifests),
// refusing folders, FIFOs, devices, missing files and files over the size limit before reading
// them. Opened non-blocking, so a FIFO nobody writes to is refused instead of hanging.
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

enum InputFile {
    /// The bytes of `arg`'s file; errors name the file as the user typed it.
    static func read(_ arg: Arg, io: CommandIO, limit: Int) throws -> [UInt8] {
        let path = io.resolve(arg.text)
        try checkRegular(arg.text, path: path)
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            throw CommandError(.noInput, "\(arg.text): cannot be read: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else {
            throw CommandError(.noInput, "\(arg.text): is not a regular file")
        }
        var out = [UInt8](repeating: 0, count: min(Int(st.st_size), limit) + 1)
        var done = 0
        while done < out.count {
            let n = out.withUnsafeMutableBytes { b in Glibc.read(fd, b.baseAddress! + done, b.count - done) }
            if n < 0 {
                if errno == EINTR { continue }
                throw CommandError(.noInput, "\(arg.text): cannot be read: \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            done += n
        }
        guard done <= limit else { throw CommandError(.dataError, "\(arg.text): larger than the limit of \(limit) bytes") }
        out.removeSubrange(done...)
        return out
    }

    /// Fails unless `path` (as typed: `name`) is an existing regular file (symlinks followed).
    static func checkRegular(_ name: String, path: String) throws {
        var st = stat()
        guard stat(path, &st) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { throw CommandError(.noInput, "\(name): no such file") }
            throw CommandError(.noInput, "\(name): cannot be read: \(String(cString: strerror(errno)))")
        }
        switch st.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: throw CommandError(.noInput, "\(name): is a folder, not a file")
        default: throw CommandError(.noInput, "\(name): is not a regular file (a FIFO, socket or device)")
        }
    }
}
