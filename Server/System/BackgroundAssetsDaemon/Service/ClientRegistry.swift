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
    mutating func introduce(_ connection: UInt64, as hello: Hello) {
        clients[connection]?.hello = hello
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
