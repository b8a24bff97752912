// Assets inside transactions, the source index's racy rule, and the asset paths gc looks for.
import Foundation
import Testing

@testable import TechoModel

@Suite struct AssetStoreTests {
    func imageElement(_ id: String, _ asset: AssetRef) throws -> Element {
        try Element(id: id, content: .image(ImageContent(asset: asset, naturalWidth: 8, naturalHeight: 8)), placement: Placement(center: Point(4, 4)))
    }

    func assets(_ store: JournalStore) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: store.url.appendingPathComponent("assets").path)) ?? []).sorted()
    }

    @Test func anImportIsRemovedWhenItsChangeFailsOrChangesNothing() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let (store, _) = try newStore(dir)
        let before = assets(store)
        let a = try AssetImport(bytes: Array("new sticker".utf8), ext: "png")
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            try store.transaction(description: "fails", importing: [a]) { _, pages in
                pages["p1"]?.elements.append(try imageElement("new-1", a.ref))
                throw Refused()
            }
        }
        #expect(assets(store) == before)
        try store.transaction(description: "no change", importing: [a]) { _, _ in }
        #expect(assets(store) == before)
        #expect(try store.history().isEmpty)
        // A page that uses an asset nobody imports is refused, and nothing is left.
        let missing = try AssetRef(sha256: SHA256.hex(Array("elsewhere".utf8)), ext: "png")
        #expect(throws: StorageError.self) {
            try store.transaction(description: "dangling", importing: [a]) { _, pages in
                pages["p1"]?.elements.append(try imageElement("new-2", missing))
            }
        }
        #expect(assets(store) == before)
        // The change that uses it keeps it, and an import of bytes already there writes nothing.
        try store.transaction(description: "adds", importing: [a, a]) { _, pages in
            pages["p1"]?.elements.append(try imageElement("new-1", a.ref))
        }
        #expect(assets(store) == (before + [String(a.ref.path.dropFirst(7))]).sorted())
        #expect(store.check().isEmpty)
    }

    @Test func aFileImportChangedSinceItWasHashedIsRefused() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let (store, _) = try newStore(dir)
        try dir.write("src/a.png", Array("first".utf8))
        let path = dir.url.appendingPathComponent("src/a.png")
        let seen = try #require(SourceFingerprint.of(path.path))
        let ref = try AssetRef(sha256: SHA256.hex(Array("first".utf8)), ext: "png")
        try dir.write("src/a.png", Array("second!".utf8))
        #expect(SourceFingerprint.of(path.path) != seen)
        let e = #expect(throws: StorageError.self) {
            try store.transaction(description: "adds", importing: [AssetImport(ref: ref, source: .file(path, seen))]) { _, pages in
                pages["p1"]?.elements.append(try imageElement("a-1", ref))
            }
        }
        #expect(e?.message == "changed while being imported")
    }

    @Test func theSourceIndexKeepsOnlyFilesOlderThanTheRacyWindow() throws {
        let ref = try AssetRef(sha256: SHA256.hex(Array("x".utf8)), ext: "png")
        let hashedAt: Int64 = 1_700_000_000_000_000_000
        func record(mtime: Int64) -> SourceRecord {
            SourceRecord(fingerprint: SourceFingerprint(size: 1, mtimeNanoseconds: mtime, inode: 7, device: 1), asset: ref, naturalSize: (8, 8))
        }
        var index = SourceIndex()
        index.record("/old.png", record(mtime: hashedAt - SourceIndex.racyWindowNanoseconds), hashedAt: hashedAt)
        index.record("/fresh.png", record(mtime: hashedAt - SourceIndex.racyWindowNanoseconds + 1), hashedAt: hashedAt)
        #expect(index.records.keys.sorted() == ["/old.png"])
        let old = record(mtime: hashedAt - SourceIndex.racyWindowNanoseconds).fingerprint
        #expect(index.lookup("/old.png", old)?.asset == ref)
        var touched = old
        touched.mtimeNanoseconds += 1
        #expect(index.lookup("/old.png", touched) == nil)
        var moved = old
        moved.inode += 1
        #expect(index.lookup("/old.png", moved) == nil)
        // A fresh record replaces an old one for the same path by removing it.
        index.record("/old.png", record(mtime: hashedAt), hashedAt: hashedAt)
        #expect(index.records.isEmpty)
        // It round-trips through its JSON, and junk is an empty index.
        index.record("/old.png", record(mtime: 1), hashedAt: hashedAt)
        let back = SourceIndex.decode(index.json)
        #expect(back.lookup("/old.png", record(mtime: 1).fingerprint)?.naturalSize?.width == 8)
        #expect(SourceIndex.decode(.string("junk")).records.isEmpty)
    }

    @Test func assetPathsAreFoundInHistoryLines() {
        let a = String(repeating: "ab", count: 32)
        #expect(JournalStore.assetPaths(in: "      \"asset\": \"assets/\(a).png\",") == ["assets/\(a).png"])
        #expect(JournalStore.assetPaths(in: "\"pattern\": \"assets/\(a).jpg\", \"image\": \"assets/\(a).webp\"") == ["assets/\(a).jpg", "assets/\(a).webp"])
        #expect(JournalStore.assetPaths(in: "\"text\": \"assets/not-a-hash.png\"").isEmpty)
        #expect(JournalStore.assetPaths(in: "assets/\(a)").isEmpty)
    }
}
