// Reading the first bytes of a file, for sniffing its format without reading it whole.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension FileBytes {
    /// At most the first `count` bytes of the regular file at `path`; empty when it cannot be
    /// opened, is not a regular file (a FIFO is never waited on), or is empty. Callers that need
    /// the reason read the file with `contents(of:maxBytes:)`, which throws it.
    public static func head(of path: String, count: Int) -> [UInt8] {
        precondition(count >= 0, "count must not be negative")
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return [] }
        var bytes = [UInt8](repeating: 0, count: min(count, Int(st.st_size)))
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeMutableBytes { p in read(fd, p.baseAddress! + done, p.count - done) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            done += n
        }
        return Array(bytes.prefix(done))
    }
}
