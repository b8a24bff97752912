// A one-hunk line diff (common prefix and suffix trimmed): the compact, invertible record a
// history step keeps of each changed file. See docs/decisions/history.md.

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
        return bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
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
