/*
Abstract:
The state every connection of one running server shares: configuration, resolver, faults, log and stop flags.
*/

import ServerRuntime
import Synchronization
import SystemLogging
import TLS

/// Shared, thread-safe state handed to each connection thread.
final class ServingContext: Sendable {
    let configuration: AssetServer.Configuration
    let parser: HTTPRequestParser
    let resolver: CatalogFileResolver
    let faults: FaultState
    let accessLog: AccessLog?
    let registry: ConnectionRegistry
    let logger: Logger
    /// The read end of the shutdown pipe; it becomes readable, and stays so, when shutdown begins.
    let shutdownDescriptor: Int32
    /// The TLS every connection speaks, or `nil` for plain http.
    let tls: TLSServerContext?
    /// The clock the connections' deadlines are set on and waited with.
    let clock: any DeadlineClock

    let idleTimeout: UInt64
    let requestHeadTimeout: UInt64
    let sendStallTimeout: UInt64

    private let stopping = Atomic<Bool>(false)
    private let forced = Atomic<Bool>(false)

    init(configuration: AssetServer.Configuration, resolver: CatalogFileResolver, accessLog: AccessLog?,
         logger: Logger, shutdownDescriptor: Int32, tls: TLSServerContext?,
         clock: any DeadlineClock) {
        self.tls = tls
        self.clock = clock
        self.configuration = configuration
        parser = HTTPRequestParser(limits: configuration.limits)
        self.resolver = resolver
        faults = FaultState(faults: configuration.faults)
        self.accessLog = accessLog
        registry = ConnectionRegistry()
        self.logger = logger
        self.shutdownDescriptor = shutdownDescriptor
        idleTimeout = configuration.timeouts.idle.nanoseconds
        requestHeadTimeout = configuration.timeouts.requestHead.nanoseconds
        sendStallTimeout = configuration.timeouts.sendStall.nanoseconds
    }

    /// Whether shutdown has begun: finish the current response, then close.
    var isStopping: Bool { stopping.load(ordering: .acquiring) }
    /// Whether the grace period is over: stop sleeping and give up at once.
    var isForcedToStop: Bool { forced.load(ordering: .acquiring) }

    func beginStopping() { stopping.store(true, ordering: .releasing) }
    func forceStop() { forced.store(true, ordering: .releasing) }
}
