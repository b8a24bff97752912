// An asset on its way into a journal: its content address, computed once per command, and where
// its bytes are.
import Foundation

/// Bytes to store as `assets/<sha256>.<ext>`, with the reference pages use for them.
public struct AssetImport: Sendable {
    /// Where the bytes are.
    public enum Source: Sendable {
        /// In memory.
        case bytes([UInt8])
        /// In a file that was hashed when it had `fingerprint`. It is read again only if the
        /// asset is not in the bundle yet; if its fingerprint changed since (or is nil), it is
        /// hashed again and refused when its content changed ("changed while being imported").
        case file(URL, SourceFingerprint?)
        /// In a file this command wrote itself from the bytes it hashed (`AssetStaging`), in a
        /// folder beside the journal: linked into the bundle once its data is synced, never read
        /// again (copied only when the bundle is on another file system).
        case staged(URL)
    }

    /// The asset's reference (its SHA-256 and extension).
    public let ref: AssetRef
    /// Where its bytes are.
    public let source: Source

    /// Hashes `bytes` (once). `ext` is lowercased and `jpeg` becomes `jpg`.
    public init(bytes: [UInt8], ext: String) throws {
        var e = ext.lowercased()
        if e == "jpeg" { e = "jpg" }
        self.ref = try AssetRef(sha256: SHA256.hex(bytes), ext: e)
        self.source = .bytes(bytes)
    }

    /// An asset whose hash is already known; the caller vouches that `ref.sha256` is the hash of
    /// the source's bytes.
    public init(ref: AssetRef, source: Source) {
        self.ref = ref
        self.source = source
    }
}

/// What `stat` says about a source file: if all of it is unchanged, so is the content (git's
/// rule; see docs/decisions/sources.md for where that fails).
public struct SourceFingerprint: Equatable, Hashable, Sendable {
    /// Size in bytes.
    public var size: Int64
    /// Modification time, nanoseconds since 1970.
    public var mtimeNanoseconds: Int64
    /// Inode number.
    public var inode: UInt64
    /// Device number.
    public var device: UInt64

    public init(size: Int64, mtimeNanoseconds: Int64, inode: UInt64, device: UInt64) {
        self.size = size; self.mtimeNanoseconds = mtimeNanoseconds; self.inode = inode; self.device = device
    }

    init(_ st: stat) {
        size = Int64(st.st_size)
        mtimeNanoseconds = Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
        inode = UInt64(st.st_ino)
        device = UInt64(st.st_dev)
    }

    /// The fingerprint of the file at `path` (symbolic links followed), or nil when it cannot
    /// be read.
    public static func of(_ path: String) -> SourceFingerprint? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return SourceFingerprint(st)
    }
}
