// A store that holds the files it read or wrote, and the byte-level pieces of a change: every
// change made through a held store, by another store or by hand is seen as the files on disk
// say, the bytes written are those the complete writer writes, edits in place that break a
// guarantee are refused as before, and the line diff and pending record are the ones the slow
// obvious versions give.

import Foundation
import Testing

@testable import TechoModel

#if canImport(Glibc)
    import Glibc
#endif

/// The page files' bytes as the complete writer writes what the complete decoder reads.
func canonical(_ bytes: [UInt8]?) throws -> [UInt8]? {
    try bytes.map { try Page.decodeValue(bytes: $0, file: "pages/p1.json").json.serializedBytes() }
}

/// Overwrites `bytes` of a file in place (same inode), as an editor that does not replace files would.
func overwriteInPlace(_ url: URL, _ bytes: [UInt8]) throws {
    let fd = open(url.path, O_WRONLY)
    #expect(fd >= 0)
    defer { close(fd) }
    let n = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
    #expect(n == bytes.count)
    #expect(ftruncate(fd, off_t(bytes.count)) == 0)
}

@Suite(.serialized) struct HeldJournalTests {
    @Test func theLineDiffOfBytesIsTheLineDiffOfLines() {
        // Every pair of files of up to five bytes of "a", "b" and newlines, and no file.
        var files: [[UInt8]?] = [nil, []]
        var level: [[UInt8]] = [[]]
        for _ in 1...5 {
            level = level.flatMap { f in [0x61, 0x62, 0x0A].map { f + [$0] } }
            files += level.map { $0 }
        }
        for a in files {
            for b in files {
                #expect(LineDiff(from: a, to: b) == LineDiff(from: LineDiff.lines(a), to: LineDiff.lines(b)))
            }
        }
        // Long files with a local change, across the 8-byte and 4 KiB steps of the compare.
        var rng = SeededRNG(seed: 12)
        for _ in 0..<400 {
            var lines: [[UInt8]] = []
            for _ in 0..<rng.int(in: 0...3000) { lines.append(Array(repeating: UInt8(0x61 + rng.int(in: 0...2)), count: rng.int(in: 0...30))) }
            var old = Array(lines.joined(separator: [0x0A]))
            if rng.int(in: 0...1) == 0 { old.append(0x0A) }
            var new = old
            if !new.isEmpty {
                let at = rng.int(in: 0...(new.count - 1))
                let end = Swift.min(new.count, at + rng.int(in: 0...40))
                let insert = (0..<rng.int(in: 0...40)).map { _ in [0x61, 0x0A, 0x62][rng.int(in: 0...2)] as UInt8 }
                new.replaceSubrange(at..<end, with: insert)
            }
            #expect(LineDiff(from: old, to: new) == LineDiff(from: LineDiff.lines(old), to: LineDiff.lines(new)))
        }
    }

    @Test func aPendingRecordReadsBackAsItsWrites() throws {
        var rng = SeededRNG(seed: 3)
        let samples: [[UInt8]] = [
            [], Array("{\n  \"a\": 1\n}\n".utf8), Array("京都 \u{2028} \"q\" \\ \t".utf8), [0x61, 0xFF, 0xC3, 0x28, 0x62], Array(repeating: 0x0A, count: 5000),
            Array("write pages/p1.json 3\nend\n".utf8),
        ]
        let paths = ["pages/p0.json", "journal.json", "history/state.json", "history/12.json"]
        for _ in 0..<300 {
            var writes: [(path: String, bytes: [UInt8]?)] = []
            for k in 0..<rng.int(in: 0...4) {
                writes.append((paths[k], rng.int(in: 0...4) == 0 ? nil : samples[rng.int(in: 0...(samples.count - 1))]))
            }
            let back = try JournalStore.parsePendingRecord(JournalStore.pendingRecord(writes), name: "r")
            #expect(back.map(\.path) == writes.map(\.path) && back.map(\.bytes) == writes.map(\.bytes))
        }
    }

