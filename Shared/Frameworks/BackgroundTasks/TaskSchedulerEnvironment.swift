/*
Abstract:
What the scheduler of this process works with: the service, the app's Info.plist rules, and its role.
*/

import BackgroundAssets
import BackgroundAssetsIPC
import Dispatch
import Foundation
import ServiceClient

/// The scheduler's view of its process, made once for ``BGTaskScheduler/shared`` and by hand in tests.
struct TaskSchedulerEnvironment: Sendable {
    /// Where requests go and task launches come from.
    var transport: any TaskSchedulerTransport
    /// Whether this process is an app extension, to which Background Tasks are unavailable.
    var isExtension: Bool
    /// The Info.plist rules when this process can read its own Info.plist; the service checks them
    /// against the installed Info.plist in any case.
    var permission: TaskPermission?
    /// Says why a call was refused, where Apple's framework would raise an exception.
    var report: @Sendable (String) -> Void
    /// The app's bundle identifier, which a continued-processing identifier starts with, if known.
    var bundleIdentifier: String? = nil
    /// Whether the system launched this process in the background, where continued-processing
    /// requests may not be submitted.
    var isBackgroundLaunch = false
    /// Runs work once the app has finished launching; the scheduler hands it every task launch and
    /// expiration, so no launch handler runs while the app is still setting itself up.
    var afterLaunch: @Sendable (@escaping @Sendable () -> Void) -> Void = Self.onMainThreadWhenFree

    /// Runs work when the main thread is next free: once the app's start-up code has returned to
    /// the main run loop (`dispatchMain()`, `RunLoop.main`, or an `await` in an async `main`).
    ///
    /// iOS runs launch handlers only after `application(_:didFinishLaunchingWithOptions:)` returns,
    /// that is when the main run loop turns; a Linux process's main thread reaching its run loop is
    /// the same moment. A task that arrives while an initialiser on the main thread registers its
    /// handlers waits until that initialiser, and the rest of the start-up, are done.
    static let onMainThreadWhenFree: @Sendable (@escaping @Sendable () -> Void) -> Void = { work in
        DispatchQueue.main.async(execute: work)
    }

    /// The environment of this process: the service of its device root, and its Info.plist.
    static func current() -> TaskSchedulerEnvironment {
        let identity = ProcessIdentity.current()
        let paths = DevicePaths.current()
        let info = Bundle.main.infoDictionary ?? [:]
        return TaskSchedulerEnvironment(
            transport: ServiceTaskTransport(
                paths: paths, identity: identity, launcher: ServiceLauncher.besideExecutable(paths: paths)),
            isExtension: identity.role == .extension,
            permission: info[TaskPermission.permittedIdentifiersKey] == nil ? nil : TaskPermission(infoDictionary: info),
            report: { line in
                FileHandle.standardError.write(Data("\(ProcessInfo.processInfo.processName): \(line)\n".utf8))
            },
            bundleIdentifier: identity.bundleIdentifier,
            isBackgroundLaunch: BGTaskScheduler.isBackgroundLaunch)
    }
}
