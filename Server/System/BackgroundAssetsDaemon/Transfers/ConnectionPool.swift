/*
Abstract:
Idle keep-alive connections by origin, so the next transfer to the same server skips the TCP and TLS handshakes.
*/

import DevicePlatform
import Foundation
import HTTPCore
import ServerRuntime
import Synchronization

/// Connections that finished a response cleanly, kept for the next request to the same origin.
///
/// A connection goes back only after a response whose body ended at its declared length (or its
/// last chunk) with nothing more read, and which did not ask to close; one that the server closed
/// meanwhile, or that idled too long, is dropped when it is taken. Over https this saves a TLS
/// handshake per download on top of the TCP one.
final class ConnectionPool: Sendable {
    /// The idle connections kept per origin; the oldest goes first.
    let maximumIdlePerOrigin: Int
    /// How long an idle connection is kept; servers close theirs after a similar time.
    static let idleLifetime: Duration = .seconds(15)

    private struct Idle: Sendable {
        let connection: HTTPConnection
        let since: UInt64
    }

    private let idle = Mutex<[String: [Idle]]>([:])

    /// Creates an empty pool.
    /// - Parameter maximumIdlePerOrigin: The idle connections kept per origin: as many as the
    ///   background transfers that may run at once, so a round of them ending together leaves a
    ///   connection for each of the next round (over https, each one dropped costs a handshake).
    init(maximumIdlePerOrigin: Int = 8) {
        self.maximumIdlePerOrigin = max(1, maximumIdlePerOrigin)
    }

    /// The pool key of a URL: its scheme, host and port (``RequestTarget/origin``); empty for a URL
    /// that cannot be fetched.
    static func origin(of url: URL) -> String {
        (try? RequestTarget(url).origin) ?? ""
    }

    /// The most recently used idle connection to an origin that is still open, if any.
    /// - Parameter now: The monotonic time to measure idleness against; a connection another
    ///   transfer put back after this time counts as fresh.
    func take(origin: String, now: UInt64 = MonotonicClock.now()) -> HTTPConnection? {
        let lifetime = UInt64(Self.idleLifetime.components.seconds) * 1_000_000_000
        while let candidate = idle.withLock({ $0[origin]?.popLast() }) {
            // Transfers on other threads put connections back while this one takes: `since` can
            // be later than `now`, and a plain subtraction would trap.
            let idleFor = now > candidate.since ? now - candidate.since : 0
            if idleFor < lifetime, candidate.connection.isOpenAndQuiet { return candidate.connection }
        }
        return nil
    }

    /// Keeps a connection whose last response ended cleanly.
    func put(_ connection: HTTPConnection, origin: String) {
        let entry = Idle(connection: connection, since: MonotonicClock.now())
        let dropped: Idle? = idle.withLock { idle in
            // Changed in place: a copy taken out and stored back copied the list inside the lock,
            // which sixteen transfers' threads take at every end.
            idle[origin, default: []].append(entry)
            guard let count = idle[origin]?.count, count > maximumIdlePerOrigin else { return nil }
            return idle[origin]?.removeFirst()
        }
        // Closed here, outside the lock.
        _ = dropped
    }

    /// Drops every idle connection, which closes its socket: the queue makes room for a
    /// transfer when descriptors run short (``DownloadQueue/mayStartTransfer(besides:)``).
    /// - Returns: How many were dropped.
    @discardableResult
    func closeIdle() -> Int {
        let dropped = idle.withLock { idle in
            defer { idle = [:] }
            return idle.values.flatMap { $0 }
        }
        // Released here, outside the lock.
        return dropped.count
    }

    /// The number of idle connections kept, for tests and status.
    var idleCount: Int {
        idle.withLock { $0.values.reduce(0) { $0 + $1.count } }
    }
}
