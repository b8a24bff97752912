// The whole-stream check of the pictures a manifest names, run on every core while the manifest
// goes on being read. Reading a manifest needs only each picture's header (its size and format);
// the check of every scanline (`ImageProbe.check`, an entropy decode of a whole JPEG) is most of
// the CPU of an import, and each picture's is independent of the others'.
import Dispatch
import Foundation
import TechoCodecs

/// Checks run in the background, at most `limit` at once (each holds its picture's bytes, so
/// memory stays bounded however many pictures a manifest names). `wait` says whether all passed.
final class ProbeBatch: @unchecked Sendable {
    private let group = DispatchGroup()
    private let slots: DispatchSemaphore
    private let lock = NSLock()
    private var failed = false

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

    /// Waits for every check started. - Returns: whether every one passed.
    func wait() -> Bool {
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
