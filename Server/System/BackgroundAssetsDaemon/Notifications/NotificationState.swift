/*
Abstract:
Every app's pending and delivered notifications: a value the service owns, that says what to deliver and when.
*/

import BackgroundAssetsIPC
import Foundation

/// What the notification state asks the service to do.
public enum NotificationAction: Sendable, Equatable {
    /// Ask the running app's delegate how to present a notification (`willPresent`).
    case askToPresent(app: String, connection: UInt64, DeliveredNotificationDescriptor)
    /// Record a delivered notification (``NotificationStore``) and list it.
    case record(app: String, DeliveredNotificationDescriptor)
    /// Show a notification on the desktop, when a notification service runs there.
    case showOnDesktop(app: String, NotificationContentDescriptor)
    /// Make the app's pending requests on disk (``NotificationStore``) what the state now holds:
    /// `kept` were added or rescheduled, `forgotten` were delivered, removed or discarded.
    case storePending(app: String, kept: [PendingNotification], forgotten: [String])
    /// Requests went past the app's ``NotificationLimits/pendingPerApp`` and were discarded, the
    /// latest-firing first: tell the developer (trace and log), since the app is not told.
    case discarded(app: String, identifiers: [String])
}

/// A request waiting for its due date, and the app it belongs to.
public struct PendingNotification: Sendable, Equatable {
    /// The app that added it.
    public var app: String
    /// The request as the app sent it.
    public var request: NotificationRequestDescriptor
    /// When it is delivered, on the service's clock.
    public var due: Date

    /// Creates a pending request.
    public init(app: String, request: NotificationRequestDescriptor, due: Date) {
        self.app = app
        self.request = request
        self.due = due
    }
}

/// The pending requests of every app, with their due dates, and the apps that run now.
///
/// A value the service owns and tests drive directly: no I/O, and the caller passes the time. Every
/// change to the pending requests comes back as ``NotificationAction/storePending(app:kept:forgotten:)``,
/// so what is on disk follows what is here; each app keeps at most ``NotificationLimits/pendingPerApp``.
public struct NotificationState: Sendable {
    private var pending: [PendingNotification] = []
    private var running: [String: UInt64] = [:]

    /// Creates an empty state.
    public init() {}

    /// An app's pending requests, in the order they were added.
    public func pendingRequests(of app: String) -> [NotificationRequestDescriptor] {
        pending.filter { $0.app == app }.map(\.request)
    }

    /// Takes up the requests the store kept across a restart: each app's limit is applied again (the
    /// store may come from a build with another limit), and those that fell due while the service
    /// was not running are delivered now, late, as a device delivers them after it is switched on.
    public mutating func restore(_ stored: [PendingNotification], now: Date) -> [NotificationAction] {
        pending = stored
        var actions: [NotificationAction] = []
        for app in Set(stored.map(\.app)).sorted() {
            let before = snapshot(of: app)
            let discarded = applyLimit(app: app)
            actions += changes(of: app, from: before)
            if !discarded.isEmpty { actions.append(.discarded(app: app, identifiers: discarded)) }
        }
        return actions + deliverDue(now: now)
    }

    /// Schedules an authorized app's request, replacing its pending one with the same identifier.
    /// Past the app's limit, the latest-firing requests are discarded, which may be this one.
    public mutating func add(_ request: NotificationRequestDescriptor, app: String, now: Date) -> [NotificationAction] {
        let before = snapshot(of: app)
        pending.removeAll { $0.app == app && $0.request.identifier == request.identifier }
        let item = PendingNotification(app: app, request: request, due: NotificationPolicy.dueDate(of: request, scheduled: now))
        var discarded: [String] = []
        var delivered: [NotificationAction] = []
        if item.due <= now {
            // Due at once: delivered here, so it is never written to disk only to be deleted again.
            delivered = deliver(item, now: now)
        } else {
            pending.append(item)
            discarded = applyLimit(app: app)
        }
        var actions = changes(of: app, from: before, moved: request.identifier)
        if !discarded.isEmpty { actions.append(.discarded(app: app, identifiers: discarded)) }
        return actions + delivered + deliverDue(now: now)
    }

