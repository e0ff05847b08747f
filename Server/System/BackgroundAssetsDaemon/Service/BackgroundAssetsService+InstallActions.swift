/*
Abstract:
The shell of the install lifecycle: performs what it decided, and records the app as launchable when an install ends.
*/

import BackgroundAssetsIPC
import Foundation

extension BackgroundAssetsService {
    /// Does what the install lifecycle decided, in order.
    func perform(_ actions: [InstallAction]) async {
        for action in actions {
            switch action {
            case let .holdOtherDownloads(app):
                await queue.hold(app: app)
            case let .releaseOtherDownloads(app):
                await queue.release(app: app)
            case let .callExtension(app, records):
                await callExtension(of: app, records)
            case let .markLaunchable(app, note):
                await markLaunchable(app, note: note)
            case let .refuseLaunchGate(waiter, app):
                clients[waiter.connection]?.connection.send(.response(id: waiter.requestID, response: failure(.callerConnectionNotAccepted, "\(app) was uninstalled while it was installing.")))
            case let .pushProgress(app, progress, connections):
                let event = ServerEvent.installProgress(bundleIdentifier: app, progress: progress)
                for connection in connections { clients[connection]?.connection.send(.event(event)) }
            }
        }
    }

    /// Records an ended install's app as launchable, then answers the gates that waited for it,
    /// each with the status of this moment, or of the launch recorded for them, and publishes the
    /// launchable record, which the periodic checks and the task runner read.
    private func markLaunchable(_ app: String, note: String?) async {
        guard let installed = try? await registry.update(app, { installed -> InstalledApp in
            installed.state = .launchable
            return installed
        }) else { return }
        // To the service itself: the app may not be running; the launch gate's answer, if one waits, follows.
        trace.append(.init(from: "backgroundassetsd", to: "backgroundassetsd", event: "appLaunchable", app: app, detail: note))
        // A process opened while the app was installing launches it now.
        let hasOpenedProcess = !clients.openedProcesses(of: app).isEmpty
        let release = installs.becameLaunchable(app: app, hasOpenedProcess: hasOpenedProcess)
        let launched = release.recordsLaunch ? await recordLaunch(of: app) : nil
        for waiter in release.answers {
            let status = waiter.recordLaunch ? launched ?? appStatus(installed) : appStatus(installed)
            clients[waiter.connection]?.connection.send(.response(id: waiter.requestID, response: .app(status)))
        }
    }
}
