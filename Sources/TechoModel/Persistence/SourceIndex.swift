// The journal's source index (`sources.json`): for each file a manifest imported, the stat
// fingerprint it had when it was hashed, the asset it became and its natural size, so a rebuild
// neither reads nor hashes a file whose size, modification time, inode and device are unchanged
// (git's index rule). See docs/decisions/sources.md for the rule and its limits.
import Foundation

/// What a build learnt about one source file.
public struct SourceRecord: Sendable {
    /// The file's fingerprint when it was read and hashed.
    public var fingerprint: SourceFingerprint
    /// The asset it was imported as (after GPS removal, unless `keptGPS`).
    public var asset: AssetRef
    /// Its natural size, when it is an image. Default nil.
    public var naturalSize: (width: Double, height: Double)?
    /// The asset keeps the file's GPS data (`--keep-gps`). Default false.
    public var keptGPS = false

    public init(fingerprint: SourceFingerprint, asset: AssetRef, naturalSize: (width: Double, height: Double)?, keptGPS: Bool = false) {
        self.fingerprint = fingerprint; self.asset = asset; self.naturalSize = naturalSize; self.keptGPS = keptGPS
    }
}

/// The source index of a journal: a cache outside history. A missing, unreadable or malformed
/// index is an empty one; it never makes a command fail.
public struct SourceIndex: Sendable {
    static let file = "sources.json"
    /// A file modified less than this long before it was hashed is not recorded: a change in
    /// the same timestamp tick (2 s on FAT, 1 s on ext3, ns on ext4) could keep its fingerprint.
    public static let racyWindowNanoseconds: Int64 = 2_000_000_000

    /// Records by the file's real path.
    public var records: [String: SourceRecord] = [:]

    public init(records: [String: SourceRecord] = [:]) { self.records = records }

    /// The record for `path` if the file still has the fingerprint recorded.
    public func lookup(_ path: String, _ fingerprint: SourceFingerprint) -> SourceRecord? {
        guard let r = records[path], r.fingerprint == fingerprint else { return nil }
        return r
    }

    /// Adds `record` unless the file was modified within the racy window before `hashedAt`
    /// (nanoseconds since 1970); an older record for the path is dropped either way.
    public mutating func record(_ path: String, _ record: SourceRecord, hashedAt: Int64) {
        records[path] = nil
        guard record.fingerprint.mtimeNanoseconds <= hashedAt - SourceIndex.racyWindowNanoseconds else { return }
        records[path] = record
    }

    var json: JSONValue {
        .object([
            "techo": .number(1),
            "sources": .array(
                records.keys.sorted().compactMap { path in
                    guard let r = records[path] else { return nil }
                    let f = r.fingerprint
                    var o: [String: JSONValue] = [
                        "path": .string(path), "asset": .string(r.asset.path), "size": .string(String(f.size)),
                        "mtime": .string(String(f.mtimeNanoseconds)), "inode": .string(String(f.inode)), "device": .string(String(f.device)),
                    ]
                    if let s = r.naturalSize { o["naturalSize"] = .array([.number(s.width), .number(s.height)]) }
                    if r.keptGPS { o["keptGPS"] = .bool(true) }
                    return .object(o)
                }),
        ])
    }

    static func decode(_ value: JSONValue) -> SourceIndex {
        var out = SourceIndex()
        guard case .object(let root) = value, case .array(let items)? = root["sources"] else { return out }
        for item in items {
            guard case .object(let o) = item, case .string(let path)? = o["path"], case .string(let a)? = o["asset"],
                let asset = try? AssetRef(path: a),
                case .string(let size)? = o["size"], let sz = Int64(size), case .string(let m)? = o["mtime"], let mt = Int64(m),
                case .string(let i)? = o["inode"], let ino = UInt64(i), case .string(let d)? = o["device"], let dev = UInt64(d)
            else { continue }
            var natural: (Double, Double)?
            if case .array(let s)? = o["naturalSize"], s.count == 2, case .number(let w) = s[0], case .number(let h) = s[1],
                w >= 1, h >= 1, w <= 1e6, h <= 1e6
            {
                natural = (w, h)
            }
            var kept = false
            if case .bool(let k)? = o["keptGPS"] { kept = k }
            out.records[path] = SourceRecord(
                fingerprint: SourceFingerprint(size: sz, mtimeNanoseconds: mt, inode: ino, device: dev),
                asset: asset, naturalSize: natural, keptGPS: kept)
        }
        return out
    }
}

extension JournalStore {
    /// The journal's source index (empty when there is none or it does not parse).
    public func sourceIndex() -> SourceIndex {
        guard let bytes = try? FileIO.readFile(file(SourceIndex.file), name: SourceIndex.file, limit: limits.json.maxBytes),
            let value = try? JSONParser.parse(bytes, file: SourceIndex.file, limits: limits.json)
        else { return SourceIndex() }
        return SourceIndex.decode(value)
    }

    /// Saves the source index under the lock, keeping only records whose asset is in the
    /// bundle. A cache: written atomically, outside history.
    public func saveSourceIndex(_ index: SourceIndex) throws {
        try locked {
            var kept = index
            kept.records = index.records.filter { hasAsset($0.value.asset) }
            let bytes = kept.json.serializedBytes()
            guard bytes.count <= limits.json.maxBytes else { return }
            try FileIO.writeAtomically(bytes, to: file(SourceIndex.file), name: SourceIndex.file, hook: nil, durable: durable)
        }
    }
}
