// `techo gc`: removing assets nothing can use any more. An asset is kept while the current
// pages use it or any kept history step mentions it: undo and redo rebuild pages only from the
// lines those steps hold, so an asset path in none of them is out of every reachable state.

import Foundation

extension JournalStore {
    /// The assets `gc` removes (or would remove), with their sizes.
    public struct Collected: Equatable, Sendable {
        /// Bundle-relative paths, sorted.
        public var removed: [String] = []
        /// Bytes they held.
        public var bytes: Int = 0
    }

    /// Removes the files in `assets/` that no page and no kept history step references, under
    /// the lock (after completing any interrupted change). With `dryRun`, removes nothing and
    /// reports what it would remove.
    /// - Throws: `StorageError` when a page or history step cannot be read: then nothing is
    ///   removed, since what it references is unknown.
    public func collectGarbage(dryRun: Bool = false) throws -> Collected {
        try locked {
            let ((_, pages), _) = try loadSnapshot()
            var used = Set<String>()
            for page in pages.values { for a in page.assets { used.insert(a.path) } }
            let state = try readState()
            if state.top >= state.first {
                for n in state.first...state.top {
                    let path = JournalStore.stepPath(n)
                    guard let bytes = try FileIO.readFile(file(path), name: path) else {
                        throw StorageError(path: path, message: "missing history step; nothing removed")
                    }
                    for f in try HistoryStep.decode(bytes, file: path).files {
                        for line in f.diff.removed + f.diff.inserted { used.formUnion(JournalStore.assetPaths(in: line)) }
                    }
                }
            }
            var out = Collected()
            for name in FileIO.list(file("assets")) where !name.hasPrefix(".") {
                let path = "assets/\(name)"
                guard !used.contains(path) else { continue }
                var st = stat()
                guard lstat(file(path).path, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { continue }
                out.removed.append(path)
                out.bytes += Int(st.st_size)
            }
            if !dryRun {
                for path in out.removed { try FileIO.remove(file(path), name: path, syncFolder: false) }
                if durable && !out.removed.isEmpty { try FileIO.syncDirectory(file("assets"), name: "assets") }
            }
            return out
        }
    }

    /// Every `assets/<64 hex>.<ext>` in a line of text.
    static func assetPaths(in line: String) -> [String] {
        guard line.contains("assets/") else { return [] }
        var out: [String] = []
        let u = Array(line.utf8)
        let marker = Array("assets/".utf8)
        var i = 0
        while i + marker.count + 66 <= u.count {
            if Array(u[i..<(i + marker.count)]) == marker {
                let h = i + marker.count
                let hex = u[h..<(h + 64)]
                if hex.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }), u[h + 64] == 0x2E {
                    var e = h + 65
                    while e < u.count, e - h - 65 < 8, (u[e] >= 0x30 && u[e] <= 0x39) || (u[e] >= 0x61 && u[e] <= 0x7A) { e += 1 }
                    if e > h + 65 { out.append(String(decoding: u[i..<e], as: UTF8.self)) }
                    i = e
                    continue
                }
            }
            i += 1
        }
        return out
    }
}
