/*
Abstract:
`settings`: shows and changes the device settings that gate Background Assets, Background Tasks and notifications.
*/

import BackgroundAssetsIPC

/// Turns low-power mode, Background App Refresh (for every app or one), in-app content, power and
/// network on or off, answers for notifications (every app's default or one app's), then prints every setting.
struct SettingsCommand: DebugSubcommand {
    static let configuration = CommandConfiguration(
        name: "settings",
        abstract: """
            Show or change low-power mode, Background App Refresh, in-app content, power, network, notifications \
            and the Apple hosting server.
            """,
        discussion: """
            Without options, prints the settings. Changes are saved in system/settings.json by the service
            and apply at once. Prints aligned rows on a terminal, key=value lines otherwise.
            """)

    @Option("--low-power", help: "Low-power mode: no periodic content requests while on.", as: .onOff)
    var lowPower: Bool?
    @Option("--background-refresh", help: "Background App Refresh: no periodic content requests while off.", as: .onOff)
    var backgroundRefresh: Bool?
    @Option(appBundleID: """
        With --background-refresh, set this app's own switch instead of the global one, which still wins while \
        it is off; with --notifications, answer for this app instead of setting every app's default.
        """)
    var app: String?
    @Option("--in-app-content", help: """
        In-app content: while off, nothing is downloaded and no extension runs before the app's first launch.
        """, as: .onOff)
    var inAppContent: Bool?
    @Option("--external-power", help: """
        Whether the device is on power: Background Tasks processing requests that require it wait while off.
        """, as: .onOff)
    var externalPower: Bool?
    @Option(
        "--network", help: "Whether the network is reachable: processing requests that require it wait while off.",
        as: .onOff)
    var network: Bool?
    @Option("--notifications", valueName: "allow|deny", help: """
        Whether an app that asks may post notifications: the answer a person gives when the app first asks, \
        for every app (the default, allow) or, with -b, for one. Changing it changes the app's answer.
        """, as: ArgumentConversion { text throws(UsageError) in
        switch text.lowercased() {
        case "allow": return true
        case "deny": return false
        default: throw UsageError("--notifications takes allow or deny, not \(text.debugDescription).")
        }
    })
    var notifications: Bool?
    @Option("--apple-hosting-server", valueName: "URL|none", help: """
        The server that plays Apple's hosting of asset packs for this device, as Apple's Developer settings \
        point a device at a mock server: apps that set BAUsesAppleHosting get their packs from \
        URL/apple-hosting/BUNDLE-ID/. none removes it.
        """, as: ArgumentConversion { text throws(UsageError) in
        if text == "none" { return "" }
        if let problem = DownloadDescriptor.urlProblem(text) {
            throw UsageError("--apple-hosting-server \(text.debugDescription) is not usable: \(problem)")
        }
        return text
    })
    var appleHostingServer: String?
    @Flag("--json", help: "Print the settings as a JSON object, with the keys of settings.json.")
    var json: Bool

    /// The settings the options change; none without options.
    var change: SettingsChange {
        SettingsChange(
            lowPowerMode: lowPower, backgroundAppRefresh: backgroundRefresh, app: app, inAppContent: inAppContent,
            externalPower: externalPower, networkReachable: network, notifications: notifications,
            appleHostingServer: appleHostingServer)
    }

    func validate() throws(UsageError) {
        if app != nil, backgroundRefresh == nil, notifications == nil {
            throw UsageError("-b/--app-bundle-id only goes with --background-refresh or --notifications; add one of them.")
        }
    }

    func run(in context: ToolContext) async throws -> DebugExitCode {
        let connection = context.connection()
        defer { connection.disconnect() }
        // An empty change changes nothing and is answered with the settings as they are.
        let settings = try await connection.send(.tool(.updateSettings(change))).expectedSettings()
        let formatter = SettingsFormatter(settings: settings)
        if json {
            context.console.output(try formatter.json())
        } else {
            context.console.output(context.console.outputIsTerminal ? formatter.table() : formatter.lines())
        }
        return .success
    }
}
