/*
Abstract:
What the app calls at start: wait while the system still installs it, and record the launch.
*/

import BackgroundAssetsIPC
import Foundation

/// Waits, at an app's start, until the system has finished installing it.
///
/// On Apple platforms an app cannot be opened while its essential downloads are still running:
/// the home screen shows the install's progress instead. Here the app is an ordinary executable,
/// so it calls ``waitUntilLaunchable(onProgress:)`` first thing; the call also tells the system
/// the app launched, which lifts the pre-launch download allowances and feeds the periodic
/// content requests' schedule.
/// - Note: This type has no counterpart in Apple's framework.
public enum BALaunchGate {
    /// Waits while the app is installing, reporting the install's progress, then records the launch.
    /// - Parameter onProgress: Called with the install's progress while the app waits; not called
    ///   when the app is already launchable.
    /// - Throws: ``BAError`` when the service cannot be reached or the app is not installed.
    public static func waitUntilLaunchable(
        onProgress: @escaping @Sendable (BAInstallProgress) -> Void = { _ in }
    ) async throws {
        // Completed by the extension host work.
        throw BAError(.callerConnectionInvalid, message: "not yet implemented")
    }
}

/// How far the system has come installing the app: its own download, then its essential assets.
public struct BAInstallProgress: Sendable, Equatable {
    /// The bytes done.
    public var completedBytes: Int64
    /// The bytes in all; sized by the essential allowance until the essential downloads are known.
    public var totalBytes: Int64
    /// The fraction done, from 0 to 1.
    public var fractionCompleted: Double
    /// The essential downloads that ended (finished or failed), and how many there are.
    public var essentialDownloadsEnded: Int
    /// The essential downloads in all.
    public var essentialDownloadsTotal: Int

    /// Creates a progress value.
    public init(
        completedBytes: Int64, totalBytes: Int64, fractionCompleted: Double, essentialDownloadsEnded: Int,
        essentialDownloadsTotal: Int
    ) {
        self.completedBytes = completedBytes
        self.totalBytes = totalBytes
        self.fractionCompleted = fractionCompleted
        self.essentialDownloadsEnded = essentialDownloadsEnded
        self.essentialDownloadsTotal = essentialDownloadsTotal
    }
}
