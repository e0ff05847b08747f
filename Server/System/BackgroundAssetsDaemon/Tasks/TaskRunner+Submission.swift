/*
Abstract:
Whether the runner takes an app's request: its identifier, the Info.plist, the settings, how many of its kind wait, and for continued processing Apple's admission rules.
*/

import BackgroundAssetsIPC
import Foundation

extension TaskRunner {
    /// What a submitted refresh or processing request meets.
    enum Submission: Sendable, Equatable {
        /// It is kept until it runs: store it, and reconsider.
        case accept(PendingTask)
        /// It is refused with Background Tasks' code (1 unavailable, 2 too many pending, 3 not permitted).
        case refuse(code: Int, message: String)
    }

    /// Decides on a refresh or processing request, as `BGTaskScheduler.submit(_:)` does.
    /// - Parameters:
    ///   - descriptor: The request as the app sent it, its earliest begin date on the app's clock.
    ///   - app: The app.
    ///   - permission: What its Info.plist permits, or `nil` when it is not installed.
    ///   - settings: The device settings.
    ///   - pending: Every pending request.
    ///   - deviceNow: The device time now.
    ///   - appNow: The app's clock now, which its earliest begin date is measured from.
    static func submission(
        of descriptor: TaskRequestDescriptor, app: String, permission: TaskPermission?, settings: DeviceSettings,
        pending: [PendingTask], deviceNow: Date, appNow: Date
    ) -> Submission {
        guard !descriptor.identifier.isEmpty, descriptor.identifier.utf8.count <= 255 else {
            return .refuse(code: 3, message: "A task identifier must be 1 to 255 bytes long; use the reverse-DNS identifier listed in BGTaskSchedulerPermittedIdentifiers.")
        }
        guard let permission else {
            return .refuse(code: 1, message: "\(app) is not installed, so it cannot schedule background work; run backgroundassets-debug install first.")
        }
        if let refusal = permission.refusalToSubmit(descriptor.identifier, kind: descriptor.kind) { return .refuse(code: 3, message: refusal) }
        guard settings.allowsBackgroundAppRefresh(for: app) else {
            return .refuse(code: 1, message: "Background App Refresh is off for \(app), so it cannot schedule background work; turn it on with backgroundassets-debug settings --background-refresh on.")
        }
        let sameKind = pending.filter {
            $0.bundleIdentifier == app && $0.request.kind == descriptor.kind && $0.request.identifier != descriptor.identifier
        }
        guard sameKind.count < descriptor.kind.pendingLimit else {
            return .refuse(code: 2, message: "\(app) already has \(sameKind.count) pending \(descriptor.kind == .appRefresh ? "refresh" : "processing") request(s), the most allowed; cancel one (\(sameKind.map(\.request.identifier).joined(separator: ", "))) before submitting another.")
        }
        // The app's dates are its wall clock; the device's clock may run faster (timeScale). A request
        // for "in 15 minutes" means 15 minutes of device time from now.
        var request = descriptor
        request.earliestBeginDate = descriptor.earliestBeginDate.map { deviceNow.addingTimeInterval($0.timeIntervalSince(appNow)) }
        return .accept(PendingTask(bundleIdentifier: app, request: request, submitted: deviceNow))
    }

    /// Whether a continued-processing request from a connection is admitted, by Apple's rules
    /// (``ContinuedProcessingAdmission``), given the launch handlers, the queue and what runs.
    /// - Parameters:
    ///   - descriptor: The request.
    ///   - app: The app.
    ///   - permission: What its Info.plist permits.
    ///   - connection: The connection that submitted it.
    ///   - isBackgroundLaunch: Whether that connection's process is the app's background launch.
    func continuedAdmission(
        of descriptor: TaskRequestDescriptor, app: String, permission: TaskPermission, connection: UInt64, isBackgroundLaunch: Bool
    ) -> ContinuedProcessingAdmission {
        // A launch handler registered for the identifier, or for its `prefix.*` entry.
        let handler = host.handler(app: app, identifier: descriptor.identifier)
            ?? permission.wildcardEntry(matching: descriptor.identifier).flatMap { host.handler(app: app, identifier: $0) }
        let queue = host.continuedQueue
        return ContinuedProcessingAdmission.of(.init(
            request: descriptor, bundleIdentifier: app, permission: permission, hasLaunchHandler: handler == connection,
            isBackgroundLaunch: isBackgroundLaunch,
            queuedOfApp: queue.entries(of: app).filter { $0.request.identifier != descriptor.identifier }.count,
            queued: queue.all.count, running: host.runningCount(of: .continuedProcessing)))
    }
}
