/*
Abstract:
The client side of the IPC: one connection to the system service, requests matched to responses.
*/

import BackgroundAssetsIPC
import Dispatch
import Foundation
import Synchronization

/// A connection to `backgroundassetsd`, opened on first use and reopened after it drops.
///
/// Requests are numbered and their responses matched by id; events go to `onEvent`. A reader
/// thread owns the socket's input, so a blocking request never waits on its own thread. When the
/// connection drops, every pending request fails with ``BAError/Code/callerConnectionInvalid``
/// and the next request connects again (sending `hello`, `setDelegate` when events are wanted, and
/// every registration kept with ``replayOnReconnect(_:)``). An app or a tool that waits for events
/// or holds registrations does not wait for its next request: it connects again at once, starting
/// the service if it has to, so a crashed service costs it nothing but the time to start again.
/// An extension does not: it belongs to the service that launched it, and ends with it.
package final class ServiceConnection: Sendable {
    /// Receives the outcome of one request.
    package typealias Reply = @Sendable (Result<ServerResponse, any Error>) -> Void

    private struct State {
        var socket: UnixSocket?
        var nextID: UInt64 = 1
        var pending: [UInt64: Reply] = [:]
        var wantsEvents = false
        /// Registrations sent again on every new connection, in order.
        var replays: [ClientRequest] = []
        /// Requests sent again on every new connection until withdrawn, by key, each with the order
        /// it was kept in: an app may keep thousands, and each is kept and withdrawn by its key.
        var replaysUntilWithdrawn: [String: (order: UInt64, request: ClientRequest)] = [:]
        var nextReplayOrder: UInt64 = 0
        /// Set by ``disconnect()`` until the next request: a connection closed on purpose stays closed.
        var closedByClient = false
        /// Why the service refused the connection being opened, for a request sent after the refusal came.
        var refusal: BAError?
        /// Counts the connections opened, so a request can be bound to the one it belongs to.
        var generation: UInt64 = 0
    }

    /// How many times in a row a lost connection is retried before waiting for the next request.
    static let maximumReconnectAttempts = 20

    private let state = Mutex(State())
    /// Connects and sends, one request at a time: requests reach the service in the order they were
    /// made (a release before the next acquire), and no caller's thread blocks while connecting.
    private let sender = WorkerThread(name: "ba-send")
    private let socketPath: String
    private let hello: Hello
    private let launcher: ServiceLauncher?
    private let onEvent: @Sendable (ServerEvent) -> Void
    private let onDisconnect: @Sendable (String) -> Void

    /// Creates a connection that opens on the first request.
    /// - Parameters:
    ///   - socketPath: The service's socket, ``DevicePaths/serviceSocket``.
    ///   - hello: What this process says it is.
    ///   - launcher: Starts the service when nothing listens on the socket; `nil` never starts it.
    ///   - onEvent: Receives every event, on the reader thread; it must not block.
    ///   - onDisconnect: Told why, once for every open connection that drops; it must not block.
    package init(
        socketPath: String, hello: Hello, launcher: ServiceLauncher?, onEvent: @escaping @Sendable (ServerEvent) -> Void,
        onDisconnect: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.socketPath = socketPath
        self.hello = hello
        self.launcher = launcher
        self.onEvent = onEvent
        self.onDisconnect = onDisconnect
    }

    // The reader thread holds the connection only weakly, so a connection nobody uses any more
    // closes its socket here, which ends the reader's blocking receive.
    deinit {
        state.withLock { $0.socket }?.close()
    }

    /// Sends a request and calls `reply` with the service's response; returns at once.
    ///
    /// A `failure` response is passed on as a response; ``send(_:)`` turns it into an error.
    /// - Parameters:
    ///   - request: The request.
    ///   - reply: Called once, on some background thread.
    package func request(_ request: ClientRequest, reply: @escaping Reply) {
        state.withLock { $0.closedByClient = false }
        if sendHere(request, reply: reply) { return }
        sender.async { [self] in
            do {
                let socket = try connectIfNeeded()
                send(request, on: socket, reply: reply)
            } catch {
                reply(.failure(error))
            }
        }
    }

    /// Opens the connection unless it is open, then calls `done`; returns at once.
    ///
    /// The service answers the hello that opens a connection once it knows the process (an opened
    /// app's launch is counted by then), so `done` runs after that, with no request of its own: one
    /// that only waited for the hello would have the service build an answer for nothing.
    /// - Parameter done: Called once, on a background thread, with `nil` or why the service could not be reached.
    package func connect(then done: @escaping @Sendable ((any Error)?) -> Void) {
        state.withLock { $0.closedByClient = false }
        sender.async { [self] in
            do {
                _ = try connectIfNeeded()
                done(nil)
            } catch {
                done(error)
            }
        }
    }

    /// The connection open now, or the last one: a number that changes each time the connection
    /// is opened again, for ``request(_:onConnection:reply:)``.
    package var connectionGeneration: UInt64 {
        state.withLock { $0.generation }
    }

    /// Sends a request only if the connection `generation` names is still open; otherwise `reply`
    /// gets ``BAError/Code/callerConnectionInvalid`` and nothing is sent.
    ///
    /// What a connection holds on the service's side (exclusive control) ends with it; giving it
    /// back on a newer connection would give back what that connection acquired since.
    package func request(_ request: ClientRequest, onConnection generation: UInt64, reply: @escaping Reply) {
        sender.async { [self] in
            let socket = state.withLock { $0.generation == generation ? $0.socket : nil }
            guard let socket else {
                return reply(.failure(BAError(.callerConnectionInvalid, message: Self.lostMessage(
                    "the connection this request belonged to has closed"))))
            }
            send(request, on: socket, reply: reply)
        }
    }

    /// Sends a request and blocks until its response arrives.
    /// - Parameter request: The request.
    /// - Returns: The response, never `failure`.
    /// - Throws: The error a `failure` response carries, or ``BAError`` when the service is unreachable.
    package func send(_ request: ClientRequest) throws -> ServerResponse {
        try Self.unwrap(Self.wait { self.request(request, reply: $0) })
    }

    /// Sends a request from the calling thread when the connection is open and nothing else waits
    /// to be sent: in order all the same, and one hand-over to the sender thread fewer. A request
    /// of a few hundred bytes fits the socket's buffer, and the service reads every client at once,
    /// so the caller does not wait; connecting, which can, stays on the sender.
    /// - Returns: Whether it was sent (or failed) here; when not, it goes to the sender.
    private func sendHere(_ request: ClientRequest, reply: @escaping Reply) -> Bool {
        // A send that fails here answers at once; that answer goes through the sender, so a
        // caller holding a lock its reply takes never calls itself back, as with a queued request.
        let isSending = Atomic(true)
        let sender = sender
        let answer: Reply = { result in
            if isSending.load(ordering: .acquiring) { sender.async { reply(result) } } else { reply(result) }
        }
        return sender.runHereIfIdle {
            defer { isSending.store(false, ordering: .releasing) }
            guard let socket = state.withLock({ $0.socket }) else { return false }
            send(request, on: socket, reply: answer)
            return true
        }
    }

    /// Sends a request and suspends until its response arrives.
    /// - Parameter request: The request.
    /// - Returns: The response, never `failure`.
    /// - Throws: The error a `failure` response carries, or ``BAError`` when the service is unreachable.
    package func send(_ request: ClientRequest) async throws -> ServerResponse {
        let result = await withCheckedContinuation { continuation in
            self.request(request) { continuation.resume(returning: $0) }
        }
        return try Self.unwrap(result)
    }

    /// Says whether this process wants events; replayed on every new connection.
    /// - Parameter wantsEvents: Whether a delegate is set.
    package func setWantsEvents(_ wantsEvents: Bool) {
        state.withLock { $0.wantsEvents = wantsEvents }
    }

    /// Keeps a registration (such as a task handler) across reconnections: it is sent again, after
    /// `hello`, on every new connection to the service.
    /// - Parameter request: A request whose effect the service forgets when the connection ends.
    package func replayOnReconnect(_ request: ClientRequest) {
        state.withLock { $0.replays.append(request) }
    }

    /// Keeps a request to send again, after `hello` and the registrations, on every new connection
    /// until ``withdrawReplay(key:)``: for what a service that restarts might not have recorded.
    /// The answers to these replays are not waited on for the connection's sake: a refusal (the
    /// download ended meanwhile) leaves the connection open.
    /// - Parameters:
    ///   - request: The request.
    ///   - key: Names it for its withdrawal; a request kept under the same key is replaced.
    package func replayUntilWithdrawn(_ request: ClientRequest, key: String) {
        state.withLock { state in
            state.replaysUntilWithdrawn[key] = (state.nextReplayOrder, request)
            state.nextReplayOrder += 1
        }
    }

    /// Stops sending the request kept under `key` on new connections.
    package func withdrawReplay(key: String) {
        state.withLock { state in
            guard !state.replaysUntilWithdrawn.isEmpty else { return }
            state.replaysUntilWithdrawn[key] = nil
        }
    }

    /// Closes the connection; pending requests fail, and the next request reconnects.
    package func disconnect() {
        let socket = state.withLock { state in
            state.closedByClient = true
            return state.socket
        }
        if let socket { drop(socket, reason: "the connection was closed") }
    }

    // MARK: - Connecting

    /// Returns the open socket, connecting and introducing this process first; runs on `sender`.
    private func connectIfNeeded() throws -> UnixSocket {
        if let socket = state.withLock({ $0.socket }) { return socket }
        let socket = try openSocket()
        state.withLock { state in
            state.socket = socket
            state.refusal = nil
            state.generation &+= 1
        }
        startReading(socket)
        do {
            let reply = try Self.unwrap(Self.wait { self.send(.hello(self.hello), on: socket, reply: $0) })
            guard case let .hello(serverHello) = reply, serverHello.protocolVersion == WireProtocol.version else {
                throw BAError(
                    .callerConnectionNotAccepted,
                    message: "The Background Assets service answered hello with \(reply), not protocol version "
                        + "\(WireProtocol.version); rebuild the app and the service from the same sources.")
            }
            let (wantsEvents, replays) = state.withLock { ($0.wantsEvents, $0.replays) }
            if wantsEvents {
                _ = try Self.unwrap(Self.wait { self.send(.downloads(.setDelegate(isSet: true)), on: socket, reply: $0) })
            }
            for request in replays {
                _ = try Self.unwrap(Self.wait { self.send(request, on: socket, reply: $0) })
            }
            // In the order kept, sent together and their answers awaited together, however many.
            let kept = state.withLock { $0.replaysUntilWithdrawn.values }.sorted { $0.order < $1.order }
            let answered = DispatchGroup()
            for (_, request) in kept {
                answered.enter()
                send(request, on: socket) { _ in answered.leave() }
            }
            answered.wait()
            return socket
        } catch {
            // The caller retries, or not: a refusal must not start a second round of reconnecting.
            drop(socket, reason: "the service refused the connection: \(error)", reconnecting: false)
            throw error
        }
    }

    private func openSocket() throws -> UnixSocket {
        do {
            return try UnixSocket.connect(to: socketPath)
        } catch let first {
            guard let launcher else { throw unreachable(first) }
            let launched = try launcher.launch()
            let process = launched.process
            let deadline = ContinuousClock.now + launcher.startupTimeout
            while true {
                do {
                    return try UnixSocket.connect(to: socketPath)
                } catch {
                    // A service that exits instead of listening (a bad config.json, another device's
                    // lock) says why in the device log: pass its reason on, not "not reachable".
                    // Exit status 0 is another instance's service, already serving: keep trying.
                    if !process.isRunning, process.terminationStatus != 0 {
                        throw launcher.exitedAtStart(launched)
                    }
                    guard ContinuousClock.now < deadline else { throw unreachable(error) }
                    Thread.sleep(forTimeInterval: 0.02)
                }
            }
        }
    }

    private func unreachable(_ error: any Error) -> BAError {
        BAError(
            .callerConnectionInvalid,
            message: "The Background Assets service is not reachable at \(socketPath) (\(error)). "
                + "Start backgroundassetsd, or check that BA_DEVICE_ROOT names the same device root.")
    }

    // MARK: - Sending and reading

    private func send(_ request: ClientRequest, on socket: UnixSocket, reply: @escaping Reply) {
        let id = state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.pending[id] = reply
            return id
        }
        do {
            try socket.send(MessageCodec.frame(ClientMessage(id: id, request: request)))
        } catch SocketError.socketFailed(_, _, let code) where code == EPIPE || code == ECONNRESET {
            // The service closed the connection, maybe after saying why (a refusal): the reader reads
            // that and the end of the connection, then fails this request with the service's reason.
            if state.withLock({ $0.socket === socket }) { return }
            let (reply, refusal) = state.withLock { ($0.pending.removeValue(forKey: id), $0.refusal) }
            reply?(.failure(refusal ?? BAError(.callerConnectionInvalid, message: Self.lostMessage("the service closed the connection"))))
        } catch {
            let (reply, refusal) = state.withLock { ($0.pending.removeValue(forKey: id), $0.refusal) }
            drop(socket, reason: "sending failed: \(error)")
            // The service refused the connection before this request went out: that is the reason.
            reply?(.failure(refusal ?? BAError(.callerConnectionInvalid, message: Self.lostMessage("sending failed: \(error)"))))
        }
    }

    /// Reads responses and events until the socket ends; holds the connection only weakly, and
    /// strongly only while handling one message.
    private func startReading(_ socket: UnixSocket) {
        Thread.start(named: "ba-connection") { [weak self] in
            var decoder = FrameDecoder()
            var reason = "the service closed the connection"
            do {
                while true {
                    let bytes = try socket.receive()
                    guard !bytes.isEmpty, let owner = self else { break }
                    decoder.append(bytes)
                    while let payload = try decoder.nextFrame() {
                        let message = try MessageCodec.decode(ServerMessage.self, from: payload)
                        if case let .response(0, .failure(refusal)) = message {
                            // Request 0 is never sent: this is the service refusing the connection, with why.
                            let error = BAError(refusal) ?? BAError(.callerConnectionNotAccepted, message: refusal.message)
                            owner.state.withLock { $0.refusal = error }
                            owner.drop(socket, because: error, reconnecting: false)
                            return
                        }
                        owner.dispatch(message)
                    }
                }
            } catch {
                reason = "\(error)"
            }
            self?.drop(socket, reason: reason)
            socket.close()
        }
    }

    private func dispatch(_ message: ServerMessage) {
        switch message {
        case let .response(id, response):
            state.withLock { $0.pending.removeValue(forKey: id) }?(.success(response))
        case let .event(event):
            onEvent(event)
        }
    }

    /// Forgets a socket and fails every request still waiting on it with the lost connection's reason.
    private func drop(_ socket: UnixSocket, reason: String, reconnecting: Bool = true) {
        drop(socket, because: BAError(.callerConnectionInvalid, message: Self.lostMessage(reason)), reconnecting: reconnecting)
    }

    /// Forgets a socket and fails every request still waiting on it with `error`.
    private func drop(_ socket: UnixSocket, because error: BAError, reconnecting: Bool) {
        let orphans = state.withLock { state -> [Reply]? in
            guard state.socket === socket else { return nil }
            state.socket = nil
            defer { state.pending.removeAll() }
            return Array(state.pending.values)
        }
        socket.close()
        // Only the socket in use counts: the reader of a socket already replaced also ends here.
        guard let orphans else { return }
        for reply in orphans { reply(.failure(error)) }
        onDisconnect(error.message)
        if reconnecting { reconnect(attempt: 1) }
    }

    /// Whether a lost connection is opened again without waiting for a request.
    private var keepsConnected: Bool {
        guard hello.role != .extension else { return false }
        return state.withLock { !$0.closedByClient && $0.socket == nil && ($0.wantsEvents || !$0.replays.isEmpty) }
    }

    /// Connects again on the sender, backing off from 50 ms to 2 s while the service cannot be reached.
    private func reconnect(attempt: Int) {
        guard keepsConnected, attempt <= Self.maximumReconnectAttempts else { return }
        sender.async { [weak self] in
            guard let self, keepsConnected else { return }
            do {
                _ = try connectIfNeeded()
            } catch {
                let delay = min(0.05 * Double(1 << min(attempt, 6)), 2)
                DispatchQueue.global().asyncAfter(deadline: .now() + delay) { [weak self] in
                    self?.reconnect(attempt: attempt + 1)
                }
            }
        }
    }

    private static func lostMessage(_ reason: String) -> String {
        "The connection to the Background Assets service was lost (\(reason)). Retry the call; it reconnects."
    }

    // MARK: - Waiting

    private static func wait(_ start: (@escaping Reply) -> Void) -> Result<ServerResponse, any Error> {
        let outcome = Mutex<Result<ServerResponse, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        start { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return outcome.withLock { $0! }
    }

    private static func unwrap(_ result: Result<ServerResponse, any Error>) throws -> ServerResponse {
        let response = try result.get()
        if case let .failure(failure) = response { throw failure.makeError() }
        return response
    }
}
