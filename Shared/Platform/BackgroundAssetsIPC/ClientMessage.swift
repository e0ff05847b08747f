/*
Abstract:
What a client (the app, its extension, the debug tool) sends to the service: requests with ids.
*/

import Foundation

/// One request from a client, tagged with an id the service echoes in its response.
public struct ClientMessage: Codable, Sendable, Equatable {
    /// The id that pairs this request with its response; unique per connection, chosen by the client.
    public var id: UInt64
    /// What the client asks for.
    public var request: ClientRequest

    /// Creates a message.
    /// - Parameters:
    ///   - id: The id that pairs the request with its response.
    ///   - request: What the client asks for.
    public init(id: UInt64, request: ClientRequest) {
        self.id = id
        self.request = request
    }
}

/// The requests a client can make, by subsystem; see ``WireProtocol`` for the response each one gets.
///
/// Each subsystem's requests are one family the service answers in one place; everything only the
/// debug tool may ask is in ``Tool``, so the service checks the caller's role once for all of it.
public enum ClientRequest: Sendable, Equatable {
    /// Introduces the client; must be the first request on a connection. Not in a family: its
    /// frame keeps one shape in every version, so a client of any version can be told it speaks another.
    case hello(Hello)
    /// The service's status, an app's launch, the extension's check-in and its calls' answers.
    case core(Core)
    /// Background Assets downloads, their delegate and exclusive control.
    case downloads(Downloads)
    /// Managed asset packs.
    case assetPacks(AssetPacks)
    /// Background Tasks.
    case tasks(Tasks)
    /// Background URL sessions.
    case urlSessions(URLSessions)
    /// Local notifications.
    case notifications(Notifications)
    /// What only the debug tool may ask.
    case tool(Tool)
}

/// What `simulateTask` does, as Apple's debugger commands for Background Tasks do.
public enum TaskSimulation: String, Codable, Sendable, CaseIterable {
    /// Run a pending request now, whatever its earliest begin date (`_simulateLaunchForTaskWithIdentifier`).
    case launch
    /// Run a running task's expiration handler now (`_simulateExpirationForTaskWithIdentifier`).
    case expire
}

/// The first request on every connection: who is calling, and which protocol it speaks.
public struct Hello: Codable, Sendable, Equatable {
    /// The kind of process on the other end of a connection.
    public enum Role: String, Codable, Sendable, CaseIterable {
        /// The app itself.
        case app
        /// The app's downloader extension, which may not start foreground downloads.
        case `extension`
        /// The debug tool, acting on its own behalf or an app's.
        case tool
    }

    /// The protocol version the client speaks, ``WireProtocol/version`` for this build.
    public var protocolVersion: Int
    /// The bundle identifier of the app whose downloads this connection works on.
    public var bundleIdentifier: String
    /// The kind of process calling.
    public var role: Role
    /// The caller's process id, for the trace and for diagnostics.
    public var processIdentifier: Int32

    /// Creates a hello.
    /// - Parameters:
    ///   - protocolVersion: The protocol version the client speaks.
    ///   - bundleIdentifier: The bundle identifier of the app whose downloads the client works on.
    ///   - role: The kind of process calling.
    ///   - processIdentifier: The caller's process id.
    public init(
        protocolVersion: Int = WireProtocol.version,
        bundleIdentifier: String,
        role: Role,
        processIdentifier: Int32
    ) {
        self.protocolVersion = protocolVersion
        self.bundleIdentifier = bundleIdentifier
        self.role = role
        self.processIdentifier = processIdentifier
    }
}
