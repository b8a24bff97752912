// Reading a journal without its lock (docs/decisions/reading.md): `readSnapshot` writes nothing
// into the bundle, and still reads one state while another store commits changes, or after a
// change crashed half way.
import Foundation
import Testing

@testable import TechoModel

@Suite struct SnapshotReadTests {
    /// Every entry under `url` (hidden files included): relative path → inode, modification
    /// time (ns) and size; the folders too, so a file made and removed again shows.
    static func tree(_ url: URL) -> [String: [Int]] {
        var out: [String: [Int]] = [:]
        func visit(_ dir: URL, _ prefix: String) {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? [] {
                let u = dir.appendingPathComponent(name)
                var st = stat()
                guard lstat(u.path, &st) == 0 else { continue }
                out[prefix + name] = [Int(st.st_ino), st.st_mtim.tv_sec * 1_000_000_000 + st.st_mtim.tv_nsec, Int(st.st_size)]
                if st.st_mode & S_IFMT == S_IFDIR { visit(u, prefix + name + "/") }
            }
        }
        var st = stat()
        if lstat(url.path, &st) == 0 { out["."] = [Int(st.st_ino), st.st_mtim.tv_sec * 1_000_000_000 + st.st_mtim.tv_nsec] }
        visit(url, "")
        return out
    }

    @Test func aSnapshotReadWritesNothingNotEvenTheLockFile() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let (store, _) = try newStore(dir)
        try store.transaction(description: "move") { _, pages in try pages["p1"]!.elements[0].placement.apply(.pan(dx: 3, dy: 0)) }
        let expected = try store.read()
        try FileManager.default.removeItem(at: store.url.appendingPathComponent(".lock"))
        let before = Self.tree(store.url)
        let reader = try JournalStore.openForReading(store.url)
        let got = try reader.readSnapshot()
        #expect(got.journal == expected.journal && got.pages == expected.pages)
        #expect(Self.tree(store.url) == before, "the snapshot read changed the bundle")
        #expect(!FileManager.default.fileExists(atPath: store.url.appendingPathComponent(".lock").path))
    }

    /// A writer moves an element on each of six pages and sets the title in every change; a
    /// reader without the lock must always see all seven files from the same change.
    @Test func snapshotsAreOneStateWhileAnotherStoreCommits() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let (store, _) = try newStore(dir)
        let ids = (1...6).map { "p\($0)" }
        try store.transaction(description: "pages") { journal, pages in
            for id in ids.dropFirst() {
                var p = pages["p1"]!
                p.id = id
                pages[id] = p
            }
            journal.pageOrder = ids
            journal.title = "0"
        }
        let x0 = try store.read().pages["p1"]!.elements[1].placement.center.x
        let steps = 150
        let url = store.url
        let writerDone = DispatchSemaphore(value: 0)
        let failures = LockedCounter()
        Thread.detachNewThread {
            defer { writerDone.signal() }
            do {
                let writer = try JournalStore.open(url)
                writer.durable = false
                for i in 1...steps {
                    try writer.transaction(description: "step \(i)") { journal, pages in
                        journal.title = "\(i)"
                        for id in ids { try pages[id]!.elements[1].placement.apply(.pan(dx: 1, dy: 0)) }
                    }
                }
            } catch { failures.add() }
        }
        let reader = try JournalStore.openForReading(url)
        var reads = 0, mixed: [String] = []
        var finished = false
        while !finished {
            finished = writerDone.wait(timeout: .now()) == .success
            let s = try reader.readSnapshot()
            reads += 1
            let step = Int(s.journal.title)!
            let moved = ids.map { Int((s.pages[$0]!.elements[1].placement.center.x - x0).rounded()) }
            if moved != Array(repeating: step, count: ids.count) { mixed.append("title \(step), pages moved \(moved)") }
        }
        #expect(failures.value == 0)
        #expect(reads > 1)
        #expect(mixed.isEmpty, "\(mixed.count) of \(reads) reads mixed two changes, e.g. \(mixed.prefix(3))")
        #expect(try reader.readSnapshot().journal.title == "\(steps)")
    }

    struct Crash: Error {}

    /// A change crashed at any stage: a snapshot read, the first thing to open the journal
    /// afterwards, gives exactly the old or exactly the new state (finishing the change under
    /// the lock, since the journal here can be written).
    @Test func aSnapshotAfterACrashAtAnyStageIsOldOrNew() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let (store, _) = try newStore(dir)
        let oldState = try store.read()
        func change(_ s: JournalStore) throws {
            try s.transaction(description: "add page") { journal, pages in
                journal.pageOrder.append("p2"); journal.title = "changed"
                pages["p2"] = try Page(id: "p2")
                try pages["p1"]!.elements[0].placement.apply(.doubleTap)
            }
        }
        let copy = dir.url.appendingPathComponent("copy.techo")
        try FileManager.default.copyItem(at: store.url, to: copy)
        let counter = try JournalStore.open(copy)
        var stages = 0
        counter.faultHook = { _, _ in stages += 1 }
        try change(counter)
        let newState = try counter.read()
        var sawNew = false
        for crashAt in 1...stages {
            let trial = dir.url.appendingPathComponent("trial-\(crashAt).techo")
            try FileManager.default.copyItem(at: store.url, to: trial)
            let s = try JournalStore.open(trial)
            var n = 0
            s.faultHook = { _, _ in
                n += 1; if n == crashAt { throw Crash() }
            }
            #expect(throws: Crash.self) { try change(s) }
            let got = try JournalStore.openForReading(trial).readSnapshot()
            let isOld = got.journal == oldState.journal && got.pages == oldState.pages
            let isNew = got.journal == newState.journal && got.pages == newState.pages
            #expect(isOld || isNew, "crash at stage \(crashAt): the snapshot mixed the two states")
            sawNew = sawNew || isNew
        }
        #expect(sawNew)
    }
}
