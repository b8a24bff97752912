// The files a manifest names: each resolved safely under its base folder, hashed once, and its
// natural size asked of the caller (the model does not decode images).

import Foundation

/// The images a manifest uses, by content hash, ready to be imported into a journal.
final class AssetTable {
    /// Source file of each asset.
    var files: [AssetRef: URL] = [:]
    /// Resolved real path → asset and natural size, so a file used many times is read once.
    var byPath: [String: (asset: AssetRef, size: (Double, Double)?)] = [:]
}

/// Resolves `src` paths of one manifest (or template) relative to its folder.
final class ManifestSources {
    let base: URL
    let table: AssetTable
    let imageSize: (URL) throws -> (width: Double, height: Double)
    let maxFileBytes: Int

    init(base: URL, table: AssetTable, imageSize: @escaping (URL) throws -> (width: Double, height: Double), maxFileBytes: Int) {
        self.base = base; self.table = table; self.imageSize = imageSize; self.maxFileBytes = maxFileBytes
    }

    /// The same table, for paths relative to another folder (a template's).
    func rebased(to folder: URL) -> ManifestSources {
        ManifestSources(base: folder, table: table, imageSize: imageSize, maxFileBytes: maxFileBytes)
    }

    /// The asset for a file, hashing it the first time; nil after reporting at `node`.
    func file(_ src: String, at node: JSONNode) -> AssetRef? {
        let url: URL
        do { url = try SafePath.resolve(src, in: base) } catch { node.report("\(error)"); return nil }
        if let hit = table.byPath[url.path] { return hit.asset }
        do {
            let attrs = try FileManager.default.attributesOfItem(atPath: url.path)
            if let n = attrs[.size] as? NSNumber, n.intValue > maxFileBytes {
                node.report("\"\(src)\" is \(n.intValue) bytes, over the limit of \(maxFileBytes)")
                return nil
            }
            guard attrs[.type] as? FileAttributeType == .typeRegular else { node.report("\"\(src)\" is not a regular file"); return nil }
            let data = try Data(contentsOf: url)
            var ext = url.pathExtension.lowercased()
            if ext == "jpeg" { ext = "jpg" }
            if ext.isEmpty { ext = "bin" }
            let asset = try AssetRef(sha256: SHA256.hex(data), ext: ext)
            table.byPath[url.path] = (asset, nil)
            table.files[asset] = url
            return asset
        } catch {
            node.report("cannot read \"\(src)\": \(error)")
            return nil
        }
    }

    /// The asset and natural size of an image file; nil after reporting.
    func image(_ src: String, at node: JSONNode) -> (asset: AssetRef, size: (Double, Double))? {
        guard let asset = file(src, at: node), let url = table.files[asset] else { return nil }
        let key = url.path
        if let s = table.byPath[key]?.size { return (asset, s) }
        do {
            let s = try imageSize(url)
            guard s.width >= 1, s.height >= 1, s.width.isFinite, s.height.isFinite else {
                node.report("\"\(src)\" has no pixels (\(s.width)x\(s.height))")
                return nil
            }
            table.byPath[key] = (asset, (s.width, s.height))
            return (asset, (s.width, s.height))
        } catch {
            node.report("\(error)")
            return nil
        }
    }
}
