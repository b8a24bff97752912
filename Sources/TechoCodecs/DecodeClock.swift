// Opt-in accounting of decode time, so an export can report its phases (decode, compose,
// encode), and a count of whole passes over pictures, so a build can report how often it read
// each format's pixels. A relaxed atomic add per decoded file (and a locked add per pass);
// nothing else reads the clock.
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

    /// A whole pass over a picture's stream: a check (`ImageProbe.check`) or a decode into
    /// pixels (`ImageDecoder.decode`).
    public enum Pass: Sendable {
        case check, decode
    }

    private struct Key: Hashable {
        var pass: Pass
        var format: ImageFormat
    }

    private static let passes = Mutex<[Key: Int]>([:])

    /// Passes of `kind` over pictures of `format` started so far, in this process.
    public static func count(of kind: Pass, _ format: ImageFormat) -> Int {
        passes.withLock { $0[Key(pass: kind, format: format)] ?? 0 }
    }

    static func count(_ kind: Pass, _ format: ImageFormat) {
        passes.withLock { $0[Key(pass: kind, format: format), default: 0] += 1 }
    }
}
