/*
Abstract:
The byte layout of an asset-pack archive, written and read with Foundation and libcrypto alone.
*/

/// The layout of an asset-pack archive (format version 1):
///
/// | Bytes | Content |
/// | --- | --- |
/// | 8 | the magic number `89 42 41 50 41 43 4B 0A` (`\x89BAPACK\n`) |
/// | 4 | the header's length in bytes, big-endian, at most 16 MiB |
/// | header length | the header, UTF-8 JSON (``AssetPackArchiveHeader``) |
/// | the files' sizes | each file's bytes, in the header's order, uncompressed |
/// | 32 | the SHA-256 of the magic number, the length and the header |
///
/// The trailing digest seals the header; each file's bytes are sealed by the SHA-256 the header
/// lists for it. An archive is therefore exactly as long as its header says, and a reader detects
/// a truncated download from the size alone, a changed header from the digest, and names the
/// changed file from its own digest. Like the PNG signature, the first byte has its high bit set
/// and the last is a line feed, so a transfer that mangles bytes or line endings is caught at once.
///
/// - Note: Apple's `ba-package` writes Apple Archive (`.aar`, compressed). This format is this
///   project's own: Apple Archive has no public specification, and the files an asset pack usually
///   holds (media, models, textures) are compressed already.
public enum AssetPackArchiveFormat {
    /// The first eight bytes of every archive.
    public static let magic: [UInt8] = [0x89, 0x42, 0x41, 0x50, 0x41, 0x43, 0x4B, 0x0A]
    /// The length of the magic number and the header length field.
    public static let prefixLength = 12
    /// The length of the trailing digest.
    public static let trailerLength = 32
    /// The largest header accepted: a header is a list of paths, not content.
    public static let maximumHeaderLength = 16 << 20

    /// The archive's size for a header of `headerLength` bytes and files of `contentLength` bytes in all,
    /// or `Int64.max` where that would overflow (a header read from an archive never gets there: its
    /// sizes are refused first).
    public static func archiveSize(headerLength: Int, contentLength: Int64) -> Int64 {
        let framing = Int64(clamping: prefixLength + max(0, headerLength) + trailerLength)
        let (size, overflow) = framing.addingReportingOverflow(contentLength)
        return overflow ? .max : size
    }

    /// The magic number and the header's length, big-endian.
    static func prefix(headerLength: Int) -> [UInt8] {
        let length = UInt32(headerLength)
        return magic + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: length >> $0) }
    }
}
