/*
Abstract:
Installing, updating and removing apps, as the App Store would, and the launch gate that waits for an install.
*/

import BackgroundAssetsIPC
import Foundation

extension BackgroundAssetsService {
    /// The error domain of a refused install: the message names the Info.plist key at fault.
    static let installErrorDomain = "BackgroundAssetsInstallErrorDomain"

    /// Validates an app bundle, registers it, and starts its install or update content request.
    func install(_ request: InstallRequest) async -> ServerResponse {
        let bundle: AppBundleDescription
        let executables: (app: URL, extension: URL)
        do {
            var described = try AppBundleDescription(
                appPlistAt: URL(fileURLWithPath: request.appPlistPath),
                extensionPlistAt: URL(fileURLWithPath: request.extensionPlistPath))
            if let version = request.version {
                guard BundleVersion(version) != nil else {
                    return installRefusal("--version \(version.debugDescription) is not a bundle version; use numbers separated by dots, such as 2 or 1.1.")
                }
                described.app.version = version
                if described.extension.version != nil { described.extension.version = version }
            }
            bundle = described
            executables = try bundle.executables(
                in: URL(fileURLWithPath: request.executablesDirectory), appFile: request.appPlistPath,
                extensionFile: request.extensionPlistPath)
        } catch let error as AppBundleError {
            return installRefusal(error.description)
        } catch {
            return installRefusal("The app bundle could not be read: \(error).")
        }
        let app = bundle.app.bundleIdentifier
        if installs[app] != nil {
            return installRefusal("\(app) is still installing; wait for it (backgroundassets-debug install --wait) before installing it again.")
        }
        let now = clock.deviceTime(at: .now)
        let kind: ContentRequestKind
        do {
            if let existing = try await registry.app(app) {
                guard existing.isUpdate(to: bundle) else {
                    return installRefusal("\(app) version \(existing.version) is already installed. Install a higher version to update it (--version), or uninstall it first.")
                }
                kind = .update
                try await registry.update(app) { installed in
                    installed.update(to: bundle, appExecutable: executables.app, extensionExecutable: executables.extension, at: now)
                }
            } else {
                kind = .install
                try await registry.save(
                    InstalledApp(bundle: bundle, appExecutable: executables.app, extensionExecutable: executables.extension, installDate: now))
            }
        } catch {
            return installRefusal("The app could not be registered: \(error).")
        }
        guard let installed = try? await registry.app(app) else {
            return installRefusal("The app was registered but its record cannot be read back; check the device root's apps/ folder.")
        }
        installedApps.insert(app)
        installs[app] = InstallRun(kind: kind, app: installed)
        installOutcomes[app] = nil
        trace.append(.init(from: "tool", to: "backgroundassetsd", event: kind == .update ? "update" : "install", app: app,
                           detail: "version \(installed.version)"))
        Task { await self.requestContent(kind, for: app) }
        return .app(appStatus(installed))
    }

    private func installRefusal(_ message: String) -> ServerResponse {
        .failure(WireFailure(domain: Self.installErrorDomain, code: 1, message: message))
    }

    /// Removes an app: its extension, downloads, record and, when no other app shares it, its container.
    func uninstall(_ bundleIdentifier: String?) async -> ServerResponse {
        let app: InstalledApp
        switch await resolveApp(bundleIdentifier) {
        case let .success(found): app = found
        case let .failure(refusal): return refusal.response
        }
        let id = app.bundleIdentifier
        let status = appStatus(app)
        if let session = extensions[id] { killExtension(of: id, pid: session.process.processIdentifier, reason: "the app was uninstalled") }
        installs[id] = nil
        await queue.release(app: id)
        for waiter in launchWaiters.removeValue(forKey: id) ?? [] {
            sessions[waiter.connection]?.connection.send(.response(id: waiter.requestID, response: failure(.callerConnectionNotAccepted, "\(id) was uninstalled while it was installing.")))
        }
        for row in (try? store.currentDownloads(bundleIdentifier: id)) ?? [] { try? await queue.cancel(id: row.id) }
        do {
            try await registry.uninstall(id)
        } catch {
            return failure(.downloadFailedToStart, "\(id) could not be removed: \(error).")
        }
        installedApps.remove(id)
        runtimeUsedToday[id] = nil
        let others = await registry.apps().apps
        if !others.contains(where: { $0.bundle.appGroup == app.bundle.appGroup }),
            let container = paths.container(forAppGroup: app.bundle.appGroup) {
            try? FileManager.default.removeItem(at: container)
        }
        trace.append(.init(from: "tool", to: "backgroundassetsd", event: "uninstall", app: id))
        schedulePeriodicChecks()
        return .app(status)
    }

    /// The installed app a request names, or the only one installed when it names none.
    func resolveApp(_ bundleIdentifier: String?) async -> Result<InstalledApp, ResponseFailure> {
        if let bundleIdentifier {
            guard DevicePaths.isSafePathComponent(bundleIdentifier), let app = try? await registry.app(bundleIdentifier) else {
                return .failure(ResponseFailure(failure(.callerConnectionNotAccepted, "No app \(bundleIdentifier.debugDescription) is installed; see backgroundassets-debug status for the installed apps.")))
            }
            return .success(app)
        }
        let apps = await registry.apps().apps
        guard apps.count == 1, let only = apps.first else {
            let names = apps.map(\.bundleIdentifier).joined(separator: ", ")
            return .failure(ResponseFailure(failure(.callerConnectionNotAccepted, apps.isEmpty
                ? "No app is installed; install one with backgroundassets-debug install."
                : "Several apps are installed (\(names)); name one with --app-bundle-id.")))
        }
        return .success(only)
    }

