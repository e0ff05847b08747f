/*
Abstract:
The service's connected clients: who each one said it is, and which of them take an app's download events.
*/

import BackgroundAssetsIPC

/// Every open connection to the service, by connection number, with what it said about itself.
///
/// A connection is known from the moment it is accepted; it has an identity once its `hello` is
/// accepted, and takes its app's download events while it has a delegate set.
struct ClientRegistry {
    /// One connected client.
    struct Client {
        let connection: ClientConnection
        /// What the client said it is; `nil` until its `hello` was accepted.
        var hello: Hello?
        /// Whether it wants its app's download events (a delegate is set).
        var hasDelegate = false
        /// Whether the kernel says its process runs its installed app's executable, started by a
        /// person rather than by the service in the background: what opening the app is.
        var isOpenedApp = false
        /// The recording of its process's launch, on the process's first opened connection: every
        /// other connection of that process is answered only after it, so nothing the app asks is
        /// seen before its launch.
        var launch: Task<Void, Never>?
    }

    private var clients: [UInt64: Client] = [:]

    /// The number of open connections.
    var count: Int { clients.count }

    /// Whether no client is connected.
    var isEmpty: Bool { clients.isEmpty }

    /// Every client, in connection order.
    var all: [Client] {
        clients.values.sorted { $0.connection.id < $1.connection.id }
    }

    /// The client of a connection, if it is still open.
    subscript(connection: UInt64) -> Client? {
        clients[connection]
    }

    /// Adds a connection that was just accepted.
    mutating func add(_ connection: ClientConnection) {
        clients[connection.id] = Client(connection: connection)
    }

    /// Removes a connection that closed.
    /// - Returns: Its client, or `nil` when it was already removed.
    mutating func remove(_ connection: UInt64) -> Client? {
        clients.removeValue(forKey: connection)
    }

    /// Records the identity a connection's accepted `hello` gave.
    /// - Parameters:
    ///   - connection: The connection.
    ///   - hello: What it said it is.
    ///   - isOpenedApp: Whether its process is the installed app, opened by a person.
    mutating func introduce(_ connection: UInt64, as hello: Hello, isOpenedApp: Bool = false) {
        clients[connection]?.hello = hello
        clients[connection]?.isOpenedApp = isOpenedApp
    }

    /// Gives a connection the recording of its process's launch.
    mutating func setLaunch(_ launch: Task<Void, Never>, of connection: UInt64) {
        clients[connection]?.launch = launch
    }

    /// The recording of a process's launch, if one of its connections holds it.
    func launch(ofProcess processIdentifier: Int32) -> Task<Void, Never>? {
        all.lazy.filter { $0.connection.peer.processIdentifier == processIdentifier }.compactMap(\.launch).first
    }

    /// The processes of an app that a person opened and that are connected now, each once.
    func openedProcesses(of app: String) -> Set<Int32> {
        Set(all.filter { $0.isOpenedApp && $0.hello?.bundleIdentifier == app }.map(\.connection.peer.processIdentifier))
    }

    /// Records whether a connection takes its app's download events.
    mutating func setDelegate(_ connection: UInt64, _ hasDelegate: Bool) {
        clients[connection]?.hasDelegate = hasDelegate
    }

    /// Stops sending download events to every connection of a process, which is about to end.
    mutating func withdrawDelegates(ofProcess processIdentifier: Int32) {
        for (id, client) in clients where client.connection.peer.processIdentifier == processIdentifier {
            clients[id]?.hasDelegate = false
        }
    }

    /// The connections a process has open, in connection order.
    func connections(ofProcess processIdentifier: Int32) -> [UInt64] {
        all.filter { $0.connection.peer.processIdentifier == processIdentifier }.map(\.connection.id)
    }

    /// The connections of an app that take its download events, in connection order.
    func delegates(of app: String) -> [Client] {
        all.filter { $0.hasDelegate && $0.hello?.bundleIdentifier == app }
    }
}
