/*
Abstract:
The notification host: each app's answer, its pending requests on the service's clock, and their delivery to the app, the list and the desktop.
*/

import BackgroundAssetsIPC
import Dispatch
import Foundation
import SystemLogging

/// Keeps every app's notifications: answers an app that asks to notify from the device settings
/// (once, then the recorded answer), holds its pending requests until they are due on the service's
/// clock, asks a running app's delegate how to present each, and records the delivered ones (and
/// shows them on the desktop when there is one).
///
/// The behaviour of notifications, as ``NotificationState`` is their state and ``NotificationPolicy``
/// their rules. The service owns the host and calls it on its own executor (each `async` method
/// runs on the caller's actor); the timer of the next due request runs there too, and calls
/// ``deliverDue(isolation:)`` itself.
final class NotificationHost {
    /// Why a request was refused, as UserNotifications' error.
    struct Refusal: Error, Sendable {
        /// The `UNError.Code`.
        let code: Int
        let message: String
    }

    /// `UNErrorDomain`, the domain of UserNotifications' errors.
    static let errorDomain = "UNErrorDomain"

    private var state = NotificationState()
    let store: NotificationStore
    private let desktop: DesktopNotifier
    let trace: ServiceTrace
    private let activities: ServiceActivities
    private let logger = Logger(subsystem: "com.example.backgroundassetsd", category: "daemon")
    private var settings: DeviceSettings
    var presenters: [UInt64: (app: String, connection: ClientConnection)] = [:]
    /// A person's answers the app's delegate has not finished handling, and the connection each was sent to.
    var responses: [UInt64: (app: String, response: NotificationResponseDescriptor, sentTo: UInt64?)] = [:]
    var nextResponseID: UInt64 = 1
    private var presentations: [UInt64: (app: String, connection: UInt64, delivery: DeliveredNotificationDescriptor)] = [:]
    private var nextPresentationID: UInt64 = 1
    private var timer: ServiceActivities.Activity?

    /// Opens the device's notification store.
    /// - Throws: ``DaemonError`` when the store cannot be opened.
    init(paths: DevicePaths, trace: ServiceTrace, activities: ServiceActivities, settings: DeviceSettings,
         desktop: DesktopNotifier = DesktopNotifier()) throws {
        store = try NotificationStore(url: paths.notificationDatabase)
        self.desktop = desktop
        self.trace = trace
        self.activities = activities
        self.settings = settings
    }

    private var now: Date { activities.wallClock.now }

    /// Whether requests wait to be delivered: the service stays up for them, so each is delivered at
    /// its time; they are on disk too, for a service that is killed or stopped.
    var hasPendingRequests: Bool { state.nextDueDate != nil }

    /// Takes up the pending requests the store kept across a restart, delivers those that fell due
    /// while the service was not running, and sets the timer for the next.
    func start(isolation: isolated (any Actor)? = #isolation) async {
        do {
            let stored = try await store.pending()
            await perform(state.restore(stored, now: now))
        } catch {
            logger.error("The pending notifications in \(store.path) could not be read: \(error).")
        }
        scheduleNextDelivery()
    }

    // MARK: - Authorization

    /// The app asks to notify: the first time, the device answers from its settings and records the
    /// answer; later, the answer stands, unless the settings name the app.
    func requestAuthorization(app: String, isolation: isolated (any Actor)? = #isolation) async throws -> NotificationAuthorizationStatus {
        let recorded = try await store.authorization(of: app)
        guard recorded == .notDetermined else { return try await authorization(of: app) }
        let answer = NotificationPolicy.answer(appSetting: settings.notificationsByApp?[app], deviceDefault: settings.notifications ?? true)
        try await store.setAuthorization(answer, of: app)
        trace.append(.init(from: "app", to: "backgroundassetsd", event: "requestAuthorization", app: app,
                           detail: answer == .authorized ? "allowed" : "denied"))
        return answer
    }

    /// The app's authorization: not determined until it asks, then its answer, which a setting for the app overrides.
    func authorization(of app: String, isolation: isolated (any Actor)? = #isolation) async throws -> NotificationAuthorizationStatus {
        let recorded = try await store.authorization(of: app)
        guard recorded != .notDetermined, let setting = settings.notificationsByApp?[app] else { return recorded }
        return setting ? .authorized : .denied
    }

    // MARK: - Requests

