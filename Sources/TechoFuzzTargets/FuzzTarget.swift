// What a fuzz target is, shared by techo-fuzz (the seeded mutation loop) and techo-libfuzzer
// (libFuzzer's coverage-guided loop): a function of bytes that must return and never trap, hang
// or allocate without bound, with its seeds, dictionary and size bound.
import TechoGeometry

/// One thing to fuzz: a function of bytes that must return (any error is fine) and never trap,
/// hang or allocate without bound.
public struct FuzzTarget {
    public let name: String
    /// What the target reads, for `--help`.
    public let summary: String
    /// Built-in seeds, used with any corpus files.
    public let seeds: [[UInt8]]
    /// File extensions of corpus files this target takes.
    public let extensions: [String]
    /// Tokens worth inserting.
    public let dictionary: [[UInt8]]
    /// Largest input it is given.
    public let maxLength: Int
    /// Repairs a mutated input so it gets past shallow checks (PNG CRCs); may return it as is.
    public var repair: ((inout [UInt8], inout SplitMix64) -> Void)? = nil
    /// Runs one input; returns a short outcome signature.
    public let run: ([UInt8]) -> String

    public init(
        name: String, summary: String, seeds: [[UInt8]], extensions: [String], dictionary: [[UInt8]], maxLength: Int,
        repair: ((inout [UInt8], inout SplitMix64) -> Void)? = nil, run: @escaping ([UInt8]) -> String
    ) {
        self.name = name
        self.summary = summary
        self.seeds = seeds
        self.extensions = extensions
        self.dictionary = dictionary
        self.maxLength = maxLength
        self.repair = repair
        self.run = run
    }
}

/// How outcomes are written: as number-free shapes while fuzzing (so the fuzzer counts distinct
/// code paths), or verbatim when a saved input is replayed against its expected outcome.
public enum OutcomeStyle {
    /// Default false. Set once by `techo-fuzz --replay` before any input runs.
    nonisolated(unsafe) public static var verbatim = false
}

/// A short, number-free shape of an error or result, so "offset 12" and "offset 13" count once;
/// the text itself when `OutcomeStyle.verbatim` is set.
public func outcomeShape(_ s: String) -> String {
    if OutcomeStyle.verbatim { return s }
    var out = ""
    var lastDigit = false, quoted = false
    for c in s.prefix(160) {
        if c == "\"" { quoted.toggle(); out.append(c); continue }
        if quoted { continue }  // quoted input text says little about the path taken
        if c.isNumber { if !lastDigit { out.append("#") }; lastDigit = true } else { out.append(c); lastDigit = false }
    }
    return out
}
