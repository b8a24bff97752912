// The write-ahead record of a change (`history/pending.rec`, docs/decisions/storage.md): the
// full new contents of every file the change touches, each as its own bytes after a line that
// names the file and its length. Each page is copied into the record as it is, so writing the
// record costs a copy of what the change writes (a JSON string of each file, as the first record
// format held, cost more than every other step of a change: a page file has a quote or a newline
// every dozen bytes, each escaped). A record of that first format (`history/pending.json`), left
// by an interrupted change of an older techo, is still read and completed.
//
//     techo-pending 2\n
//     write PATH LENGTH\n  LENGTH bytes  \n      (a file written)
//     remove PATH\n                               (a file removed)
//     end\n
//
// Paths are journal files (`JournalStore.isRecordPath`), which hold no space or newline.

extension JournalStore {
    /// The first line of a record.
    static let pendingMagic = "techo-pending 2\n"

    /// The bytes of the record for `writes`.
    static func pendingRecord(_ writes: [(path: String, bytes: [UInt8]?)]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(writes.reduce(64) { $0 + ($1.bytes?.count ?? 0) + $1.path.utf8.count + 32 })
        out += pendingMagic.utf8
        for w in writes {
            if let bytes = w.bytes {
                out += "write \(w.path) \(bytes.count)\n".utf8
                out += bytes
                out.append(0x0A)
            } else {
                out += "remove \(w.path)\n".utf8
            }
        }
        out += "end\n".utf8
        return out
    }

    /// The writes of a record, or an error naming `name` and what is wrong; every path is a
    /// journal file.
    static func parsePendingRecord(_ bytes: [UInt8], name: String) throws -> [(path: String, bytes: [UInt8]?)] {
        func fail(_ why: String) -> StorageError { StorageError(path: name, message: "not a complete change record: \(why)") }
        var i = 0
        func line() throws -> String {
            guard let nl = bytes[i...].firstIndex(of: 0x0A) else { throw fail("a line without its end at byte \(i)") }
            guard let s = String(validating: bytes[i..<nl], as: UTF8.self) else { throw fail("a line that is not UTF-8 at byte \(i)") }
            i = nl + 1
            return s
        }
        guard try line() + "\n" == pendingMagic else { throw fail("it does not start with '\(pendingMagic.dropLast())'") }
        var writes: [(path: String, bytes: [UInt8]?)] = []
        while true {
            let words = try line().split(separator: " ", omittingEmptySubsequences: false).map(String.init)
            switch (words.first, words.count) {
            case ("end", 1):
                guard i == bytes.count else { throw fail("\(bytes.count - i) bytes after its end") }
                return writes
            case ("remove", 2):
                guard isRecordPath(words[1]) else { throw fail("'\(words[1])' is not a journal file") }
                writes.append((words[1], nil))
            case ("write", 3):
                guard isRecordPath(words[1]) else { throw fail("'\(words[1])' is not a journal file") }
                guard let n = Int(words[2]), n >= 0, n < bytes.count - i else { throw fail("a length of '\(words[2])' for \(words[1])") }
                guard bytes[i + n] == 0x0A else { throw fail("the content of \(words[1]) is not followed by its line end") }
                writes.append((words[1], Array(bytes[i..<(i + n)])))
                i += n + 1
            default:
                throw fail("an unknown line '\(words.joined(separator: " ").prefix(80))'")
            }
        }
    }

    /// Whether a record may write `path`: a page, `journal.json`, a history step or the
    /// history's state.
    static func isRecordPath(_ path: String) -> Bool {
        isManagedPath(path) || InkFile.page(ofPath: path) != nil || path == stateFile
            || (path.hasPrefix("history/") && path.hasSuffix(".json") && Int(path.dropFirst(8).dropLast(5)) != nil)
    }
}
