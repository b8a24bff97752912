// Reading a whole file into memory, refusing files over the size limit before reading them.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

public enum FileBytes {
    /// The bytes of the file at `path`; throws `ImageError` naming the file as `name` (default: the path).
    public static func contents(of path: String, name: String? = nil, maxBytes: Int) throws -> [UInt8] {
        let file = name ?? path
        // Non-blocking, so opening a FIFO nobody writes to returns at once (and is refused below).
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        if fd < 0 { throw ImageError(file: file, format: nil, reason: .unreadable(String(cString: strerror(errno)))) }
        defer { close(fd) }
        var st = stat()
        if fstat(fd, &st) != 0 {
            throw ImageError(file: file, format: nil, reason: .unreadable(String(cString: strerror(errno))))
        }
        if (st.st_mode & S_IFMT) == S_IFDIR {
            throw ImageError(file: file, format: nil, reason: .unreadable("is a directory"))
        }
        if (st.st_mode & S_IFMT) != S_IFREG {
            throw ImageError(file: file, format: nil, reason: .unreadable("is not a regular file (a FIFO, socket or device)"))
        }
        let size = Int(st.st_size)
        if size > maxBytes { throw ImageError(file: file, format: nil, reason: .fileTooLarge(bytes: size, limit: maxBytes)) }
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        while done < size {
            let n = bytes.withUnsafeMutableBytes { p in read(fd, p.baseAddress! + done, size - done) }
            if n < 0 {
                if errno == EINTR { continue }
                throw ImageError(file: file, format: nil, reason: .unreadable(String(cString: strerror(errno))))
            }
            if n == 0 { break }  // the file shrank while we read it
            done += n
        }
        if done < size { bytes.removeSubrange(done...) }
        return bytes
    }
}
