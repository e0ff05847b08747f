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
}

/// The pending requests of every app, with their due dates, and the apps that run now.
///
/// A value the service owns and tests drive directly: no I/O, and the caller passes the time.
public struct NotificationState: Sendable {
    struct Pending: Sendable, Equatable {
        var app: String
        var request: NotificationRequestDescriptor
        var due: Date
    }

    private var pending: [Pending] = []
    private var running: [String: UInt64] = [:]

    /// Creates an empty state.
    public init() {}

    /// An app's pending requests, in the order they were added.
    public func pendingRequests(of app: String) -> [NotificationRequestDescriptor] {
        pending.filter { $0.app == app }.map(\.request)
    }

    /// Schedules an authorized app's request, replacing its pending one with the same identifier.
    public mutating func add(_ request: NotificationRequestDescriptor, app: String, now: Date) -> [NotificationAction] {
        pending.removeAll { $0.app == app && $0.request.identifier == request.identifier }
        pending.append(Pending(app: app, request: request, due: NotificationPolicy.dueDate(of: request, scheduled: now)))
        return deliverDue(now: now)
    }

    /// Removes an app's pending requests, all of them when `identifiers` is `nil`.
    public mutating func removePending(app: String, identifiers: [String]?) {
        pending.removeAll { $0.app == app && (identifiers?.contains($0.request.identifier) ?? true) }
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
        pending.removeAll { $0.due <= now }
        var actions: [NotificationAction] = []
        for item in due {
            let delivery = DeliveredNotificationDescriptor(request: item.request, date: now)
            if let connection = running[item.app] {
                actions.append(.askToPresent(app: item.app, connection: connection, delivery))
            } else {
                actions += [.record(app: item.app, delivery), .showOnDesktop(app: item.app, item.request.content)]
            }
            if let trigger = item.request.trigger, trigger.repeats {
                pending.append(Pending(app: item.app, request: item.request, due: item.due.addingTimeInterval(trigger.timeInterval)))
            }
        }
        return actions
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
}
