/*
Abstract:
Shows a notification on the desktop through `notify-send` when a session bus is there, and does nothing where there is none.
*/

import BackgroundAssetsIPC
import Foundation

/// The desktop side of notifications: freedesktop notifications, through `notify-send`.
///
/// `notify-send` (libnotify) talks the freedesktop notification protocol over the D-Bus session bus;
/// calling it keeps the service free of a D-Bus library, and the project free of dependencies. It is
/// used only when `DBUS_SESSION_BUS_ADDRESS` names a bus and the program is on `PATH`: on a server,
/// in a container or in CI there is neither, and the notification is still recorded on the device.
public struct DesktopNotifier: Sendable {
    /// The `notify-send` to run, or `nil` when there is no desktop to show notifications on.
    public let program: URL?

    /// Finds `notify-send` and a session bus in an environment.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard environment["DBUS_SESSION_BUS_ADDRESS"]?.isEmpty == false else {
            program = nil
            return
        }
        let directories = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        program = directories.map { URL(fileURLWithPath: String($0)).appending(path: "notify-send") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Whether notifications reach a desktop.
    public var isAvailable: Bool { program != nil }

    /// The arguments `notify-send` gets for a notification of an app.
    public static func arguments(app: String, content: NotificationContentDescriptor) -> [String] {
        let summary = content.subtitle.isEmpty ? content.title : "\(content.title): \(content.subtitle)"
        return ["--app-name=\(app)", "--", summary.isEmpty ? app : summary, content.body]
    }

    /// Shows a notification; a desktop that fails to show it changes nothing else.
    /// - Returns: Whether `notify-send` ran and succeeded.
    @discardableResult
    public func show(app: String, content: NotificationContentDescriptor) -> Bool {
        guard let program else { return false }
        let process = Process()
        process.executableURL = program
        process.arguments = Self.arguments(app: app, content: content)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
            process.waitUntilExit()
            return process.terminationStatus == 0
        } catch {
            return false
        }
    }
}