    /// Schedules a request of an authorized app, on disk before this returns. Past the app's
    /// ``NotificationLimits/pendingPerApp`` the latest-firing requests are discarded, as Apple does.
    /// - Throws: ``Refusal`` `notificationsNotAllowed` (1) when the app may not notify,
    ///   `notificationInvalidNoDate` (1400) for an invalid trigger, `notificationInvalidNoContent` (1401)
    ///   for a field over its ``NotificationLimits``, or the store's error when it cannot be kept.
    func add(_ request: NotificationRequestDescriptor, app: String, isolation: isolated (any Actor)? = #isolation) async throws {
        switch try await authorization(of: app) {
        case .authorized, .provisional, .ephemeral:
            break
        case .notDetermined, .denied:
            throw Refusal(code: 1, message: "\(app) may not post notifications: ask with requestAuthorization(options:) first, or allow them with backgroundassets-debug settings --notifications allow -b \(app).")
        }
        if let refusal = request.trigger?.refusal { throw Refusal(code: 1400, message: refusal) }
        guard !request.identifier.isEmpty else {
            throw Refusal(code: 1, message: "A notification request needs an identifier; pass a non-empty string to UNNotificationRequest(identifier:content:trigger:).")
        }
        // Checked here as well as in the framework: a client is never trusted to have checked.
        if let problem = request.limitProblem() { throw Refusal(code: 1401, message: problem) }
        trace.append(.init(from: "app", to: "backgroundassetsd", event: "addNotification", app: app,
                           detail: "\(request.identifier)" + (request.trigger.map(Self.describe) ?? "")))
        let failure = await perform(state.add(request, app: app, now: now))
        scheduleNextDelivery()
        if let failure { throw failure }
    }

    /// A trigger in the trace: its interval, or the components it matches.
    static func describe(_ trigger: NotificationTriggerDescriptor) -> String {
        guard let match = trigger.dateMatch else { return " in \(trigger.timeInterval.formatted()) s" }
        let fields: [(String, Int?)] = [("year", match.year), ("month", match.month), ("day", match.day), ("weekday", match.weekday),
                                        ("hour", match.hour), ("minute", match.minute), ("second", match.second)]
        return " at " + fields.compactMap { name, value in value.map { "\(name) \($0)" } }.joined(separator: ", ")
            + (trigger.repeats ? ", repeating" : "")
    }

    /// The app's pending requests.
    func pendingRequests(of app: String) -> [NotificationRequestDescriptor] {
        state.pendingRequests(of: app)
    }

    /// Delivered notifications, of one app or every app, after a place in the list.
    func delivered(app: String?, after sequence: Int64?, isolation: isolated (any Actor)? = #isolation) async throws -> [DeliveredNotificationRecord] {
        try await store.delivered(app: app, after: sequence)
    }

    /// Removes pending or delivered notifications of the app.
    func remove(_ list: NotificationList, identifiers: [String]?, app: String, isolation: isolated (any Actor)? = #isolation) async throws {
        switch list {
        case .pending:
            let failure = await perform(state.removePending(app: app, identifiers: identifiers))
            scheduleNextDelivery()
            if let failure { throw failure }
        case .delivered:
            try await store.removeDelivered(app: app, identifiers: identifiers)
        }
    }

    // MARK: - Presenting while the app runs

    /// A connection of the app asks how to present notifications that arrive while it runs, or stops.
    func setPresenter(_ isSet: Bool, app: String, connection: ClientConnection) {
        if isSet {
            presenters[connection.id] = (app, connection)
            state.setRunning(app: app, connection: connection.id)
            sendWaitingResponses(of: app)
        } else if presenters.removeValue(forKey: connection.id) != nil {
            state.setRunning(app: app, connection: presenters.first { $0.value.app == app }?.key)
        }
    }

    /// The delegate answered `willPresent`.
    func answerPresentation(_ id: UInt64, options: UInt, isolation: isolated (any Actor)? = #isolation) async {
        guard let presentation = presentations.removeValue(forKey: id) else { return }
        trace.append(.init(from: "app", to: "backgroundassetsd", event: "willPresent", app: presentation.app,
                           detail: "\(presentation.delivery.request.identifier): options \(options)"))
        await perform(state.presented(presentation.delivery, app: presentation.app, options: options))
    }

