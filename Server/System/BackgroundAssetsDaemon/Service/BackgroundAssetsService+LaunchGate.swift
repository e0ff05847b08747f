/*
Abstract:
The end of an install: the app becomes launchable, and the launch gate that waits for it records the launch.
*/

import BackgroundAssetsIPC
import Foundation

extension BackgroundAssetsService {
    /// Answers at once when the app is launchable, else when it becomes launchable; records a launch if asked.
    func awaitLaunchable(_ bundleIdentifier: String?, recordLaunch: Bool, requestID: UInt64, connection: UInt64) async -> ServerResponse? {
        guard let client = clients[connection], let caller = client.hello else { return nil }
        let id = bundleIdentifier ?? caller.bundleIdentifier
        // An opened app's process was launched by its connection (or is, when its install ends);
        // the gate records a launch only for a process the kernel could not vouch for.
        let recordLaunch = recordLaunch && !client.isOpenedApp
        guard installedApps.contains(id), let app = try? await registry.app(id) else {
            return failure(.callerConnectionNotAccepted, "\(id) is not installed on this device; install it with backgroundassets-debug install, then launch it.")
        }
        guard installs[id] != nil else {
            return .app(recordLaunch ? await self.recordLaunch(of: id) ?? appStatus(app) : appStatus(app))
        }
        installs.wait(InstallTracker.LaunchWaiter(connection: connection, requestID: requestID, recordLaunch: recordLaunch), for: id)
        clients[connection]?.connection.send(.event(.installProgress(bundleIdentifier: id, progress: installProgress(of: id))))
        return nil
    }

    /// Records a launch: lifts the pre-launch restrictions and feeds the periodic schedule.
    @discardableResult
    func recordLaunch(of app: String) async -> AppStatus? {
        let now = deviceNow
        guard let launched = try? await registry.update(app, { installed -> InstalledApp in
            installed.recordLaunch(at: now)
            return installed
        }) else { return nil }
        await queue.restrictRedirects(of: app, to: nil)
        trace.append(.init(from: "app", to: "backgroundassetsd", event: "appLaunched", app: app))
        schedulePeriodicChecks()
        return appStatus(launched)
    }

    /// Ends an install: the app becomes launchable, its other downloads start, and waiters are answered.
    /// - Parameters:
    ///   - app: The app.
    ///   - note: A sentence for the summary, when the install did not end the ordinary way.
    func markLaunchable(_ app: String, note: String? = nil) async {
        // Recorded before anything suspends: a launch gate asking meanwhile finds the app
        // launchable, and must find how its install ended too.
        guard installs.finish(app, note: note) != nil else { return }
        await queue.release(app: app)
        guard let installed = try? await registry.update(app, { installed -> InstalledApp in
            installed.state = .launchable
            return installed
        }) else { return }
        // To the service itself: the app may not be running; the launch gate's answer, if one waits, follows.
        trace.append(.init(from: "backgroundassetsd", to: "backgroundassetsd", event: "appLaunchable", app: app, detail: note))
        // A process opened while the app was installing launches it now, once, however many of its
        // connections or launch gates wait.
        var launched: AppStatus?
        let waiters = installs.takeWaiters(of: app)
        if waiters.contains(where: \.recordLaunch) || !clients.openedProcesses(of: app).isEmpty {
            launched = await recordLaunch(of: app)
        }
        for waiter in waiters {
            let status = waiter.recordLaunch ? launched ?? appStatus(installed) : appStatus(installed)
            clients[waiter.connection]?.connection.send(.response(id: waiter.requestID, response: .app(status)))
        }
        schedulePeriodicChecks()
    }

    /// Sends the install's progress to everyone waiting for it.
    func pushInstallProgress(of app: String) {
        let waiters = installs.waiters(of: app)
        guard !waiters.isEmpty else { return }
        let event = ServerEvent.installProgress(bundleIdentifier: app, progress: installProgress(of: app))
        for waiter in waiters { clients[waiter.connection]?.connection.send(.event(event)) }
    }

    /// Picks up installs the service was running when it stopped: their essential downloads are still queued.
    func resumeInstalls() async {
        let apps = await registry.apps().apps
        let recorded = apps.flatMap { [$0.installDate] + $0.launchHistory + [$0.lastPeriodicCheck].compactMap { $0 } }
        clock = .resuming(at: time.now, latestRecorded: recorded.max(), timeScale: configuration.timeScale)
        installedApps = Set(apps.map(\.bundleIdentifier))
        for app in apps { await queue.restrictRedirects(of: app.bundleIdentifier, to: app.allowance.restrictions?.domainAllowList) }
        for app in apps where app.state == .installing {
            let id = app.bundleIdentifier
            var run = InstallRun(kind: .install, app: app)
            let essential = ((try? await storeReader.read({ try $0.currentDownloads(bundleIdentifier: id, includingAssetPacks: true) })) ?? [])
                .filter(\.descriptor.isEssential)
            installs[id] = run
            guard !essential.isEmpty else {
                await markLaunchable(id, note: "The service restarted during the install, with no essential download left.")
                continue
            }
            run.essential = EssentialPhase(rows: essential.map { ($0.id, Int64($0.descriptor.fileSize)) })
            run.phase = .downloadingEssentialAssets
            installs[id] = run
            await queue.hold(app: id)
        }
    }
}
