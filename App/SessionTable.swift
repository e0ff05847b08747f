/*
Abstract:
Lays out the sessions as a table of fixed-width lines: essential marker, id, title, size, state, progress.
*/

/// Renders session statuses as the lines of a table that fits a terminal's width.
struct SessionTable {
    /// The terminal's width in columns; every line is shorter, so none wraps.
    var width: Int
    /// Whether to color the essential marker and failed states.
    var usesColor: Bool
    /// Whether to show the progress column, which only a running app has anything to show in.
    var showsProgress = true

    private static let sizeWidth = 8
    private static let stateWidth = 11
    private static let barWidth = 20
    private static let rateWidth = 10

    /// The header line and one line per session.
    func lines(for statuses: [SessionStatus]) -> [String] {
        let idWidth = min(24, max("SESSION".count, statuses.map(\.id.count).max() ?? 0))
        // Two for the essential marker, then the columns and the two spaces between each.
        let progressWidth = showsProgress ? 2 + Self.barWidth + 5 + 2 + Self.rateWidth : 0
        let fixed = 2 + idWidth + 2 + 2 + Self.sizeWidth + 2 + Self.stateWidth + progressWidth
        let longestTitle = max("TITLE".count, statuses.map(\.session.title.count).max() ?? 0)
        let titleWidth = min(longestTitle, max(10, width - 1 - fixed))

        let header = "  " + DisplayFormat.fit("SESSION", idWidth) + "  " + DisplayFormat.fit("TITLE", titleWidth) + "  "
            + DisplayFormat.rightAligned("SIZE", Self.sizeWidth) + "  " + DisplayFormat.fit("STATE", Self.stateWidth)
            + (showsProgress ? "  PROGRESS" : "")
        return [bold(header)] + statuses.map { line(for: $0, idWidth: idWidth, titleWidth: titleWidth) }
    }

    private func line(for status: SessionStatus, idWidth: Int, titleWidth: Int) -> String {
        var text = DisplayFormat.fit(status.id, idWidth) + "  " + DisplayFormat.fit(status.session.title, titleWidth)
            + "  " + DisplayFormat.rightAligned(DisplayFormat.bytes(Int64(status.session.fileSize)), Self.sizeWidth)
            + "  " + DisplayFormat.fit(status.phase.description, Self.stateWidth)
        if showsProgress {
            text += "  " + DisplayFormat.bar(status.fractionCompleted, width: Self.barWidth)
                + " " + DisplayFormat.percent(status.fractionCompleted)
            if status.phase == .downloading, let rate = status.bytesPerSecond {
                text += "  " + DisplayFormat.rate(rate)
            }
        }
        var visible = String(text.prefix(max(0, width - 3)))
        while visible.last == " " { visible.removeLast() }
        // The green dot marks essential sessions, as the sample's list does.
        let marker = status.session.essential ? (usesColor ? Terminal.green + "●" + Terminal.reset : "●") : " "
        guard usesColor, case .failed = status.phase else { return marker + " " + visible }
        return marker + " " + Terminal.red + visible + Terminal.reset
    }

    private func bold(_ text: String) -> String {
        var visible = String(text.prefix(max(0, width - 1)))
        while visible.last == " " { visible.removeLast() }
        return usesColor ? Terminal.bold + visible + Terminal.reset : visible
    }
}
