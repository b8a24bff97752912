// The files a manifest names: each resolved safely under its base folder, read and hashed once
// per command (or not at all when the journal's source index vouches for it), and its natural
// size asked of the caller (the model does not decode images).

import Foundation

/// The images a manifest uses, by content hash, ready to be imported into a journal.
final class AssetTable {
    /// Source file of each asset.
    var files: [AssetRef: URL] = [:]
    /// The fingerprint each source file had when it was hashed.
    var fingerprints: [AssetRef: SourceFingerprint] = [:]
    /// Resolved real path → asset and natural size, so a file used many times is read once.
    var byPath: [String: (asset: AssetRef, size: (Double, Double)?)] = [:]
    /// What was learnt about each source file (real path), for the journal's source index.
    var records: [String: SourceRecord] = [:]
    /// Assets the source index vouched for: already in the journal, not read this time.
    var known: Set<AssetRef> = []
    /// The bytes of the file read last, until its natural size is asked (so it is read once).
    var lastRead: (path: String, bytes: [UInt8])?
    /// Stickers named by `PACK/NAME`, each read once.
    var stickers: [String: (asset: AssetImport, size: (Double, Double))] = [:]
}

/// Resolves `src` paths of one manifest (or template) relative to its folder.
final class ManifestSources {
    let base: URL
    let table: AssetTable
    let environment: ManifestEnvironment

    init(base: URL, table: AssetTable, environment: ManifestEnvironment) {
        self.base = base; self.table = table; self.environment = environment
    }

    /// The same table, for paths relative to another folder (a template's).
    func rebased(to folder: URL) -> ManifestSources {
        ManifestSources(base: folder, table: table, environment: environment)
    }

    /// The asset for a file, hashing it the first time; nil after reporting at `node`.
    func file(_ src: String, at node: JSONNode) -> AssetRef? {
        let url: URL
        do { url = try SafePath.resolve(src, in: base) } catch { node.report("\(error)"); return nil }
        if let hit = table.byPath[url.path] { return hit.asset }
        var ext = url.pathExtension.lowercased()
        if ext == "jpeg" { ext = "jpg" }
        if ext.isEmpty { ext = "bin" }
        if let seen = SourceFingerprint.of(url.path), let known = environment.knownSource?(url.path, seen), known.asset.ext == ext {
            table.byPath[url.path] = (known.asset, known.naturalSize.map { ($0.width, $0.height) })
            table.files[known.asset] = url
            table.fingerprints[known.asset] = seen
            table.records[url.path] = known
            table.known.insert(known.asset)
            return known.asset
        }
        do {
            // The copy into the journal is made from these bytes: a file written to while they
            // were read is refused, not imported torn.
            guard
                let (bytes, seen) = try FileIO.readFileAndFingerprint(
                    url, name: src, limit: environment.maxFileBytes, followSymlinks: true, unchanged: true)
            else {
                node.report("\"\(src)\": no such file")
                return nil
            }
            let asset = try AssetRef(sha256: SHA256.hex(bytes), ext: ext)
            table.byPath[url.path] = (asset, nil)
            table.files[asset] = url
            table.fingerprints[asset] = seen
            table.records[url.path] = SourceRecord(fingerprint: seen, asset: asset, naturalSize: nil)
            table.lastRead = (url.path, bytes)
            return asset
        } catch let e as StorageError {
            node.report("\"\(src)\": \(e.message)")
            return nil
        } catch {
            node.report("cannot read \"\(src)\": \(error)")
            return nil
        }
    }

    /// The asset of a font file, checked by the environment's font probe; nil after reporting.
    func font(_ src: String, at node: JSONNode) -> AssetRef? {
        guard let probe = environment.fontFileExtension else {
            node.report("font files cannot be imported here")
            return nil
        }
        let url: URL
        do { url = try SafePath.resolve(src, in: base) } catch { node.report("\(error)"); return nil }
        if let hit = table.byPath[url.path] { return hit.asset }
        do {
            guard
                let (bytes, seen) = try FileIO.readFileAndFingerprint(
                    url, name: src, limit: environment.maxFileBytes, followSymlinks: true, unchanged: true)
            else {
                node.report("\"\(src)\": no such file")
                return nil
            }
            let asset = try AssetRef(sha256: SHA256.hex(bytes), ext: try probe(url, bytes))
            try environment.hashed?(url, asset, bytes)
            table.byPath[url.path] = (asset, nil)
            table.files[asset] = url
            table.fingerprints[asset] = seen
            return asset
        } catch let e as StorageError {
            node.report("\"\(src)\": \(e.message)")
        } catch {
            node.report("\(error)")
        }
        return nil
    }

    /// The asset and natural size of sticker `name` (`PACK/NAME`) from the environment's packs;
    /// nil after reporting.
    func sticker(_ name: String, at node: JSONNode) -> (asset: AssetRef, size: (Double, Double))? {
        if let hit = table.stickers[name] { return (hit.asset.ref, hit.size) }
        guard let find = environment.sticker else {
            node.report("stickers from packs cannot be named here")
            return nil
        }
        do {
            let found = try find(name)
            table.stickers[name] = (found.asset, (found.width, found.height))
            return (found.asset.ref, (found.width, found.height))
        } catch {
            node.report("\(error)")
            return nil
        }
    }

    /// The asset and natural size of an image file; nil after reporting.
    func image(_ src: String, at node: JSONNode) -> (asset: AssetRef, size: (Double, Double))? {
        guard let asset = file(src, at: node), let url = table.files[asset] else { return nil }
        let key = url.path
        if let s = table.byPath[key]?.size { return (asset, s) }
        do {
            let bytes: [UInt8]
            // Only the bytes `file` hashed are the asset's (a file read again here may differ).
            var hashed = false
            if let last = table.lastRead, last.path == key {
                bytes = last.bytes
                hashed = true
            } else {
                guard let (b, _) = try FileIO.readFileAndFingerprint(url, name: src, limit: environment.maxFileBytes, followSymlinks: true) else {
                    node.report("\"\(src)\": no such file")
                    return nil
                }
                bytes = b
            }
            table.lastRead = nil
            let s = try environment.imageSize(url, bytes)
            guard s.width >= 1, s.height >= 1, s.width.isFinite, s.height.isFinite else {
                node.report("\"\(src)\" has no pixels (\(s.width)x\(s.height))")
                return nil
            }
            if hashed { try environment.hashed?(url, asset, bytes) }
            table.byPath[key] = (asset, (s.width, s.height))
            table.records[key]?.naturalSize = (s.width, s.height)
            return (asset, (s.width, s.height))
        } catch {
            node.report("\(error)")
            return nil
        }
    }
}