    // MARK: - Launch gate

    /// Answers at once when the app is launchable, else when it becomes launchable; records a launch if asked.
    func awaitLaunchable(_ bundleIdentifier: String?, recordLaunch: Bool, requestID: UInt64, connection: UInt64) async -> ServerResponse? {
        guard let caller = sessions[connection]?.hello else { return nil }
        let id = bundleIdentifier ?? caller.bundleIdentifier
        guard installedApps.contains(id), let app = try? await registry.app(id) else {
            return failure(.callerConnectionNotAccepted, "\(id) is not installed on this device; install it with backgroundassets-debug install, then launch it.")
        }
        guard installs[id] != nil else {
            return .app(recordLaunch ? await self.recordLaunch(of: id) ?? appStatus(app) : appStatus(app))
        }
        launchWaiters[id, default: []].append(LaunchWaiter(connection: connection, requestID: requestID, recordLaunch: recordLaunch))
        sessions[connection]?.connection.send(.event(.installProgress(appStatus(app))))
        return nil
    }

    /// Records a launch: lifts the pre-launch restrictions and feeds the periodic schedule.
    @discardableResult
    func recordLaunch(of app: String) async -> AppStatus? {
        let now = clock.deviceTime(at: .now)
        guard let launched = try? await registry.update(app, { installed -> InstalledApp in
            installed.recordLaunch(at: now)
            return installed
        }) else { return nil }
        trace.append(.init(from: "app", to: "backgroundassetsd", event: "appLaunched", app: app))
        schedulePeriodicChecks()
        return appStatus(launched)
    }

    /// Ends an install: the app becomes launchable, its other downloads start, and waiters are answered.
    /// - Parameters:
    ///   - app: The app.
    ///   - note: A sentence for the summary, when the install did not end the ordinary way.
    func markLaunchable(_ app: String, note: String? = nil) async {
        guard let run = installs.removeValue(forKey: app) else { return }
        await queue.release(app: app)
        guard let installed = try? await registry.update(app, { installed -> InstalledApp in
            installed.state = .launchable
            return installed
        }) else { return }
        var progress = run.progress
        progress.phase = .complete
        progress.completedBytes = progress.totalBytes
        installOutcomes[app] = (run.summary(appName: installed.bundleIdentifier, version: installed.version, note: note), progress)
        // To the service itself: the app may not be running; the launch gate's answer, if one waits, follows.
        trace.append(.init(from: "backgroundassetsd", to: "backgroundassetsd", event: "appLaunchable", app: app, detail: note))
        for waiter in launchWaiters.removeValue(forKey: app) ?? [] {
            let status = waiter.recordLaunch ? await recordLaunch(of: app) ?? appStatus(installed) : appStatus(installed)
            sessions[waiter.connection]?.connection.send(.response(id: waiter.requestID, response: .app(status)))
        }
        schedulePeriodicChecks()
    }

    /// Sends the install's progress to everyone waiting for it.
    func pushInstallProgress(of app: String) async {
        guard let waiters = launchWaiters[app], !waiters.isEmpty, let installed = try? await registry.app(app) else { return }
        let status = appStatus(installed)
        for waiter in waiters { sessions[waiter.connection]?.connection.send(.event(.installProgress(status))) }
    }

    /// Picks up installs the service was running when it stopped: their essential downloads are still queued.
    func resumeInstalls() async {
        let apps = await registry.apps().apps
        installedApps = Set(apps.map(\.bundleIdentifier))
        for app in apps where app.state == .installing {
            let id = app.bundleIdentifier
            var run = InstallRun(kind: .install, app: app)
            let essential = ((try? store.currentDownloads(bundleIdentifier: id)) ?? []).filter(\.descriptor.isEssential)
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

    // MARK: - Status

    /// An installed app as the debug tool and the launch gate see it.
    func appStatus(_ app: InstalledApp) -> AppStatus {
        let id = app.bundleIdentifier
        let device = clock.deviceTime(at: .now)
        var next: Date?
        var suspended: String?
        switch periodicSchedule.nextCheck(for: app, settings: settings, now: device) {
        case let .due(date): next = clock.realTime(at: date)
        case let .never(reason): suspended = (installs[id] != nil ? .installing : reason).explanation
        }
        let run = installs[id]
        let progress = run?.progress ?? installOutcomes[id]?.progress ?? InstallProgress(phase: .complete, completedBytes: 0, totalBytes: 0)
        return AppStatus(
            bundleIdentifier: id, version: app.version, appGroup: app.bundle.appGroup,
            state: run == nil ? .launchable : .installing, progress: progress, hasLaunched: app.hasLaunched,
            nextPeriodicCheck: next, periodicCheckSuspendedBecause: suspended,
            runtimeBudgetLeft: runtimePolicy.budgetLeft(for: app, at: device),
            extensionProcessIdentifier: extensions[id]?.process.processIdentifier,
            lastExtensionTermination: lastTerminations[id], installSummary: installOutcomes[id]?.summary)
    }
}

/// A failure answer carried through a `Result`.
struct ResponseFailure: Error {
    let response: ServerResponse
    init(_ response: ServerResponse) { self.response = response }
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
