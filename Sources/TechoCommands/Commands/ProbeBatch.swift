// The whole-stream check of the pictures a manifest names, run on every core while the manifest
// goes on being read. Reading a manifest needs only each picture's header (its size and format);
// the check of every scanline (`ImageProbe.check`, an entropy decode of a whole JPEG) is most of
// the CPU of an import, and each picture's is independent of the others'. A picture the pages
// will draw may instead be checked by the render's own decode of it (`deferCheck`): a JPEG or
// PNG decoded whole without error at any scale passes the probe, so it is not decoded twice.
import Dispatch
import Foundation
import TechoCodecs
import TechoModel

/// Checks run in the background, at most `limit` at once (each holds its picture's bytes, so
/// memory stays bounded however many pictures a manifest names), and checks left to the
/// render. `wait` says whether all passed.
final class ProbeBatch: @unchecked Sendable {
    private let group = DispatchGroup()
    private let slots: DispatchSemaphore
    private let lock = NSLock()
    private var failed = false
    /// Guards `deferred`, `decoded` and `ended`; signalled when one changes.
    private let condition = NSCondition()
    private var deferred: [AssetRef: (file: URL, name: String)] = [:]
    private var decoded: Set<AssetRef> = []
    private var ended = false
    /// One `wait` at a time, so a second waiter sees the checks the first one started.
    private let waiting = NSLock()

    /// At most `limit` checks at once (default: the cores, at least 2).
    init(limit: Int = max(2, ProcessInfo.processInfo.activeProcessorCount)) {
        slots = DispatchSemaphore(value: max(1, limit))
    }

    /// Starts the check of `bytes`, waiting first while `limit` checks are running.
    func check(_ bytes: [UInt8], name: String) {
        slots.wait()
        DispatchQueue.global().async(group: group) { [self] in
            defer { slots.signal() }
            do { _ = try ImageProbe.check(bytes, name: name) } catch {
                lock.lock()
                failed = true
                lock.unlock()
            }
        }
    }

    /// Starts the check of the picture in `file`, read whole; a file that cannot be read fails.
    func check(file: URL, name: String) {
        do { check(try FileBytes.contents(of: file.path, name: name, maxBytes: ImageLimits.default.maxFileBytes), name: name) } catch {
            lock.lock()
            failed = true
            lock.unlock()
        }
    }

    /// Leaves the check of `ref`, whose bytes are in `file` (named `name` in errors), to the
    /// render: it passes when the render reports a whole decode of it (`decoded`); otherwise,
    /// once the render ended, `wait` checks the file as `check` does.
    func deferCheck(_ ref: AssetRef, file: URL, name: String) {
        condition.lock()
        deferred[ref] = (file, name)
        condition.unlock()
    }

    /// The render decoded the whole stream of `ref`'s file without an error.
    func decoded(_ ref: AssetRef) {
        condition.lock()
        decoded.insert(ref)
        condition.broadcast()
        condition.unlock()
    }

    /// No decode is coming any more (the render is over, or never started).
    func renderEnded() {
        condition.lock()
        ended = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits for every check started, and for each deferred one until the render decoded it
    /// or ended; a deferred picture the render did not decode whole is checked here.
    /// - Returns: whether every one passed.
    func wait() -> Bool {
        waiting.lock()
        defer { waiting.unlock() }
        condition.lock()
        while !ended && !deferred.keys.allSatisfy(decoded.contains) { condition.wait() }
        let rest = deferred.filter { !decoded.contains($0.key) }.values
        deferred = [:]
        condition.unlock()
        for (file, name) in rest { check(file: file, name: name) }
        group.wait()
        lock.lock()
        defer { lock.unlock() }
        return !failed
    }
}

/// Work run on a thread of its own; `result` waits for it (any number of times, from any thread).
final class OnAnotherThread<T>: @unchecked Sendable {
    private let group = DispatchGroup()
    private var value: Result<T, Error>?

    init(_ work: @escaping () throws -> T) {
        nonisolated(unsafe) let work = work
        group.enter()
        let thread = Thread { [self] in
            value = Result { try work() }
            group.leave()
        }
        thread.start()
    }

    /// Waits for the work. - Returns: what it returned or threw.
    func result() -> Result<T, Error> {
        group.wait()
        return value!
    }
}
