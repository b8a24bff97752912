// SplitMix64 (Steele, Lea, Flood 2014): a tiny seeded generator so tests are deterministic.

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

    /// A uniform `Double` in `range`.
    public mutating func double(in range: ClosedRange<Double>) -> Double {
        Double.random(in: range, using: &self)
    }

    /// A uniform integer in `range`.
    public mutating func int(in range: ClosedRange<Int>) -> Int {
        Int.random(in: range, using: &self)
    }
}