    /// A connection closed: notifications it was asked about and did not answer are listed, as
    /// they are when the app is not running.
    func connectionClosed(_ connection: UInt64, isolation: isolated (any Actor)? = #isolation) async {
        if let presenter = presenters.removeValue(forKey: connection) {
            state.setRunning(app: presenter.app, connection: presenters.first { $0.value.app == presenter.app }?.key)
            // Answers it did not finish handling go to the app's next delegate.
            for (id, waiting) in responses where waiting.sentTo == connection { responses[id]?.sentTo = nil }
            sendWaitingResponses(of: presenter.app)
        }
        for (id, presentation) in presentations.sorted(by: { $0.key < $1.key }) where presentation.connection == connection {
            presentations[id] = nil
            await perform([.record(app: presentation.app, presentation.delivery)])
        }
    }

    // MARK: - Delivery

    /// Delivers the requests that are due, then sets the timer for the next.
    func deliverDue(isolation: isolated (any Actor)? = #isolation) async {
        await perform(state.deliverDue(now: now))
        scheduleNextDelivery()
    }

    /// The device settings changed: later answers follow them.
    func settingsChanged(_ settings: DeviceSettings) {
        self.settings = settings
    }

    /// The app was uninstalled: its requests, answer and delivered notifications go with it.
    func appRemoved(_ app: String, isolation: isolated (any Actor)? = #isolation) async {
        // The store forgets the app's requests with the rest of it, below.
        _ = state.removePending(app: app, identifiers: nil)
        scheduleNextDelivery()
        do {
            try await store.removeApp(app)
        } catch {
            logger.error("The notifications of \(app) could not be removed: \(error).")
        }
    }

    /// Does what the state asks, in order; a failed store write is logged, the rest still done.
    /// - Returns: The first error of the store, for a caller that answers an app with it.
    @discardableResult
    private func perform(_ actions: [NotificationAction], isolation: isolated (any Actor)? = #isolation) async -> (any Error)? {
        var failure: (any Error)?
        for action in actions {
            switch action {
            case let .askToPresent(app, connection, delivery):
                guard let presenter = presenters[connection] else {
                    await perform([.record(app: app, delivery), .showOnDesktop(app: app, delivery.request.content)])
                    continue
                }
                let id = nextPresentationID
                nextPresentationID += 1
                presentations[id] = (app, connection, delivery)
                presenter.connection.send(.event(.notificationWillPresent(presentationID: id, notification: delivery)))
            case let .record(app, delivery):
                do {
                    try await store.record(delivery, app: app)
                    // A delivered notification's badge becomes the icon's, as on Apple platforms.
                    if let badge = delivery.request.content.badge, badge >= 0 { try await store.setBadge(badge, of: app) }
                    trace.append(.init(from: "backgroundassetsd", to: "app", event: "notificationDelivered", app: app,
                                       detail: "\(delivery.request.identifier): \(delivery.request.content.title)"))
                } catch {
                    logger.error("The notification \(delivery.request.identifier) of \(app) could not be recorded: \(error).")
                }
            case let .storePending(app, kept, forgotten):
                do {
                    try await store.updatePending(app: app, kept: kept, forgotten: forgotten)
                } catch {
                    logger.error("The pending notifications of \(app) could not be stored: \(error).")
                    failure = failure ?? error
                }
            case let .discarded(app, identifiers):
                let limit = NotificationLimits.pendingPerApp
                logger.info("\(app) has more than \(limit) pending notifications; the latest-firing were discarded: \(identifiers.joined(separator: ", ")).")
                trace.append(.init(from: "backgroundassetsd", to: "app", event: "notificationsDiscarded", app: app,
                                   detail: "over \(limit) pending: \(identifiers.joined(separator: ", "))"))
            case let .showOnDesktop(app, content):
                guard desktop.isAvailable else { continue }
                let desktop = desktop
                // notify-send waits for the desktop: on a thread of its own, not one of the service's.
                activities.run("desktop notification of \(app)") {
                    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                        DispatchQueue.global().async {
                            desktop.show(app: app, content: content)
                            done.resume()
                        }
                    }
                }
            }
        }
        return failure
    }

    private func scheduleNextDelivery(isolation: isolated (any Actor)? = #isolation) {
        timer?.cancel()
        timer = nil
        guard let next = state.nextDueDate else { return }
        let now = now
        let due = min(max(next, now).addingTimeInterval(0.001), now.addingTimeInterval(3600))
        timer = activities.atIsolated(due, "notifications due") { [weak self] in
            await self?.deliverDue()
        }
    }
}
