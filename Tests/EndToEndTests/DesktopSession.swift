/*
Abstract:
A private desktop for a test: a virtual X display, a D-Bus session bus and a real notification server on it.
*/

import Foundation
import TestSupport

/// A virtual display (Xvfb), a session bus of its own (dbus-daemon) and dunst, a freedesktop
/// notification server, on them: the desktop a notification from the service reaches through
/// `notify-send`, with nothing shared with the machine's own session.
struct DesktopSession {
    /// The programs it needs, all from Debian (`xvfb`, `dbus`, `dunst`, `libnotify-bin`).
    static let programs = ["Xvfb", "dbus-daemon", "dunst", "dunstctl", "notify-send"]

    /// Whether the desktop test runs: with every program installed, or always where
    /// `BA_REQUIRE_DESKTOP=1` says they must be, so a machine that should have them fails instead of skipping.
    static let runs = missingPrograms.isEmpty || ProcessInfo.processInfo.environment["BA_REQUIRE_DESKTOP"] == "1"

    /// The programs that are not on `PATH`.
    static var missingPrograms: [String] {
        programs.filter { (try? locateExecutable($0)) == nil }
    }

    /// The X display, such as `:3`.
    let display: String
    /// The session bus's address, which `notify-send` and `dunstctl` reach the server through.
    let busAddress: String

    /// The variables a process needs to show notifications on this desktop.
    var environment: [String: String] {
        ["DISPLAY": display, "DBUS_SESSION_BUS_ADDRESS": busAddress]
    }

    /// Starts the display, the bus and the notification server, runs `body`, and stops them all.
    static func with<T>(
        isolation: isolated (any Actor)? = #isolation, _ body: (DesktopSession) async throws -> T
    ) async throws -> T {
        let missing = missingPrograms
        guard missing.isEmpty else {
            throw TestSupportError("BA_REQUIRE_DESKTOP=1, but \(missing.joined(separator: ", ")) not on PATH; "
                + "apt-get install xvfb dbus dunst libnotify-bin")
        }
        // -displayfd: Xvfb picks a free display and writes its number once it accepts clients.
        let xvfb = try ChildProcess.launch(
            executableURL: try locateExecutable("Xvfb"), arguments: ["-displayfd", "1", "-screen", "0", "1024x600x24", "-nolisten", "tcp"])
        return try await xvfb.runScoped { xvfb in
            let number = try await poll("Xvfb to name its display") { xvfb.standardOutputLines().first }
            let display = ":\(number)"
            let bus = try ChildProcess.launch(
                executableURL: try locateExecutable("dbus-daemon"), arguments: ["--session", "--nofork", "--print-address=1"])
            return try await bus.runScoped { bus in
                let address = try await poll("the session bus's address") { bus.standardOutputLines().first }
                let session = DesktopSession(display: display, busAddress: address)
                let dunst = try ChildProcess.launch(executableURL: try locateExecutable("dunst"), environment: session.environment)
                return try await dunst.runScoped { _ in
                    // dunstctl answers once dunst owns org.freedesktop.Notifications on the bus.
                    try await poll(until: { try await session.control(["is-paused"]).status.isSuccess }, "dunst on the session bus")
                    return try await body(session)
                }
            }
        }
    }

    /// Runs `dunstctl` against this desktop's notification server.
    func control(_ arguments: [String]) async throws -> CommandResult {
        try await runCommand("dunstctl", arguments: arguments, environment: environment)
    }

    /// The summaries and bodies of the notifications the server received, shown or closed:
    /// shown ones are closed first, since dunst lists only closed ones in its history.
    func receivedNotifications() async throws -> [(appName: String, summary: String, body: String)] {
        _ = try await control(["close-all"])
        let history = try await control(["history"])
        guard let object = try JSONSerialization.jsonObject(with: Data(history.standardOutput.utf8)) as? [String: Any],
            let groups = object["data"] as? [[[String: Any]]]
        else { throw TestSupportError("dunstctl history printed no history: \(history.standardOutput)") }
        func text(_ entry: [String: Any], _ key: String) -> String {
            (entry[key] as? [String: Any])?["data"] as? String ?? ""
        }
        return groups.joined().map { (text($0, "appname"), text($0, "summary"), text($0, "body")) }
    }

    /// Saves what the display shows as a PNG, with ImageMagick's `import`.
    func screenshot(to file: URL) async throws {
        let result = try await runCommand("import", arguments: ["-window", "root", "-display", display, file.path])
        guard result.status.isSuccess else { throw TestSupportError("import could not take a screenshot: \(result.standardError)") }
    }
}
