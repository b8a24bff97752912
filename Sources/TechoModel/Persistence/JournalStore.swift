// A journal bundle on disk (NAME.techo/): locked read-modify-write transactions, content-
// addressed assets, and a write-ahead "pending" record that makes every multi-file change
// atomic: after a crash the next opener completes it. See docs/decisions/storage.md.

import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The pages of a journal inside a transaction, by id.
public typealias PageSet = [String: Page]

/// A journal bundle.
///
/// Every read and change happens under an exclusive `flock` on `NAME.techo/.lock`, so two
/// processes editing one journal never lose an update. Each change is one history step.
public final class JournalStore {
    /// The bundle folder.
    public let url: URL
    /// Limits for decoding its files. Default `.default`.
    public let limits: ModelLimits
    /// Test hook called at each save stage; throwing from it simulates a crash there. Default nil.
    public var faultHook: FaultHook?
    /// Whether saves are synced to disk (`fsync`) before they count as done. Turning it off keeps
    /// every save atomic against a crashing process but not against power loss; bulk tests and
    /// benchmarks of the model use it. Default true.
    public var durable = true
    /// The model files as this store last read or wrote them (see `HeldFiles`).
    let held = HeldFiles()
    /// The records in the slots and their slots, earliest first, as the last lock holder left
    /// them.
    private var records: [(slot: Int, record: ChangeRecord)] = []

    static let journalFile = "journal.json"
    static let stateFile = "history/state.json"
    /// The record of the second format (each file's contents in it); still completed.
    static let pendingFile = "history/pending.rec"
    /// The record of the first format (its contents as JSON strings); still completed.
    static let legacyPendingFile = "history/pending.json"

    private init(url: URL, limits: ModelLimits) { self.url = url; self.limits = limits }

    /// True for paths history may record: `journal.json` and `pages/<id>.json`.
    static func isManagedPath(_ path: String) -> Bool {
        if path == journalFile { return true }
        guard path.hasPrefix("pages/"), path.hasSuffix(".json") else { return false }
        return Identifier.isValid(String(path.dropFirst(6).dropLast(5)))
    }

    static func pagePath(_ id: String) -> String { "pages/\(id).json" }
    static func stepPath(_ n: Int) -> String { "history/\(n).json" }

    func file(_ relative: String) -> URL { url.appendingPathComponent(relative) }

    // MARK: Opening and creating

