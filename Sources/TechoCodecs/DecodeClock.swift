// Opt-in accounting of decode time, so an export can report its phases (decode, compose,
// encode). A relaxed atomic add per decoded file; nothing else reads the clock.
import Synchronization

/// Total time spent decoding image files, summed over every thread, since the process started.
public enum DecodeClock {
    private static let total = Atomic<UInt64>(0)

    /// Nanoseconds spent in `ImageDecoder.decode(contentsOf:)` so far (reading and decoding).
    public static var nanoseconds: UInt64 { total.load(ordering: .relaxed) }

    static func add(_ ns: UInt64) { total.add(ns, ordering: .relaxed) }

    /// Runs `body`, adding its duration to the clock.
    static func measure<T>(_ body: () throws -> T) rethrows -> T {
        let start = ContinuousClock.now
        defer {
            let d = ContinuousClock.now - start
            add(UInt64(d.components.seconds) * 1_000_000_000 + UInt64(d.components.attoseconds / 1_000_000_000))
        }
        return try body()
    }
}
