// The change record of the third format and what the next lock holder makes of each state a
// crash or a power loss can leave (docs/decisions/storage.md): a record whose temps are whole
// is finished, one whose temp was cut short or whose slot was written in part is not, renames
// already made are kept, a removal is never made over a file made since, and a copied journal
// is finished like the original.

import Foundation
import Testing

@testable import TechoModel

@Suite struct ChangeRecordTests {
    struct Crash: Error {}

    /// A store whose next change stops at its commit point (the record and its temps synced,
    /// nothing renamed), as a crash or a power loss right after the round of syncs leaves it.
    func crashAtCommitPoint(_ store: JournalStore, _ change: (JournalStore) throws -> Void) {
        store.faultHook = { stage, path in
            if stage == .renamed && path.hasPrefix("history/pending-") { throw Crash() }
        }
        #expect(throws: Crash.self) { try change(store) }
        store.faultHook = nil
    }

    func flip(_ s: JournalStore) throws {
        try s.transaction(description: "flip") { _, pages in try pages["p1"]!.elements[0].placement.apply(.flip(.h)) }
    }

    func temps(_ store: JournalStore) -> [String] { store.strayTempFiles() }

    @Test func aRecordReadsBackAndAnyCutOrChangedByteIsNoRecord() throws {
        let record = ChangeRecord(
            seq: 41,
            removals: [
                .init(
                    path: "history/3.json",
                    was: FileIdentity(device: 0, inode: 77, size: 120, mtime: 1_700_000_000_123_456_789, ctime: 1_700_000_000_223_456_789))
            ],
            writes: [
                .init(path: "pages/p1.json", temp: ".tmp-p1.json-12-34", length: 1_330_000, checksum: 0xDEAD_BEEF_0123_4567),
                .init(path: "history/state.json", temp: ".tmp-state.json-12-35", length: 40, checksum: 7),
            ])
        let bytes = record.bytes
        #expect(ChangeRecord(bytes: bytes) == record)
        for n in 0..<bytes.count { #expect(ChangeRecord(bytes: Array(bytes.prefix(n))) == nil, "cut at \(n)") }
        for i in stride(from: 0, to: bytes.count, by: 7) {
            var changed = bytes
            changed[i] = changed[i] == 0x30 ? 0x31 : 0x30
            #expect(ChangeRecord(bytes: changed) == nil, "byte \(i) changed")
        }
        // A slot written over in part: the new record's first half, the old record's rest.
        var older = record
        older.seq = 39
        older.writes[0].temp = ".tmp-p1.json-12-99"
        let old = older.bytes
        #expect(old.count == bytes.count)
        #expect(ChangeRecord(bytes: Array(bytes.prefix(bytes.count / 2) + old.dropFirst(bytes.count / 2))) == nil)
        #expect(ChangeRecord.checksum(Array(repeating: 0, count: 16)) != ChangeRecord.checksum(Array(repeating: 0, count: 17)))
    }

    @Test func aChangeStoppedAtItsCommitPointIsFinishedByTheNextLockHolder() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let (store, _) = try newStore(dir)
        let before = try store.read()
        crashAtCommitPoint(store) { try flip($0) }
        #expect(!temps(store).isEmpty)
        #expect(store.check().contains { $0.path.hasPrefix("history/pending-") })
        let after = try JournalStore.open(store.url).read()
        #expect(after.pages != before.pages)
        #expect(try JournalStore.open(store.url).history().map(\.description) == ["flip"])
        #expect(temps(store).isEmpty)
        #expect(store.check() == [])
    }

