/*
Abstract:
SplitMix64: the one seeded generator, for bytes and choices that must be the same on every machine and every run.
*/

/// A tiny pseudo-random generator whose whole sequence follows from its seed.
///
/// SplitMix64 (Steele, Lea and Flood, 2014) is fully specified and takes three multiplications per
/// value, unlike the standard library's generators, which may change between releases. The asset
/// server expands a session's identifier into its synthetic bytes with it, so every machine
/// generates the same catalog; tests draw seeded choices from it, so a failing run can be replayed
/// from its seed.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    @usableFromInline var state: UInt64

    /// Starts the sequence that `seed` determines.
    /// - Parameter seed: Any value; equal seeds give equal sequences.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 bits of the sequence.
    @inlinable
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
