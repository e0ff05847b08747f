/*
Abstract:
A bare client of the service's socket, for sending what the framework would never send.
*/

import BackgroundAssetsIPC
import Foundation

/// Speaks the wire protocol directly: one request at a time, events skipped, no validation on this side.
///
/// Unchecked Sendable: a test uses a client from one task at a time (handing it to ``blocking(_:)``
/// and waiting for the result), so its socket and frame decoder are never used concurrently.
public final class RawServiceClient: @unchecked Sendable {
    /// What the service did after a client wrote something.
    public enum Outcome: Equatable {
        /// It closed the connection.
        case closed
        /// It sent a message.
        case message(ServerMessage)
    }

    private let socket: UnixSocket
    private var decoder = FrameDecoder()
    /// The events read so far, in the order the service sent them (while waiting for answers, or
    /// in ``waitForEvent(_:)``).
    public private(set) var events: [ServerEvent] = []

    /// Connects and says hello.
    /// - Parameters:
    ///   - deviceRoot: The device root whose service to reach.
    ///   - bundleIdentifier: The app the client speaks for.
    ///   - role: The role it introduces itself with; `.tool` may install apps.
    ///     The service checks the claim against this process's executable: speaking as an
    ///     installed app or as the tool needs a device whose `config.json` sets `trustsClientClaims`.
    public init(deviceRoot: URL, bundleIdentifier: String, role: Hello.Role = .app) throws {
        socket = try UnixSocket.connect(to: deviceRoot.appendingPathComponent("run/backgroundassetsd.sock").path)
        // A service that never answers fails the test after a poll's default bound instead of
        // blocking it forever; a shorter one failed answers a loaded machine was slow to give.
        var timeout = timeval(tv_sec: Int(defaultPollTimeout.components.seconds), tv_usec: 0)
        if let descriptor = socket.descriptor {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }
        let hello = Hello(bundleIdentifier: bundleIdentifier, role: role, processIdentifier: getpid())
        let answer = try send(.hello(hello))
        guard case .hello = answer else {
            // The service's refusal names what was claimed and what this process runs.
            throw TestSupportError("The service refused hello: \(answer)")
        }
    }

    deinit { socket.close() }

    /// Closes the connection, as a process that exits does.
    public func close() { socket.close() }

    /// Whether the service answers a hello with this bundle identifier with a failure.
    public static func refusesHello(deviceRoot: URL, bundleIdentifier: String) throws -> Bool {
        do {
            _ = try RawServiceClient(deviceRoot: deviceRoot, bundleIdentifier: bundleIdentifier)
            return false
        } catch {
            return true
        }
    }

    /// Waits for the service to close the connection or send a whole message, for at most `timeout`.
    public static func nextOutcome(on socket: UnixSocket, timeout: Duration = defaultPollTimeout) async throws -> Outcome {
        var decoder = FrameDecoder()
        return try await poll(timeout: timeout, interval: .milliseconds(10), "the service to answer or close") {
            guard let descriptor = socket.descriptor else { return .closed }
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard Glibc.poll(&entry, 1, 0) > 0 else { return nil }
            let bytes = try socket.receive()
            if bytes.isEmpty { return .closed }
            decoder.append(bytes)
            return try decoder.nextFrame().map { .message(try MessageCodec.decode(ServerMessage.self, from: $0)) }
        }
    }

    /// Sends a request and returns its response, skipping events.
    public func send(_ request: ClientRequest) throws -> ServerResponse {
        try response(to: post(request))
    }

    /// Sends a request without waiting for its answer, for one the service holds (exclusive control).
    /// - Returns: The request's id, for ``response(to:)``.
    public func post(_ request: ClientRequest) throws -> UInt64 {
        let id = UInt64.random(in: 1...UInt64.max)
        try socket.send(MessageCodec.frame(ClientMessage(id: id, request: request)))
        return id
    }

    /// Sends requests in one write, as a client that pipelines them, and returns their answers in
    /// the order of the requests.
    public func pipeline(_ requests: [ClientRequest]) throws -> [ServerResponse] {
        let messages = requests.enumerated().map { ClientMessage(id: UInt64($0.offset) + 1_000_000, request: $0.element) }
        try socket.send(messages.flatMap { try MessageCodec.frame($0) })
        var answers: [UInt64: ServerResponse] = [:]
        while answers.count < messages.count {
            while let payload = try decoder.nextFrame() {
                switch try MessageCodec.decode(ServerMessage.self, from: payload) {
                case let .response(id, response): answers[id] = response
                case let .event(event): events.append(event)
                }
            }
            guard answers.count < messages.count else { break }
            let bytes = try socket.receive()
            if bytes.isEmpty { throw TestSupportError("The service closed the connection.") }
            decoder.append(bytes)
        }
        return try messages.map { message in
            guard let answer = answers[message.id] else { throw TestSupportError("No answer to request \(message.id).") }
            return answer
        }
    }

    /// Reads until the response to a posted request arrives (10 s at most), skipping events and other answers.
    public func response(to id: UInt64) throws -> ServerResponse {
        while true {
            while let payload = try decoder.nextFrame() {
                switch try MessageCodec.decode(ServerMessage.self, from: payload) {
                case let .response(responseID, response) where responseID == id: return response
                case let .event(event): events.append(event)
                case .response: break
                }
            }
            let bytes = try socket.receive()
            if bytes.isEmpty { throw TestSupportError("The service closed the connection.") }
            decoder.append(bytes)
        }
    }

    /// Reads until an event that `matches` has arrived (the service's silence for 10 s fails), and
    /// returns every event read so far.
    public func waitForEvent(_ matches: (ServerEvent) -> Bool) throws -> [ServerEvent] {
        while !events.contains(where: matches) {
            while let payload = try decoder.nextFrame() {
                if case let .event(event) = try MessageCodec.decode(ServerMessage.self, from: payload) { events.append(event) }
            }
            if events.contains(where: matches) { break }
            let bytes = try socket.receive()
            if bytes.isEmpty { throw TestSupportError("The service closed the connection.") }
            decoder.append(bytes)
        }
        return events
    }

    /// ``waitForEvent(_:)`` from a task, on a thread outside the cooperative pool.
    public func event(_ matches: @escaping @Sendable (ServerEvent) -> Bool) async throws -> [ServerEvent] {
        try await blocking { [self] in try waitForEvent(matches) }
    }

    /// ``send(_:)`` from a task, on a thread outside the cooperative pool (see ``blocking(_:)``).
    public func ask(_ request: ClientRequest) async throws -> ServerResponse {
        try await blocking { [self] in try send(request) }
    }

    /// ``response(to:)`` from a task, on a thread outside the cooperative pool.
    public func answer(to id: UInt64) async throws -> ServerResponse {
        try await blocking { [self] in try response(to: id) }
    }
}
