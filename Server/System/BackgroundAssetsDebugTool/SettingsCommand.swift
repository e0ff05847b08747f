/*
Abstract:
`settings`: shows and changes the device settings that gate Background Assets.
*/

import BackgroundAssetsIPC

/// Turns low-power mode, Background App Refresh (for every app or one) and in-app content on or off,
/// then prints every setting.
struct SettingsCommand: DebugSubcommand {
    static let name = "settings"
    static let synopsis =
        "[--low-power on|off] [--background-refresh on|off [--app ID]] [--in-app-content on|off] "
        + "[--external-power on|off] [--network on|off]"
    static let summary = "Show or change low-power mode, Background App Refresh, in-app content, power and network."
    static let details = """
          --low-power on|off            Low-power mode: no periodic content requests while on.
          --background-refresh on|off   Background App Refresh: no periodic content requests while off.
          --app ID                      With --background-refresh: set this app's own switch instead of
                                        the global one (which still wins while it is off).
          --in-app-content on|off       In-app content: while off, nothing is downloaded and no extension
                                        runs before the app's first launch.
          --external-power on|off       Whether the device is on power: Background Tasks processing
                                        requests that require it wait while off.
          --network on|off              Whether the network is reachable: processing requests that
                                        require it wait while off.
        Without options, prints the settings. Changes are saved in system/settings.json by the service
        and apply at once. Prints aligned rows on a terminal, key=value lines otherwise.
        """

    var change: SettingsChange

    init(parsing arguments: inout SubcommandArguments) throws(DebugToolError) {
        change = SettingsChange(
            lowPowerMode: try arguments.switchOption("--low-power"),
            backgroundAppRefresh: try arguments.switchOption("--background-refresh"),
            app: try arguments.option("--app"),
            inAppContent: try arguments.switchOption("--in-app-content"),
            externalPower: try arguments.switchOption("--external-power"),
            networkReachable: try arguments.switchOption("--network"))
        if let app = change.app, change.backgroundAppRefresh == nil {
            throw .usage("--app \(app) names whose Background App Refresh to set; add --background-refresh on|off.")
        }
    }

    func run(in context: ToolContext) async throws -> DebugExitCode {
        let connection = context.connection()
        defer { connection.disconnect() }
        // An empty change changes nothing and is answered with the settings as they are.
        let settings = try await connection.send(.updateSettings(change)).expectedSettings()
        let formatter = SettingsFormatter(settings: settings)
        context.console.output(context.console.outputIsTerminal ? formatter.table() : formatter.lines())
        return .success
    }
}
