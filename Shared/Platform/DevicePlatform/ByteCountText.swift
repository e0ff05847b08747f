/*
Abstract:
Sizes as people read them in the tools' messages: bytes, KiB, MiB, GiB.
*/

/// Formats byte counts in binary units, one decimal place above a KiB.
public enum ByteCountText {
    /// `512 bytes`, `1.5 KiB`, `12.0 MiB`, `3.2 GiB`.
    public static func describe(_ bytes: Int64) -> String {
        guard bytes >= 1024 else { return bytes == 1 ? "1 byte" : "\(bytes) bytes" }
        var value = Double(bytes) / 1024
        var unit = "KiB"
        for next in ["MiB", "GiB", "TiB"] where value >= 1024 {
            value /= 1024
            unit = next
        }
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) \(unit)"
    }
}
