/*
Abstract:
Background Tasks on the service: the app launched in the background for its tasks, and ended when they are done.
*/

import BackgroundAssetsIPC
import Foundation

extension BackgroundAssetsService {
    /// Starts the app in the background so it can register its handlers; its tasks run once it has.
    func launchAppInBackground(_ app: String) async {
        guard let installed = try? await registry.app(app) else { return }
        // Checked after the suspension above and set before the next one: one launch per app.
        guard taskHost.backgroundLaunch(of: app) == nil else { return }
        let environment = LaunchEnvironment.of(
            app: app, role: .app, deviceRoot: paths, manifestURL: installed.bundle.app.manifestURL,
            extra: [Self.backgroundLaunchVariable: "1"])
        do {
            guard !activities.isClosed else { throw ServiceStopping(launch: app) }
            let process = try ExtensionProcess.launch(executable: installed.appExecutable, environment: environment) {
                [weak self, activities] exit in
                guard let self else { return }
                activities.run("background launch of \(app) exited") { [weak self] in await self?.backgroundLaunchExited(app: app, exit) }
            }
            taskHost.recordBackgroundLaunch(process, of: app)
            trace.append(.init(from: "backgroundassetsd", to: "app", event: "launchInBackground", app: app, detail: "pid \(process.processIdentifier)"))
        } catch {
            logger.error("Could not launch \(app) in the background for its tasks: \(error)")
            taskHost.recordEnding(of: app, reason: "the app could not be launched in the background: \(error)")
        }
    }

    /// The environment variable that tells an app the service launched it for background tasks.
    static let backgroundLaunchVariable = "BG_TASK_BACKGROUND_LAUNCH"

    func backgroundLaunchExited(app: String, _ exit: ExtensionProcess.Exit) {
        guard taskHost.backgroundLaunch(of: app)?.processIdentifier == exit.processIdentifier else { return }
        _ = taskHost.removeBackgroundLaunch(of: app)
        trace.append(.init(from: "app", to: "backgroundassetsd", event: "backgroundLaunchEnded", app: app, detail: "\(exit)"))
    }

    /// Ends an app the service launched only for its tasks once none of them is running.
    func endBackgroundLaunchIfIdle(app: String) {
        guard !taskHost.runningTasks.contains(where: { $0.bundleIdentifier == app }),
            let process = taskHost.removeBackgroundLaunch(of: app)
        else { return }
        // From now on its downloads' events go to the extension, not to a process about to end.
        clients.withdrawDelegates(ofProcess: process.processIdentifier)
        let peak = process.highWaterResidentBytes.map { "; peak memory \($0 >> 20) MiB" } ?? ""
        trace.append(.init(from: "backgroundassetsd", to: "app", event: "backgroundLaunchDone", app: app, detail: "pid \(process.processIdentifier)\(peak)"))
        process.terminate()
    }
}
