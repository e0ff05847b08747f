/*
Abstract:
Unit tests of the apps and settings in `status`, and of the spans of time it shows.
*/

import BackgroundAssetsIPC
import Foundation
import Testing

@testable import BackgroundAssetsDebugTool

@Suite("Show installed apps and device settings in the status")
struct StatusFormatterAppsTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// An app in the middle of its install, with its extension running after being stopped once by force.
    static let installing = AppStatus(
        bundleIdentifier: "com.example.WWDC-Sessions", version: "3", appGroup: "group.com.example.WWDC-Sessions",
        state: .installing,
        progress: InstallProgress(
            phase: .downloadingEssentialAssets, completedBytes: 429, totalBytes: 1000, essentialFinished: 1,
            essentialTotal: 3),
        hasLaunched: false, nextPeriodicCheck: now.addingTimeInterval(3 * 3600 + 12 * 60 + 5), runtimeBudgetLeft: 270.8,
        extensionProcessIdentifier: 4242, lastExtensionTermination: "it ran past its 30 s runtime limit")

    /// A launched app whose periodic checks are suspended and whose runtime is spent.
    static let suspended = AppStatus(
        bundleIdentifier: "com.example.Other", version: "1.0", appGroup: "group.com.example.Other", state: .launchable,
        progress: InstallProgress(phase: .complete, completedBytes: 10, totalBytes: 10), hasLaunched: true,
        periodicCheckSuspendedBecause: "low-power mode is on", runtimeBudgetLeft: 0)

    static var status: ServiceStatus {
        var settings = DeviceSettings()
        settings.lowPowerMode = true
        settings.backgroundAppRefreshByApp = ["com.example.Other": false, "com.example.WWDC-Sessions": true]
        return ServiceStatus(
            processIdentifier: 7, deviceRoot: "/tmp/device", connectionCount: 0, downloads: [],
            apps: [installing, suspended], settings: settings)
    }

    @Test("On a terminal each app shows its state, first launch, next check, budget, extension and last termination")
    func appSection() {
        let text = StatusFormatter(status: Self.status, now: Self.now).table()
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0].hasSuffix("0 connection(s), 2 app(s), 0 download(s)"))
        #expect(lines[1] == "Settings: low-power mode on, Background App Refresh on (off for com.example.Other), "
            + "in-app content on")
        let expected = [
            "Apps:",
            "  com.example.WWDC-Sessions version 3: installing 42% (downloading essential assets), not launched yet",
            "    next periodic check: in 3 h 12 min",
            "    runtime budget left: 4 min 30 s",
            "    extension: running as pid 4242",
            "    last forced termination: it ran past its 30 s runtime limit",
            "  com.example.Other version 1.0: launchable, launched",
            "    next periodic check: suspended (low-power mode is on)",
            "    runtime budget left: 0 s",
            "",
            "No downloads.",
        ]
        #expect(Array(lines.dropFirst(3)) == expected, "\(text)")
    }

    @Test("Without a terminal each app is one key=value line with ISO dates and the budget in seconds")
    func appLines() throws {
        let lines = StatusFormatter(status: Self.status, now: Self.now).lines().split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines[1] == "settings low-power=on background-refresh=on background-refresh.com.example.Other=off "
            + "background-refresh.com.example.WWDC-Sessions=on in-app-content=on external-power=on network=reachable")
        let check = Self.now.addingTimeInterval(3 * 3600 + 12 * 60 + 5).ISO8601Format()
        #expect(lines[2] == "bundle-id=com.example.WWDC-Sessions version=3 state=installing progress=42% launched=no "
            + "next-check=\(check) suspended-because=- budget-left=270 extension-pid=4242 "
            + "last-termination=\"it ran past its 30 s runtime limit\"")
        #expect(lines[3] == "bundle-id=com.example.Other version=1.0 state=launchable progress=100% launched=yes "
            + "next-check=suspended suspended-because=\"low-power mode is on\" budget-left=0 extension-pid=- "
            + "last-termination=-")
    }

    @Test("An app installed without a downloader extension shows no runtime budget, which only an extension spends")
    func appWithoutExtension() {
        var game = Self.suspended
        game.periodicCheckSuspendedBecause = "the app has no downloader extension"
        game.runtimeBudgetLeft = 600
        game.hasDownloaderExtension = false
        let status = ServiceStatus(processIdentifier: 7, deviceRoot: "/tmp/device", connectionCount: 0, downloads: [],
                                   apps: [game], settings: DeviceSettings())
        let table = StatusFormatter(status: status, now: Self.now).table()
        #expect(table.contains("    next periodic check: suspended (the app has no downloader extension)"), "\(table)")
        #expect(!table.contains("runtime budget"), "\(table)")
        let line = StatusFormatter(status: status, now: Self.now).lines()
        #expect(line.contains(" budget-left=- "), "\(line)")
    }

    @Test("JSON carries the apps and the settings, with ISO 8601 dates")
    func json() throws {
        let text = try StatusFormatter(status: Self.status).json()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let apps = try #require(object["apps"] as? [[String: Any]])
        #expect(apps.count == 2)
        #expect(apps[0]["nextPeriodicCheck"] as? String == Self.installing.nextPeriodicCheck?.ISO8601Format())
        let settings = try #require(object["settings"] as? [String: Any])
        #expect(settings["lowPowerMode"] as? Bool == true)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        #expect(try decoder.decode(ServiceStatus.self, from: Data(text.utf8)).apps.map(\.bundleIdentifier)
            == ["com.example.WWDC-Sessions", "com.example.Other"])
    }

    @Test("settings prints aligned rows on a terminal, and notes an app switch the global one overrides")
    func settingsTable() {
        var settings = DeviceSettings()
        settings.backgroundAppRefresh = false
        settings.backgroundAppRefreshByApp = ["com.example.a": true]
        let rows = SettingsFormatter(settings: settings).table().split(separator: "\n").map(String.init)
        #expect(rows == [
            "Low-power mode          off",
            "Background App Refresh  off",
            "  com.example.a         on (no effect while Background App Refresh is off)",
            "In-app content          on",
            "External power          on",
            "Network                 reachable",
            "Notifications           allow (when an app asks)",
        ])
        #expect(SettingsFormatter(settings: settings).summary.contains("Background App Refresh off,"))
        settings.externalPower = false
        settings.networkReachable = false
        #expect(SettingsFormatter(settings: settings).summary.hasSuffix("in-app content on, on battery, network unreachable"))
    }

    @Test("settings shows the Apple hosting server once set, and only then")
    func appleHostingServerRow() {
        var settings = DeviceSettings()
        #expect(!SettingsFormatter(settings: settings).lines().contains("apple-hosting-server"))
        settings.appleHostingServer = "http://127.0.0.1:8080"
        #expect(SettingsFormatter(settings: settings).lines().contains("\napple-hosting-server=http://127.0.0.1:8080\n"))
        #expect(SettingsFormatter(settings: settings).table().split(separator: "\n").last
            == "Apple hosting server    http://127.0.0.1:8080")
    }

    @Test("Spans of time show their two largest units, and a time that has come is due now")
    func durations() {
        let cases: [(Double, String)] = [
            (0, "0 s"), (59.9, "59 s"), (60, "1 min"), (270, "4 min 30 s"), (3600, "1 h"), (11_525, "3 h 12 min"),
            (2 * 86_400 + 5 * 3600 + 59, "2 d 5 h"), (86_400, "1 d"), (-5, "0 s"), (.infinity, "0 s"),
        ]
        for (seconds, text) in cases {
            #expect(DurationText.duration(seconds) == text, "\(seconds)")
        }
        #expect(DurationText.relative(Self.now.addingTimeInterval(-60), now: Self.now) == "due now")
        #expect(DurationText.relative(Self.now.addingTimeInterval(90), now: Self.now) == "in 1 min 30 s")
    }
}

@Suite("Show the notification answers in the settings")
struct NotificationSettingsFormatterTests {
    @Test("settings shows the default answer and each app's; status shows them only once one was given")
    func notificationAnswers() {
        var settings = DeviceSettings()
        #expect(SettingsFormatter(settings: settings).lines().hasSuffix("\nnotifications=allow"))
        #expect(!SettingsFormatter(settings: settings).pairs().contains("notifications"))
        settings.notificationsByApp = ["com.example.game": false]
        let formatter = SettingsFormatter(settings: settings)
        #expect(formatter.lines().hasSuffix("\nnotifications=allow\nnotifications.com.example.game=deny"))
        #expect(formatter.table().hasSuffix("Notifications           allow (when an app asks)\n  com.example.game      deny"))
        #expect(formatter.pairs().hasSuffix(" notifications=allow notifications.com.example.game=deny"))
    }
}
