/*
Abstract:
The timeline's colours, sizes and text formats, in one place so the picture and its legend agree.
*/

import BackgroundAssetsIPC
import Foundation

/// The colours and measures of the timeline picture.
enum TimelineStyle {
    // Bytes over time, by how the download ran.
    static let essential = "#E07B00"
    static let background = "#2F6FD6"
    static let foreground = "#1E9E57"
    // Device activity.
    static let install = "#F6C58F"
    static let extensionColour = "#8E5CC2"
    static let app = "#1E9E57"
    static let appInBackground = "#8FD3AE"
    static let tasks = "#11897F"
    static let periodic = "#C99A00"
    static let signposts = "#5C6BC0"
    // Marks and furniture.
    static let problem = "#C62828"
    static let ink = "#1F2933"
    static let muted = "#616E7C"
    static let faint = "#9AA5B1"
    static let grid = "#E4E7EB"
    static let stripe = "#F5F7FA"
    static let foldFill = "#EEF0F3"
    static let foldEdge = "#9AA5B1"
    static let foldOnStripe = "#E8EBEF"

    /// The page's width, and where the plot starts and ends.
    static let width = 1240.0
    static let labelX = 16.0
    static let plotX = 232.0
    static let plotWidth = width - plotX - 24

    /// The style sheet of the SVG: text sizes by class.
    static let sheet = """
        .title{font-size:18px;font-weight:bold;fill:\(ink)}.subtitle{font-size:12px;fill:\(muted)}\
        .label{font-size:11px;fill:\(ink)}.small{font-size:10px;fill:\(muted)}.section{font-size:12px;font-weight:bold;fill:\(ink)}\
        .tick{font-size:10px;fill:\(muted)}.inside{font-size:10px;fill:#FFFFFF}\
        .outside{font-size:10px;fill:\(ink)}.foldlabel{font-size:10px;fill:#3E4C59}
        """

    /// A run's colour: essential first, then foreground or background.
    static func colour(essential: Bool, foreground: Bool) -> String {
        essential ? Self.essential : foreground ? Self.foreground : background
    }

    /// A size in binary units, as the app, install and the service show sizes: `9.5 MiB`, `612.0 KiB`.
    static func bytes(_ count: Int64) -> String {
        ByteCountText.describe(count)
    }

    /// A rate, such as `24.1 MiB/s`.
    static func rate(_ bytesPerSecond: Double) -> String {
        bytes(Int64(bytesPerSecond.isFinite ? max(0, bytesPerSecond) : 0)) + "/s"
    }

    /// A time of day in UTC, as `trace` prints it: `14:07:02`, or with milliseconds when the
    /// labels are closer than a second.
    static func timeOfDay(_ date: Date, milliseconds: Bool = false) -> String {
        // 2026-11-25T14:07:02.123 → 14:07:02(.123)
        let text = ISO8601Timestamp.string(for: date).dropFirst(11)
        return String(milliseconds ? text : text.prefix(8))
    }

    /// A date and time in UTC for spans longer than a day: `11-25 14:07`.
    static func dayAndTime(_ date: Date) -> String {
        // 2026-11-25T14:07:02.123 → 11-25 14:07
        String(ISO8601Timestamp.string(for: date).dropFirst(5).prefix(11)).replacingOccurrences(of: "T", with: " ")
    }

    /// Text cut to fit a width, with an ellipsis, at the label's approximate character width.
    static func fitted(_ text: String, width: Double, characterWidth: Double = 6.4) -> String {
        let fits = Int(width / characterWidth)
        guard text.count > fits, fits > 1 else { return text }
        return String(text.prefix(fits - 1)) + "…"
    }
}
