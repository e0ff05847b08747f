/*
Abstract:
Serves the listening socket and every client connection from one thread with poll(2).
*/

import BackgroundAssetsIPC
import Foundation
import Synchronization
import SystemLogging

/// Accepts clients and moves their bytes, for any number of connections, on one thread.
///
/// An idle connection costs a descriptor and a few bytes, not a thread. Reads feed each
/// connection's request stream; writes go out as clients read, so no send ever waits for a client
/// (see ``ClientConnection/send(_:)``). Anything that changes what the loop must watch (a new
/// queued answer, a closed connection, ``stop()``) wakes it through a pipe.
final class ConnectionLoop: Sendable {
    private let listener: UnixSocketListener
    private let onConnection: @Sendable (ClientConnection) -> Void
    private let wakePipe: (read: Int32, write: Int32)
    private let connections = Mutex<[ClientConnection]>([])
    private let isStopped = Atomic(false)
    /// A descriptor held in reserve: out of descriptors, the loop gives it up to accept one waiting
    /// client and tell it why it is refused, instead of leaving it in the backlog, where `poll`
    /// reports it ready on every turn and the loop spins.
    private let spareDescriptor = Mutex<Int32>(-1)
    private let logger = Logger(subsystem: "com.example.backgroundassetsd", category: "connections")

    /// Creates a loop; nothing happens until ``start()``.
    /// - Parameters:
    ///   - listener: The service's socket.
    ///   - onConnection: Called on the loop's thread for each accepted client of the same user.
    init(listener: UnixSocketListener, onConnection: @escaping @Sendable (ClientConnection) -> Void) throws {
        var descriptors: [Int32] = [0, 0]
        guard pipe(&descriptors) == 0 else {
            throw SocketError.socketFailed(operation: "pipe", path: listener.path, errno: errno)
        }
        for descriptor in descriptors {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        }
        wakePipe = (descriptors[0], descriptors[1])
        try listener.setNonBlocking()
        self.listener = listener
        self.onConnection = onConnection
        spareDescriptor.withLock { $0 = Self.openSpare() }
    }

    deinit {
        _ = Glibc.close(wakePipe.read)
        _ = Glibc.close(wakePipe.write)
        spareDescriptor.withLock { if $0 >= 0 { _ = Glibc.close($0) } }
    }

    private static func openSpare() -> Int32 {
        open("/dev/null", O_RDONLY | O_CLOEXEC)
    }

    /// The number of open client connections.
    var connectionCount: Int {
        connections.withLock { $0.count }
    }

    /// Starts the loop's thread.
    func start() {
        Thread.start(named: "connections") { [self] in run() }
    }

    /// Stops accepting and ends the loop; connections are closed by their owner.
    func stop() {
        isStopped.store(true, ordering: .sequentiallyConsistent)
        wake()
    }

    /// Makes the loop look again at what it should watch.
    func wake() {
        var byte: UInt8 = 1
        // A full pipe already holds a wake-up, so a failed write loses nothing.
        _ = Glibc.write(wakePipe.write, &byte, 1)
    }

    private func run() {
        var nextID: UInt64 = 1
        while !isStopped.load(ordering: .sequentiallyConsistent) {
            let watched = connections.withLock { $0 }
            var entries = [
                pollfd(fd: wakePipe.read, events: Int16(POLLIN), revents: 0),
                pollfd(fd: listener.descriptor ?? -1, events: Int16(POLLIN), revents: 0),
            ]
            var closed: [ClientConnection] = []
            var polled: [ClientConnection] = []
            for connection in watched {
                guard let descriptor = connection.socket.descriptor else {
                    closed.append(connection)
                    continue
                }
                let events = Int16(POLLIN) | (connection.hasUnsentBytes ? Int16(POLLOUT) : 0)
                entries.append(pollfd(fd: descriptor, events: events, revents: 0))
                polled.append(connection)
            }
            // A connection closed by the service is finished now, which ends its request stream.
            for connection in closed { connection.finish(throwing: nil) }
            if !closed.isEmpty { remove(closed) }

            let ready = poll(&entries, nfds_t(entries.count), closed.isEmpty ? -1 : 0)
            if ready < 0, errno != EINTR {
                logger.error("The connection loop stopped: poll failed (\(errnoText(errno))).")
                return
            }
            guard ready > 0 else { continue }
            if entries[0].revents != 0 { drainWakePipe() }
            if entries[1].revents != 0 { acceptWaiting(nextID: &nextID) }
            var ended: [ClientConnection] = []
            for (connection, entry) in zip(polled, entries.dropFirst(2)) where entry.revents != 0 {
                if entry.revents & Int16(POLLOUT) != 0 { connection.writeQueued() }
                if entry.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0, !connection.readAvailable() {
                    ended.append(connection)
                }
            }
            if !ended.isEmpty { remove(ended) }
        }
    }

