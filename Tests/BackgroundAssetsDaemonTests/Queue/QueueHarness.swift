/*
Abstract:
A download queue over a temporary device root, with its events recorded, for queue tests.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Synchronization
import TestSupport

/// A ``DownloadQueue`` in its own device root, with short policy knobs and every event recorded.
///
/// Its timers (retries, connectivity probes, bounded waits) run on the machine's clock, or on a
/// ``ManualClock`` the test advances; transfers always run in real time, on real sockets.
final class QueueHarness: Sendable {
    static let bundleIdentifier = "com.example.apple-samplecode.WWDC-Sessions"
    static let appGroup = "group.com.example.apple-samplecode.WWDC-Sessions"

    let root: TemporaryDeviceRoot
    let paths: DevicePaths
    let store: DownloadStore
    let queue: DownloadQueue
    /// The clock the queue's timers run on, when the test advances it.
    let clock: ManualClock?
    private let recorded: EventLog

    convenience init(clock: ManualClock? = nil, _ configure: (inout ServiceConfiguration) -> Void = { _ in }) throws {
        try self.init(root: TemporaryDeviceRoot(), clock: clock, configure)
    }

    /// A new queue over another harness's device root and queue file, as a service started again finds them.
    convenience init(restarting earlier: QueueHarness, _ configure: (inout ServiceConfiguration) -> Void = { _ in }) throws {
        try self.init(root: earlier.root, clock: nil, configure)
    }

    private init(root: TemporaryDeviceRoot, clock: ManualClock?, _ configure: (inout ServiceConfiguration) -> Void) throws {
        self.root = root
        paths = DevicePaths(root: root.url)
        try FileManager.default.createDirectory(at: paths.systemDirectory, withIntermediateDirectories: true)
        store = try DownloadStore(url: paths.systemDirectory.appending(path: "queue.sqlite"))
        var configuration = ServiceConfiguration()
        configuration.retryInitialDelay = 0.05
        configuration.retryMaxDelay = 0.2
        configuration.connectivityProbeInterval = 0.05
        configuration.stallTimeout = 2
        configure(&configuration)
        let recorded = EventLog()
        self.recorded = recorded
        self.clock = clock
        let activities = ServiceActivities(wallClock: clock ?? SystemServiceClock() as any ServiceClock)
        queue = DownloadQueue(store: store, paths: paths, configuration: configuration, activities: activities) { event in
            recorded.events.withLock { $0.append(event) }
        }
    }

    /// Waits (in real time, briefly) until the deadlines of the queue's timers on its manual clock
    /// satisfy `condition`: the queue has handled what the clock's last move made due, and set what
    /// comes next.
    func waitForTimers(_ description: String, timeout: Duration = defaultPollTimeout,
                       until condition: @escaping @Sendable ([Duration]) -> Bool) async throws {
        guard let clock else { throw TestSupportError("This harness runs on the machine's clock; pass a ManualClock.") }
        try await poll(until: { condition(clock.pendingDeadlines) }, timeout: timeout,
                       "the queue's timers to show \(description); they are \(clock.pendingDeadlines)")
    }

    /// Whether the download has ended, finished or failed.
    func hasEnded(_ id: Int64) -> Bool {
        let names = eventNames(of: id)
        return names.contains("finished") || names.contains("failed")
    }

    /// The events so far, in order.
    var events: [QueueEvent] { recorded.events.withLock { $0 } }

    /// Schedules one download of `url`.
    func schedule(
        _ url: URL, identifier: String = "wwdc23-10108", fileSize: Int, essential: Bool = false, foreground: Bool = false
    ) async throws -> DownloadRow {
        let descriptor = DownloadDescriptor(
            identifier: identifier, uniqueIdentifier: UUID().uuidString, url: url.absoluteString, fileSize: fileSize,
            applicationGroupIdentifier: Self.appGroup, isEssential: essential)
        let rows = try await queue.enqueue([
            NewDownload(bundleIdentifier: Self.bundleIdentifier, descriptor: descriptor, isForeground: foreground)
        ])
        return rows[0]
    }

    /// Waits for the download's `finished` or `failed` event.
    func end(of id: Int64, timeout: Duration = defaultPollTimeout) async throws -> QueueEvent {
        try await poll(timeout: timeout, "the end of download \(id)") {
            events.first { event in
                switch event {
                case let .finished(row, _), let .failed(row, _): row.id == id
                default: false
                }
            }
        }
    }

    /// The events about one download, reduced to their names, such as `["began", "progress", "finished"]`.
    func eventNames(of id: Int64) -> [String] {
        events.compactMap { event in
            switch event {
            case let .began(row) where row.id == id: "began"
            case let .paused(row) where row.id == id: "paused"
            case let .progress(row, _, _, _) where row.id == id: "progress"
            case let .challenge(row, _) where row.id == id: "challenge"
            case let .finished(row, _) where row.id == id: "finished"
            case let .failed(row, _) where row.id == id: "failed"
            default: nil
            }
        }
    }
}

/// The events a queue reported, shared with its observer.
final class EventLog: Sendable {
    let events = Mutex<[QueueEvent]>([])
}
