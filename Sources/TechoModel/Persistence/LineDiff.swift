// A one-hunk line diff (common prefix and suffix trimmed): the compact, invertible record a
// history step keeps of each changed file. See docs/decisions/history.md.
//
// Files are compared as bytes first: the lines the two files share at their start and end (all
// but a few lines of a page after one element moved) are found by comparing eight bytes at a
// time and counting newlines, and only the lines between are split and compared as lines.

#if canImport(Glibc)
    import Glibc
#endif

/// The change from one file's lines to another's as a single replaced run of lines.
///
/// A file is its text split at "\n" (so "a\nb\n" is ["a", "b", ""]); a missing file is no
/// lines at all, which lets one diff create or delete a file.
struct LineDiff: Equatable {
    /// First changed line, 0-based.
    var start: Int
    /// Lines of the old file from `start` that the change removes.
    var removed: [String]
    /// Lines that take their place.
    var inserted: [String]

    /// Lines of a file's bytes; nil bytes (no file) are no lines.
    static func lines(_ bytes: [UInt8]?) -> [String] {
        guard let bytes else { return [] }
        return lines(bytes[...])
    }

    /// Lines of some bytes (at least one line, possibly empty).
    static func lines(_ bytes: ArraySlice<UInt8>) -> [String] {
        bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The diff from the file `old` to the file `new` (nil: no file): the same diff as
    /// `init(from: lines(old), to: lines(new))`, but only the lines near the change are split.
    ///
    /// The lines wholly inside the bytes both files start with, but the last, are skipped (and
    /// counted into `start`), and so are the lines wholly inside the bytes they end with, but
    /// the first. The line kept on each side makes the skipped lines ones the line diff would
    /// have matched too: the first differing byte lies in the first line it finds different
    /// (or, when one file ends there, in the line after), and the skipped trailing lines lie
    /// beyond it in both files.
    /// - Complexity: O(n) byte compares for files of n bytes, eight at a time; lines are made
    ///   only for the changed region.
    init(from old: [UInt8]?, to new: [UInt8]?) {
        guard let old, let new else {
            self.init(from: LineDiff.lines(old), to: LineDiff.lines(new))
            return
        }
        let w = old.withUnsafeBufferPointer { o in new.withUnsafeBufferPointer { n in LineDiff.window(o, n) } }
        self.init(from: LineDiff.lines(old[w.front..<w.oldEnd]), to: LineDiff.lines(new[w.front..<w.newEnd]))
        start += w.skipped
    }

    /// The part of two files a line diff needs: bytes `front..<oldEnd` of `old` and
    /// `front..<newEnd` of `new`, after `skipped` whole lines.
    static func window(_ o: UnsafeBufferPointer<UInt8>, _ n: UnsafeBufferPointer<UInt8>) -> (front: Int, skipped: Int, oldEnd: Int, newEnd: Int) {
        let count = min(o.count, n.count)
        guard count > 0, let op = o.baseAddress, let np = n.baseAddress else { return (0, 0, o.count, n.count) }
        let ob = UnsafeRawPointer(op)
        // The bytes both start with.
        let same = commonPrefix(op, np, count)
        // Skip up to the second-to-last newline before the first difference.
        var front = 0, newlines = 0, q = same
        while q > 0 {
            q -= 1
            if o[q] == 0x0A {
                newlines += 1
                if newlines == 2 { front = q + 1; break }
            }
        }
        let skipped = countNewlines(ob, 0..<front)
        // The bytes both end with, not reaching back into the bytes they start with.
        let tail = commonSuffix(op, o.count, np, n.count, limit: count - same)
        // Keep up to the second newline of those bytes; what follows it is skipped.
        var r = o.count - tail
        newlines = 0
        while r < o.count {
            if o[r] == 0x0A {
                newlines += 1
                if newlines == 2 { break }
            }
            r += 1
        }
        guard newlines == 2 else { return (front, skipped, o.count, n.count) }
        return (front, skipped, r, n.count - (o.count - r))
    }

    /// How many bytes `a` and `b` start with alike, of the first `count`: 4 KiB at a time with
    /// memcmp, then eight at a time.
    static func commonPrefix(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int) -> Int {
        let x = UnsafeRawPointer(a), y = UnsafeRawPointer(b)
        var same = 0
        while same + 4096 <= count && memcmp(x + same, y + same, 4096) == 0 { same += 4096 }
        while same + 8 <= count && x.loadUnaligned(fromByteOffset: same, as: UInt64.self) == y.loadUnaligned(fromByteOffset: same, as: UInt64.self) {
            same += 8
        }
        while same < count && a[same] == b[same] { same += 1 }
        return same
    }

    /// How many bytes `a` (of `aCount`) and `b` (of `bCount`) end with alike, at most `limit`.
    static func commonSuffix(_ a: UnsafePointer<UInt8>, _ aCount: Int, _ b: UnsafePointer<UInt8>, _ bCount: Int, limit: Int) -> Int {
        let x = UnsafeRawPointer(a), y = UnsafeRawPointer(b)
        var tail = 0
        while tail + 4096 <= limit && memcmp(x + (aCount - tail - 4096), y + (bCount - tail - 4096), 4096) == 0 { tail += 4096 }
        while tail + 8 <= limit
            && x.loadUnaligned(fromByteOffset: aCount - tail - 8, as: UInt64.self) == y.loadUnaligned(fromByteOffset: bCount - tail - 8, as: UInt64.self)
        {
            tail += 8
        }
        while tail < limit && a[aCount - 1 - tail] == b[bCount - 1 - tail] { tail += 1 }
        return tail
    }

    /// The number of newline bytes in `range` of the bytes at `p`.
    static func countNewlines(_ p: UnsafeRawPointer, _ range: Range<Int>) -> Int {
        var i = range.lowerBound, total = 0
        let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        while i + 8 <= range.upperBound {
            // A byte of x is zero where the input byte is a newline; y has bit 7 set in those bytes only.
            let x = p.loadUnaligned(fromByteOffset: i, as: UInt64.self) ^ 0x0A0A_0A0A_0A0A_0A0A
            let y = ~((((x & low) &+ low) | x) | low)
            total += y.nonzeroBitCount
            i += 8
        }
        while i < range.upperBound {
            if p.load(fromByteOffset: i, as: UInt8.self) == 0x0A { total += 1 }
            i += 1
        }
        return total
    }

    /// Bytes of lines; no lines is no file.
    static func bytes(_ lines: [String]) -> [UInt8]? {
        guard !lines.isEmpty else { return nil }
        var out: [UInt8] = []
        for (i, line) in lines.enumerated() {
            if i > 0 { out.append(0x0A) }
            out += line.utf8
        }
        return out
    }

    /// The diff from `old` to `new`.
    init(from old: [String], to new: [String]) {
        var prefix = 0
        while prefix < old.count && prefix < new.count && old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix && suffix < new.count - prefix && old[old.count - 1 - suffix] == new[new.count - 1 - suffix] {
            suffix += 1
        }
        start = prefix
        removed = Array(old[prefix..<(old.count - suffix)])
        inserted = Array(new[prefix..<(new.count - suffix)])
    }

    init(start: Int, removed: [String], inserted: [String]) {
        self.start = start; self.removed = removed; self.inserted = inserted
    }

    /// The diff that undoes this one.
    var inverted: LineDiff { LineDiff(start: start, removed: inserted, inserted: removed) }

    /// `lines` with the change applied, or nil when they do not hold the removed lines where
    /// expected (the file changed behind history's back).
    func apply(to lines: [String]) -> [String]? {
        guard start + removed.count <= lines.count, Array(lines[start..<(start + removed.count)]) == removed else { return nil }
        var out = lines
        out.replaceSubrange(start..<(start + removed.count), with: inserted)
        return out
    }
}
