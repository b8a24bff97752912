// SplitMix64 (Steele, Lea, Flood 2014): the one seeded generator every deterministic input of
// techo is made with (tests, benches, fuzzers), so a seed gives the same sequence on every machine.

/// A seeded random number generator: the same seed gives the same sequence on every machine.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The current state. Default: the seed.
    public var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A `Double` in 0 ..< 1 from the top 53 bits of the next value.
    public mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

    /// `range.lowerBound + (range.upperBound - range.lowerBound) * unit()`: the same draw on
    /// every platform (the standard library's `Double.random(in:using:)` may change).
    public mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * unit()
    }

    /// A uniform `Double` in `range`, by the standard library's sampling.
    public mutating func double(in range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &self) }

    /// A uniform integer in `range`, by the standard library's sampling.
    public mutating func int(in range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }
}
