// The writers' output buffer: bytes appended through a pointer, grown by doubling. Appending to
// an Array byte by byte or token by token costs a uniqueness and capacity check and a generic
// call each time, which was most of the cost of writing a page file.

/// A growable byte buffer. Its fields are only touched by its own short methods, none of which
/// calls out while changing them, so they go without the runtime exclusivity checks a class's
/// stored properties otherwise get on every access (a third of a page file's writing time).
final class ByteSink {
    @exclusivity(unchecked) private(set) var base: UnsafeMutablePointer<UInt8>
    /// Bytes written so far.
    @exclusivity(unchecked) private(set) var count = 0
    @exclusivity(unchecked) private var capacity: Int

    init(capacity: Int = 4096) {
        self.capacity = Swift.max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// Makes room for `n` more bytes.
    @inline(__always)
    func reserve(_ n: Int) {
        if count + n > capacity { grow(count + n) }
    }

    private func grow(_ need: Int) {
        let next = Swift.max(need, capacity * 2)
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: next)
        bigger.update(from: base, count: count)
        base.deallocate()
        base = bigger
        capacity = next
    }

    @inline(__always)
    func append(_ b: UInt8) {
        reserve(1)
        base[count] = b
        count += 1
    }

    func append(_ s: StaticString) {
        let n = s.utf8CodeUnitCount
        reserve(n)
        (base + count).update(from: s.utf8Start, count: n)
        count += n
    }

    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let p = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (base + count).update(from: p, count: bytes.count)
        count += bytes.count
    }

    func append(_ bytes: [UInt8]) { bytes.withUnsafeBufferPointer { append($0) } }

    func append(_ bytes: ArraySlice<UInt8>) { bytes.withUnsafeBufferPointer { append($0) } }

    func append(string s: String) {
        var s = s
        s.withUTF8 { append($0) }
    }

    /// Appends `n` copies of `b`.
    func append(repeating b: UInt8, count n: Int) {
        guard n > 0 else { return }
        reserve(n)
        (base + count).initialize(repeating: b, count: n)
        count += n
    }

    /// Two spaces per level of `indent`.
    @inline(__always)
    func pad(_ indent: Int) { append(repeating: 0x20, count: 2 * indent) }

    /// The bytes written.
    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// The bytes written at `range`.
    func bytes(_ range: Range<Int>) -> [UInt8] { Array(UnsafeBufferPointer(start: base + range.lowerBound, count: range.count)) }

    /// Forgets the bytes written after the first `n`.
    func truncate(to n: Int) {
        precondition(n >= 0 && n <= count, "ByteSink.truncate(to: \(n)) with \(count) bytes written")
        count = n
    }

    /// Lets `body` write at most `limit` bytes in place; it answers how many it wrote.
    @inline(__always)
    func write(upTo limit: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        reserve(limit)
        count += body(base + count)
    }

    /// Writes `n` bytes in place with `body`, which gets a pointer to them.
    @inline(__always)
    func write(_ n: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Void) {
        reserve(n)
        body(base + count)
        count += n
    }
}

#if canImport(Glibc)
    import Glibc
#endif

/// Whether two byte arrays are equal, compared with `memcmp` (Array's `==` compares element by
/// element, several times slower on a megabyte page file).
func bytesEqual(_ a: [UInt8], _ b: [UInt8]?) -> Bool {
    guard let b, a.count == b.count else { return false }
    return a.withUnsafeBufferPointer { x in
        b.withUnsafeBufferPointer { y in
            guard let p = x.baseAddress, let q = y.baseAddress else { return true }
            return p == q || memcmp(p, q, x.count) == 0
        }
    }
}
