/*
Abstract:
Installing, updating and removing apps, as the App Store would, and the launch gate that waits for an install.
*/

import BackgroundAssetsIPC
import Foundation

extension BackgroundAssetsService {
    /// The error domain of a refused install: the message names the Info.plist key at fault.
    static let installErrorDomain = InstallRequest.refusalDomain

    /// Validates an app bundle, registers it, and starts its install or update content request.
    func install(_ request: InstallRequest) async -> ServerResponse {
        // Installing is when folders appear that clients may have created with a looser mode.
        defer { DeviceRootPrivacy.restrict(paths) }
        let candidate: AppInstaller.Candidate
        do {
            candidate = try installer.read(request)
        } catch {
            return installRefusal(error.message)
        }
        let app = candidate.bundleIdentifier
        if let refusal = managedAssetPackRefusal(appPlistPath: request.appPlistPath) { return installRefusal(refusal) }
        switch installs.admit(app: app, version: candidate.bundle.app.version) {
        case .start:
            break
        case .join:
            // The same install asked for again (a re-run after Ctrl-C or after the service restarted)
            // joins the one in progress, so `install --wait` can follow it to its end.
            let version = candidate.bundle.app.version
            guard let installed = try? await registry.app(app) else { return installBusy(app, running: version, asked: version) }
            trace.append(.init(from: "tool", to: "backgroundassetsd", event: "install", app: app,
                               detail: "version \(version), already installing"))
            return .app(appStatus(installed))
        case let .busy(running):
            return installBusy(app, running: running, asked: candidate.bundle.app.version)
        }
        let installed: InstalledApp
        let kind: ContentRequestKind
        do {
            (installed, kind) = try await installer.install(candidate, at: deviceNow)
        } catch {
            return installRefusal(error.message)
        }
        installedApps.insert(app)
        closeConnectionsNotRunning(installed)
        await queue.restrictRedirects(of: app, to: installed.allowance.restrictions?.domainAllowList)
        await perform(installs.begin(InstallRun(kind: kind, app: installed)))
        trace.append(.init(from: "tool", to: "backgroundassetsd", event: kind == .update ? "update" : "install", app: app,
                           detail: "version \(installed.version)"))
        if installed.bundle.extension == nil || installed.bundle.app.manifestURL == nil {
            // Nothing to ask before the first launch: launchable in the reply itself, so no waiter
            // sees the install pass through a phase of asking an extension it does not have.
            await requestContent(kind, for: app)
        } else {
            activities.run("\(kind) content request of \(app)") { [weak self] in await self?.requestContent(kind, for: app) }
        }
        return .app(appStatus(installed))
    }

    private func installBusy(_ app: String, running: String, asked: String) -> ServerResponse {
        installRefusal("\(app) version \(running) is still installing; follow it with backgroundassets-debug install --wait --version \(running), then install version \(asked).", code: InstallRequest.busyCode)
    }

    private func installRefusal(_ message: String, code: Int = 1) -> ServerResponse {
        .failure(WireFailure(domain: Self.installErrorDomain, code: code, message: message))
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
        await perform(extensionCalls.appRemoved(id))
        await perform(installs.uninstalled(app: id))
        for row in (try? await storeReader.read({ try $0.currentDownloads(bundleIdentifier: id) })) ?? [] { try? await queue.cancel(id: row.id) }
        // An uninstalled app leaves no history: its ended downloads go too.
        _ = try? await queue.withStore { try $0.deleteDownloads(ofApp: id) }
        _ = try? await taskStore.remove(app: id, identifier: nil)
        await assetPacks.appRemoved(id, appGroup: app.bundle.appGroup)
        do {
            try await installer.remove(app)
        } catch {
            return failure(.downloadFailedToStart, error.message)
        }
        installedApps.remove(id)
        await urlSessions.appRemoved(id)
        await notifications.appRemoved(id)
        await queue.restrictRedirects(of: id, to: nil)
        trace.append(.init(from: "tool", to: "backgroundassetsd", event: "uninstall", app: id))
        return .app(status)
    }

    /// The installed app a request names, or the only one installed when it names none.
    func resolveApp(_ bundleIdentifier: String?) async -> Result<InstalledApp, ResponseFailure> {
        if let bundleIdentifier {
            guard DevicePaths.isSafePathComponent(bundleIdentifier), let app = try? await registry.app(bundleIdentifier) else {
                return .failure(ResponseFailure(failure(.callerConnectionNotAccepted, "No app \(bundleIdentifier.debugSummary) is installed; see backgroundassets-debug status for the installed apps.")))
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
}

/// A failure answer carried through a `Result`.
struct ResponseFailure: Error {
    let response: ServerResponse
    init(_ response: ServerResponse) { self.response = response }
}
