// Keeping the input that crashed or hung: the current input lives in a fixed buffer, and a
// signal handler (only async-signal-safe calls: open, write, close) writes it to a file before
// the process dies; a watchdog thread does the same for an input that runs too long.
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

enum CrashCapture {
    static let capacity = 1 << 20
    nonisolated(unsafe) static var buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    nonisolated(unsafe) static var count = 0
    nonisolated(unsafe) static var crashPath: UnsafeMutablePointer<CChar>? = nil
    nonisolated(unsafe) static var timeoutPath: UnsafeMutablePointer<CChar>? = nil
    /// Shared with the watchdog thread.
    static let executions = Atomic<Int>(0)
    static let running = Atomic<Bool>(false)

    /// Installs the handlers; crashing inputs go to `folder/crash-TARGET-SEED`, hanging ones to
    /// `folder/timeout-TARGET-SEED`.
    static func install(folder: String, target: String, seed: UInt64, timeoutSeconds: Int) {
        crashPath = strdup("\(folder)/crash-\(target)-\(seed)")
        timeoutPath = strdup("\(folder)/timeout-\(target)-\(seed)")
        for sig in [SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGABRT, SIGFPE] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { sig in
                CrashCapture.save(CrashCapture.crashPath)
                let msg = "techo-fuzz: the input that crashed is saved\n"
                _ = msg.withCString { write(2, $0, strlen($0)) }
                signal(sig, SIG_DFL)
                raise(sig)
            }
            sigaction(sig, &action, nil)
        }
        let watchdog = Thread {
            var last = -1, stuck = 0
            while true {
                sleep(1)
                let now = CrashCapture.executions.load(ordering: .acquiring)
                if CrashCapture.running.load(ordering: .acquiring) && now == last { stuck += 1 } else { stuck = 0 }
                last = now
                if stuck >= timeoutSeconds {
                    CrashCapture.save(CrashCapture.timeoutPath)
                    FileHandle.standardError.write("techo-fuzz: an input ran over \(timeoutSeconds) s; saved it\n".data(using: .utf8)!)
                    _exit(3)
                }
            }
        }
        watchdog.start()
    }

    static func save(_ path: UnsafeMutablePointer<CChar>?) {
        guard let path else { return }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        if fd >= 0 { _ = write(fd, buffer, count); close(fd) }
    }

    /// Runs `input` through `run` with the input saved where the handlers find it.
    static func execute(_ input: [UInt8], _ run: ([UInt8]) -> String) -> String {
        let n = min(input.count, capacity)
        input.withUnsafeBufferPointer { p in if let b = p.baseAddress { buffer.update(from: b, count: n) } }
        count = n
        executions.wrappingAdd(1, ordering: .releasing)
        running.store(true, ordering: .releasing)
        defer { running.store(false, ordering: .releasing) }
        return run(input)
    }
}