    /// Opens an existing journal; checks that its `journal.json` is one this build reads.
    public static func open(_ url: URL, limits: ModelLimits = .default) throws -> JournalStore {
        let store = JournalStore(url: url.standardizedFileURL, limits: limits)
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir), isDir.boolValue else {
            throw StorageError(path: url.path, message: "no such journal")
        }
        guard FileManager.default.fileExists(atPath: store.file(journalFile).path) else {
            throw StorageError(path: url.path, message: "not a journal (no journal.json)")
        }
        _ = try store.read()
        return store
    }

    /// Creates a journal at `url` with its pages and assets, all at once: it is built in a temp
    /// folder beside `url` and renamed into place, so a failure leaves nothing behind.
    /// - Parameter assets: each asset and where its bytes are (a file is hashed again only when
    ///   its fingerprint changed since it was hashed).
    public static func create(
        at url: URL, journal: Journal, pages: [Page], assets: [AssetImport] = [],
        limits: ModelLimits = .default
    ) throws -> JournalStore {
        let dest = url.standardizedFileURL
        let name = dest.lastPathComponent
        if FileManager.default.fileExists(atPath: dest.path) {
            throw StorageError(path: dest.path, message: "already exists; choose another name or remove it")
        }
        let parent = dest.deletingLastPathComponent()
        let temp = parent.appendingPathComponent("\(FileIO.tempPrefix)\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileIO.makeDirectory(temp, name: name)
        var done = false
        defer { if !done { try? FileManager.default.removeItem(at: temp) } }
        let store = JournalStore(url: temp, limits: limits)
        for sub in ["assets", "pages", "history"] { try FileIO.makeDirectory(temp.appendingPathComponent(sub), name: "\(name)/\(sub)") }
        for a in assets.sorted(by: { $0.ref < $1.ref }) { _ = try store.writeAsset(a) }
        let ids = Set(pages.map(\.id))
        guard ids.count == pages.count, Set(journal.pageOrder) == ids else {
            throw StorageError(path: name, message: "the page order does not match the pages")
        }
        for page in pages {
            try page.checkElementCount(file: pagePath(page.id), limits: limits)
            let missing = page.assets.filter { !FileManager.default.fileExists(atPath: store.file($0.path).path) }
            if let m = missing.sorted().first { throw StorageError(path: pagePath(page.id), message: "uses \(m.path), which was not imported") }
            let (whole, spans) = PageFileWriter.serialize(page)
            let (file, ink) = InkFile.split(whole, page: page.id, layers: InkFile.layers(of: page, at: spans))
            try FileIO.writeAtomically(file, to: store.file(pagePath(page.id)), name: pagePath(page.id), hook: nil)
            if let ink { try FileIO.writeAtomically(ink, to: store.file(InkFile.path(page: page.id)), name: InkFile.path(page: page.id), hook: nil) }
        }
        try FileIO.writeAtomically(HistoryState().json.serializedBytes(), to: store.file(stateFile), name: stateFile, hook: nil)
        try FileIO.writeAtomically(journal.serialized(), to: store.file(journalFile), name: journalFile, hook: nil)
        guard rename(temp.path, dest.path) == 0 else { throw StorageError.errno(dest.path, "cannot move the new journal into place") }
        done = true
        try FileIO.syncDirectory(parent, name: name)
        return JournalStore(url: dest, limits: limits)
    }

    /// `create` with each asset read from a file and verified against its hash.
    public static func create(
        at url: URL, journal: Journal, pages: [Page], assets: [AssetRef: URL],
        limits: ModelLimits = .default
    ) throws -> JournalStore {
        try create(
            at: url, journal: journal, pages: pages, assets: assets.map { AssetImport(ref: $0.key, source: .file($0.value, nil)) },
            limits: limits)
    }

    // MARK: Reading

    /// A consistent snapshot of the journal and its pages.
    public func read() throws -> (journal: Journal, pages: PageSet) {
        try locked { try load().0 }
    }

    // MARK: Reading without the lock

    /// Opens an existing journal to read it with `readSnapshot`, writing nothing into it: not
    /// even the lock file. Only the bundle's shape is checked here; `readSnapshot` decodes it.
    public static func openForReading(_ url: URL, limits: ModelLimits = .default) throws -> JournalStore {
        let store = JournalStore(url: url.standardizedFileURL, limits: limits)
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir), isDir.boolValue else {
            throw StorageError(path: url.path, message: "no such journal")
        }
        guard FileManager.default.fileExists(atPath: store.file(journalFile).path) else {
            throw StorageError(path: url.path, message: "not a journal (no journal.json)")
        }
        return store
    }

    /// A consistent snapshot of the journal and its pages, read without the lock and without
    /// writing anything into the bundle, so a journal on a read-only volume or in a folder the
    /// reader cannot write reads like any other (docs/decisions/reading.md).
    ///
    /// Every change replaces its files by rename after its record is whole on disk, with a
    /// number one higher than the last (`commit`). So the files are read between two looks at
    /// the records: when both find the same latest record and no change between its record and
    /// its renames, no rename happened in between and the files are one state. Otherwise the
    /// read is made again, after a short wait. A change found half done (a writer mid-commit, or
    /// one that crashed) is waited for under the lock when the lock file can be opened for
    /// writing (the lock holder finishes it, as `read` does); on a read-only journal the read
    /// waits up to about a second for it and then fails, naming the journal's state.
    public func readSnapshot() throws -> (journal: Journal, pages: PageSet) {
        var pause: UInt32 = 1000
        var lastError: Error?
        for _ in 0..<JournalStore.snapshotAttempts {
            let before = revision()
            if before.settled {
                let result = Result { try load().0 }
                if revision() == before { return try result.get() }
                if case .failure(let e) = result { lastError = e }
            } else if let lock = try FileLock.ifWritable(file(".lock"), name: ".lock") {
                defer { lock.unlock() }
                try recover()
                return try load().0
            }
            usleep(pause)
            pause = min(pause * 2, 100_000)
        }
        // Changed on every attempt (a writer saving many times a second): wait for the writers
        // under the lock if it can be taken.
        if let lock = try FileLock.ifWritable(file(".lock"), name: ".lock") {
            defer { lock.unlock() }
            try recover()
            return try load().0
        }
        if revision().settled, let lastError { throw lastError }
        throw StorageError(
            path: url.path,
            message: "changed while being read, or holds a change a techo command left unfinished; it is read-only here, "
                + "so that change cannot be finished: run any techo command on it where it can be written")
    }

    /// Lets go of the bytes of the files the store read (it keeps them to tell a file that did
    /// not change from one that did): a command that reads the journal once and keeps the
    /// models, as `techo export` does, needs none of it. A later read reads the files again.
    public func forgetHeldFiles() {
        held.removeAll()
    }

    /// How many times `readSnapshot` reads before it takes the lock or gives up (with waits of
    /// 1, 2, 4, … ms up to 100 ms between them: about 1.2 s in all).
    static let snapshotAttempts = 16

    /// What a reader without the lock compares before and after reading (`readSnapshot`).
    struct Revision: Equatable {
        /// The number of the latest whole change record; nil before the first change.
        var seq: UInt64?
        /// False when a change is between its record and its last rename (a temp file a record
        /// names is still there), or a record of an older format waits to be completed.
        var settled: Bool
    }

    /// The bundle's revision, read without the lock.
    func revision() -> Revision {
        let found = readRecords()
        let legacy = [JournalStore.pendingFile, JournalStore.legacyPendingFile].contains { FileIdentity.of(file($0).path) != nil }
        return Revision(seq: found.last?.record.seq, settled: !legacy && !found.contains { isUnfinished($0.record) })
    }

    /// `load` for other files of this type. Caller holds the lock.
    func loadSnapshot() throws -> ((journal: Journal, pages: PageSet), [String: [UInt8]]) {
        let (snapshot, raw, _) = try load()
        return (snapshot, raw)
    }

    /// Loads journal and pages with their raw bytes (for diffing) and the files as held. A file
    /// still holding the bytes the store last read or wrote is not decoded again (`HeldFiles`).
    /// Caller holds the lock.
    private func load() throws -> ((journal: Journal, pages: PageSet), [String: [UInt8]], [String: HeldFile]) {
        var raw: [String: [UInt8]] = [:]
        var files: [String: HeldFile] = [:]
        let limits = self.limits
        let journalFile = try held.load(JournalStore.journalFile, in: url, limit: limits.json.maxBytes) { bytes in
            (.journal(try Journal.decode(bytes: bytes, file: JournalStore.journalFile, limits: limits)), [])
        }
        guard let journalFile, let journal = journalFile.journal else {
            throw StorageError(path: JournalStore.journalFile, message: "missing")
        }
        raw[JournalStore.journalFile] = journalFile.bytes
        var pages: PageSet = [:]
        for id in journal.pageOrder {
            let path = JournalStore.pagePath(id)
            let ink = (
                path: InkFile.path(page: id), join: { (page: [UInt8], ink: [UInt8]?) in try InkFile.join(page: page, ink: ink, id: id, limits: limits).whole }
            )
            let pageFile = try held.load(path, in: url, limit: limits.json.maxBytes, ink: ink) { bytes in
                // As Page.decode(bytes:), keeping what the fast reader saw of each element's bytes.
                if let read = PageFileReader.read(bytes, file: path, limits: limits) {
                    return (.page(read.page), zip(read.elements, read.asWritten).map { $1 ? $0 : nil })
                }
                return (.page(try Page.decodeValue(bytes: bytes, file: path, limits: limits)), [])
            }
            guard let pageFile, let page = pageFile.page else {
                throw StorageError(path: path, message: "missing (the page order lists \"\(id)\")")
            }
            raw[path] = pageFile.bytes
            files[path] = pageFile
            try page.checkElementCount(file: path, limits: limits)
            guard page.id == id else { throw StorageError(path: path, message: "holds page \"\(page.id)\", expected \"\(id)\"") }
            pages[id] = page
        }
        return ((journal, pages), raw, files)
    }

    // MARK: Transactions

    /// Runs `body` on the journal and its pages under the lock and saves what it changed as one
    /// history step named `description`. Nothing is written when `body` throws or changes
    /// nothing. The result is checked (page order matches the pages, ids match, assets exist,
    /// every page re-decodes) before anything is written.
    ///
    /// - Parameter importing: assets the change uses, written into `assets/` under the same lock
    ///   after `body` succeeds and before the change is committed. An asset this call created is
    ///   removed again when the change fails before its commit point or changes nothing, so a
    ///   failed command leaves the bundle as it was. Default none.
    @discardableResult
    public func transaction<R>(
        description: String, importing: [AssetImport] = [],
        _ body: (inout Journal, inout PageSet) throws -> R
    ) throws -> R {
        try locked {
            let ((journal0, pages0), raw, files) = try load()
            var journal = journal0, pages = pages0
            let result = try body(&journal, &pages)
            var created: [AssetRef] = []
            var committed = false
            defer {
                if !committed { for ref in created { try? FileIO.remove(file(ref.path), name: ref.path, syncFolder: false) } }
            }
            for a in importing {
                if try writeAsset(a) { created.append(a.ref) }
            }
            let (changed, wholes) = try changedFiles(journal: journal, pages: pages, raw: raw, held: files)
            var written = wholes
            if changed.isEmpty { return result }
            var state = try readState()
            let n = state.current + 1
            let step = HistoryStep(description: description, files: changed.map { w in (w.path, LineDiff(from: raw[w.path], to: w.bytes)) })
            // The page files and ink files that stand for the pages written, from the ink layers'
            // places the writer knows.
            var layers: [String: [(id: String, span: Range<Int>)]] = [:]
            for (path, f) in wholes {
                guard let page = f.page, f.elements.count == page.elements.count else { continue }
                let spans = f.elements.compactMap { $0 }
                if spans.count == page.elements.count { layers[path] = InkFile.layers(of: page, at: spans) }
            }
            var writes = diskWrites(changed, layers: layers, disk: files.compactMapValues(\.disk), written: &written)
            // Drop the redo branch, then the oldest steps beyond the limit.
            for k in stride(from: state.top, to: state.current, by: -1) where k > n { writes.append((JournalStore.stepPath(k), nil)) }
            writes.append((JournalStore.stepPath(n), step.json.serializedBytes()))
            let newFirst = max(state.first, n - journal.settings.historyLimit + 1)
            for k in state.first..<newFirst { writes.append((JournalStore.stepPath(k), nil)) }
            state = HistoryState(first: newFirst, current: n, top: n)
            writes.append((JournalStore.stateFile, state.json.serializedBytes()))
            try commit(writes) { committed = true }
            // Hold what was written: the pages as they read back, journal.json to be read again.
            held[JournalStore.journalFile] = nil
            for w in changed where w.path != JournalStore.journalFile { held[w.path] = written[w.path] }
            return result
        }
    }

    /// The files on disk that stand for `changed`, files as the store holds them (pages whole):
    /// each page as its page file and ink file (`InkFile`), leaving out a file `disk` (what is on
    /// disk now, by page) already holds as it would be written. `layers` gives a page's ink
    /// layers' places in its whole bytes; without them they are found by their layout. What is
    /// now on disk goes into `written`'s pages.
    private func diskWrites(
        _ changed: [(path: String, bytes: [UInt8]?)], layers: [String: [(id: String, span: Range<Int>)]],
        disk: [String: (page: [UInt8], ink: [UInt8]?)], written: inout [String: HeldFile]
    ) -> [(path: String, bytes: [UInt8]?)] {
        var out: [(path: String, bytes: [UInt8]?)] = []
        for w in changed {
            guard let id = JournalStore.pageID(ofPath: w.path) else {
                out.append(w)
                continue
            }
            let inkPath = InkFile.path(page: id)
            let inkOnDisk = FileIdentity.of(file(inkPath).path) != nil
            guard let bytes = w.bytes else {
                out.append(w)
                if inkOnDisk { out.append((inkPath, nil)) }
                continue
            }
            let now = disk[w.path]
            let cuts = InkFile.cuts(bytes, layers: layers[w.path])
            let page = InkFile.pageFile(bytes, cuts: cuts, page: id)
            if now == nil || !bytesEqual(page, now?.page) { out.append((w.path, page)) }
            var ink: [UInt8]?
            if !cuts.isEmpty {
                // The strokes are compared where they are, so an unchanged ink file is not built.
                if inkOnDisk, let old = now?.ink, InkFile.inkFile(old, holds: bytes, cuts: cuts) {
                    ink = old
                } else {
                    ink = InkFile.inkFile(bytes, cuts: cuts)
                    out.append((inkPath, ink))
                }
            } else if inkOnDisk {
                out.append((inkPath, nil))
            }
            written[w.path]?.disk = (page, ink)
        }
        return out
    }

    /// The page whose file (whole, as history and transactions name it) `path` is.
    static func pageID(ofPath path: String) -> String? {
        guard path.hasPrefix("pages/"), path.hasSuffix(".json"), InkFile.page(ofPath: path) == nil else { return nil }
        let id = String(path.dropFirst(6).dropLast(5))
        return Identifier.isValid(id) ? id : nil
    }

    /// A model file as the store holds it: a page whole (its page file joined with its ink
    /// file), anything else as it is; for a page, the two files as they are and the ink file's
    /// layers no ink layer names (`InkFile.join`). Nil when the file does not exist.
    func readWhole(_ path: String) throws -> (bytes: [UInt8], disk: (page: [UInt8], ink: [UInt8]?)?, unused: [String])? {
        guard let bytes = try FileIO.readFile(file(path), name: path, limit: limits.json.maxBytes) else { return nil }
        guard let id = JournalStore.pageID(ofPath: path) else { return (bytes, nil, []) }
        let inkPath = InkFile.path(page: id)
        let ink = try FileIO.readFile(file(inkPath), name: inkPath, limit: limits.json.maxBytes)
        let (whole, unused) = try InkFile.join(page: bytes, ink: ink, id: id, limits: limits)
        return (whole, (bytes, ink), unused)
    }

    /// The files a transaction's result changes, validated, and the pages among them as they
    /// read back (to hold once they are written).
    private func changedFiles(
        journal: Journal, pages: PageSet, raw: [String: [UInt8]], held files: [String: HeldFile]
    ) throws -> ([(path: String, bytes: [UInt8]?)], [String: HeldFile]) {
        guard Set(journal.pageOrder) == Set(pages.keys), journal.pageOrder.count == pages.count else {
            throw StorageError(path: JournalStore.journalFile, message: "the page order \(journal.pageOrder) does not match the pages \(pages.keys.sorted())")
        }
        var out: [(path: String, bytes: [UInt8]?)] = []
        var written: [String: HeldFile] = [:]
        let jbytes = journal.serialized()
        if jbytes != raw[JournalStore.journalFile] { out.append((JournalStore.journalFile, jbytes)) }
        for id in journal.pageOrder {
            guard var page = pages[id] else { continue }
            // A stroke added in place (a drawing, an ink layer pasted) is written with its id.
            page.assignStrokeIDs()
            let path = JournalStore.pagePath(id)
            guard page.id == id else { throw StorageError(path: path, message: "page \"\(page.id)\" is stored under id \"\(id)\"") }
            let old = files[path]
            // Elements the file holds as the writer writes them are copied from it.
            let (bytes, spans) = PageFileWriter.serialize(page, reusing: old?.written)
            if bytesEqual(bytes, raw[path]) {
                if var same = old, same.elements.count != spans.count || same.elements.contains(nil) {
                    // The whole file is as written: every element's bytes can be copied next time.
                    same.elements = spans
                    held[path] = same
                }
                continue
            }
            guard bytes.count <= limits.json.maxBytes else {
                throw StorageError(path: path, message: "the page would be \(bytes.count) bytes, over the \(limits.json.maxBytes)-byte limit")
            }
            // What is written must read back: this re-validates anything edited in place.
            let back = try readBack(page, bytes: bytes, elements: spans, path: path, before: old?.page)
            try page.checkElementCount(file: path, limits: limits)
            for asset in page.assets.sorted() where !FileManager.default.fileExists(atPath: file(asset.path).path) {
                throw StorageError(path: path, message: "uses \(asset.path), which is not in the journal (import it first)")
            }
            out.append((path, bytes))
            written[path] = HeldFile(bytes: bytes, identity: nil, model: .page(back), elements: spans)
        }
        for path in raw.keys.sorted() where path != JournalStore.journalFile && !journal.pageOrder.map(JournalStore.pagePath).contains(path) {
            out.append((path, nil))
        }
        return (out, written)
    }

    /// What `bytes`, the serialization of `page` with its elements at `elements`, decode to
    /// (`Page.decode(bytes:)`), or the error decoding throws.
    ///
    /// When the page's own fields are written as those of `before` (the page the file held,
    /// decoded from it), an element written as one of `before`'s (same id) decodes to that
    /// element, as it did before, so only the other elements are decoded from their bytes; the
    /// page is then assembled as `Page.decode` does. Anything that fails that way is decoded
    /// whole, which throws the error naming the JSON path.
    private func readBack(_ page: Page, bytes: [UInt8], elements spans: [Range<Int>], path: String, before: Page?) throws -> Page {
        if let before, spans.count == page.elements.count, page.encodesHeaderIdentically(before) {
            var index: [String: Int] = [:]
            for (j, e) in before.elements.enumerated() { index[e.id] = j }
            var decoded: [Element] = []
            decoded.reserveCapacity(page.elements.count)
            var ok = true
            for (i, e) in page.elements.enumerated() {
                if let j = index[e.id], before.elements[j].encodesIdentically(e) {
                    decoded.append(before.elements[j])
                } else if let d = PageFileReader.element(in: bytes, span: spans[i], index: i, dpi: before.dpi, limits: limits) {
                    decoded.append(d)
                } else {
                    ok = false
                    break
                }
            }
            if ok,
                let back = try? Page(
                    id: before.id, size: before.size, dpi: before.dpi, background: before.background, margin: before.margin,
                    slots: before.slots, elements: decoded, limits: limits)
            {
                return back
            }
        }
        return try Page.decode(bytes: bytes, file: path, limits: limits)
    }

    // MARK: Undo and redo

    /// Undoes the last applied step; returns it, or nil when there is nothing to undo.
    @discardableResult
    public func undo() throws -> HistoryEntry? { try move(forward: false) }

    /// Redoes the next undone step; returns it, or nil when there is nothing to redo.
    @discardableResult
    public func redo() throws -> HistoryEntry? { try move(forward: true) }

    private func move(forward: Bool) throws -> HistoryEntry? {
        try locked {
            var state = try readState()
            let n = forward ? state.current + 1 : state.current
            guard forward ? n <= state.top : n >= state.first else { return nil }
            let stepPath = JournalStore.stepPath(n)
            guard let sbytes = try FileIO.readFile(file(stepPath), name: stepPath) else {
                throw StorageError(path: stepPath, message: "missing history step")
            }
            let step = try HistoryStep.decode(sbytes, file: stepPath)
            var changed: [(path: String, bytes: [UInt8]?)] = []
            var disk: [String: (page: [UInt8], ink: [UInt8]?)] = [:]
            for (path, diff) in step.files {
                let current = try readWhole(path)
                disk[path] = current?.disk
                guard let lines = (forward ? diff : diff.inverted).apply(to: LineDiff.lines(current?.bytes)) else {
                    throw StorageError(
                        path: path, message: "changed outside techo since step \(n) (\"\(step.description)\"); cannot \(forward ? "redo" : "undo") it")
                }
                changed.append((path, LineDiff.bytes(lines)))
            }
            var written: [String: HeldFile] = [:]
            var writes = diskWrites(changed, layers: [:], disk: disk, written: &written)
            state.current = forward ? n : n - 1
            writes.append((JournalStore.stateFile, state.json.serializedBytes()))
            try commit(writes)
            return HistoryEntry(number: n, description: step.description, isApplied: forward)
        }
    }

    /// Every step kept, oldest first.
    public func history() throws -> [HistoryEntry] {
        try locked {
            let state = try readState()
            guard state.top >= state.first else { return [] }
            return try (state.first...state.top).map { n in
                let path = JournalStore.stepPath(n)
                guard let bytes = try FileIO.readFile(file(path), name: path) else { throw StorageError(path: path, message: "missing history step") }
                return HistoryEntry(number: n, description: try HistoryStep.decode(bytes, file: path).description, isApplied: n <= state.current)
            }
        }
    }

    func readState() throws -> HistoryState {
        guard let bytes = try FileIO.readFile(file(JournalStore.stateFile), name: JournalStore.stateFile) else { return HistoryState() }
        return try HistoryState.decode(bytes, file: JournalStore.stateFile)
    }

    // MARK: Assets

    /// Writes an asset into `assets/` unless a file of its name is already there (the name is
    /// its content's hash, so it is neither read nor copied again; `check` verifies content).
    /// Returns true when it wrote the file. Caller holds the lock.
    private func writeAsset(_ a: AssetImport) throws -> Bool {
        let dest = file(a.ref.path)
        var st = stat()
        if lstat(dest.path, &st) == 0, st.st_mode & S_IFMT == S_IFREG { return false }
        let bytes: [UInt8]
        switch a.source {
        case .bytes(let b):
            bytes = b
        case .file(let source, let seen):
            // 512 MiB, the image file limit: a file that grew past it since it was hashed is refused.
            guard let (b, now) = try FileIO.readFileAndFingerprint(source, name: source.path, limit: 512 << 20, followSymlinks: true) else {
                throw StorageError(path: source.path, message: "no such file")
            }
            if now != seen && SHA256.hex(b) != a.ref.sha256 { throw StorageError(path: source.path, message: "changed while being imported") }
            bytes = b
        case .staged(let staged):
            try FileIO.makeDirectory(file("assets"), name: "assets")
            try FileIO.linkIntoPlace(staged, to: dest, name: a.ref.path, hook: faultHook, durable: durable)
            return true
        }
        try FileIO.makeDirectory(file("assets"), name: "assets")
        try FileIO.writeAtomically(bytes, to: dest, name: a.ref.path, hook: faultHook, durable: durable)
        return true
    }

    /// Copies bytes into `assets/<sha256>.<ext>` under the lock, outside any change, unless they
    /// are already there; returns the reference. Importing the same bytes twice stores them once.
    /// Commands that add an element pass their assets to `transaction(importing:)` instead, so
    /// a failed change leaves no file behind.
    public func importAsset(_ bytes: [UInt8], ext: String) throws -> AssetRef {
        let a = try AssetImport(bytes: bytes, ext: ext)
        try locked { _ = try writeAsset(a) }
        return a.ref
    }

    /// True when the bundle holds a file for `ref` (not read; `check` verifies its content).
    public func hasAsset(_ ref: AssetRef) -> Bool {
        var st = stat()
        return lstat(file(ref.path).path, &st) == 0 && st.st_mode & S_IFMT == S_IFREG
    }

    /// The file holding an asset, checked to lie inside the bundle.
    public func assetURL(_ ref: AssetRef) throws -> URL {
        try SafePath.resolve(ref.path, in: url)
    }

    // MARK: Commit and recovery

    /// Makes a set of file changes atomic (docs/decisions/storage.md): each new content goes
    /// into a temp file beside its target, a record naming them goes into the record slot the
    /// latest change did not use, and one round of syncs makes it all durable (the commit
    /// point); then the files are replaced. A crash before the round ends leaves the old state;
    /// after it, the next lock holder finishes the change from the temps the record names.
    /// `onCommitPoint` is called once the record and its temps are on disk: from then on the
    /// change happens, if not now then at the next open.
    private func commit(_ writes: [(path: String, bytes: [UInt8]?)], onCommitPoint: () -> Void = {}) throws {
        let latest = records.last
        let slot = latest.map { 1 - $0.slot } ?? 0
        // The folders of both records' files: the latest's renames become durable in this round,
        // so its slot may be used by the change after this one.
        let settle = Set(
            records.flatMap { _, r in (r.writes.map(\.path) + r.removals.map(\.path)).map { file($0).deletingLastPathComponent().path } })
        let name = ChangeRecord.slots[slot]
        let record = try FileIO.commit(
            slot: (file(name), name), seq: (latest?.record.seq ?? 0) + 1, settle: settle,
            writes: writes.map { (file($0.path), $0.path, $0.bytes) }, hook: faultHook, durable: durable, onCommitPoint: onCommitPoint)
        records = [(slot, record)]
    }

    /// Writes and removes files, syncing each touched folder once at the end (the files' syncs
    /// together, then the folders' together: `FileIO.writeAll`).
    private func apply(_ writes: [(path: String, bytes: [UInt8]?)]) throws {
        try FileIO.writeAll(writes.map { (file($0.path), $0.path, $0.bytes) }, hook: faultHook, durable: durable)
    }

    /// Finishes an interrupted commit and removes temp files a crash left. Caller holds the lock.
    private func recover() throws {
        if let bytes = try FileIO.readFile(file(JournalStore.legacyPendingFile), name: JournalStore.legacyPendingFile) {
            try complete(try JournalStore.parseLegacyPendingRecord(bytes), record: JournalStore.legacyPendingFile)
        }
        if let bytes = try FileIO.readFile(file(JournalStore.pendingFile), name: JournalStore.pendingFile) {
            try complete(try JournalStore.parsePendingRecord(bytes, name: JournalStore.pendingFile), record: JournalStore.pendingFile)
        }
        let found = readRecords()
        for (_, record) in found where isUnfinished(record) { try finish(record) }
        records = found
        for path in strayTempFiles() { try FileIO.remove(file(path), name: path) }
    }

    /// The records in the two slots that were written whole, earliest first.
    func readRecords() -> [(slot: Int, record: ChangeRecord)] {
        ChangeRecord.slots.enumerated().compactMap { k, path in
            // A slot that cannot be read or is not a whole record holds no change: its change
            // never reached its commit point (the next change writes over it).
            guard let bytes = try? FileIO.readFile(file(path), name: path, limit: ChangeRecord.maxBytes),
                let record = ChangeRecord(bytes: bytes)
            else { return nil }
            return (k, record)
        }.sorted { $0.record.seq < $1.record.seq }
    }

    /// Whether a temp file the record names is still there, so its rename has not happened.
    func isUnfinished(_ record: ChangeRecord) -> Bool {
        record.writes.contains { FileIdentity.of(file(ChangeRecord.tempPath($0)).path) != nil }
    }

    /// Finishes the change of a record whose temps are still there: when every write is either
    /// in its temp (whole: its length and checksum) or already in place, the removals and the
    /// remaining renames are made and synced; otherwise the change never reached its commit
    /// point (a temp was lost), nothing is done, and the temps are strays.
    private func finish(_ record: ChangeRecord) throws {
        var renames: [ChangeRecord.Write] = []
        for w in record.writes {
            let temp = ChangeRecord.tempPath(w)
            if let bytes = try? FileIO.readFile(file(temp), name: temp) {
                guard bytes.count == w.length, ChangeRecord.checksum(bytes) == w.checksum else { return }
                renames.append(w)
            } else {
                guard let bytes = try? FileIO.readFile(file(w.path), name: w.path), bytes.count == w.length,
                    ChangeRecord.checksum(bytes) == w.checksum
                else { return }
            }
        }
        held.removeAll()
        var folders = Set<String>()
        for r in record.removals {
            if let now = FileIdentity.of(file(r.path).path), now.isSameFile(as: r.was) { try FileIO.remove(file(r.path), name: r.path, syncFolder: false) }
            folders.insert(file(r.path).deletingLastPathComponent().path)
        }
        for w in renames {
            guard rename(file(ChangeRecord.tempPath(w)).path, file(w.path).path) == 0 else { throw StorageError.errno(w.path, "cannot rename into place") }
            folders.insert(file(w.path).deletingLastPathComponent().path)
        }
        if durable { try FileIO.syncFolders(folders.sorted()) }
    }

    /// Applies the writes of an interrupted change's record of an older format again, then
    /// removes the record.
    private func complete(_ writes: [(path: String, bytes: [UInt8]?)], record: String) throws {
        held.removeAll()
        try apply(writes)
        try FileIO.remove(file(record), name: record, syncFolder: durable)
    }

    /// The writes of a record in the first format: `{"writes": [{"path", "content": string or
    /// null}]}`.
    static func parseLegacyPendingRecord(_ bytes: [UInt8]) throws -> [(path: String, bytes: [UInt8]?)] {
        let ctx = DecodingContext(file: legacyPendingFile)
        var writes: [(path: String, bytes: [UInt8]?)] = []
        let root = ctx.root(try JSONParser.parse(bytes, file: legacyPendingFile, limits: JSONLimits(maxBytes: 1 << 30)))
        if let o = root.object() {
            for item in o.required("writes")?.array() ?? [] {
                guard let wo = item.object() else { continue }
                let path = wo.required("path")?.string()
                let content = wo.required("content")
                wo.finish()
                guard let path, let content else { continue }
                if !isRecordPath(path) { item.report("\"\(path)\" is not a journal file"); continue }
                if case .null = content.value { writes.append((path, nil)) } else if let s = content.string() { writes.append((path, Array(s.utf8))) }
            }
            o.finish()
        }
        try ctx.throwIfProblems()
        return writes
    }

    /// Temp files a crash left in the bundle, bundle-relative. Every write into the bundle,
    /// assets included, happens under its lock, so a temp file a lock holder finds belongs to
    /// no live writer: it is a leftover, safe to remove.
    func strayTempFiles() -> [String] {
        ["", "pages", "history", "assets"].flatMap { dir in
            FileIO.list(dir.isEmpty ? url : file(dir)).filter { $0.hasPrefix(FileIO.tempPrefix) }
                .map { dir.isEmpty ? $0 : "\(dir)/\($0)" }
        }
    }

    /// Runs `body` holding the bundle's lock, after finishing any interrupted commit.
    func locked<R>(recovering: Bool = true, _ body: () throws -> R) throws -> R {
        let lock = try FileLock(file(".lock"), name: ".lock")
        defer { lock.unlock() }
        if recovering { try recover() }
        return try body()
    }

    // MARK: Check

    /// Verifies the bundle without changing it; see `BundleProblem`. With `assetProbe`, every
    /// asset whose content matches its name is also probed (is it a usable image?).
    public func check(assetProbe: AssetProbe? = nil) -> [BundleProblem] {
        (try? locked(recovering: false) { checkUnlocked(assetProbe: assetProbe) })
            ?? [BundleProblem(path: ".lock", message: "cannot take the journal's lock")]
    }
}
