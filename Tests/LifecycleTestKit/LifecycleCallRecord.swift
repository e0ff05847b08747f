/*
Abstract:
One line the lifecycle test app or test extension records, and reading a whole file of them back.
*/

import Foundation

/// One thing `lifecycle-test-extension` or `lifecycle-test-app` did, as one line of `calls.jsonl` or
/// `app-calls.jsonl`.
///
/// The test processes write these with ``LifecycleCallLog`` and the end-to-end tests read them back
/// with ``all(in:)``. Every field but `entryPoint`, `pid` and `time` is optional and left out of the
/// line when it does not apply.
public struct LifecycleCallRecord: Codable, Sendable, Equatable {
    /// What happened. The extension records `downloads`, `returned`, `finished`, `failed`, `challenge`,
    /// `willTerminate`, `scheduleInsideDownloads`, `rescheduled`, `exclusiveControlAcquired` and
    /// `exclusiveControlReleased`; the app records `progress`, `launchable`, `gateFailed`,
    /// `delegateConnected`, `began`, `finished` and `failed`.
    public var entryPoint: String
    /// The content request's raw value (1 install, 2 update, 3 periodic), for `downloads` and `returned`.
    public var request: Int?
    /// The download's identifier.
    public var download: String?
    /// Whether the download was essential when it was delivered.
    public var isEssential: Bool?
    /// Whether the download's class is exactly `BAURLDownload` (the manifest's download is a private subclass).
    public var isExactlyURLDownload: Bool?
    /// The error's domain, for `failed`, `gateFailed` and for calls that threw.
    public var errorDomain: String?
    /// The error's code.
    public var errorCode: Int?
    /// The error's message.
    public var errorMessage: String?
    /// The manifest's path (`downloads`) or the finished file's path (the extension's `finished`).
    public var path: String?
    /// Whether that file existed when the entry point was called.
    public var fileExists: Bool?
    /// That file's permission bits; the manifest must be a read-only copy. (Its mode, not `access(2)`,
    /// which says every file is writable when the tests run as root.)
    public var fileMode: Int?
    /// Where a finished file was moved to.
    public var movedTo: String?
    /// The identifiers `downloads(for:manifestURL:extensionInfo:)` returned, for `returned`.
    public var returned: [String]?
    /// `BAAppExtensionInfo.restrictedDownloadSizeRemaining`, for `downloads`.
    public var restrictedDownloadSizeRemaining: Int?
    /// `BAAppExtensionInfo.restrictedEssentialDownloadSizeRemaining`, for `downloads`.
    public var restrictedEssentialDownloadSizeRemaining: Int?
    /// `BA_BUNDLE_IDENTIFIER` as the service set it, for `downloads`.
    public var bundleIdentifier: String?
    /// `BA_PROCESS_ROLE` as the service set it, for `downloads`.
    public var role: String?
    /// `Bundle.main.bundleIdentifier`, the installed Info.plist's, for `downloads` and `launchable`.
    public var mainBundleIdentifier: String?
    /// The install's completed bytes, for `progress`.
    public var completedBytes: Int64?
    /// The install's total bytes, for `progress`.
    public var totalBytes: Int64?
    /// The essential downloads that ended, for `progress`.
    public var essentialEnded: Int?
    /// The essential downloads in all, for `progress`.
    public var essentialTotal: Int?
    /// The recording process's id: for the extension, one launch, one pid.
    public var pid: Int32 = ProcessInfo.processInfo.processIdentifier
    /// When it was recorded, in seconds since 1970.
    public var time: Double = Date().timeIntervalSince1970

    /// Creates a record of this process, now.
    /// - Parameter entryPoint: What happened, such as `downloads` or `launchable`.
    public init(_ entryPoint: String) {
        self.entryPoint = entryPoint
    }

    /// When it was recorded.
    public var date: Date { Date(timeIntervalSince1970: time) }

    /// Every record in a JSON-lines file; a missing file reads as empty, a torn last line is skipped.
    /// - Parameter file: `calls.jsonl` or `app-calls.jsonl`.
    /// - Returns: The records, in the order they were appended.
    public static func all(in file: URL) -> [LifecycleCallRecord] {
        guard let data = try? Data(contentsOf: file) else { return [] }
        let decoder = JSONDecoder()
        return data.split(separator: UInt8(ascii: "\n")).compactMap {
            try? decoder.decode(LifecycleCallRecord.self, from: Data($0))
        }
    }
}
