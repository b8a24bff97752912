// Assets staged beside a journal are linked into it, not copied; a source file written to while
// the manifest reader reads it is refused (docs/decisions/sources.md).
import Foundation
import Testing

@testable import TechoModel

#if canImport(Glibc)
    import Glibc
#endif

@Suite(.serialized) struct StagedImportTests {
    func imageElement(_ id: String, _ asset: AssetRef) throws -> Element {
        try Element(id: id, content: .image(ImageContent(asset: asset, naturalWidth: 8, naturalHeight: 8)), placement: Placement(center: Point(4, 4)))
    }

    func inode(_ url: URL) -> UInt64? {
        var st = stat()
        return lstat(url.path, &st) == 0 ? UInt64(st.st_ino) : nil
    }

    @Test func aStagedAssetIsLinkedIntoTheJournal() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let (store, _) = try newStore(dir)
        let staging = try #require(AssetStaging(beside: store.url))
        defer { staging.remove() }
        #expect(staging.folder.deletingLastPathComponent() == store.url.deletingLastPathComponent())
        let bytes = Array("new picture".utf8)
        let ref = try AssetRef(sha256: SHA256.hex(bytes), ext: "png")
        let staged = try staging.stage(bytes, as: ref)
        #expect(try staging.stage(bytes, as: ref) == staged, "staged once")
        let stagedInode = try #require(inode(staged))
        try store.transaction(description: "adds", importing: [AssetImport(ref: ref, source: .staged(staged))]) { _, pages in
            pages["p1"]?.elements.append(try imageElement("n-1", ref))
        }
        let dest = store.url.appendingPathComponent(ref.path)
        #expect(inode(dest) == stagedInode, "the staged file itself, linked: not read and written again")
        #expect(inode(staged) == stagedInode, "the staged file stays for pages still being drawn")
        #expect([UInt8](try Data(contentsOf: dest)) == bytes)
        #expect(store.check().isEmpty)
    }

    @Test func aStagedAssetOfAFailedChangeLeavesNothingInTheJournal() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let (store, _) = try newStore(dir)
        let staging = try #require(AssetStaging(beside: store.url))
        defer { staging.remove() }
        let bytes = Array("another picture".utf8)
        let ref = try AssetRef(sha256: SHA256.hex(bytes), ext: "png")
        let staged = try staging.stage(bytes, as: ref)
        let dest = store.url.appendingPathComponent(ref.path).path
        #expect(throws: ValueError.self) {
            try store.transaction(description: "fails", importing: [AssetImport(ref: ref, source: .staged(staged))]) { _, _ in
                throw ValueError("refused")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: dest))
        // A change that changes nothing: the asset was linked in, and is removed again.
        try store.transaction(description: "nothing", importing: [AssetImport(ref: ref, source: .staged(staged))]) { _, _ in }
        #expect(!FileManager.default.fileExists(atPath: dest))
        #expect(store.check().isEmpty)
        staging.remove()
        #expect(!FileManager.default.fileExists(atPath: staging.folder.path))
    }

    @Test func aSourceFileWrittenToWhileTheManifestReadsItIsRefused() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        try dir.write("photos/a.jpg", Array("jpeg bytes".utf8))
        try dir.write("photos/b.jpg", Array("other bytes".utf8))
        let target = dir.url.appendingPathComponent("photos/a.jpg").path
        let manifest = """
            {"page": {"size": "100x100"}, "pages": [{"id": "p", "elements": [
              {"type": "image", "src": "photos/b.jpg", "at": [10, 10]},
              {"type": "image", "src": "photos/a.jpg", "at": [50, 50]}]}]}
            """
        var env = ManifestEnvironment(imageSizeOfBytes: { _, _ in (10, 10) })
        var staged: [String] = []
        env.hashed = { url, _, _ in staged.append(url.lastPathComponent) }
        // Between the read and the check after it, another program appends to a.jpg.
        FileIO.afterSourceRead.set { fd, name in
            var st = stat()
            guard name == "photos/a.jpg", fstat(fd, &st) == 0 else { return }
            let w = open(target, O_WRONLY | O_APPEND)
            _ = " and more".withCString { write(w, $0, 9) }
            close(w)
        }
        defer { FileIO.afterSourceRead.set(nil) }
        let e = #expect(throws: JSONDecodingError.self) {
            try Manifest.decode(try JSONParser.parse(manifest), folder: dir.url, environment: env)
        }
        #expect("\(e.map { "\($0)" } ?? "")".contains("pages[0].elements[1].src: \"photos/a.jpg\": changed while being read"), "\(String(describing: e))")
        #expect(staged == ["b.jpg"], "only the file read whole is handed on")
    }
}
