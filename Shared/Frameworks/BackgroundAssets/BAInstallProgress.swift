/*
Abstract:
How far the system has come installing the app, as the launch gate reports it.
*/

import BackgroundAssetsIPC

/// How far the system has come installing the app: its own download, then its essential assets.
/// - Note: This type has no counterpart in Apple's framework, where the home screen shows the progress.
public struct BAInstallProgress: Sendable, Equatable {
    /// The bytes done.
    public var completedBytes: Int64
    /// The bytes in all; sized by the essential allowance until the essential downloads are known.
    public var totalBytes: Int64
    /// The fraction done, from 0 to 1.
    public var fractionCompleted: Double
    /// The essential downloads that ended, finished or failed.
    public var essentialDownloadsEnded: Int
    /// The essential downloads in all.
    public var essentialDownloadsTotal: Int

    /// Creates a progress value.
    /// - Parameters:
    ///   - completedBytes: The bytes done.
    ///   - totalBytes: The bytes in all.
    ///   - fractionCompleted: The fraction done, from 0 to 1.
    ///   - essentialDownloadsEnded: The essential downloads that finished or failed.
    ///   - essentialDownloadsTotal: The essential downloads in all.
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

    /// The progress the service reported.
    /// - Parameter progress: The install's progress in wire form.
    init(_ progress: InstallProgress) {
        self.init(
            completedBytes: progress.completedBytes, totalBytes: progress.totalBytes,
            fractionCompleted: progress.fractionCompleted,
            essentialDownloadsEnded: progress.essentialFinished + progress.essentialFailed,
            essentialDownloadsTotal: progress.essentialTotal)
    }
}
