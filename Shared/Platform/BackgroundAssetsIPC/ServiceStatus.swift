/*
Abstract:
The service's state and every download in its queue, as the debug tool's `status` shows them.
*/

import Foundation

/// What `backgroundassets-debug status` asks for: the service and every download it holds.
public struct ServiceStatus: Codable, Sendable, Equatable {
    /// The service's process id.
    public var processIdentifier: Int32
    /// The device root the service runs in.
    public var deviceRoot: String
    /// The number of client connections open now.
    public var connectionCount: Int
    /// The downloads in the queue, ended ones included until they are pruned, oldest first: every one,
    /// or the first page when ``moreDownloadsAfter`` is set.
    public var downloads: [DownloadStatus]
    /// Where the next page of downloads starts, when `downloads` is only the first page: ask for it
    /// with `fetchDownloadStatuses(after:)`; `nil` when `downloads` holds every download.
    ///
    /// The service answers in pages so that an answer never holds every row of a large queue: each
    /// page is read and written on its own, and many status requests at once cost one page each.
    public var moreDownloadsAfter: Int64?
    /// Every installed app.
    public var apps: [AppStatus]
    /// The device settings.
    public var settings: DeviceSettings
    /// Every pending Background Tasks request and running task; `nil` from a service without them.
    public var tasks: [TaskStatus]?
    /// The device's clock when the status was taken; `nil` from a service that does not say.
    public var deviceClock: DeviceClockStatus?
    /// Every app's background URL sessions that have tasks or waiting events; `nil` when there are none.
    public var urlSessions: [URLSessionStatus]?
    /// Why the service's transfers are paused after repeated crashes, and until when; `nil` while they run.
    public var pausedWork: String?

    /// Creates a status.
    /// - Parameters:
    ///   - processIdentifier: The service's process id.
    ///   - deviceRoot: The device root the service runs in.
    ///   - connectionCount: The number of client connections open now.
    ///   - downloads: Every download in the queue.
    ///   - apps: Every installed app.
    ///   - settings: The device settings.
    public init(
        processIdentifier: Int32, deviceRoot: String, connectionCount: Int, downloads: [DownloadStatus],
        apps: [AppStatus] = [], settings: DeviceSettings = DeviceSettings(), tasks: [TaskStatus]? = nil
    ) {
        self.processIdentifier = processIdentifier
        self.deviceRoot = deviceRoot
        self.connectionCount = connectionCount
        self.downloads = downloads
        self.apps = apps
        self.settings = settings
        self.tasks = tasks
    }
}

/// One download as the debug tool shows it: the descriptor plus the service's bookkeeping.
public struct DownloadStatus: Codable, Sendable, Equatable {
    /// The app that owns the download.
    public var bundleIdentifier: String
    /// The download, with its current state.
    public var download: DownloadDescriptor
    /// Whether it runs in the foreground.
    public var isForeground: Bool
    /// The bytes safely on disk.
    public var bytesWritten: Int64
    /// The file's size when known: the server's length, else the size the client declared.
    public var bytesExpected: Int64?
    /// The attempts made so far.
    public var attempts: Int
    /// The error of the latest failed attempt.
    public var lastError: WireFailure?
    /// When the next attempt may start, for a waiting download that is backing off.
    public var nextAttemptAt: Date?
    /// Whether it waits for its host to answer again rather than for a time: another download of the
    /// same origin probes it, and this one is tried once that probe gets through. Absent otherwise.
    public var waitsUntilReachable: Bool?

    /// Creates a download status.
    /// - Parameters:
    ///   - bundleIdentifier: The app that owns the download.
    ///   - download: The download, with its current state.
    ///   - isForeground: Whether it runs in the foreground.
    ///   - bytesWritten: The bytes safely on disk.
    ///   - bytesExpected: The file's size when known.
    ///   - attempts: The attempts made so far.
    ///   - lastError: The error of the latest failed attempt.
    ///   - nextAttemptAt: When the next attempt may start.
    ///   - waitsUntilReachable: Whether it waits for its host to answer again instead.
    public init(
        bundleIdentifier: String, download: DownloadDescriptor, isForeground: Bool, bytesWritten: Int64,
        bytesExpected: Int64?, attempts: Int, lastError: WireFailure?, nextAttemptAt: Date?,
        waitsUntilReachable: Bool? = nil
    ) {
        self.bundleIdentifier = bundleIdentifier
        self.download = download
        self.isForeground = isForeground
        self.bytesWritten = bytesWritten
        self.bytesExpected = bytesExpected
        self.attempts = attempts
        self.lastError = lastError
        self.nextAttemptAt = nextAttemptAt
        self.waitsUntilReachable = waitsUntilReachable
    }
}

/// A page of the downloads `status` lists, oldest first.
public struct DownloadStatusPage: Codable, Sendable, Equatable {
    /// The downloads of this page.
    public var downloads: [DownloadStatus]
    /// Where the next page starts, or `nil` when this is the last page.
    public var moreAfter: Int64?

    /// Creates a page.
    /// - Parameters:
    ///   - downloads: The downloads of this page.
    ///   - moreAfter: Where the next page starts, or `nil` for the last page.
    public init(downloads: [DownloadStatus], moreAfter: Int64?) {
        self.downloads = downloads
        self.moreAfter = moreAfter
    }
}

/// The simulated device's clock against the real one: `timeScale` in `config.json` speeds it up,
/// and it never runs backwards, so after an accelerated run it can stay ahead of real time.
public struct DeviceClockStatus: Codable, Sendable, Equatable {
    /// The device's time.
    public var deviceTime: Date
    /// The real time at the same moment.
    public var realTime: Date
    /// Device seconds per real second.
    public var timeScale: Double

    /// Creates a clock status.
    public init(deviceTime: Date, realTime: Date, timeScale: Double) {
        self.deviceTime = deviceTime
        self.realTime = realTime
        self.timeScale = timeScale
    }

    /// How far the device's time is ahead of real time, in seconds.
    public var secondsAhead: Double { deviceTime.timeIntervalSince(realTime) }

    /// Whether the device's clock runs apart from real time: faster, or a second or more ahead.
    public var differsFromRealTime: Bool { timeScale != 1 || abs(secondsAhead) >= 1 }
}