    /// Removes an app's pending requests, all of them when `identifiers` is `nil`.
    public mutating func removePending(app: String, identifiers: [String]?) -> [NotificationAction] {
        let before = snapshot(of: app)
        pending.removeAll { $0.app == app && (identifiers?.contains($0.request.identifier) ?? true) }
        return changes(of: app, from: before)
    }

    /// A process of the app listens for `willPresent`, or stopped (`nil`).
    public mutating func setRunning(app: String, connection: UInt64?) {
        running[app] = connection
    }

    /// The next due date of any pending request, for the service's timer.
    public var nextDueDate: Date? { pending.map(\.due).min() }

    /// Delivers what is due: to a running app's delegate first, else to the list and the desktop.
    /// A repeating request is scheduled again.
    public mutating func deliverDue(now: Date) -> [NotificationAction] {
        let due = pending.filter { $0.due <= now }
        guard !due.isEmpty else { return [] }
        let apps = Set(due.map(\.app)).sorted()
        let before = Dictionary(uniqueKeysWithValues: apps.map { ($0, snapshot(of: $0)) })
        pending.removeAll { $0.due <= now }
        var actions: [NotificationAction] = []
        for item in due {
            actions += deliver(item, now: now)
            if let trigger = item.request.trigger, trigger.repeats {
                // A repeating request counts once against the limit, as Apple counts it. Its next
                // time is after now: the times missed while no service ran are one delivery, not a burst.
                let next = NotificationPolicy.nextDueDate(of: trigger, due: item.due, now: now)
                pending.append(PendingNotification(app: item.app, request: item.request, due: next))
            }
        }
        // Stored before the deliveries are performed: a service killed while delivering forgets
        // them rather than delivering them twice.
        return apps.flatMap { changes(of: $0, from: before[$0] ?? [:]) } + actions
    }

    /// Delivers one request: to a running app's delegate first, else to the list and the desktop.
    private func deliver(_ item: PendingNotification, now: Date) -> [NotificationAction] {
        let delivery = DeliveredNotificationDescriptor(request: item.request, date: now)
        if let connection = running[item.app] {
            return [.askToPresent(app: item.app, connection: connection, delivery)]
        }
        return [.record(app: item.app, delivery), .showOnDesktop(app: item.app, item.request.content)]
    }

    /// The running app answered `willPresent`.
    public func presented(_ delivery: DeliveredNotificationDescriptor, app: String, options: UInt) -> [NotificationAction] {
        var actions: [NotificationAction] = []
        if NotificationPolicy.isListed(presentationOptions: options) { actions.append(.record(app: app, delivery)) }
        if NotificationPolicy.isShownOnDesktop(presentationOptions: options) {
            actions.append(.showOnDesktop(app: app, delivery.request.content))
        }
        return actions
    }

    // MARK: - The app's limit and the store

    /// Keeps the app's soonest-firing ``NotificationLimits/pendingPerApp`` requests (of two due at
    /// the same moment, the one added first) and discards the rest.
    /// - Returns: The identifiers discarded.
    private mutating func applyLimit(app: String) -> [String] {
        let mine = pending.enumerated().filter { $0.element.app == app }
        guard mine.count > NotificationLimits.pendingPerApp else { return [] }
        let latest = mine.sorted { ($0.element.due, $0.offset) < ($1.element.due, $1.offset) }.dropFirst(NotificationLimits.pendingPerApp)
        let dropped = Set(latest.map(\.offset))
        pending = pending.enumerated().filter { !dropped.contains($0.offset) }.map(\.element)
        return latest.map(\.element.request.identifier)
    }

    private func snapshot(of app: String) -> [String: PendingNotification] {
        Dictionary(pending.filter { $0.app == app }.map { ($0.request.identifier, $0) }) { $1 }
    }

    /// What the store must do to hold the app's requests as they are now, given what it held before;
    /// `moved` was added again, so it is written again even when unchanged, to take its new place.
    private func changes(of app: String, from before: [String: PendingNotification], moved: String? = nil) -> [NotificationAction] {
        let after = snapshot(of: app)
        // In the order they were added, so the store keeps that order.
        let kept = pending.filter { $0.app == app && (before[$0.request.identifier] != $0 || $0.request.identifier == moved) }
        let forgotten = before.keys.filter { after[$0] == nil }.sorted()
        guard !kept.isEmpty || !forgotten.isEmpty else { return [] }
        return [.storePending(app: app, kept: kept, forgotten: forgotten)]
    }
}
