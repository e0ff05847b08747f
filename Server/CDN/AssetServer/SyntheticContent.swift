/*
Abstract:
Deterministic pseudo-random file contents and sizes derived only from a session identifier.
*/

import BackgroundAssetsIPC

/// Bytes and sizes that depend on nothing but a session identifier, so every machine generates the same catalog.
///
/// FNV-1a turns the identifier into a seed and ``SplitMix64`` expands it; both are tiny, fast and fully
/// specified, unlike the standard library's random generators, which may change between releases.
struct SyntheticContent {
    private var generator: SplitMix64

    /// Starts the stream for `identifier`.
    init(identifier: String) {
        generator = SplitMix64(seed: FNV1a.hash(identifier))
    }

    /// Fills `buffer` with the next bytes of the stream, eight at a time in little-endian order.
    ///
    /// Only the last call for a file may pass a length that is not a multiple of eight: the unused bytes of
    /// the final word are dropped.
    mutating func fill(_ buffer: UnsafeMutableRawBufferPointer) {
        let words = buffer.count / 8
        for index in 0..<words {
            buffer.storeBytes(of: generator.next().littleEndian, toByteOffset: index * 8, as: UInt64.self)
        }
        let tail = buffer.count - words * 8
        if tail > 0 {
            var last = generator.next().littleEndian
            withUnsafeBytes(of: &last) { bytes in
                for index in 0..<tail { buffer[words * 8 + index] = bytes[index] }
            }
        }
    }

    /// A size within a quarter of `nominal` either way, chosen by the identifier, so catalogs look real.
    static func size(for identifier: String, around nominal: Int64) -> Int64 {
        let spread = nominal / 4
        guard spread > 0 else { return max(0, nominal) }
        let offset = Int64(FNV1a.hash(identifier + "#size") % UInt64(2 * spread + 1)) - spread
        return nominal + offset
    }
}
