// Renders wait here for one of a few worker threads, so that many clients at once queue work
// instead of each drawing on its own thread: memory holds at most `workers` renders in the
// making, and edits (which run on their requests' own threads) go ahead of them, since the
// workers run at a lower scheduling priority. Requests for the same render (page, scale, what
// is left out) that are waiting share one job: the worker takes the journal's state when it
// starts the job, which is at least as new as every request that joined it, so no one is
// answered with a page older than their request.
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A bounded queue of render jobs, coalesced by key.
final class RenderQueue: @unchecked Sendable {
    /// One render and the requests waiting for it.
    final class Job {
        let key: String
        let make: () -> Result<HTTPResponse, Error>
        var result: Result<HTTPResponse, Error>?
        init(key: String, make: @escaping () -> Result<HTTPResponse, Error>) { self.key = key; self.make = make }
    }

    /// Renders made at once. Default 2.
    let workers: Int
    /// Requests that may wait (joined ones included); past it the answer is 503. Default 128.
    let maxWaiting: Int
    private let condition = NSCondition()
    private var pending: [Job] = []
    private var pendingByKey: [String: Job] = [:]
    private var waiting = 0
    private var stopped = false
    private var threads = 0
    /// Workers inside a job.
    private var busy = 0
    private(set) var jobsMade = 0
    private(set) var requestsJoined = 0
    /// The kernel's ids of the worker threads, as each starts.
    private var workerIDs: [pid_t] = []

    /// Renders made at once unless told otherwise: 2.
    static let defaultWorkers = 2
    /// Requests that may wait unless told otherwise: 128.
    static let defaultMaxWaiting = 128

    /// Starts `workers` threads, each at `niceness` (added to the process's own) so edits run first.
    init(workers: Int = RenderQueue.defaultWorkers, maxWaiting: Int = RenderQueue.defaultMaxWaiting, niceness: Int32 = 10) {
        precondition(workers > 0, "RenderQueue needs a worker")
        self.workers = workers
        self.maxWaiting = maxWaiting
        for n in 0..<workers {
            let thread = Thread { [self] in
                // On Linux the priority of PRIO_PROCESS 0 is the calling thread's alone.
                _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) + niceness)
                condition.lock()
                workerIDs.append(RenderQueue.currentThreadID())
                condition.broadcast()
                condition.unlock()
                work()
            }
            thread.name = "techo-serve-render-\(n)"
            thread.start()
        }
        threads = workers
    }

    /// The answer of the job for `key`, made by `make` (on a worker) unless a waiting job for
    /// the same key is joined. Blocks until it is made.
    /// - Throws: the job's error, or `APIError` 503 when the queue is full or stopping.
    func answer(_ key: String, make: @escaping () throws -> HTTPResponse) throws -> HTTPResponse {
        condition.lock()
        guard !stopped, waiting < maxWaiting else {
            condition.unlock()
            throw APIError(503, "the server is busy: \(maxWaiting) renders are waiting; try again")
        }
        let job: Job
        if let joined = pendingByKey[key] {
            job = joined
            requestsJoined += 1
        } else {
            job = Job(key: key, make: { Result { try make() } })
            pending.append(job)
            pendingByKey[key] = job
            condition.broadcast()
        }
        waiting += 1
        while job.result == nil && !stopped { condition.wait() }
        waiting -= 1
        let result = job.result
        condition.unlock()
        guard let result else { throw APIError(503, "the server is stopping") }
        return try result.get()
    }

    /// Ends the workers once the job in hand is done, and waits for that (at most `timeout`
    /// seconds): the process must not exit while a worker is inside a C library. Waiting
    /// requests get a 503.
    func stop(timeout: Double = 30) {
        condition.lock()
        stopped = true
        condition.broadcast()
        let deadline = Date(timeIntervalSinceNow: timeout)
        while busy > 0 && condition.wait(until: deadline) {}
        condition.unlock()
    }

    private func work() {
        while true {
            condition.lock()
            while pending.isEmpty && !stopped { condition.wait() }
            if stopped {
                condition.unlock()
                return
            }
            let job = pending.removeFirst()
            pendingByKey[job.key] = nil
            busy += 1
            condition.unlock()
            let result = job.make()
            condition.lock()
            busy -= 1
            job.result = result
            jobsMade += 1
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Requests waiting for their answer now (joined ones and those whose job is being made included).
    var waitingRequests: Int {
        condition.lock()
        defer { condition.unlock() }
        return waiting
    }

    /// The calling thread's id in the kernel (`PID/task/TID` is where /proc/thread-self points).
    static func currentThreadID() -> pid_t {
        var link = [CChar](repeating: 0, count: 64)
        guard readlink("/proc/thread-self", &link, link.count - 1) > 0 else { return 0 }
        return String(cString: link).split(separator: "/").last.flatMap { pid_t($0) } ?? 0
    }

    /// The kernel's ids of the worker threads that have started.
    var workerThreadIDs: [pid_t] {
        condition.lock()
        defer { condition.unlock() }
        return workerIDs
    }

    /// Jobs made and requests that joined a waiting job, since the start.
    var counts: (made: Int, joined: Int) {
        condition.lock()
        defer { condition.unlock() }
        return (jobsMade, requestsJoined)
    }
}
