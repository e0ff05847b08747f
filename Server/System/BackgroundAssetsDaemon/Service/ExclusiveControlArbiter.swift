/*
Abstract:
Who holds each app's exclusive control, and who waits for it: in arrival order, except while the extension has a finished file in hand.
*/

import Foundation

/// Grants each app's exclusive control to one connection at a time.
///
/// Control is per app: the app and its extension contend for the same one. A waiter with a
/// deadline is dropped when the deadline passes; a connection that goes away releases what it
/// holds and leaves the line. Its invariants:
/// - An app's control has at most one holder, and only the holder releases it.
/// - While the app's extension has a finished file in hand (from the moment the file is given to
///   it, queued for a call or on its way to a launch, until the extension is done with it,
///   ``ExtensionRuns/owesFile(to:)``, told here with ``extensionHasFile(_:app:)``), control goes
///   only to the extension's requests made with the file in hand, and they go ahead of every
///   other waiter. So whoever holds control next finds the
///   file moved into place, or kept for the app when the extension did not take it: never out of
///   sight, in the extension's hands, while an app that listed its downloads and looked on disk
///   downloads the session again.
/// - Otherwise control goes first come, first served.
struct ExclusiveControlArbiter {
    /// A connection waiting for control, and the request to answer when it is granted.
    struct Waiter: Equatable {
        var connection: UInt64
        var requestID: UInt64
        var deadline: Date?
        /// Whether the app's extension asked while it had a finished file in hand.
        var hasFileInHand = false
    }

    /// What happened to an acquisition request.
    enum Acquisition: Equatable {
        case granted
        case queued
        case expired
    }

    private var holders: [String: UInt64] = [:]
    private var lines: [String: [Waiter]] = [:]
    /// The apps whose extension has a finished file in hand.
    private var filesInHand: Set<String> = []

    /// Asks for an app's control.
    mutating func acquire(app: String, _ waiter: Waiter, now: Date) -> Acquisition {
        if let deadline = waiter.deadline, deadline <= now { return .expired }
        if holders[app] == nil, mayGrant(waiter, app: app) {
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
        return passOn(app)
    }

    /// Records whether an app's extension has a finished file in hand.
    /// - Returns: The waiter control passes to, now that the file is out of the extension's hands.
    mutating func extensionHasFile(_ inHand: Bool, app: String) -> Waiter? {
        guard inHand != filesInHand.contains(app) else { return nil }
        guard !inHand else {
            filesInHand.insert(app)
            return nil
        }
        filesInHand.remove(app)
        return passOn(app)
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

    /// Whether anyone waits for an app's control.
    func hasWaiters(for app: String) -> Bool { !(lines[app]?.isEmpty ?? true) }

    /// Whether a connection holds an app's exclusive control or waits for it.
    func involves(_ connection: UInt64, app: String) -> Bool {
        holders[app] == connection || lines[app, default: []].contains { $0.connection == connection }
    }

    private func mayGrant(_ waiter: Waiter, app: String) -> Bool {
        waiter.hasFileInHand || !filesInHand.contains(app)
    }

    /// Hands a free control to the first waiter that may have it: one with a file in hand first.
    private mutating func passOn(_ app: String) -> Waiter? {
        guard holders[app] == nil, var line = lines[app],
              let index = line.firstIndex(where: \.hasFileInHand) ?? (filesInHand.contains(app) ? nil : line.startIndex)
        else { return nil }
        let next = line.remove(at: index)
        lines[app] = line.isEmpty ? nil : line
        holders[app] = next.connection
        return next
    }
}