    private func acceptWaiting(nextID: inout UInt64) {
        while true {
            let accepted: (connection: UnixSocket, peer: PeerCredentials)
            do {
                guard let waiting = try listener.acceptPending() else { return }
                accepted = waiting
            } catch let SocketError.socketFailed(_, _, code) where code == EMFILE || code == ENFILE {
                refuseOneWaitingClient(outOfDescriptors: code)
                return
            } catch {
                // Closed for shutdown: the loop ends on its next turn.
                return
            }
            if let reason = Self.shortOfDescriptors(accepted: accepted.connection, serving: connectionCount) {
                logger.error("Refused a connection: \(reason).")
                Self.refuse(accepted.connection, because: reason)
                continue
            }
            do {
                try accepted.peer.requireUser()
                try accepted.connection.setNonBlocking()
            } catch {
                logger.error("Refused a connection: \(error)")
                Self.refuse(accepted.connection, because: "\(error)")
                continue
            }
            let connection = ClientConnection(
                id: nextID, socket: accepted.connection, peer: accepted.peer, wakeLoop: { [weak self] in self?.wake() })
            nextID += 1
            connections.withLock { $0.append(connection) }
            onConnection(connection)
        }
    }

    /// Accepts one waiting client with the spare descriptor, tells it the service is out of
    /// descriptors, and takes the spare back; the clients already connected are served as before.
    private func refuseOneWaitingClient(outOfDescriptors code: Int32) {
        spareDescriptor.withLock { spare in
            if spare >= 0 { _ = Glibc.close(spare) }
            if let waiting = try? listener.acceptPending() {
                let reason = Self.outOfDescriptors("\(errnoText(code)); its limit is \(DescriptorReserve.limit())", serving: connectionCount)
                logger.error("Refused a connection: \(reason).")
                Self.refuse(waiting.connection, because: reason)
            }
            spare = Self.openSpare()
        }
    }

    /// Why a client just accepted on `connection` is refused, or `nil` when it may stay: its
    /// descriptor is one the service keeps for its own work (``DescriptorReserve``).
    private static func shortOfDescriptors(accepted connection: UnixSocket, serving clients: Int) -> String? {
        let limit = DescriptorReserve.limit()
        guard let descriptor = connection.descriptor, DescriptorReserve.isReserved(descriptor, limit: limit) else { return nil }
        return outOfDescriptors(
            "its limit is \(limit), of which it keeps \(DescriptorReserve.reserved(under: limit)) for its own work", serving: clients)
    }

    /// The refusal of a client for want of descriptors, with `detail` on the limit.
    private static func outOfDescriptors(_ detail: String, serving clients: Int) -> String {
        "the service has no file descriptors left (\(detail)) and serves the \(clients) clients it has. "
            + "Try again when some have disconnected, or raise the limit (ulimit -n) before the service starts"
    }

    /// Tells a client why it is refused, in a frame any version of the protocol reads (a
    /// `failure` answer to request 0, which no client sends), then closes its connection.
    private static func refuse(_ socket: UnixSocket, because reason: String) {
        let failure = WireFailure.backgroundAssets(
            code: BAError.Code.callerConnectionNotAccepted.rawValue,
            message: "The Background Assets service refused the connection: \(reason)" + (reason.hasSuffix(".") ? "" : "."))
        if let frame = try? MessageCodec.frame(ServerMessage.response(id: 0, response: .failure(failure))) {
            try? socket.setNonBlocking()
            // A new connection's send buffer is empty: the frame fits, and never blocks the loop.
            _ = try? frame.withUnsafeBytes { try socket.sendAvailable($0) }
        }
        socket.close()
    }

    private func remove(_ ended: [ClientConnection]) {
        let identifiers = Set(ended.map(\.id))
        connections.withLock { $0.removeAll { identifiers.contains($0.id) } }
    }

    private func drainWakePipe() {
        var buffer = [UInt8](repeating: 0, count: 256)
        while Glibc.read(wakePipe.read, &buffer, buffer.count) > 0 {}
    }
}