    @Test func aTempCutShortMeansTheChangeNeverHappened() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let (store, _) = try newStore(dir)
        let page = fileBytes(store, "pages/p1.json"), before = try store.read()
        crashAtCommitPoint(store) { try flip($0) }
        // A power loss before the page's temp reached the disk: the temp is there, cut short.
        let temp = try #require(temps(store).first { $0.hasPrefix("pages/") })
        let url = store.url.appendingPathComponent(temp)
        let bytes = try #require(FileManager.default.contents(atPath: url.path))
        try bytes.prefix(bytes.count / 2).write(to: url)
        let reopened = try JournalStore.open(store.url)
        #expect(try reopened.read().pages == before.pages)
        #expect(fileBytes(store, "pages/p1.json") == page)
        #expect(try reopened.history().isEmpty)
        #expect(temps(store).isEmpty)
        #expect(reopened.check() == [])
        // The next change is made as usual, in the slot the lost one used.
        try flip(reopened)
        #expect(try reopened.history().map(\.description) == ["flip"])
    }

    @Test func aSlotWrittenInPartHoldsNoChange() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let (store, _) = try newStore(dir)
        try flip(store)  // the first slot holds a finished record
        let before = try store.read()
        crashAtCommitPoint(store) { try flip($0) }
        let slot = store.url.appendingPathComponent("history/pending-1.rec")
        let bytes = try #require(FileManager.default.contents(atPath: slot.path))
        try bytes.prefix(bytes.count - 9).write(to: slot)
        let reopened = try JournalStore.open(store.url)
        #expect(try reopened.read().pages == before.pages)
        #expect(try reopened.history().map(\.description) == ["flip"])
        #expect(temps(store).isEmpty)
        #expect(reopened.check() == [])
    }

    @Test func renamesAlreadyMadeAreKeptAndTheRestFinished() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let (store, _) = try newStore(dir)
        // Stop after the page is renamed, before the history step and state are.
        store.faultHook = { stage, path in if stage == .renamed && path == "pages/p1.json" { throw Crash() } }
        #expect(throws: Crash.self) { try flip(store) }
        store.faultHook = nil
        #expect(store.check().contains { $0.path.hasPrefix("history/pending-") })
        let reopened = try JournalStore.open(store.url)
        #expect(try reopened.history().map(\.description) == ["flip"])
        try reopened.undo()
        #expect(try reopened.history().map(\.isApplied) == [false])
        #expect(reopened.check() == [])
    }

    @Test func aCopiedJournalIsFinishedLikeTheOriginal() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let (store, _) = try newStore(dir)
        crashAtCommitPoint(store) { try flip($0) }
        let copy = dir.url.appendingPathComponent("copy.techo")
        try FileManager.default.copyItem(at: store.url, to: copy)
        let original = try JournalStore.open(store.url).read(), copied = try JournalStore.open(copy).read()
        #expect(copied.pages == original.pages)
        #expect(try JournalStore.open(copy).history().map(\.description) == ["flip"])
    }

    @Test func aRemovalIsNotMadeOverAFileMadeSince() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let (store, _) = try newStore(dir)
        try store.transaction(description: "add p2") { journal, pages in
            journal.pageOrder.append("p2")
            pages["p2"] = try Page(id: "p2")
        }
        crashAtCommitPoint(store) { s in
            try s.transaction(description: "remove p2") { journal, pages in
                journal.pageOrder.removeAll { $0 == "p2" }
                pages["p2"] = nil
            }
        }
        // Someone writes a new file where the removed page was before the change is finished.
        let p2 = store.url.appendingPathComponent("pages/p2.json")
        let replacement = store.url.appendingPathComponent("pages/p2.json.new")
        try Data("{\"id\": \"p2\"}\n".utf8).write(to: replacement)
        #expect(rename(replacement.path, p2.path) == 0)
        let reopened = try JournalStore.open(store.url)
        #expect(try reopened.read().journal.pageOrder == ["p1"])
        #expect(FileManager.default.contents(atPath: p2.path) == Data("{\"id\": \"p2\"}\n".utf8))
    }

    @Test func aRecordOfTheSecondFormatIsStillCompleted() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let (store, _) = try newStore(dir)
        var title = try store.read().journal
        title.title = "from an older techo"
        let record = JournalStore.pendingRecord([("journal.json", title.serialized())])
        try Data(record).write(to: store.url.appendingPathComponent("history/pending.rec"))
        let reopened = try JournalStore.open(store.url)
        #expect(try reopened.read().journal.title == "from an older techo")
        #expect(!FileManager.default.fileExists(atPath: store.url.appendingPathComponent("history/pending.rec").path))
        #expect(reopened.check() == [])
    }

    @Test func changesAlternateBetweenTheTwoSlots() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let (store, _) = try newStore(dir)
        var seen: [UInt64] = []
        for k in 0..<4 {
            try flip(store)
            let slot = store.url.appendingPathComponent(ChangeRecord.slots[k % 2])
            let record = try #require(ChangeRecord(bytes: Array(try Data(contentsOf: slot))))
            #expect(record.writes.map(\.path).contains("pages/p1.json"))
            seen.append(record.seq)
        }
        #expect(seen == [1, 2, 3, 4])
        #expect(temps(store).isEmpty)
        #expect(store.check() == [])
    }
}
