// What a store keeps of the model files it last read or wrote: each file's bytes, its identity
// on disk and what it decodes to. A transaction, a read and an open all begin by loading the
// journal; with the files held, a file still holding the bytes the store knows is not decoded
// again (and not even read, once its identity can be trusted), so a long-lived store (the
// editor's server, a library `JournalEditor`) pays for decoding only what changed on disk, and
// a command decodes each file once although it opens the journal before its transaction.
// See docs/decisions/change-cost.md.

import Foundation

/// One model file as a store last saw it.
struct HeldFile {
    /// What the file decodes to.
    enum Model {
        case journal(Journal)
        case page(Page)
    }

    /// The file's bytes.
    var bytes: [UInt8]
    /// Its identity when those bytes were read, nil when the store wrote them (its identity was
    /// not taken).
    var identity: FileIdentity?
    /// For a page, its ink file's identity when read with it (nil: there was none, or the
    /// store wrote it).
    var inkIdentity: FileIdentity?
    /// For a page, the page file and ink file as they are on disk (`InkFile`): `bytes` is the
    /// page whole. Nil when not known.
    var disk: (page: [UInt8], ink: [UInt8]?)?
    /// Whether `identity` was taken when the file was already older than the racy window, so
    /// that a file with that identity now holds these bytes without being read.
    var settled = false
    /// What `bytes` decode to (`Page.decode(bytes:)`, `Journal.decode(bytes:)`).
    var model: Model
    /// For a page, where each element's object is in `bytes` when those are the bytes the
    /// writer gives for it (`PageFileWriter.Written`); empty when not known.
    var elements: [Range<Int>?] = []

    /// The page as `PageFileWriter` can copy from.
    var written: PageFileWriter.Written? {
        guard let page, elements.count == page.elements.count else { return nil }
        return PageFileWriter.Written(page: page, bytes: bytes, elements: elements)
    }

    var page: Page? { if case .page(let p) = model { return p } else { return nil } }
    var journal: Journal? { if case .journal(let j) = model { return j } else { return nil } }
}

/// The files a store holds, by bundle-relative path. Every use is under the journal's lock;
/// the class's own lock is for a store shared by threads.
final class HeldFiles: @unchecked Sendable {
    private let lock = NSLock()
    private var files: [String: HeldFile] = [:]

    subscript(path: String) -> HeldFile? {
        get {
            lock.lock()
            defer { lock.unlock() }
            return files[path]
        }
        set {
            lock.lock()
            files[path] = newValue
            lock.unlock()
        }
    }

    func removeAll() {
        lock.lock()
        files = [:]
        lock.unlock()
    }

    /// The file at `path` of `folder`, from what is held when the file on disk is still the
    /// one held (its settled identity unchanged, or its bytes the same), else read and decoded
    /// with `decode`, and held. Nil when the file does not exist.
    ///
    /// With `ink`, the file is a page file and `ink` its ink file (`InkFile`): both are read, the
    /// page is held whole (`join`), and it is the one held only while both files are.
    func load(
        _ path: String, in folder: URL, limit: Int, ink: (path: String, join: ([UInt8], [UInt8]?) throws -> [UInt8])? = nil,
        decode: ([UInt8]) throws -> (HeldFile.Model, [Range<Int>?])
    ) throws -> HeldFile? {
        let url = folder.appendingPathComponent(path)
        let inkURL = ink.map { folder.appendingPathComponent($0.path) }
        let old = self[path]
        if let old, old.settled, let id = old.identity, FileIdentity.of(url.path) == id,
            inkURL.map({ FileIdentity.of($0.path) == old.inkIdentity }) ?? true
        {
            return old
        }
        guard let (bytes, st) = try FileIO.readFileAndStat(url, name: path, limit: limit) else { return nil }
        let identity = FileIdentity(st)
        let now = FileIdentity.now()
        var settled = identity.isOlder(than: SourceIndex.racyWindowNanoseconds, at: now)
        var whole = bytes
        var inkBytes: [UInt8]?
        var inkIdentity: FileIdentity?
        // The file held is still the one on disk: it keeps the identities just taken.
        func keep(_ held: HeldFile, disk: (page: [UInt8], ink: [UInt8]?)?) -> HeldFile {
            var same = held
            same.identity = identity
            same.inkIdentity = inkIdentity
            same.settled = settled
            if let disk { same.disk = disk }
            self[path] = same
            return same
        }
        if let ink, let inkURL {
            if let (b, ist) = try FileIO.readFileAndStat(inkURL, name: ink.path, limit: limit) {
                inkBytes = b
                let i = FileIdentity(ist)
                inkIdentity = i
                settled = settled && i.isOlder(than: SourceIndex.racyWindowNanoseconds, at: now)
            }
            // Two files as held are the page held, without joining them again.
            if let old, let d = old.disk, bytesEqual(bytes, d.page), inkBytes == nil ? d.ink == nil : bytesEqual(inkBytes!, d.ink) {
                return keep(old, disk: nil)
            }
            whole = try ink.join(bytes, inkBytes)
        }
        let disk = ink == nil ? nil : (page: bytes, ink: inkBytes)
        if let old, bytesEqual(old.bytes, whole) { return keep(old, disk: disk) }
        let (model, elements) = try decode(whole)
        let file = HeldFile(bytes: whole, identity: identity, inkIdentity: inkIdentity, disk: disk, settled: settled, model: model, elements: elements)
        self[path] = file
        return file
    }
}
