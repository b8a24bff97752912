// A page as it was a few history steps ago, for an export that can make the page's file from the
// one written for an earlier version (docs/decisions/rebuild.md).
import Foundation

extension JournalStore {
    /// Page `id` as it was before each of the last `steps` applied history steps, newest first,
    /// one version for each step that changed it: its file now with the steps' line diffs undone
    /// in turn. Read without the lock and writing nothing (a read-only journal answers too); a
    /// step that cannot be read or undone, or a version that does not decode, ends the list.
    /// What it gives is a hint: a caller checks a version against what it already has.
    public func earlierVersions(ofPage id: String, steps: Int = 8) -> [Page] {
        let path = JournalStore.pagePath(id)
        guard steps > 0, let state = try? readState(), let now = try? readWhole(path) else { return [] }
        var lines = LineDiff.lines(now.bytes)
        var out: [Page] = []
        var n = state.current
        while n >= state.first && n > state.current - steps {
            let stepPath = JournalStore.stepPath(n)
            guard let bytes = try? FileIO.readFile(file(stepPath), name: stepPath), let step = try? HistoryStep.decode(bytes, file: stepPath)
            else { break }
            n -= 1
            guard let diff = step.files.first(where: { $0.path == path })?.diff else { continue }
            guard let back = diff.inverted.apply(to: lines) else { break }
            lines = back
            guard let page = LineDiff.bytes(lines).flatMap({ try? Page.decode(bytes: $0, file: path, limits: limits) }) else { break }
            out.append(page)
        }
        return out
    }
}
