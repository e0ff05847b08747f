/*
Abstract:
What the app calls at start: wait while the system still installs it.
*/

import BackgroundAssetsIPC
import Foundation

/// Waits, at an app's start, until the system has finished installing it.
///
/// On Apple platforms an app cannot be opened while its essential downloads are still running:
/// the home screen shows the install's progress instead. Here the app is an ordinary executable,
/// so it calls ``waitUntilLaunchable(onProgress:)`` first thing. The launch itself needs no call:
/// the service counts the first connection of a process running the installed app's executable
/// as the app's launch (or, for one started during the install, the install's end), as opening an
/// app is on Apple platforms, so Apple's code, which never calls this gate, launches the same way.
/// - Note: This type has no counterpart in Apple's framework.
public enum BALaunchGate {
    /// Waits while the app is installing, reporting the install's progress.
    /// - Parameter onProgress: Called with the install's progress while the app waits, in the
    ///   caller's task and never after this method returns; not called when the app is already launchable.
    /// - Throws: ``BAError`` when the service cannot be reached or the app is not installed
    ///   (``BAError/Code/callerConnectionNotAccepted``), or `CancellationError` when the task is cancelled.
    public static func waitUntilLaunchable(
        onProgress: @escaping @Sendable (BAInstallProgress) -> Void = { _ in }
    ) async throws {
        try await waitUntilLaunchable(manager: .shared, onProgress: onProgress)
    }

    /// One message for the waiting app: progress, or the service's answer.
    private enum Update: Sendable {
        case progress(InstallProgress)
        case answered(Result<ServerResponse, any Error>)
    }

    /// Waits on a given manager's connection; the public method uses the shared one.
    /// - Parameters:
    ///   - manager: The manager whose connection asks the service.
    ///   - onProgress: Called with the install's progress while the app waits.
    /// - Throws: The error the service's `failure` answer carries, or ``BAError`` when it is unreachable.
    static func waitUntilLaunchable(
        manager: BADownloadManager, onProgress: @escaping @Sendable (BAInstallProgress) -> Void
    ) async throws {
        // Progress events and the answer both arrive on the connection's reader thread, in the order
        // the service sent them; one stream keeps that order, so no progress is reported after the
        // answer, and onProgress runs in the caller's task rather than on the reader thread.
        let (updates, continuation) = AsyncStream.makeStream(of: Update.self)
        let observer = manager.installProgressObservers.add { continuation.yield(.progress($0)) }
        defer { manager.installProgressObservers.remove(observer) }
        manager.connection.request(.core(.awaitLaunchable(bundleIdentifier: nil, recordLaunch: true))) {
            continuation.yield(.answered($0))
            continuation.finish()
        }
        for await update in updates {
            switch update {
            case let .progress(progress):
                onProgress(BAInstallProgress(progress))
            case let .answered(result):
                let response = try BADownloadManager.unwrap(result)
                guard case .app = response else {
                    throw BADownloadManager.unexpected(response, for: "waitUntilLaunchable")
                }
                return
            }
        }
        // The stream ends without an answer only when the task is cancelled.
        throw CancellationError()
    }
}
