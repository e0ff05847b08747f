/*
Abstract:
Periodic content requests: sent to each app's extension when its usage-based schedule says one is due.
*/

import BackgroundAssetsIPC
import Foundation

extension BackgroundAssetsService {
    /// Recomputes when the next periodic check is due, and runs the ones due now, when the device
    /// state says the schedule may have moved (an install beginning or ending, a launch, an uninstall,
    /// a settings or clock change, the service starting). Nothing else reschedules it: a check the
    /// timer fired moves the schedule on by itself.
    func periodicInputsChanged(from old: DeviceState) {
        guard deviceState.isStarted, deviceState.periodicRevision != old.periodicRevision else { return }
        periodic.reschedule(periodicInputs)
    }

    /// What the periodic schedule depends on besides each app's record.
    var periodicInputs: PeriodicChecks.Inputs {
        PeriodicChecks.Inputs(settings: deviceState.settings, deviceClock: deviceState.clock, installing: deviceState.installing)
    }

    /// An app's periodic check is due: record it and send the content request.
    func periodicCheckDue(_ app: String, deviceTime: Date) async {
        // An install that began since the schedule was computed comes first.
        guard !installs.isInstalling(app) else { return }
        _ = try? await registry.update(app) { $0.lastPeriodicCheck = deviceTime }
        trace.append(.init(from: "backgroundassetsd", to: "backgroundassetsd", event: "periodicCheck", app: app))
        activities.run("periodic content request of \(app)") { [weak self] in await self?.requestContent(.periodic, for: app) }
    }

    /// The real time of the earliest periodic check due for any app, or `nil` when none will be.
    func nextPeriodicCheck() async -> Date? {
        await PeriodicChecks.nextCheck(registry: registry, schedule: periodic.schedule, inputs: periodicInputs, now: wallClock.now)
    }

    /// Sends a content request now, as `backgroundassets-debug simulate` asks, with a fresh runtime budget.
    func simulate(_ kind: ContentRequestKind, bundleIdentifier: String?) async -> ServerResponse {
        let app: InstalledApp
        switch await resolveApp(bundleIdentifier) {
        case let .success(found): app = found
        case let .failure(refusal): return refusal.response
        }
        let id = app.bundleIdentifier
        if kind != .periodic, installs.isInstalling(id) {
            return failure(.downloadFailedToStart, "\(id) is still installing; wait until it is launchable before simulating another \(kind).")
        }
        let device = deviceNow
        // Charges not yet written belong to the runtime being forgotten.
        _ = extensionHost.unsavedRuntime.take(for: id)
        let updated = try? await registry.update(id) { installed -> InstalledApp in
            installed.resetExtensionRuntime()
            if kind == .periodic { installed.lastPeriodicCheck = device } else { installed.state = .installing }
            return installed
        }
        extensionCalls.budgetReset(app: id)
        if kind != .periodic { await perform(installs.begin(InstallRun(kind: kind, app: updated ?? app))) }
        trace.append(.init(from: "tool", to: "backgroundassetsd", event: "simulate", app: id, detail: "\(kind)"))
        activities.run("simulated \(kind) of \(id)") { [weak self] in await self?.requestContent(kind, for: id) }
        return .app(appStatus(updated ?? app))
    }

    /// Changes the device settings and saves them; the schedules that read them follow.
    func updateSettings(_ change: SettingsChange) -> ServerResponse {
        var changed = settings
        if let value = change.lowPowerMode { changed.lowPowerMode = value }
        if let value = change.inAppContent { changed.inAppContent = value }
        if let value = change.externalPower { changed.externalPower = value }
        if let value = change.networkReachable { changed.networkReachable = value }
        if let server = change.appleHostingServer {
            if let problem = server.isEmpty ? nil : DownloadDescriptor.urlProblem(server) {
                return failure(.downloadInvalid, "The Apple hosting server \(server.debugSummary) cannot be used: \(problem)")
            }
            changed.appleHostingServer = server.isEmpty ? nil : server
        }
        if let value = change.notifications {
            if let app = change.app {
                guard DevicePaths.isSafePathComponent(app) else {
                    return failure(.downloadInvalid, "\(app.debugSummary) is not a bundle identifier.")
                }
                changed.notificationsByApp = (changed.notificationsByApp ?? [:]).merging([app: value]) { $1 }
            } else {
                changed.notifications = value
            }
        }
        if let value = change.backgroundAppRefresh {
            if let app = change.app {
                guard DevicePaths.isSafePathComponent(app) else {
                    return failure(.downloadInvalid, "\(app.debugSummary) is not a bundle identifier.")
                }
                changed.backgroundAppRefreshByApp[app] = value
            } else {
                changed.backgroundAppRefresh = value
            }
        }
        guard changed != settings else { return .settings(settings) }
        do {
            try changed.save(to: paths.deviceSettingsFile)
        } catch {
            return failure(.downloadFailedToStart, "\(error)")
        }
        assetPacks.appleHostingServer = changed.appleHostingServer.flatMap(URL.init(string:))
        trace.append(.init(from: "tool", to: "backgroundassetsd", event: "settings", detail: changed.summary))
        // After the trace line, as before: the checks and tasks the new settings let run follow it.
        deviceState.setSettings(changed)
        activities.run("settings for background sessions and notifications") { [weak self] in await self?.deviceSettingsChanged() }
        return .settings(settings)
    }
}

extension DeviceSettings {
    /// The settings on one line, for the trace.
    var summary: String {
        func onOff(_ flag: Bool) -> String { flag ? "on" : "off" }
        var text = "low power \(onOff(lowPowerMode)), background refresh \(onOff(backgroundAppRefresh)), in-app content \(onOff(inAppContent))"
        for (app, flag) in backgroundAppRefreshByApp.sorted(by: { $0.key < $1.key }) { text += ", \(app) refresh \(onOff(flag))" }
        if !externalPower { text += ", on battery" }
        if !networkReachable { text += ", network unreachable" }
        if let notifications { text += ", notifications \(notifications ? "allowed" : "denied")" }
        for (app, flag) in (notificationsByApp ?? [:]).sorted(by: { $0.key < $1.key }) {
            text += ", \(app) notifications \(flag ? "allowed" : "denied")"
        }
        if let appleHostingServer { text += ", Apple hosting at \(appleHostingServer)" }
        return text
    }
}
