/*
Abstract:
Finds the installed bundle an app started from its build folder moves into, so Bundle.main is its Info.plist.
*/

import BackgroundAssetsIPC
import Foundation
import ServiceClient

/// Decides whether this process is an installed app started from its build folder.
///
/// `backgroundassets-debug install` writes each app into `apps/ID/NAME.app/` under the device root,
/// with its Info.plist beside a hard link to its executable; swift-corelibs-foundation takes that
/// folder as `Bundle.main` for an executable started from there. A person starts the built product
/// instead, so before `main` the process replaces itself with the installed one (same arguments,
/// environment and process identifier). Processes the system starts (the extension) and the debug
/// tool are left alone, and so is an app that is not installed.
enum InstalledBundleLaunch {
    /// Set in the environment of the process that moved, to its original executable; it stops a loop.
    static let relaunchedFromVariable = "BA_RELAUNCHED_FROM"

    /// The installed executable this process should become, or `nil` to carry on as it is.
    /// - Parameters:
    ///   - environment: The process's environment.
    ///   - executable: The path of the running executable.
    ///   - paths: The device root whose installed apps are searched.
    static func installedExecutable(
        environment: [String: String], executable: String, paths: DevicePaths
    ) -> String? {
        let role = environment[ProcessIdentity.roleVariable]
        guard role == nil || role == Hello.Role.app.rawValue, environment[relaunchedFromVariable] == nil else {
            return nil
        }
        guard let record = ProcessIdentity.installedAppRecord(
            runningAs: URL(fileURLWithPath: executable), in: paths)
        else { return nil }
        let installed = record.bundleExecutable.path
        guard installed != executable, FileManager.default.isExecutableFile(atPath: installed) else { return nil }
        return installed
    }
}

/// Called before `main` by the launch hook in `CInstalledBundleLaunch`: the executable to become, as a
/// C string the caller owns, or `nil`.
@_cdecl("BackgroundAssets_installedBundleExecutable")
public func _installedBundleExecutable() -> UnsafeMutablePointer<CChar>? {
    let environment = ProcessInfo.processInfo.environment
    guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"),
        let installed = InstalledBundleLaunch.installedExecutable(
            environment: environment, executable: executable, paths: .current(environment: environment))
    else { return nil }
    // A rebuild leaves the bundle's link on the old file; run what was just built.
    do {
        try InstalledExecutable.refresh(URL(fileURLWithPath: installed), from: URL(fileURLWithPath: executable))
    } catch {
        StandardError.write("The installed app at \(installed) could not be updated to this build (\(error)); "
            + "running the installed one. Install the app again to replace it.")
    }
    setenv(InstalledBundleLaunch.relaunchedFromVariable, executable, 1)
    return strdup(installed)
}
