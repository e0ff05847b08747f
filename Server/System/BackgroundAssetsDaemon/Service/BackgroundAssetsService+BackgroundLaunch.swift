/*
Abstract:
The app launched in the background, for its Background Tasks or its background sessions' events, and ended when they are done.
*/

import BackgroundAssetsIPC
import Foundation

/// Why the service launches an app in the background; one launch serves every reason.
enum BackgroundLaunchReason: Sendable, Equatable {
    /// Its Background Tasks: they run once it registers their launch handlers.
    case tasks
    /// A background session's events: it makes the session again and receives them.
    case urlSessionEvents(session: String)
    /// A person answered one of its notifications: its delegate receives the answer.
    case notificationResponse(identifier: String)

    /// The reason as the trace and the log say it.
    var text: String {
        switch self {
        case .tasks: "for its tasks"
        case let .urlSessionEvents(session): "for the events of background session \(session)"
        case let .notificationResponse(identifier): "for the answer to notification \(identifier)"
        }
    }
}

extension BackgroundAssetsService {
    /// Starts the app in the background: its tasks run once it has registered their handlers, and
    /// a session's events reach it once it makes the session again.
    func launchAppInBackground(_ app: String, for reason: BackgroundLaunchReason = .tasks) async {
        guard let installed = try? await registry.app(app) else { return }
        // Checked after the suspension above and set before the next one: one launch per app.
        guard tasks.host.backgroundLaunch(of: app) == nil else { return }
        // A stopping service starts nothing that would outlive it, and records no failure: the
        // reason for the launch is still there when it next starts.
        guard !activities.isClosed else { return }
        let environment = LaunchEnvironment.of(
            app: app, role: .app, deviceRoot: paths, manifestURL: installed.bundle.app.manifestURL,
            extra: [Self.backgroundLaunchVariable: "1"])
        do {
            let process = try ExtensionProcess.launch(executable: installed.appExecutable, environment: environment) {
                [weak self, activities] exit in
                guard let self else { return }
                activities.run("background launch of \(app) exited") { [weak self] in await self?.backgroundLaunchExited(app: app, exit) }
            }
            tasks.launchedInBackground(process, app: app)
            trace.append(.init(from: "backgroundassetsd", to: "app", event: "launchInBackground", app: app, detail: "pid \(process.processIdentifier), \(reason.text)"))
        } catch {
            logger.error("Could not launch \(app) in the background \(reason.text): \(error)")
            if case let .urlSessionEvents(session) = reason { urlSessions.launchFailed(app: app, session: session) }
            tasks.backgroundLaunchFailed(app: app, reason: "the app could not be launched in the background: \(error)")
        }
    }

    /// The environment variable that tells an app the service launched it in the background, for
    /// its tasks or its sessions' events: the stand-in for `UIApplication.shared.applicationState`.
    static let backgroundLaunchVariable = "BG_TASK_BACKGROUND_LAUNCH"

    func backgroundLaunchExited(app: String, _ exit: ExtensionProcess.Exit) {
        guard tasks.host.backgroundLaunch(of: app)?.processIdentifier == exit.processIdentifier else { return }
        _ = tasks.removeBackgroundLaunch(of: app)
        urlSessions.backgroundLaunchEnded(app: app)
        trace.append(.init(from: "app", to: "backgroundassetsd", event: "backgroundLaunchEnded", app: app, detail: "\(exit)"))
    }

    /// Ends an app the service launched in the background once none of its tasks runs and it has
    /// handled the events of every session it was launched for.
    func endBackgroundLaunchIfIdle(app: String) {
        let keptElsewhere = urlSessions.keepsBackgroundLaunch(of: app) || notifications.keepsBackgroundLaunch(of: app)
        guard let process = tasks.endBackgroundLaunchIfIdle(app: app, keptElsewhere: keptElsewhere, connections: { self.clients.connections(ofProcess: $0) })
        else { return }
        // From now on its downloads' events go to the extension, and its tasks to a new launch, not
        // to a process about to end: the decision to end it and what it may still receive are made
        // here, together, so nothing is sent into the gap between the two.
        clients.withdrawDelegates(ofProcess: process.processIdentifier)
        let peak = process.highWaterResidentBytes.map { "; peak memory \($0 >> 20) MiB" } ?? ""
        trace.append(.init(from: "backgroundassetsd", to: "app", event: "backgroundLaunchDone", app: app, detail: "pid \(process.processIdentifier)\(peak)"))
        process.terminate()
    }
}
