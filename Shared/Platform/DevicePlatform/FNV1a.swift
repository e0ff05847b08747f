/*
Abstract:
The 64-bit FNV-1a hash: a short, fully specified name for a string.
*/

/// The 64-bit FNV-1a hash of a string's UTF-8 bytes.
///
/// Tiny and fully specified, unlike `Hasher`, whose values change from one run to the next: a
/// seed or a name made from it is the same on every machine and in every process.
public enum FNV1a {
    /// The hash of `text`'s UTF-8 bytes.
    public static func hash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}
