/*
Abstract:
Who holds each app's exclusive control, and who waits for it, in arrival order.
*/

import Foundation

/// Grants each app's exclusive control to one connection at a time, first come, first served.
///
/// Control is per app: the app and its extension contend for the same one. A waiter with a
/// deadline is dropped when the deadline passes; a connection that goes away releases what it
/// holds and leaves the line.
struct ExclusiveControlArbiter {
    /// A connection waiting for control, and the request to answer when it is granted.
    struct Waiter: Equatable {
        var connection: UInt64
        var requestID: UInt64
        var deadline: Date?
    }

    /// What happened to an acquisition request.
    enum Acquisition: Equatable {
        case granted
        case queued
        case expired
    }

    private var holders: [String: UInt64] = [:]
    private var lines: [String: [Waiter]] = [:]

    /// Asks for an app's control.
    mutating func acquire(app: String, _ waiter: Waiter, now: Date) -> Acquisition {
        if let deadline = waiter.deadline, deadline <= now { return .expired }
        guard holders[app] != nil else {
            holders[app] = waiter.connection
            return .granted
        }
        lines[app, default: []].append(waiter)
        return .queued
    }

    /// Gives an app's control back, and returns the waiter it passes to, if any.
    mutating func release(app: String, connection: UInt64) -> Waiter? {
        guard holders[app] == connection else { return nil }
        holders[app] = nil
        guard var line = lines[app], !line.isEmpty else { return nil }
        let next = line.removeFirst()
        lines[app] = line.isEmpty ? nil : line
        holders[app] = next.connection
        return next
    }

    /// Removes the waiters whose deadline has passed, and returns them.
    mutating func expire(now: Date) -> [Waiter] {
        var expired: [Waiter] = []
        for (app, line) in lines {
            let (late, onTime) = (line.filter { $0.deadline.map { $0 <= now } ?? false }, line.filter { $0.deadline.map { $0 > now } ?? true })
            expired += late
            lines[app] = onTime.isEmpty ? nil : onTime
        }
        return expired
    }

    /// The earliest deadline among the waiters, for the expiry timer.
    var earliestDeadline: Date? {
        lines.values.flatMap { $0 }.compactMap(\.deadline).min()
    }

    /// Forgets a connection that went away: it leaves every line, and what it held passes on.
    /// - Returns: The waiters now granted control.
    mutating func disconnect(_ connection: UInt64) -> [Waiter] {
        for (app, line) in lines {
            let remaining = line.filter { $0.connection != connection }
            lines[app] = remaining.isEmpty ? nil : remaining
        }
        return holders.filter { $0.value == connection }.keys.sorted().compactMap { app in
            release(app: app, connection: connection)
        }
    }

    /// The connection holding an app's control, if any.
    func holder(of app: String) -> UInt64? { holders[app] }

    /// Whether a connection holds an app's exclusive control or waits for it.
    func involves(_ connection: UInt64, app: String) -> Bool {
        holders[app] == connection || lines[app, default: []].contains { $0.connection == connection }
    }
}
