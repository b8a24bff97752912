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

    @Test func thePendingRecordIsTheJSONValueRecord() {
        var rng = SeededRNG(seed: 3)
        let samples: [[UInt8]] = [
            [], Array("{\n  \"a\": 1\n}\n".utf8), Array("京都 \u{2028} \"q\" \\ \t".utf8), [0x61, 0xFF, 0xC3, 0x28, 0x62], Array(repeating: 0x41, count: 5000),
        ]
        for _ in 0..<300 {
            var writes: [(path: String, bytes: [UInt8]?)] = []
            for k in 0..<rng.int(in: 0...4) {
                writes.append(("pages/p\(k).json", rng.int(in: 0...4) == 0 ? nil : samples[rng.int(in: 0...(samples.count - 1))]))
            }
            let reference: JSONValue = [
                "writes": .array(
                    writes.map { w in ["path": .string(w.path), "content": w.bytes.map { .string(String(decoding: $0, as: UTF8.self)) } ?? .null] })
            ]
            #expect(JournalStore.pendingRecord(writes).bytes == reference.serializedBytes())
        }
    }

    @Test func anEscapedTextMadeFromTheLastOneIsTheEscape() {
        // Files with a local change (or none), with every byte the escape treats apart, across
        // the marks: the text made from the old file's text is the escape of the new file.
        var rng = SeededRNG(seed: 17)
        let pieces: [[UInt8]] = [
            [0x61], [0x22], [0x5C], [0x0A], [0x01], Array("\u{2028}".utf8), Array("\u{2029}".utf8), Array("京".utf8), [0xE2, 0x80, 0x61],
            Array(repeating: 0x62, count: 300),
        ]
        func file(_ n: Int) -> [UInt8] { (0..<n).flatMap { _ in pieces[rng.int(in: 0...(pieces.count - 1))] } }
        func escape(_ b: [UInt8]) -> [UInt8] {
            let out = ByteSink()
            b.withUnsafeBufferPointer { JSONWriter.writeStringBody(utf8: $0, into: out) }
            return out.bytes
        }
        for _ in 0..<300 {
            var old = file(rng.int(in: 0...400))
            var text = old.withUnsafeBufferPointer { EscapedText($0) }
            #expect(text.text == escape(old))
            for _ in 0..<4 {
                var new = old
                if !new.isEmpty, rng.int(in: 0...5) > 0 {
                    let at = rng.int(in: 0...(new.count - 1))
                    new.replaceSubrange(at..<Swift.min(new.count, at + rng.int(in: 0...50)), with: file(rng.int(in: 0...3)))
                }
                let made = old.withUnsafeBufferPointer { o in new.withUnsafeBufferPointer { n in text.updated(from: o, to: n) } }
                guard let next = made else {
                    // Only new bytes that are not UTF-8 are refused.
                    #expect(String(validating: new, as: UTF8.self) == nil)
                    old = new
                    text = new.withUnsafeBufferPointer { EscapedText($0) }
                    continue
                }
                #expect(next.text == escape(new))
                #expect(next.marks.first?.content == 0 && next.marks.last?.content == new.count)
                for m in next.marks {
                    #expect(m.content == 0 || m.content == new.count || new[m.content - 1] < 0x80)
                    #expect(Array(next.text[0..<m.text]) == escape(Array(new[0..<m.content])))
                }
                old = new
                text = next
            }
        }
    }

    @Test func validUTF8IsToldFromInvalid() {
        var rng = SeededRNG(seed: 23)
        for _ in 0..<50_000 {
            let bytes = (0..<rng.int(in: 0...12)).map { _ in
                rng.int(in: 0...2) == 0
                    ? UInt8(rng.int(in: 0...127))
                    : [0x80, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xA0, 0xED, 0x9F, 0xF0, 0x90, 0xF4, 0x8F, 0xF5, 0xFF][rng.int(in: 0...14)]
            }
            let valid = bytes.withUnsafeBufferPointer { JournalStore.isValidUTF8($0) }
            #expect(valid == (String(validating: bytes, as: UTF8.self) != nil), "\(bytes)")
        }
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
        let original = fileBytes(store, "pages/p1.json")
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
            let bytes = fileBytes(store, "pages/p1.json")
            #expect(bytes == expected.json.serializedBytes(), "change \(i)")
            #expect(try store.read().pages["p1"] == (try JournalStore.open(store.url).read().pages["p1"]))
        }
        while try store.undo() != nil {}
        #expect(fileBytes(store, "pages/p1.json") == original)
        #expect(store.check() == [])
    }
}
