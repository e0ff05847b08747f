/*
Abstract:
Raw clients of the in-process service for tests of background sessions and notifications, and the session events they received.
*/

import BackgroundAssetsIPC
import Foundation
import TestSupport

extension RawServiceClient {
    /// The background-session events received so far, in order.
    var sessionEvents: [BackgroundSessionEvent] {
        events.compactMap { if case let .urlSessionEvent(_, event) = $0 { event } else { nil } }
    }

    /// Waits (10 s at most per read) for a background-session event that `matches`, and returns
    /// the session events received so far, in order.
    @discardableResult
    func waitForSessionEvent(_ matches: (BackgroundSessionEvent) -> Bool) throws -> [BackgroundSessionEvent] {
        _ = try waitForEvent { event in
            if case let .urlSessionEvent(_, sessionEvent) = event { matches(sessionEvent) } else { false }
        }
        return sessionEvents
    }

    /// ``waitForSessionEvent(_:)`` from a task, on a thread outside the cooperative pool.
    @discardableResult
    func sessionEvents(until matches: @escaping @Sendable (BackgroundSessionEvent) -> Bool) async throws -> [BackgroundSessionEvent] {
        try await blocking { [self] in try waitForSessionEvent(matches) }
    }
}

extension InProcessService {
    /// A client of the service that keeps the events it receives.
    func recordingClient(_ bundleIdentifier: String = "com.example.game", role: Hello.Role = .app) async throws -> RawServiceClient {
        let root = paths.root
        return try await blocking { try RawServiceClient(deviceRoot: root, bundleIdentifier: bundleIdentifier, role: role) }
    }
}
