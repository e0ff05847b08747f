/*
Abstract:
A client of the in-process service that keeps the events it receives, for tests of background sessions and notifications.
*/

import BackgroundAssetsIPC
import Foundation
import TestSupport

/// Speaks the wire protocol like ``RawServiceClient``, but keeps every event, in order, so a test
/// can wait for the one it expects and check the order they came in.
///
/// Unchecked Sendable: a test uses a client from one task at a time, through ``blocking(_:)``.
final class EventRecordingClient: @unchecked Sendable {
    private let socket: UnixSocket
    private var decoder = FrameDecoder()
    private var responses: [UInt64: ServerResponse] = [:]
    /// Every event received so far.
    private(set) var events: [ServerEvent] = []

    init(deviceRoot: URL, bundleIdentifier: String, role: Hello.Role = .app) throws {
        socket = try UnixSocket.connect(to: deviceRoot.appendingPathComponent("run/backgroundassetsd.sock").path)
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        if let descriptor = socket.descriptor {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }
        let hello = Hello(bundleIdentifier: bundleIdentifier, role: role, processIdentifier: getpid())
        guard case .hello = try send(.hello(hello)) else { throw TestSupportError("The service refused hello.") }
    }

    deinit { socket.close() }

    /// Closes the connection, as a process that exits does.
    func close() { socket.close() }

    /// Sends a request and returns its response, keeping the events that come before it.
    func send(_ request: ClientRequest) throws -> ServerResponse {
        let id = UInt64.random(in: 1...UInt64.max)
        try socket.send(MessageCodec.frame(ClientMessage(id: id, request: request)))
        while responses[id] == nil { try readOnce() }
        return responses.removeValue(forKey: id)!
    }

    /// Waits (10 s at most per read) for an event that `matches`, and returns the events of a
    /// session received so far, in order.
    @discardableResult
    func waitForSessionEvent(_ matches: (BackgroundSessionEvent) -> Bool) throws -> [BackgroundSessionEvent] {
        while !sessionEvents.contains(where: matches) { try readOnce() }
        return sessionEvents
    }

    /// Waits for any event that `matches`.
    @discardableResult
    func waitForEvent(_ matches: (ServerEvent) -> Bool) throws -> ServerEvent {
        while true {
            if let event = events.first(where: matches) { return event }
            try readOnce()
        }
    }

    /// ``send(_:)`` from a task, on a thread outside the cooperative pool.
    func ask(_ request: ClientRequest) async throws -> ServerResponse {
        try await blocking { [self] in try send(request) }
    }

    /// ``waitForSessionEvent(_:)`` from a task, on a thread outside the cooperative pool.
    @discardableResult
    func sessionEvents(until matches: @escaping @Sendable (BackgroundSessionEvent) -> Bool) async throws -> [BackgroundSessionEvent] {
        try await blocking { [self] in try waitForSessionEvent(matches) }
    }

    /// The background-session events received so far, in order.
    var sessionEvents: [BackgroundSessionEvent] {
        events.compactMap { if case let .urlSessionEvent(_, event) = $0 { event } else { nil } }
    }

    private func readOnce() throws {
        if let payload = try decoder.nextFrame() {
            switch try MessageCodec.decode(ServerMessage.self, from: payload) {
            case let .response(id, response): responses[id] = response
            case let .event(event): events.append(event)
            }
            return
        }
        let bytes = try socket.receive()
        if bytes.isEmpty { throw TestSupportError("The service closed the connection.") }
        decoder.append(bytes)
    }
}

extension InProcessService {
    /// A client that keeps its events.
    func recordingClient(_ bundleIdentifier: String = "com.example.game", role: Hello.Role = .app) async throws -> EventRecordingClient {
        let root = paths.root
        return try await blocking { try EventRecordingClient(deviceRoot: root, bundleIdentifier: bundleIdentifier, role: role) }
    }
}
