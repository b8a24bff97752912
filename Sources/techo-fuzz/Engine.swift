// A small seeded mutation fuzzer, after the mutation menu of AFL and libFuzzer (bit flips,
// interesting values, chunk insert/delete/duplicate, splicing, dictionary tokens). Without
// compiler coverage it keeps an input when it reaches an outcome (an error message shape or a
// result shape) not seen before, which steers it towards distinct code paths.
import Foundation
import TechoFuzzTargets
import TechoGeometry

#if canImport(Glibc)
    import Glibc
#endif

/// Mutates inputs.
struct Mutator {
    var rng: SplitMix64
    let dictionary: [[UInt8]]
    let maxLength: Int

    static let interesting8: [UInt8] = [0, 1, 0x7f, 0x80, 0xff, 0x30, 0x39, 0x2d, 0x2e, 0x65]
    static let interesting32: [UInt32] = [0, 1, 0x7fff_ffff, 0x8000_0000, 0xffff_ffff, 0x0001_0000, 100_000, 65535, 16385, 32769]

    mutating func int(_ n: Int) -> Int { n <= 0 ? 0 : Int(rng.next() % UInt64(n)) }

    mutating func mutate(_ input: [UInt8], corpus: [[UInt8]]) -> [UInt8] {
        var b = input
        let rounds = 1 + int(4)
        for _ in 0..<rounds { mutateOnce(&b, corpus: corpus) }
        if b.count > maxLength { b.removeSubrange(maxLength...) }
        return b
    }

    mutating func mutateOnce(_ b: inout [UInt8], corpus: [[UInt8]]) {
        switch int(11) {
        case 0 where !b.isEmpty:  // flip a bit
            let i = int(b.count); b[i] ^= UInt8(1 << int(8))
        case 1 where !b.isEmpty:  // an interesting byte
            b[int(b.count)] = Mutator.interesting8[int(Mutator.interesting8.count)]
        case 2 where b.count >= 4:  // an interesting big-endian 32-bit value
            let i = int(b.count - 3), v = Mutator.interesting32[int(Mutator.interesting32.count)]
            for k in 0..<4 { b[i + k] = UInt8(truncatingIfNeeded: v >> (24 - 8 * k)) }
        case 3 where !b.isEmpty:  // delete a chunk
            let i = int(b.count), n = 1 + int(min(64, b.count - i))
            b.removeSubrange(i..<min(b.count, i + n))
        case 4 where !b.isEmpty:  // duplicate a chunk
            let i = int(b.count), n = 1 + int(min(64, b.count - i))
            let chunk = Array(b[i..<min(b.count, i + n)])
            b.insert(contentsOf: chunk, at: int(b.count + 1))
        case 5 where !dictionary.isEmpty:  // insert a token
            b.insert(contentsOf: dictionary[int(dictionary.count)], at: int(b.count + 1))
        case 6 where !dictionary.isEmpty && !b.isEmpty:  // overwrite with a token
            let t = dictionary[int(dictionary.count)], i = int(b.count)
            b.replaceSubrange(i..<min(b.count, i + t.count), with: t)
        case 7 where !corpus.isEmpty:  // splice with another input
            let other = corpus[int(corpus.count)]
            guard !other.isEmpty else { return }
            let cut = int(b.count + 1), from = int(other.count)
            b = Array(b[..<cut]) + Array(other[from...])
        case 8 where !b.isEmpty:  // random bytes
            let i = int(b.count)
            for k in i..<min(b.count, i + 1 + int(8)) { b[k] = UInt8(truncatingIfNeeded: rng.next()) }
        case 9 where b.count > 1:  // truncate
            b.removeSubrange((1 + int(b.count - 1))...)
        case 10 where !b.isEmpty:  // add or subtract a small number
            let i = int(b.count); b[i] = b[i] &+ UInt8(truncatingIfNeeded: int(70) - 35)
        default:
            b.append(UInt8(truncatingIfNeeded: rng.next()))
        }
    }
}

/// Runs a target for a time budget or a number of runs.
struct FuzzRun {
    var target: FuzzTarget
    var seed: UInt64
    var seconds: Double
    var maxRuns: Int = .max
    var corpusFiles: [[UInt8]]
    var verbose = false

    /// Returns the number of runs and the corpus size at the end.
    func go() -> (runs: Int, corpus: Int, outcomes: Int) {
        var corpus = (target.seeds + corpusFiles).filter { $0.count <= target.maxLength }
        if corpus.isEmpty { corpus = [[]] }
        var seen = Set<String>()
        // Every seed runs once, as is.
        for s in corpus { seen.insert(CrashCapture.execute(s, target.run)) }
        var m = Mutator(rng: SplitMix64(seed: seed), dictionary: target.dictionary, maxLength: target.maxLength)
        let start = Date()
        var runs = corpus.count
        var lastReport = start
        while runs < maxRuns {
            if runs % 64 == 0 {
                let now = Date()
                if now.timeIntervalSince(start) >= seconds { break }
                if verbose, now.timeIntervalSince(lastReport) >= 30 {
                    lastReport = now
                    FileHandle.standardError.write(
                        "techo-fuzz \(target.name): \(runs) runs, corpus \(corpus.count), outcomes \(seen.count)\n".data(using: .utf8)!)
                }
            }
            var input = m.mutate(corpus[m.int(corpus.count)], corpus: corpus)
            if let repair = target.repair, m.int(2) == 0 { repair(&input, &m.rng) }
            let outcome = CrashCapture.execute(input, target.run)
            runs += 1
            if seen.insert(outcome).inserted {
                if corpus.count < 4000 { corpus.append(input) } else { corpus[m.int(corpus.count)] = input }
            }
        }
        return (runs, corpus.count, seen.count)
    }
}
