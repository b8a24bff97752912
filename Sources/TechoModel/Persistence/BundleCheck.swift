// `techo check`: every way a bundle can be inconsistent, reported with the file at fault.

import Foundation

/// A problem `check` found, naming the bundle-relative file.
public struct BundleProblem: Equatable, CustomStringConvertible, Sendable {
    /// The file, relative to the bundle.
    public var path: String
    /// What is wrong.
    public var message: String
    public init(path: String, message: String) { self.path = path; self.message = message }
    public var description: String { "\(path): \(message)" }
}

/// Checks that an asset's bytes are usable (the codecs' probe; the model does not decode
/// images). Called with the bytes and the bundle-relative path; throws to report a problem.
public typealias AssetProbe = ([UInt8], String) throws -> Void

extension JournalStore {
    func checkUnlocked(assetProbe: AssetProbe?) -> [BundleProblem] {
        var out: [BundleProblem] = []
        func add(_ path: String, _ message: String) { out.append(BundleProblem(path: path, message: message)) }
        var journal: Journal?
        do {
            if let bytes = try FileIO.readFile(file(JournalStore.journalFile), name: JournalStore.journalFile, limit: limits.json.maxBytes) {
                journal = try Journal.decode(bytes: bytes, file: JournalStore.journalFile, limits: limits)
            } else {
                add(JournalStore.journalFile, "missing")
            }
        } catch { add(JournalStore.journalFile, "\(error)") }
        var assets: [AssetRef: [String]] = [:]
        let order = journal?.pageOrder ?? []
        for id in order {
            let path = JournalStore.pagePath(id)
            do {
                guard let read = try readWhole(path) else {
                    add(path, "missing, but the page order lists page \"\(id)\""); continue
                }
                for layer in read.unused { add(InkFile.path(page: id), "holds strokes for \"\(layer)\", which is no ink layer of \(path)") }
                let page = try Page.decode(bytes: read.bytes, file: path, limits: limits)
                try page.checkElementCount(file: path, limits: limits)
                if page.id != id { add(path, "holds page \"\(page.id)\", expected \"\(id)\"") }
                for a in page.assets { assets[a, default: []].append(path) }
            } catch { add(path, "does not decode: \(error)") }
        }
        for name in FileIO.list(file("pages")) where name.hasSuffix(".json") && !name.hasPrefix(".") {
            if let id = InkFile.page(ofPath: "pages/\(name)") {
                if !order.contains(id) { add("pages/\(name)", "is the ink file of page \"\(id)\", which is not in the page order of journal.json") }
                continue
            }
            let id = String(name.dropLast(5))
            if !order.contains(id) { add("pages/\(name)", "is not in the page order of journal.json") }
        }
        for (ref, users) in assets.sorted(by: { $0.key < $1.key }) {
            do {
                _ = try assetURL(ref)
                guard let bytes = try FileIO.readFile(file(ref.path), name: ref.path) else {
                    add(ref.path, "missing (used by \(users.sorted().joined(separator: ", ")))"); continue
                }
                let h = SHA256.hex(bytes)
                if h != ref.sha256 {
                    add(ref.path, "content does not match its name (SHA-256 is \(h))")
                } else if let assetProbe {
                    do { try assetProbe(bytes, ref.path) } catch {
                        let text = "\(error)"
                        let prefix = "\(ref.path): "
                        add(
                            ref.path,
                            "cannot be used (used by \(users.sorted().joined(separator: ", "))): "
                                + (text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : text))
                    }
                }
            } catch let e as PathError where e.message.contains("outside") {
                add(ref.path, "resolves outside the journal through a symbolic link")
            } catch let e as PathError {
                add(ref.path, "missing (used by \(users.sorted().joined(separator: ", "))): \(e.message)")
            } catch { add(ref.path, "\(error)") }
        }
        for path in strayTempFiles() { add(path, "stray temp file left by an interrupted save") }
        for record in [JournalStore.legacyPendingFile, JournalStore.pendingFile] where FileManager.default.fileExists(atPath: file(record).path) {
            add(record, "an interrupted change is pending; the next command that opens the journal completes it")
        }
        for (slot, record) in readRecords() where isUnfinished(record) {
            add(ChangeRecord.slots[slot], "an interrupted change is pending; the next command that opens the journal completes it")
        }
        do {
            if let bytes = try FileIO.readFile(file(JournalStore.stateFile), name: JournalStore.stateFile) {
                let s = try HistoryState.decode(bytes, file: JournalStore.stateFile)
                if s.top >= s.first {
                    for n in s.first...s.top {
                        let p = JournalStore.stepPath(n)
                        do {
                            guard let b = try FileIO.readFile(file(p), name: p) else { add(p, "missing history step"); continue }
                            _ = try HistoryStep.decode(b, file: p)
                        } catch { add(p, "\(error)") }
                    }
                }
            }
        } catch { add(JournalStore.stateFile, "\(error)") }
        return out
    }
}
