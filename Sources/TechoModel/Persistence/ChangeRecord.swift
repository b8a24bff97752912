// The write-ahead record of a change, third format (docs/decisions/storage.md): it names the
// synced temp files that hold the change's new contents instead of holding a copy of them, and
// it is written in place into one of two record slots (`history/pending-0.rec`,
// `history/pending-1.rec`) with a checksum, so that making it durable is one `fdatasync` of a
// file that already exists, in the same round of syncs as the temp files. A change then costs
// the disk one flush round instead of three.
//
//     techo-change 3\n
//     sum CHECKSUM LENGTH\n                    (checksum and length of all that follows)
//     seq SEQ\n
//     remove PATH INODE SIZE MTIME CTIME\n     (a file removed, if it is still that file)
//     write PATH TEMP LENGTH CHECKSUM\n        (a file replaced by its temp, in the same folder)
//     end\n
//
// Checksums are `ChangeRecord.checksum` in 16 hex digits; times are nanoseconds. Paths are
// journal files (`JournalStore.isRecordPath`), temp names `FileIO.tempPrefix` names; neither
// holds a space or a newline.

#if canImport(Glibc)
    import Glibc
#endif

struct ChangeRecord: Equatable {
    /// A file the change replaces: `path` gets the bytes of `temp` (a name in the same folder),
    /// `length` bytes whose checksum is `checksum`.
    struct Write: Equatable {
        var path: String
        var temp: String
        var length: Int
        var checksum: UInt64
    }
    /// A file the change removes, when it is still the file it was when the change was made.
    struct Removal: Equatable {
        var path: String
        var was: FileIdentity
    }

    /// Orders the two slots: the record with the higher number is the later change.
    var seq: UInt64
    var removals: [Removal]
    var writes: [Write]

    static let magic = "techo-change 3\n"
    static let slots = ["history/pending-0.rec", "history/pending-1.rec"]
    /// A record is a few lines per file; a slot larger than this is not one.
    static let maxBytes = 1 << 20

    /// The record's bytes.
    var bytes: [UInt8] {
        var body = "seq \(seq)\n"
        for r in removals { body += "remove \(r.path) \(r.was.inode) \(r.was.size) \(r.was.mtime) \(r.was.ctime)\n" }
        for w in writes { body += "write \(w.path) \(w.temp) \(w.length) \(ChangeRecord.hex(w.checksum))\n" }
        body += "end\n"
        let b = Array(body.utf8)
        return Array("\(ChangeRecord.magic)sum \(ChangeRecord.hex(ChangeRecord.checksum(b))) \(b.count)\n".utf8) + b
    }

    /// The record `bytes` hold, or nil when they are not a whole record of this format (a slot
    /// written only in part, by a change that never reached its commit point, reads as nil).
    init?(bytes: [UInt8]) {
        let magic = Array(ChangeRecord.magic.utf8)
        guard bytes.count > magic.count, Array(bytes[0..<magic.count]) == magic,
            let nl = bytes[magic.count...].firstIndex(of: 0x0A),
            let header = String(validating: bytes[magic.count..<nl], as: UTF8.self)
        else { return nil }
        let h = header.split(separator: " ", omittingEmptySubsequences: false)
        guard h.count == 3, h[0] == "sum", let sum = UInt64(h[1], radix: 16), let length = Int(h[2]), length == bytes.count - nl - 1
        else { return nil }
        let body = Array(bytes[(nl + 1)...])
        guard ChangeRecord.checksum(body) == sum, let text = String(validating: body, as: UTF8.self) else { return nil }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
        guard let first = lines.popFirst(), first.hasPrefix("seq "), let seq = UInt64(first.dropFirst(4)) else { return nil }
        self.seq = seq
        removals = []
        writes = []
        var ended = false
        for line in lines {
            if ended { guard line.isEmpty else { return nil }; continue }
            let w = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
            switch (w.first, w.count) {
            case ("end", 1):
                ended = true
            case ("remove", 6):
                guard JournalStore.isRecordPath(w[1]), let ino = UInt64(w[2]), let size = Int64(w[3]), let m = Int64(w[4]), let c = Int64(w[5])
                else { return nil }
                removals.append(Removal(path: w[1], was: FileIdentity(device: 0, inode: ino, size: size, mtime: m, ctime: c)))
            case ("write", 5):
                guard JournalStore.isRecordPath(w[1]), w[2].hasPrefix(FileIO.tempPrefix), !w[2].contains("/"),
                    let n = Int(w[3]), n >= 0, let sum = UInt64(w[4], radix: 16)
                else { return nil }
                writes.append(Write(path: w[1], temp: w[2], length: n, checksum: sum))
            default:
                return nil
            }
        }
        guard ended else { return nil }
    }

    init(seq: UInt64, removals: [Removal], writes: [Write]) {
        self.seq = seq
        self.removals = removals
        self.writes = writes
    }

    /// The bundle-relative path of a write's temp file.
    static func tempPath(_ w: Write) -> String {
        let folder = w.path.split(separator: "/").dropLast().joined(separator: "/")
        return folder.isEmpty ? w.temp : "\(folder)/\(w.temp)"
    }

    /// A 64-bit checksum of `bytes`: not a cryptographic hash, it tells a record or temp file
    /// written whole from one a crash cut short or mixed with what the slot held before.
    static func checksum(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBytes { b in
            var h: UInt64 = 0x243F_6A88_85A3_08D3 ^ UInt64(b.count)
            var i = 0
            while i + 8 <= b.count {
                h = (h ^ b.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0x9E37_79B9_7F4A_7C15
                h ^= h >> 32
                i += 8
            }
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            while i < b.count {
                tail |= UInt64(b[i]) << shift
                shift += 8
                i += 1
            }
            h = (h ^ tail) &* 0x9E37_79B9_7F4A_7C15
            return h ^ (h >> 29)
        }
    }

    static func hex(_ v: UInt64) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }
}
