/*
Abstract:
The service's parts in the order they start, stopped in reverse: the order written down once.
*/

/// One part of an actor's life: what starting it does, and what stopping it does, each run
/// isolated to the actor that owns the part.
struct ServicePart<Owner: Actor>: Sendable {
    /// What the part is, for errors and logs.
    let name: String
    let start: @Sendable (isolated Owner) async throws -> Void
    let stop: @Sendable (isolated Owner) async -> Void

    /// Declares a part; a part with nothing to start or nothing to stop leaves that out.
    init(_ name: String, start: @escaping @Sendable (isolated Owner) async throws -> Void = { _ in },
         stop: @escaping @Sendable (isolated Owner) async -> Void = { _ in }) {
        self.name = name
        self.start = start
        self.stop = stop
    }
}

/// Starts an actor's parts in the order they are declared and stops them in reverse, the way
/// swift-service-lifecycle's service group does: a part is declared after what it depends on, so it
/// starts after it and stops before it, and no procedure elsewhere has to repeat the order.
///
/// Every part stops, also those after one whose start failed: a part may have begun work (a timer, a
/// process) before a later one threw, and each stop is harmless for a part that did not start.
struct ServiceLifecycle<Owner: Actor>: Sendable {
    /// The parts, in the order they start.
    let parts: [ServicePart<Owner>]

    /// Starts each part in order.
    /// - Throws: The first error a part's start throws, as it was thrown; the parts after it do not start.
    func start(_ owner: isolated Owner) async throws {
        for part in parts { try await part.start(owner) }
    }

    /// Stops each part, the last declared first.
    func stop(_ owner: isolated Owner) async {
        for part in parts.reversed() { await part.stop(owner) }
    }
}
