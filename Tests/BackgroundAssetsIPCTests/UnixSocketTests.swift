/*
Abstract:
Tests of the Unix socket: permissions, peer credentials, and frames across a real connection.
*/

import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

@Suite("Unix sockets")
struct UnixSocketTests {
    @Test("The service's files live in run/ under the device root")
    func servicePaths() {
        let paths = DevicePaths(root: URL(fileURLWithPath: "/tmp/device"))
        #expect(paths.serviceSocket.path == "/tmp/device/run/backgroundassetsd.sock")
        #expect(paths.serviceLockFile.path == "/tmp/device/run/backgroundassetsd.lock")
        #expect(paths.servicePIDFile.path == "/tmp/device/run/backgroundassetsd.pid")
        #expect(paths.queueDatabase.path == "/tmp/device/system/queue.sqlite")
        #expect(paths.stagingFile(forDownloadRow: 42).path == "/tmp/device/staging/42.part")
    }

    @Test("The listening socket is 0600 in a 0700 folder")
    func permissions() throws {
        let directory = try TemporaryDirectory(prefix: "ba-sock")
        let path = directory.appending("run/s.sock").path
        let listener = try UnixSocketListener(path: path)
        defer { listener.close() }
        let socketMode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        let folderMode =
            try FileManager.default.attributesOfItem(atPath: directory.appending("run").path)[.posixPermissions] as? Int
        #expect(socketMode == 0o600)
        #expect(folderMode == 0o700)
    }

    @Test("A client and the service exchange frames and the service sees the client's user")
    func exchangeFrames() async throws {
        let directory = try TemporaryDirectory(prefix: "ba-sock")
        let path = directory.appending("run/s.sock").path
        let listener = try UnixSocketListener(path: path)
        defer { listener.close() }

        // Both ends block, so both run on threads of their own: a recv on a cooperative thread while
        // the other end waited for a turn on the pool stalled every test of the run.
        let server = StartedThread {
            let (connection, peer) = try listener.accept()
            try peer.requireUser()
            var decoder = FrameDecoder()
            while true {
                let bytes = try connection.receive()
                if bytes.isEmpty { throw IPCError.connectionClosedMidFrame(bufferedBytes: decoder.bufferedByteCount) }
                decoder.append(bytes)
                if let payload = try decoder.nextFrame() {
                    let message = try MessageCodec.decode(ClientMessage.self, from: payload)
                    try connection.send(MessageCodec.frame(ServerMessage.response(id: message.id, response: .done)))
                    return (peer, message)
                }
            }
        }

        let client = try UnixSocket.connect(to: path)
        defer { client.close() }
        let hello = ClientMessage(
            id: 1,
            request: .hello(Hello(bundleIdentifier: "com.example.sessions", role: .app, processIdentifier: getpid())))
        try client.send(MessageCodec.frame(hello))
        let reply = try await blocking { () -> ServerMessage? in
            var decoder = FrameDecoder()
            while true {
                let bytes = try client.receive()
                if bytes.isEmpty { return nil }
                decoder.append(bytes)
                if let payload = try decoder.nextFrame() { return try MessageCodec.decode(ServerMessage.self, from: payload) }
            }
        }
        let (peer, received) = try await server.value
        #expect(received == hello)
        #expect(reply == .response(id: 1, response: .done))
        #expect(peer.userIdentifier == geteuid())
        #expect(peer.processIdentifier == getpid())
        #expect(throws: SocketError.peerNotAllowed(uid: geteuid(), expected: geteuid() &+ 1)) {
            try peer.requireUser(geteuid() &+ 1)
        }
    }

    @Test("A stopping listener removes its own socket file, never a newer one at the same path")
    func closeRemovesOnlyItsOwnFile() throws {
        let directory = try TemporaryDirectory(prefix: "ba-sock")
        let path = directory.appending("run/backgroundassetsd.sock").path
        let old = try UnixSocketListener(path: path)
        // The device root deleted and a new service started under the old one.
        unlink(path)
        let new = try UnixSocketListener(path: path)
        old.close()
        #expect(FileManager.default.fileExists(atPath: path), "the newer service's socket is still there")
        _ = try UnixSocket.connect(to: path)
        new.close()
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("Connecting where no service listens fails with a socket error")
    func nobodyListening() throws {
        let directory = try TemporaryDirectory(prefix: "ba-sock")
        #expect(throws: SocketError.self) { try UnixSocket.connect(to: directory.appending("none.sock").path) }
    }

    @Test("A path too long for a Unix socket is refused by name")
    func pathTooLong() {
        let path = "/tmp/" + String(repeating: "d", count: 200) + "/s.sock"
        #expect(throws: SocketError.socketPathTooLong(path: path, limit: UnixSocket.maximumPathLength)) {
            try UnixSocket.connect(to: path)
        }
    }

    @Test("Closing a connection ends the peer's stream")
    func closeEndsStream() async throws {
        let directory = try TemporaryDirectory(prefix: "ba-sock")
        let path = directory.appending("s.sock").path
        let listener = try UnixSocketListener(path: path)
        defer { listener.close() }
        async let server = onThread { try listener.accept().connection.receive() }
        let client = try UnixSocket.connect(to: path)
        client.close()
        client.close()
        #expect(try await server.isEmpty)
        #expect(client.descriptor == nil)
        #expect(throws: SocketError.self) { try client.send([1]) }
    }

    @Test("Closing the listener wakes a thread waiting for a connection and removes the socket file")
    func closeListener() async throws {
        let directory = try TemporaryDirectory(prefix: "ba-sock")
        let path = directory.appending("s.sock").path
        let listener = try UnixSocketListener(path: path)
        let thread = BlockedThread()
        // Started here, not by a child task: the wait below is for the thread's way into accept(2)
        // alone, never for a turn on a cooperative pool that the rest of the run keeps busy.
        let waiting = StartedThread {
            thread.recordCurrentThread()
            _ = try listener.accept()
        }
        do {
            let accept = try #require(BlockedThread.acceptCall, "no accept(2) number for this architecture")
            try await poll(until: { thread.blockedCall == accept }, "the thread to block in accept")
        } catch {
            // Without the close, a failed wait would leave a thread that accepts for ever.
            listener.close()
            throw error
        }
        listener.close()
        var failure: (any Error)?
        do { try await waiting.value } catch { failure = error }
        #expect(failure is SocketError)
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
