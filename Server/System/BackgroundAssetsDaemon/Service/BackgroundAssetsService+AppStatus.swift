/*
Abstract:
An installed app as the debug tool and the launch gate see it.
*/

import BackgroundAssetsIPC
import Foundation

extension BackgroundAssetsService {
    /// An installed app as the debug tool and the launch gate see it.
    func appStatus(_ app: InstalledApp) -> AppStatus {
        let id = app.bundleIdentifier
        let device = deviceNow
        var next: Date?
        var suspended: String?
        switch periodic.schedule.nextCheck(for: app, settings: settings, now: device) {
        case let .due(date): next = deviceClock.realTime(at: date)
        case let .never(reason): suspended = (installs.isInstalling(id) ? .installing : reason).explanation
        }
        // Periodic checks ask the downloader extension; an app installed without one gets none.
        if app.bundle.extension == nil { (next, suspended) = (nil, "the app has no downloader extension") }
        let progress = installProgress(of: id)
        return AppStatus(
            bundleIdentifier: id, version: app.version, appGroup: app.bundle.appGroup,
            state: installs.isInstalling(id) ? .installing : .launchable, progress: progress, hasLaunched: app.hasLaunched,
            nextPeriodicCheck: next, periodicCheckSuspendedBecause: suspended,
            runtimeBudgetLeft: max(0, extensionCalls.policy.budgetLeft(for: app, at: device) - extensionHost.unsavedRuntime.seconds(of: id)),
            extensionProcessIdentifier: extensionCalls.pid(of: id),
            lastExtensionTermination: extensionCalls.runs.lastTermination(of: id), installSummary: installs.summary(of: id),
            lastTaskEnding: tasks.host.lastEnding(of: id), assetPacks: assetPacks.statuses(of: id),
            hasDownloaderExtension: app.bundle.extension != nil, installContentFailure: installs.contentFailure(of: id))
    }
}

extension BackgroundAssetsService {
    /// An app's install progress: its install's now, else how its last one ended, else complete.
    func installProgress(of app: String) -> InstallProgress {
        installs.progress(of: app)
    }
}

extension PeriodicSchedule.Reason {
    /// Why no periodic check is scheduled, as a sentence fragment for `status`.
    var explanation: String {
        switch self {
        case .lowPowerMode: "low-power mode is on"
        case .backgroundAppRefreshOff: "background app refresh is off"
        case .installing: "the app is installing"
        case .unused: "the app has not been launched for over four weeks"
        }
    }
}
