/*
Abstract:
What every subcommand runs with: the device root, the console, and connections to the service.
*/

import BackgroundAssetsIPC
import Foundation
import ServiceClient

/// The environment of one run of the tool.
public struct ToolContext: Sendable {
    /// The bundle identifier the tool presents when it downloads on its own behalf.
    ///
    /// - Note: Apple's tool acts on installed apps only; this one also downloads for itself, like
    ///   `bitsadmin /transfer`, so it needs an identity and an app group of its own.
    public static let bundleIdentifier = "com.example.backgroundassets-debug"
    /// The app group whose container receives the tool's finished downloads.
    public static let applicationGroupIdentifier = "group.com.example.backgroundassets-debug"

    /// The device root.
    public var paths: DevicePaths
    /// Where to print.
    public var console: Console
    /// The sentence naming the device root, printed before a subcommand runs, when the root is not the
    /// one a reader expects (see ``DeviceRootNote``); `nil` otherwise.
    public var deviceRootNote: String?

    /// Creates a context.
    /// - Parameters:
    ///   - paths: The device root; `$BA_DEVICE_ROOT` or `.device/` for the real tool.
    ///   - console: Where to print.
    ///   - deviceRootNote: The sentence naming an unexpected device root, if the root is one.
    public init(paths: DevicePaths = .current(), console: Console = .standard, deviceRootNote: String? = nil) {
        self.paths = paths
        self.console = console
        self.deviceRootNote = deviceRootNote
    }

    /// The context of the `backgroundassets-debug` process: the device root of its environment and
    /// folder, its terminal, and the note naming the root when it is not the expected one.
    public static func ofThisProcess() -> ToolContext {
        let paths = DevicePaths.current()
        return ToolContext(paths: paths, deviceRootNote: DeviceRootNote.text(for: paths))
    }

    /// A connection to the service that starts it on demand (from `backgroundassetsd` beside this tool).
    /// - Parameters:
    ///   - bundleIdentifier: The app whose downloads the connection works on; the tool's own by default.
    ///   - onEvent: Receives download events, on the connection's reader thread; `nil` asks for none.
    /// - Returns: A connection that opens on the first request.
    func connection(
        bundleIdentifier: String = ToolContext.bundleIdentifier,
        onEvent: (@Sendable (ServerEvent) -> Void)? = nil
    ) -> ServiceConnection {
        let hello = Hello(
            bundleIdentifier: bundleIdentifier, role: .tool, processIdentifier: ProcessInfo.processInfo.processIdentifier)
        let connection = ServiceConnection(
            socketPath: paths.serviceSocket.path, hello: hello,
            launcher: ServiceLauncher.besideExecutable(paths: paths), onEvent: onEvent ?? { _ in })
        connection.setWantsEvents(onEvent != nil)
        return connection
    }

    /// Refuses a device root that is not this user's own, before a command writes into it itself
    /// (the service refuses one too, for everything that goes through it).
    /// - Throws: ``DebugToolError`` with the refusal's reason.
    func requireOwnDeviceRoot() throws {
        do {
            try DeviceRootOwnership.checkRoot(paths)
            try DeviceRootOwnership.checkFolders(paths)
        } catch {
            throw DebugToolError(error.description)
        }
    }
}