    /// A record cut short, grown, or naming a file outside the journal is refused whole.
    @Test func aDamagedPendingRecordIsRefused() {
        let good = JournalStore.pendingRecord([("pages/p1.json", Array("{}\n".utf8)), ("history/3.json", nil)])
        for n in 0..<good.count {
            #expect(throws: StorageError.self) { try JournalStore.parsePendingRecord(Array(good.prefix(n)), name: "r") }
        }
        #expect(throws: StorageError.self) { try JournalStore.parsePendingRecord(good + [0x0A], name: "r") }
        for bad in [
            "write ../x 1\na\nend\n", "remove /etc/passwd\nend\n", "write pages/p1.json 99\n{}\nend\n", "write pages/p1.json -1\n\nend\n", "move a b\nend\n",
        ] {
            #expect(throws: StorageError.self) { try JournalStore.parsePendingRecord(Array((JournalStore.pendingMagic + bad).utf8), name: "r") }
        }
    }

    /// A record an older techo left (`history/pending.json`, contents as JSON strings) is
    /// completed by the next opener, as before.
    @Test func aRecordOfTheFirstFormatIsStillCompleted() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let (store, _) = try newStore(dir)
        var page = try #require(try store.read().pages["p1"])
        try page.elements[0].placement.apply(.flip(.h))
        let bytes = page.serialized()
        let legacy: JSONValue = ["writes": [["path": "pages/p1.json", "content": .string(String(decoding: bytes, as: UTF8.self))]]]
        try Data(legacy.serializedBytes()).write(to: store.url.appendingPathComponent("history/pending.json"))
        #expect(store.check().contains { $0.path == "history/pending.json" })
        let reopened = try JournalStore.open(store.url)
        #expect(try reopened.read().pages["p1"] == page)
        #expect(reopened.check() == [])
    }

    @Test func twoStoresSeeEachOthersChanges() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let (a, _) = try newStore(dir, elements: 40)
        a.durable = false
        let b = try JournalStore.open(a.url)
        b.durable = false
        var rng = SeededRNG(seed: 4)
        for i in 0..<60 {
            let store = rng.int(in: 0...1) == 0 ? a : b
            let k = rng.int(in: 0...39)
            try store.transaction(description: "move \(i)") { _, pages in
                try pages["p1"]!.elements[k].placement.apply(.pan(dx: Double(rng.int(in: -9...9)), dy: 1))
            }
            let onDisk = fileBytes(a, "pages/p1.json")
            let fresh = try JournalStore.open(a.url).read()
            #expect(try a.read().pages == fresh.pages)
            #expect(try b.read().pages == fresh.pages)
            #expect(onDisk == (try canonical(onDisk)))
        }
        #expect(try a.history().count == 60)
    }

    @Test func aSameSizeRewriteInPlaceIsSeen() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let (store, _) = try newStore(dir, elements: 6)
        _ = try store.read()
        let url = store.url.appendingPathComponent("pages/p1.json")
        var bytes = try #require(fileBytes(store, "pages/p1.json"))
        // "note 0" becomes "note 9": the same size, the same inode, within the same second.
        let text = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "note 0", with: "note 9")
        bytes = Array(text.utf8)
        try overwriteInPlace(url, bytes)
        let seen = try store.read().pages["p1"]
        #expect(seen == (try Page.decodeValue(bytes: bytes)))
        guard case .text(let t)? = seen?.elements.first?.content else { Issue.record("no text"); return }
        #expect(t.text == "note 9")
    }

    @Test func aSettledFileChangedInPlaceOrReplacedIsSeen() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let (store, _) = try newStore(dir, elements: 6)
        store.durable = false
        // Past the racy window, the file's identity alone is trusted.
        Thread.sleep(forTimeInterval: Double(SourceIndex.racyWindowNanoseconds) / 1e9 + 0.2)
        _ = try store.read()
        #expect(store.held["pages/p1.json"]?.settled == true)
        let url = store.url.appendingPathComponent("pages/p1.json")
        let bytes = Array(
            String(decoding: try #require(fileBytes(store, "pages/p1.json")), as: UTF8.self).replacingOccurrences(of: "note 2", with: "note 7").utf8)
        try overwriteInPlace(url, bytes)
        #expect(try store.read().pages["p1"] == (try Page.decodeValue(bytes: bytes)))
        // Another store's change (a new file by rename).
        let other = try JournalStore.open(store.url)
        try other.transaction(description: "flip") { _, pages in try pages["p1"]!.elements[1].placement.apply(.flip(.h)) }
        #expect(try store.read().pages == (try JournalStore.open(store.url).read().pages))
    }

    @Test func anEditInPlaceThatBreaksAGuaranteeIsRefusedAsBefore() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let (store, _) = try newStore(dir, elements: 6)
        let before = fileBytes(store, "pages/p1.json")
        var broken = try #require(try store.read().pages["p1"])
        broken.elements[1].placement.scale = 0
        let expected = problems { _ = try Page.decodeValue(bytes: broken.json.serializedBytes(), file: "pages/p1.json") }
        #expect(!expected.isEmpty)
        let found = problems {
            try store.transaction(description: "break") { _, pages in pages["p1"]!.elements[1].placement.scale = 0 }
        }
        #expect(found == expected)
        #expect(fileBytes(store, "pages/p1.json") == before)
        #expect(try store.history().isEmpty)
    }

    @Test func pagesWrittenByHandAreRewrittenAsTheWriterWritesThem() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let (store, _) = try newStore(dir, elements: 6)
        try store.transaction(description: "page add") { journal, pages in
            journal.pageOrder.append("p2")
            pages["p2"] = try bigPage(id: "p2", elements: 3, asset: try AssetRef(sha256: SHA256.hex(Array("sticker bytes".utf8)), ext: "png"))
        }
        // Both pages respelled: compact, with a number written 1.50 for 1.5.
        for id in ["p1", "p2"] {
            let page = try #require(try store.read().pages[id])
            let text = restyled(page.json, compact: true) { d in d == 0.5 ? "0.50" : JSONNumberText.string(d) }
            try Data(text.utf8).write(to: store.url.appendingPathComponent("pages/\(id).json"))
        }
        let reader = try JournalStore.open(store.url)
        try reader.transaction(description: "move") { _, pages in try pages["p1"]!.elements[1].placement.apply(.pan(dx: 3, dy: 4)) }
        // As before: the changed page and the unchanged one are written as the writer writes them.
        for id in ["p1", "p2"] {
            let bytes = fileBytes(store, "pages/\(id).json")
            #expect(bytes == (try canonical(bytes)))
        }
        #expect(try reader.undo() != nil)
    }

    @Test func changesOnACrowdedPageWriteWhatTheCompleteWriterWrites() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        var r = RandomPages(seed: 21)
        let asset = try AssetImport(bytes: Array("a sticker".utf8), ext: "png")
        let page = try r.crowdedPage(stickers: 20, strokes: 300, asset: asset.ref)
        let store = try JournalStore.create(
            at: dir.url.appendingPathComponent("j.techo"), journal: Journal(pageOrder: ["p1"], settings: JournalSettings(historyLimit: 1000)),
            pages: [page], assets: [asset])
        store.durable = false
        let original = wholeBytes(store, "p1")
        var expected = page
        var rng = SeededRNG(seed: 9)
        for i in 0..<120 {
            let op = rng.int(in: 0...5)
            let k = rng.int(in: 0...(expected.elements.count - 1))
            let stroke = try r.stroke()
            func change(_ p: inout Page) throws {
                switch op {
                case 0, 1: if p.elements[k].kind != .ink { try p.elements[k].placement.apply(.pan(dx: 5, dy: -3)) }
                case 2: try p.appendStroke(stroke)
                case 3: if p.elements.count > 3 && p.elements[k].kind != .ink { p.elements.remove(at: k) }
                case 4: p.elements.swapAt(k, p.elements.count - 1)
                default: p.elements[k].opacity = 0.5
                }
            }
            try change(&expected)
            try store.transaction(description: "change \(i)") { _, pages in try change(&pages["p1"]!) }
            let bytes = wholeBytes(store, "p1")
            #expect(bytes == expected.json.serializedBytes(), "change \(i)")
            #expect(try store.read().pages["p1"] == (try JournalStore.open(store.url).read().pages["p1"]))
        }
        while try store.undo() != nil {}
        #expect(wholeBytes(store, "p1") == original)
        #expect(store.check() == [])
    }
}
