// `--shard K/N`: which share of a journal's pages one of N machines exports. K may come from
// JOB_COMPLETION_INDEX, the variable a Kubernetes Indexed Job sets to each pod's index.
import Foundation

/// Shard `index` of `count`: the pages whose 0-based position in the journal is `index`
/// modulo `count`.
///
/// ## Guarantees
/// `1 <= count <= Shard.maxCount` and `0 <= index < count`, so the N shards of a journal are
/// disjoint and together hold every page.
struct Shard: Equatable {
    /// Which shard, from 0 (as JOB_COMPLETION_INDEX counts).
    var index: Int
    /// How many shards in all.
    var count: Int

    /// The most shards: as many as a Kubernetes Indexed Job may have completions.
    static let maxCount = 100_000
    /// Where `--shard /N` takes K from.
    static let indexVariable = "JOB_COMPLETION_INDEX"

    /// Reads `K/N`, or `/N` with K from `JOB_COMPLETION_INDEX` in `environment`.
    /// Throws a UsageError naming `--shard` (or the variable) and what was given.
    init(_ arg: Arg, environment: [String: String]) throws {
        let form = "expected K/N with 0 <= K < N <= \(Shard.maxCount), or /N to take K from \(Shard.indexVariable)"
        let parts = arg.text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let n = Shard.whole(parts[1]) else { throw arg.fail(form) }
        let given = Shard.whole(parts[0])
        guard parts[0].isEmpty || given != nil else { throw arg.fail(form) }
        guard (1...Shard.maxCount).contains(n) else { throw arg.fail("N must be from 1 to \(Shard.maxCount)") }
        if let k = given {
            guard k < n else { throw arg.fail("K must be from 0 to N-1 = \(n - 1)") }
            index = k
        } else {
            guard let raw = environment[Shard.indexVariable] else {
                throw UsageError("\(arg.name) (argument \(arg.token.index)): '\(arg.text)' takes K from \(Shard.indexVariable), which is not set")
            }
            guard let k = Shard.whole(Substring(raw)), k < n else {
                throw UsageError(
                    "\(arg.name) (argument \(arg.token.index)): \(Shard.indexVariable) must be a whole number from 0 to \(n - 1) for '\(arg.text)', got '\(raw)'"
                )
            }
            index = k
        }
        count = n
        checkInvariants()
    }

    /// Whether the page at 0-based journal position `position` is in this shard.
    func holds(_ position: Int) -> Bool { position % count == index }

    func checkInvariants() {
        precondition((1...Shard.maxCount).contains(count) && (0..<count).contains(index), "shard \(index)/\(count)")
    }

    /// ASCII digits only (no sign, no spaces), at most 9 of them so the value fits and a huge
    /// one is refused as out of range rather than overflowing.
    private static func whole(_ s: Substring) -> Int? {
        guard !s.isEmpty, s.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        let digits = s.drop { $0 == "0" }
        if digits.count > 9 { return Int.max }
        return digits.isEmpty ? 0 : Int(digits)
    }
}
