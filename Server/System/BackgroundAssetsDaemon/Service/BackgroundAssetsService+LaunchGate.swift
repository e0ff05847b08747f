/*
Abstract:
The launch gate that waits for an install, the launch it records, and installs picked up after a restart.
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
        let waiter = InstallLifecycle.LaunchWaiter(connection: connection, requestID: requestID, recordLaunch: recordLaunch)
        switch installs.launchGateAsks(app: id, waiter) {
        case .now:
            return .app(recordLaunch ? await self.recordLaunch(of: id) ?? appStatus(app) : appStatus(app))
        case let .waits(actions):
            await perform(actions)
            return nil
        }
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
        return appStatus(launched)
    }

    /// Picks up installs the service was running when it stopped: their essential downloads are still queued.
    func resumeInstalls() async {
        let apps = await registry.apps().apps
        let recorded = apps.flatMap { [$0.installDate] + $0.launchHistory + [$0.lastPeriodicCheck].compactMap { $0 } }
        deviceState.setClock(.resuming(at: wallClock.now, latestRecorded: recorded.max(), timeScale: configuration.timeScale))
        installedApps = Set(apps.map(\.bundleIdentifier))
        for app in apps { await queue.restrictRedirects(of: app.bundleIdentifier, to: app.allowance.restrictions?.domainAllowList) }
        for app in apps where app.state == .installing {
            let id = app.bundleIdentifier
            let essential = ((try? await storeReader.read({ try $0.currentDownloads(bundleIdentifier: id, includingAssetPacks: true) })) ?? [])
                .filter(\.descriptor.isEssential)
            await perform(installs.resumed(InstallRun(kind: .install, app: app),
                                           essentialRows: essential.map { ($0.id, Int64($0.descriptor.fileSize)) }))
        }
    }
}
