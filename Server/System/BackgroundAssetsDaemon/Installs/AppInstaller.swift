/*
Abstract:
Puts an app on the device as the App Store would, and takes it off: Info.plists, bundle, record and container.
*/

import BackgroundAssetsIPC
import Foundation

/// The I/O of installing and removing an app: reads and validates its two Info.plists, writes the
/// installed bundle its processes run from, and registers the app (or updates its record); on
/// removal, deletes its record and, when no other app shares it, its app group's container.
///
/// What an install means for the rest of the device (its content request, its essential phase, its
/// launch gate) is the service's to route; this type only changes the files.
struct AppInstaller: Sendable {
    /// Why an install or a removal cannot go ahead, in a sentence naming the key or the file.
    struct Refusal: Error, Sendable {
        let message: String
    }

    /// An app read from its Info.plists, ready to be put on the device.
    struct Candidate: Sendable {
        let request: InstallRequest
        let bundle: AppBundleDescription
        /// The built executables it is installed from.
        let executables: (app: URL, extension: URL?)

        /// The app's bundle identifier.
        var bundleIdentifier: String { bundle.app.bundleIdentifier }
    }

    let paths: DevicePaths
    let registry: AppRegistry

    /// Reads and validates an install request's Info.plists and finds its executables.
    /// - Throws: ``Refusal`` naming the file and key at fault.
    func read(_ request: InstallRequest) throws(Refusal) -> Candidate {
        do {
            var bundle = try AppBundleDescription(
                appPlistAt: URL(fileURLWithPath: request.appPlistPath),
                extensionPlistAt: request.extensionPlistPath.map { URL(fileURLWithPath: $0) })
            if let version = request.version {
                guard BundleVersion(version) != nil else {
                    throw Refusal(message: "--version \(version.debugSummary) is not a bundle version; use numbers separated by dots, such as 2 or 1.1.")
                }
                bundle.app.version = version
                if bundle.extension?.version != nil { bundle.extension?.version = version }
            }
            let executables = try bundle.executables(
                in: URL(fileURLWithPath: request.executablesDirectory), appFile: request.appPlistPath,
                extensionFile: request.extensionPlistPath ?? "")
            return Candidate(request: request, bundle: bundle, executables: executables)
        } catch let refusal as Refusal {
            throw refusal
        } catch let error as AppBundleError {
            throw Refusal(message: error.description)
        } catch {
            throw Refusal(message: "The app bundle could not be read: \(error).")
        }
    }

    /// Writes the app's bundle and registers it, or updates the record of an earlier version.
    /// - Parameters:
    ///   - candidate: The app, as ``read(_:)`` found it.
    ///   - deviceTime: The device's time, the install date of a new app.
    /// - Returns: The app as registered, and whether this is its install or an update.
    /// - Throws: ``Refusal`` when the bundle cannot be written, the version is not higher, or the record fails.
    func install(_ candidate: Candidate, at deviceTime: Date) async throws(Refusal) -> (app: InstalledApp, kind: ContentRequestKind) {
        let app = candidate.bundleIdentifier
        // The app and its extension run from an installed bundle, so Bundle.main is their Info.plist.
        guard let appDirectory = paths.appDirectory(forBundleIdentifier: app) else {
            throw Refusal(message: "The bundle identifier \(app.debugSummary) cannot name a folder; use letters, digits, dots and hyphens.")
        }
        let installedBundle = InstalledBundle(in: appDirectory, for: candidate.bundle)
        let executables = candidate.executables
        do {
            try installedBundle.write(
                appPlist: URL(fileURLWithPath: candidate.request.appPlistPath),
                extensionPlist: candidate.request.extensionPlistPath.map { URL(fileURLWithPath: $0) },
                version: candidate.request.version, executables: executables)
        } catch {
            throw Refusal(message: "The app bundle could not be written under \(appDirectory.path): \(reasonText(error)). Check that the device root is writable and has room for the app's executables.")
        }
        let kind: ContentRequestKind
        do {
            if let existing = try await registry.app(app) {
                guard existing.isUpdate(to: candidate.bundle) else {
                    throw Refusal(message: "\(app) version \(existing.version) is already installed. Install a higher version to update it (--version), or uninstall it first.")
                }
                kind = .update
                let bundle = candidate.bundle
                try await registry.update(app) { installed in
                    installed.update(
                        to: bundle, appExecutable: installedBundle.appExecutable,
                        extensionExecutable: installedBundle.extensionExecutable, at: deviceTime,
                        builtAppExecutable: executables.app, builtExtensionExecutable: executables.extension)
                }
            } else {
                kind = .install
                try await registry.save(
                    InstalledApp(
                        bundle: candidate.bundle, appExecutable: installedBundle.appExecutable,
                        extensionExecutable: installedBundle.extensionExecutable, installDate: deviceTime,
                        builtAppExecutable: executables.app, builtExtensionExecutable: executables.extension))
            }
        } catch let refusal as Refusal {
            throw refusal
        } catch {
            throw Refusal(message: "The app could not be registered: \(error).")
        }
        guard let installed = try? await registry.app(app) else {
            throw Refusal(message: "The app was registered but its record cannot be read back; check the device root's apps/ folder.")
        }
        return (installed, kind)
    }

    /// Deletes an app's record and bundle, and its app group's container when no other app shares it.
    /// - Throws: ``Refusal`` when the app's folder cannot be removed.
    func remove(_ app: InstalledApp) async throws(Refusal) {
        do {
            try await registry.uninstall(app.bundleIdentifier)
        } catch {
            throw Refusal(message: "\(app.bundleIdentifier) could not be removed: \(error).")
        }
        let others = await registry.apps().apps
        if !others.contains(where: { $0.bundle.appGroup == app.bundle.appGroup }),
            let container = paths.container(forAppGroup: app.bundle.appGroup) {
            try? FileManager.default.removeItem(at: container)
        }
    }
}
