/*
Abstract:
`settings`: shows and changes the device settings that gate Background Assets, Background Tasks and notifications.
*/

import BackgroundAssetsIPC

/// Turns low-power mode, Background App Refresh (for every app or one), in-app content, power and
/// network on or off, answers for notifications (every app's default or one app's), then prints every setting.
struct SettingsCommand: DebugSubcommand {
    static let lowPower = Option.onOff("--low-power", help: "Low-power mode: no periodic content requests while on.")
    static let backgroundRefresh = Option.onOff(
        "--background-refresh", help: "Background App Refresh: no periodic content requests while off.")
    static let app = Option.appBundleID(help: """
        With --background-refresh, set this app's own switch instead of the global one, which still wins while \
        it is off; with --notifications, answer for this app instead of setting every app's default.
        """)
    static let inAppContent = Option.onOff("--in-app-content", help: """
        In-app content: while off, nothing is downloaded and no extension runs before the app's first launch.
        """)
    static let externalPower = Option.onOff("--external-power", help: """
        Whether the device is on power: Background Tasks processing requests that require it wait while off.
        """)
    static let network = Option.onOff(
        "--network", help: "Whether the network is reachable: processing requests that require it wait while off.")
    static let notifications = Option("--notifications", valueName: "allow|deny", help: """
        Whether an app that asks may post notifications: the answer a person gives when the app first asks, \
        for every app (the default, allow) or, with -b, for one. Changing it changes the app's answer.
        """) { text throws(UsageError) in
        switch text.lowercased() {
        case "allow": return true
        case "deny": return false
        default: throw UsageError("--notifications takes allow or deny, not \(text.debugDescription).")
        }
    }

    static let appleHostingServer = Option("--apple-hosting-server", valueName: "URL|none", help: """
        The server that plays Apple's hosting of asset packs for this device, as Apple's Developer settings \
        point a device at a mock server: apps that set BAUsesAppleHosting get their packs from \
        URL/apple-hosting/BUNDLE-ID/. none removes it.
        """) { text throws(UsageError) in
        if text == "none" { return "" }
        if let problem = DownloadDescriptor.urlProblem(text) {
            throw UsageError("--apple-hosting-server \(text.debugDescription) is not usable: \(problem)")
        }
        return text
    }

    static let json = Flag("--json", help: "Print the settings as a JSON object, with the keys of settings.json.")

    static let signature = CommandSignature(
        name: "settings",
        abstract: """
            Show or change low-power mode, Background App Refresh, in-app content, power, network, notifications \
            and the Apple hosting server.
            """,
        discussion: """
            Without options, prints the settings. Changes are saved in system/settings.json by the service
            and apply at once. Prints aligned rows on a terminal, key=value lines otherwise.
            """,
        arguments: [
            lowPower, backgroundRefresh, app, inAppContent, externalPower, network, notifications, appleHostingServer,
            Self.json,
        ])

    var change: SettingsChange
    var json: Bool

    init(parsing arguments: SubcommandArguments) throws(DebugToolError) {
        change = SettingsChange(
            lowPowerMode: try arguments.option(Self.lowPower),
            backgroundAppRefresh: try arguments.option(Self.backgroundRefresh),
            app: try arguments.option(Self.app),
            inAppContent: try arguments.option(Self.inAppContent),
            externalPower: try arguments.option(Self.externalPower),
            networkReachable: try arguments.option(Self.network),
            notifications: try arguments.option(Self.notifications),
            appleHostingServer: try arguments.option(Self.appleHostingServer))
        json = arguments.flag(Self.json)
        if change.app != nil, change.backgroundAppRefresh == nil, change.notifications == nil {
            throw arguments.usage(
                "-b/--app-bundle-id only goes with --background-refresh or --notifications; add one of them.")
        }
    }

    func run(in context: ToolContext) async throws -> DebugExitCode {
        let connection = context.connection()
        defer { connection.disconnect() }
        // An empty change changes nothing and is answered with the settings as they are.
        let settings = try await connection.send(.updateSettings(change)).expectedSettings()
        let formatter = SettingsFormatter(settings: settings)
        if json {
            context.console.output(try formatter.json())
        } else {
            context.console.output(context.console.outputIsTerminal ? formatter.table() : formatter.lines())
        }
        return .success
    }
}
