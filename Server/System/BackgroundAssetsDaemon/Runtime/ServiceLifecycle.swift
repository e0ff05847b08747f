/*
Abstract:
The service's parts in the order they start, stopped in reverse: the order written down once.
*/

/// One part of the service's life: what starting it does, and what stopping it does.
struct ServicePart: Sendable {
    /// What the part is, for errors and logs.
    let name: String
    let start: @ServiceActor () async throws -> Void
    let stop: @ServiceActor () async -> Void

    /// Declares a part; a part with nothing to start or nothing to stop leaves that out.
    init(_ name: String, start: @escaping @ServiceActor () async throws -> Void = {},
         stop: @escaping @ServiceActor () async -> Void = {}) {
        self.name = name
        self.start = start
        self.stop = stop
    }
}

/// Starts a service's parts in the order they are declared and stops them in reverse, the way
/// swift-service-lifecycle's service group does: a part is declared after what it depends on, so it
/// starts after it and stops before it, and no procedure elsewhere has to repeat the order.
///
/// Every part stops, also those after one whose start failed: a part may have begun work (a timer, a
/// process) before a later one threw, and each stop is harmless for a part that did not start.
@ServiceActor
struct ServiceLifecycle {
    /// The parts, in the order they start.
    let parts: [ServicePart]

    /// Starts each part in order.
    /// - Throws: The first error a part's start throws, as it was thrown; the parts after it do not start.
    func start() async throws {
        for part in parts { try await part.start() }
    }

    /// Stops each part, the last declared first.
    func stop() async {
        for part in parts.reversed() { await part.stop() }
    }
}

