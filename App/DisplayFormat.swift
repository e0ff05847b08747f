/*
Abstract:
How sizes, rates and progress read on screen.
*/

/// Formats the numbers the app shows.
enum DisplayFormat {
    /// A byte count in binary units, as the system's tools show sizes: `842 B`, `8.4 MiB`, `1.2 GiB`.
    static func bytes(_ count: Int64) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(count)
        var unit = 0
        while value >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        if unit == 0 { return "\(count) B" }
        let tenths = (value * 10).rounded()
        return "\(Int(tenths) / 10).\(Int(tenths) % 10) \(units[unit])"
    }

    /// A rate such as `2.1 MiB/s`.
    static func rate(_ bytesPerSecond: Double) -> String {
        bytes(Int64(bytesPerSecond.rounded())) + "/s"
    }

    /// A progress bar of `width` cells, such as `██████░░░░`.
    static func bar(_ fraction: Double, width: Int) -> String {
        let filled = Int((min(max(fraction, 0), 1) * Double(width)).rounded(.down))
        return String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
    }

    /// A whole percentage, right-aligned in four columns: `  7%`, `100%`.
    static func percent(_ fraction: Double) -> String {
        let percent = "\(Int((min(max(fraction, 0), 1) * 100).rounded(.down)))%"
        return String(repeating: " ", count: max(0, 4 - percent.count)) + percent
    }

    /// Pads or truncates text to exactly `width` characters, ending a truncated text with `…`.
    static func fit(_ text: String, _ width: Int) -> String {
        guard width > 0 else { return "" }
        if text.count > width { return text.prefix(width - 1) + "…" }
        return text + String(repeating: " ", count: width - text.count)
    }

    /// Right-aligns text in `width` characters.
    static func rightAligned(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }
}
