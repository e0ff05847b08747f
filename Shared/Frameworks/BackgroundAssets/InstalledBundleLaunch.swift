/*
Abstract:
Finds the installed bundle an app started from its build folder moves into, so Bundle.main is its Info.plist.
*/

import BackgroundAssetsIPC
import Dispatch
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

    /// Whether this process is an installed app running from its bundle: what opening the app starts.
    /// - Parameters:
    ///   - environment: The process's environment.
    ///   - executable: The path of the running executable.
    ///   - paths: The device root whose installed apps are searched.
    static func isOpenedApp(environment: [String: String], executable: String, paths: DevicePaths) -> Bool {
        let role = environment[ProcessIdentity.roleVariable]
        guard role == nil || role == Hello.Role.app.rawValue,
            let record = ProcessIdentity.installedAppRecord(runningAs: URL(fileURLWithPath: executable), in: paths)
        else { return false }
        return record.bundleExecutable.resolvingSymlinksInPath().path == URL(fileURLWithPath: executable).resolvingSymlinksInPath().path
    }

    /// Introduces the app to the service as it starts, as opening an app on Apple platforms is known
    /// to the system whether or not the app ever calls the framework: the service counts the first
    /// connection of the app's process as its launch. On a thread of its own, so the app's start
    /// never waits for the service; an app that exits at once waits at exit, for a second at most,
    /// until the service has answered, since it can tell what a process runs only while it runs.
    static func announceLaunch() {
        atexit { _ = InstalledBundleLaunch.announced.wait(timeout: .now() + 1) }
        Thread.detachNewThread {
            // The hello that opens the connection is answered once the launch is counted.
            BADownloadManager.shared.connection.connect { _ in announced.signal() }
        }
    }

    /// Signalled once the service answered the launch's introduction (or could not be reached).
    private static let announced = DispatchSemaphore(value: 0)
}

/// Called before `main` by the launch hook in `CInstalledBundleLaunch`: the executable to become, as a
/// C string the caller owns, or `nil`; an installed app already in its bundle announces its launch.
@_cdecl("BackgroundAssets_installedBundleExecutable")
public func _installedBundleExecutable() -> UnsafeMutablePointer<CChar>? {
    let environment = ProcessInfo.processInfo.environment
    guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
    let paths = DevicePaths.current(environment: environment)
    guard let installed = InstalledBundleLaunch.installedExecutable(
        environment: environment, executable: executable, paths: paths)
    else {
        if InstalledBundleLaunch.isOpenedApp(environment: environment, executable: executable, paths: paths) {
            InstalledBundleLaunch.announceLaunch()
        }
        return nil
    }
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
