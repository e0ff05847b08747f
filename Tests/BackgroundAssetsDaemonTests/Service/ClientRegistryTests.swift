/*
Abstract:
Tests for the client registry: identities, delegates by app, and withdrawing a process's delegates.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Testing

@Suite("Connected clients")
struct ClientRegistryTests {
    /// A connection object over one end of a socket pair; nothing is sent on it.
    static func connection(_ id: UInt64, pid: Int32) -> ClientConnection {
        // -1, not 0: should the call fail, closing these must not close descriptor 0, or whatever took its number.
        var pair: [Int32] = [-1, -1]
        _ = socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair)
        close(pair[1])
        return ClientConnection(
            id: id, socket: UnixSocket(descriptor: pair[0], path: "test"),
            peer: PeerCredentials(processIdentifier: pid, userIdentifier: getuid(), groupIdentifier: getgid()),
            wakeLoop: {})
    }

    static func hello(_ app: String, role: Hello.Role = .app) -> Hello {
        Hello(bundleIdentifier: app, role: role, processIdentifier: 1)
    }

    @Test("Only introduced connections with a delegate set get an app's events, in connection order")
    func delegatesByApp() {
        var clients = ClientRegistry()
        for id: UInt64 in [3, 1, 2, 4] { clients.add(Self.connection(id, pid: Int32(100 + id))) }
        clients.introduce(1, as: Self.hello("com.example.app"))
        clients.introduce(2, as: Self.hello("com.example.app", role: .extension))
        clients.introduce(3, as: Self.hello("com.example.other"))
        // 4 never says hello.
        for id: UInt64 in [1, 2, 3, 4] { clients.setDelegate(id, true) }
        #expect(clients.delegates(of: "com.example.app").map(\.connection.id) == [1, 2])
        clients.setDelegate(1, false)
        #expect(clients.delegates(of: "com.example.app").map(\.connection.id) == [2])
        #expect(clients.count == 4)
        #expect(clients.all.map(\.connection.id) == [1, 2, 3, 4])
    }

    @Test("A process about to end stops getting events on every one of its connections")
    func withdrawProcess() {
        var clients = ClientRegistry()
        clients.add(Self.connection(1, pid: 500))
        clients.add(Self.connection(2, pid: 500))
        clients.add(Self.connection(3, pid: 600))
        for id: UInt64 in [1, 2, 3] {
            clients.introduce(id, as: Self.hello("com.example.app"))
            clients.setDelegate(id, true)
        }
        clients.withdrawDelegates(ofProcess: 500)
        #expect(clients.delegates(of: "com.example.app").map(\.connection.id) == [3])
    }

    @Test("A removed connection is gone, and removing it again finds nothing")
    func remove() {
        var clients = ClientRegistry()
        clients.add(Self.connection(1, pid: 500))
        #expect(clients[1] != nil)
        #expect(clients.remove(1)?.connection.id == 1)
        #expect(clients.remove(1) == nil)
        #expect(clients.isEmpty)
        clients.introduce(1, as: Self.hello("com.example.app"))
        #expect(clients[1] == nil, "a late hello for a closed connection adds nothing")
    }

    @Test("Every connection of a process finds the recording of its launch, whichever connection holds it")
    func launchOfProcess() async {
        var clients = ClientRegistry()
        clients.add(Self.connection(1, pid: 500))
        clients.add(Self.connection(2, pid: 500))
        clients.add(Self.connection(3, pid: 600))
        #expect(clients.launch(ofProcess: 500) == nil)
        clients.setLaunch(Task {}, of: 2)
        #expect(clients.launch(ofProcess: 500) != nil)
        #expect(clients.launch(ofProcess: 600) == nil, "another process has launched nothing")
        _ = clients.remove(2)
        #expect(clients.launch(ofProcess: 500) == nil, "the recording goes with the connection that held it")
    }
}
