/*
Abstract:
Renders the device settings: rows for people, key=value lines or JSON for scripts, and one summary line for status.
*/

import BackgroundAssetsIPC

/// Turns ``DeviceSettings`` into text, with every app's own Background App Refresh switch.
struct SettingsFormatter {
    var settings: DeviceSettings

    /// The per-app switches, sorted by bundle identifier so the output is stable.
    private var appSwitches: [(app: String, isOn: Bool)] {
        settings.backgroundAppRefreshByApp.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// One line for `status`:
    /// `Settings: low-power mode off, Background App Refresh on (off for com.example.App), in-app content on`.
    var summary: String {
        var refresh = Self.word(settings.backgroundAppRefresh)
        // While the global switch is off the apps' own switches change nothing, so they are not listed.
        let exceptions = appSwitches.filter { !$0.isOn }
        if settings.backgroundAppRefresh, !exceptions.isEmpty {
            refresh += " (off for \(exceptions.map(\.app).joined(separator: ", ")))"
        }
        var line = "Settings: low-power mode \(Self.word(settings.lowPowerMode)), Background App Refresh \(refresh), "
            + "in-app content \(Self.word(settings.inAppContent))"
        // Power and network matter only to Background Tasks processing requests; said only when they hold them back.
        if !settings.externalPower { line += ", on battery" }
        if !settings.networkReachable { line += ", network unreachable" }
        return line
    }

    /// Aligned rows for a terminal, one per setting and one per app with its own refresh switch.
    func table() -> String {
        var rows: [(String, String)] = [
            ("Low-power mode", Self.word(settings.lowPowerMode)),
            ("Background App Refresh", Self.word(settings.backgroundAppRefresh)),
        ]
        for (app, isOn) in appSwitches {
            // As in Settings on iOS, an app's own switch cannot turn refresh on while the global one is off.
            let note = isOn && !settings.backgroundAppRefresh ? " (no effect while Background App Refresh is off)" : ""
            rows.append(("  \(app)", Self.word(isOn) + note))
        }
        rows.append(("In-app content", Self.word(settings.inAppContent)))
        rows.append(("External power", Self.word(settings.externalPower)))
        rows.append(("Network", settings.networkReachable ? "reachable" : "unreachable"))
        rows.append(("Notifications", Self.answer(settings.notifications ?? true) + " (when an app asks)"))
        rows += notificationAnswers.map { ("  \($0.app)", Self.answer($0.allows)) }
        // Shown once set, so the rows of a device that never used Apple hosting stay as they were.
        if let server = settings.appleHostingServer { rows.append(("Apple hosting server", server)) }
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.1 }
            .joined(separator: "\n")
    }

    /// One `key=value` line per setting, stable for `grep`; an app's switch is `background-refresh.APP=off`.
    func lines() -> String {
        lines(withNotifications: true)
    }

    /// The lines, the notification answers left out when asked (`status` shows them only once changed).
    private func lines(withNotifications: Bool) -> String {
        var lines = [
            "low-power=\(Self.word(settings.lowPowerMode))",
            "background-refresh=\(Self.word(settings.backgroundAppRefresh))",
        ]
        lines += appSwitches.map { "background-refresh.\(StatusFormatter.shortened($0.app))=\(Self.word($0.isOn))" }
        lines.append("in-app-content=\(Self.word(settings.inAppContent))")
        lines.append("external-power=\(Self.word(settings.externalPower))")
        lines.append("network=\(settings.networkReachable ? "reachable" : "unreachable")")
        if let server = settings.appleHostingServer { lines.append("apple-hosting-server=\(server)") }
        guard withNotifications else { return lines.joined(separator: "\n") }
        lines.append("notifications=\(Self.answer(settings.notifications ?? true))")
        lines += notificationAnswers.map { "notifications.\(StatusFormatter.shortened($0.app))=\(Self.answer($0.allows))" }
        return lines.joined(separator: "\n")
    }

    /// For `settings --json`: the settings under the keys of `status --json`'s `settings` and of
    /// settings.json, with the notification answers filled in as the other forms show them.
    func json() throws -> String {
        var shown = settings
        // The rows say "allow" for a device that never answered; the JSON says the same, not nothing.
        shown.notifications = settings.notifications ?? true
        shown.notificationsByApp = settings.notificationsByApp ?? [:]
        return try StatusFormatter.json(shown)
    }

    /// The same settings on one line of `key=value` pairs, for `status` without a terminal.
    func pairs() -> String {
        // Notifications at their default are left out, so the line stays as it was for devices that never used them.
        let changed = settings.notifications != nil || settings.notificationsByApp?.isEmpty == false
        return "settings " + lines(withNotifications: changed).split(separator: "\n").joined(separator: " ")
    }

    /// Each app's own notification answer, sorted by bundle identifier.
    private var notificationAnswers: [(app: String, allows: Bool)] {
        (settings.notificationsByApp ?? [:]).sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    private static func word(_ isOn: Bool) -> String { isOn ? "on" : "off" }
    private static func answer(_ allows: Bool) -> String { allows ? "allow" : "deny" }
}
