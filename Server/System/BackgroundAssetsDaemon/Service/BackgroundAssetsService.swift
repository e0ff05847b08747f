/*
Abstract:
The system service's brain: its clients, their requests, and the routing of download events.
*/

import BackgroundAssetsIPC
import Foundation
import SystemLogging

/// The Background Assets service of one device root.
///
/// It owns the download queue and every client connection: it answers requests, routes each
/// download's events to the app's connected delegates, arbitrates exclusive control, and hands
/// finished files over until every delegate has acknowledged them.
public actor BackgroundAssetsService {
    typealias Client = ClientRegistry.Client

    let paths: DevicePaths
    let configuration: ServiceConfiguration
    let trace: ServiceTrace
    let logger = Logger(subsystem: "com.example.backgroundassetsd", category: "daemon")
    let queue: DownloadQueue
    /// The questions about the queue the service asks while it serves clients, answered off the queue.
    let storeReader: DownloadStoreReader
    /// Real time, which the service stamps, compares and sleeps on: the system's, or a test's manual clock.
    nonisolated let wallClock: any ServiceClock
    /// Every timer, watcher and loop the service runs, stopped together by ``stop()``.
    nonisolated let activities: ServiceActivities
    /// The queue's events, routed in order from ``start()`` on.
    private let queueEvents: AsyncStream<QueueEvent>

    var clients = ClientRegistry()
    /// Checks each hello against the executable the peer runs; a test may replace its look-ups.
    var clientVerifier = ClientVerifier.live
    var arbiter = ExclusiveControlArbiter()
    /// Finished files given to each app's extension whose call the lifecycle has not queued yet
    /// (the extension's launch is being prepared): counted as in its hands.
    var extensionFilesOnTheirWay: [String: Int] = [:]
    /// Challenges sent to delegates, until one answers.
    var handOvers = HandOverDesk()
    /// Every finished file until its owner has it: offered to delegates, held for one, or given to the extension.
    var deliveries: DeliveryState
    var nextIdentifier: UInt64 = 1
    var lastActivity: Date
    /// The timer that hands held files over the usual way once the reconnect grace is over.
    var graceTimer: ServiceActivities.Activity?
    var expiryTimer: ServiceActivities.Activity?

    // The extension lifecycle.
    let registry: AppRegistry
    /// Reads, writes and registers app bundles, and removes them.
    let installer: AppInstaller
    /// What the periodic checks and the task runner read; each reschedules itself when its part changes.
    var deviceState: DeviceState {
        didSet {
            if deviceState.clock != oldValue.clock {
                trace.use(deviceState.clock)
                assetPacks.deviceClock = deviceState.clock
            }
            periodicInputsChanged(from: oldValue)
            taskInputsChanged(from: oldValue)
        }
    }
    /// The device's time, which runs `timeScale` times as fast as ``wallClock``; it resumes from the
    /// latest recorded device time at ``start()``.
    var deviceClock: DeviceClock { deviceState.clock }
    /// Which of each transfer's progress reports the trace records.
    var progressSamples = ProgressTraceSampler()
    /// Finds when each app's periodic check is due, and says when one is.
    let periodic: PeriodicChecks
    var settings: DeviceSettings { deviceState.settings }
    /// Launches, calls, watches and ends each app's extension.
    let extensionHost: ExtensionHost
    /// Each app's extension calls from wanted to ended, and the rules that launch, limit and end the extension.
    var extensionCalls: ExtensionCallLifecycle
    /// Each app's install or update until it is launchable, and the rules that end it.
    var installs = InstallLifecycle() {
        // Published on every change: an install that begins or ends moves both schedules.
        didSet { deviceState.setInstalling(installs.apps) }
    }
    /// The installed apps' identifiers, so routing a download event needs no disk read.
    var installedApps: Set<String> = []
    /// New foreground downloads answered for and not inserted yet, which other requests wait for.
    var foregroundStarts = ForegroundStartInserts()
    /// The files the last service left for their owners, held at start and routed once installs resume.
    private var filesLeftByEarlierRun: [FinishedFile] = []

    // Background Tasks.
    /// The pending requests, durable across restarts.
    let taskStore: TaskStore
    /// When each pending request runs, where, and how each run ends.
    var tasks: TaskRunner
    var taskTimer: ServiceActivities.Activity?

    /// Every app's background URL sessions and their transfers.
    let urlSessions: BackgroundSessionHost

    /// Every app's notification answer, pending requests and delivered notifications.
    let notifications: NotificationHost

    /// Downloads, installs, updates and removes the apps' managed asset packs.
    let assetPacks: AssetPackCoordinator
    /// What the parts tell the hub for other parts, routed in order from ``start()`` on.
    private let notices: AsyncStream<ServiceNotice>

    /// Opens the device root's queue and prepares the service; call ``start()`` next.
    /// - Parameters:
    ///   - paths: The device root.
    ///   - configuration: The policy knobs.
    ///   - wallClock: The real time the service's dates, deadlines and timers run on: the machine's, which
    ///     ``ServiceRunner`` passes, or a test's manual clock.
    /// - Throws: A store error when the queue cannot be opened.
    public init(paths: DevicePaths, configuration: ServiceConfiguration, wallClock: any ServiceClock) throws {
        for folder in [paths.runDirectory, paths.systemDirectory, paths.stagingDirectory] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        self.paths = paths
        self.configuration = configuration
        self.wallClock = wallClock
        let activities = ServiceActivities(wallClock: wallClock)
        self.activities = activities
        lastActivity = wallClock.now
        // Holding from now on: a file that finishes before any delegate could reconnect is kept for it.
        deliveries = DeliveryState(createdAt: wallClock.now, grace: configuration.reconnectGrace)
        let store = try DownloadStore(url: paths.queueDatabase)
        let (notices, noticeChannel) = AsyncStream<ServiceNotice>.makeStream()
        self.notices = notices
        taskStore = try TaskStore(url: paths.taskDatabase) { noticeChannel.yield(.taskRequestsChanged) }
        trace = ServiceTrace(url: paths.traceFile)
        registry = AppRegistry(paths: paths) { _ in noticeChannel.yield(.appRecordChanged) }
        installer = AppInstaller(paths: paths, registry: registry)
        periodic = PeriodicChecks(registry: registry, activities: activities) {
            noticeChannel.yield(.periodicCheckDue(app: $0, deviceTime: $1))
        }
        tasks = TaskRunner(appRefreshLimit: configuration.appRefreshRuntimeLimit, processingLimit: configuration.processingRuntimeLimit)
        extensionCalls = ExtensionCallLifecycle(policy: ExtensionRuntimePolicy(
            entryPointLimit: configuration.extensionRuntimeLimit, dailyBudget: configuration.extensionDailyBudget))
        extensionHost = ExtensionHost(
            paths: paths, configuration: configuration, activities: activities, trace: trace
        ) { noticeChannel.yield(.extensionHost($0)) }
        let settings = try DeviceSettings.load(from: paths.deviceSettingsFile)
        let deviceClock = DeviceClock(origin: wallClock.now, timeScale: configuration.timeScale)
        deviceState = DeviceState(settings: settings, clock: deviceClock)
        let (events, continuation) = AsyncStream<QueueEvent>.makeStream()
        queueEvents = events
        storeReader = DownloadStoreReader(store: store)
        queue = DownloadQueue(store: store, paths: paths, configuration: configuration, activities: activities) {
            continuation.yield($0)
        }
        urlSessions = try BackgroundSessionHost(
            paths: paths, queue: queue, reader: storeReader, trace: trace, activities: activities, settings: settings
        ) { noticeChannel.yield(.backgroundSessions($0)) }
        notifications = try NotificationHost(paths: paths, trace: trace, activities: activities, settings: settings)
        assetPacks = AssetPackCoordinator(
            paths: paths, configuration: configuration, queue: queue, storeReader: storeReader, activities: activities,
            trace: trace, deviceClock: deviceClock) { noticeChannel.yield(.assetPacks($0)) }
        assetPacks.appleHostingServer = settings.appleHostingServer.flatMap(URL.init(string:))
        trace.use(deviceState.clock)
    }

    /// The service's parts in the order they start, each after what it depends on; ``stop()`` stops
    /// them in reverse. Whether a finished file has an owner depends on the installed apps, so they
    /// come first; the archives the queue resumes report to pack downloads already taken up; what
    /// the last service left for its owners is held before the queue starts, so a transfer that
    /// finishes the moment it does is held beside it; and the background sessions' records are read
    /// before it too, so such a transfer's end finds its task. On the way down, nothing new may start
    /// while the processes are killed, and the queue stops last, after everything that uses it.
    private static let lifecycle = ServiceLifecycle<BackgroundAssetsService>(parts: [
        ServicePart("installed apps and their packs", start: { service in
            let apps = await service.registry.apps().apps
            service.installedApps = Set(apps.map(\.bundleIdentifier))
            await service.assetPacks.start(apps: apps)
        }),
        ServicePart("files left for their owners", start: { service in
            service.filesLeftByEarlierRun = await service.holdFilesLeftByEarlierRun()
        }),
        ServicePart("background sessions' records", start: { await $0.urlSessions.load() }),
        ServicePart("download queue", start: { try await $0.queue.start() }, stop: { await $0.queue.stop() }),
        ServicePart("extensions' runtime", stop: { service in
            for app in service.extensionHost.unsavedRuntime.apps { await service.saveRuntime(of: app) }
        }),
        ServicePart("routing and timers", start: { $0.startRouting() }, stop: { await $0.activities.shutdown() }),
        ServicePart("background sessions", start: { await $0.urlSessions.start() }),
        ServicePart("notifications", start: { await $0.notifications.start() }),
        ServicePart("installs", start: { service in
            await service.resumeInstalls()
            for archive in service.filesLeftByEarlierRun { await service.route(.finished(archive.row, file: archive.file)) }
            service.filesLeftByEarlierRun = []
        }),
        ServicePart("client connections", stop: { service in
            for client in service.clients.all { client.connection.close() }
        }),
        ServicePart("launched processes", stop: { service in
            for process in service.tasks.host.backgroundLaunches { process.kill() }
            service.extensionHost.killAll()
        }),
        // Closed first on the way down, and synchronously: a launch that an activity attempts
        // while the kills and the shutdown are under way is refused, so no process outlives the service.
        ServicePart("schedules", start: { $0.deviceState.serviceStarted() }, stop: { $0.activities.close() }),
    ])

    /// Starts the service's parts, in ``lifecycle``'s order.
    public func start() async throws {
        deliveries.serviceStarts(at: wallClock.now)
        try await Self.lifecycle.start(self)
    }

    /// Routes the queue's events and the parts' notices, each in the order they happen.
    private func startRouting() {
        let events = queueEvents
        activities.run("queue events") { [weak self] in
            for await event in events { await self?.route(event) }
        }
        let notices = notices
        activities.run("notices from the parts") { [weak self] in
            for await notice in notices { await self?.handle(notice) }
        }
    }

    /// Serves one client until it disconnects.
    func serve(_ connection: ClientConnection) async {
        clients.add(connection)
        lastActivity = wallClock.now
        do {
            serving: for try await batch in connection.requests() {
                var next = batch.startIndex
                while next < batch.endIndex {
                    guard connection.isOpen else { break serving }
                    lastActivity = wallClock.now
                    // Schedules a client pipelined are handled as one: one transaction, one pump.
                    let schedules = batch[next...].prefix { if case .downloads(.schedule) = $0.request { true } else { false } }
                    if schedules.count > 1, clients[connection.id]?.hello != nil {
                        for (id, response) in await scheduleAll(Array(schedules), from: connection.id) {
                            _ = answer(id, with: response, on: connection)
                        }
                        next += schedules.count
                        continue
                    }
                    let message = batch[next]
                    next += 1
                    var heldTicket: Int?
                    if let response = await handle(message.request, id: message.id, from: connection.id) {
                        heldTicket = answer(message.id, with: response, on: connection)
                    }
                    // A connection that has not introduced itself acceptably gets its answer, then is closed.
                    if clients[connection.id]?.hello == nil {
                        if let heldTicket { _ = await queue.store.durable(through: heldTicket) }
                        break serving
                    }
                }
            }
        } catch {
            logger.error("Closed the connection of process \(connection.peer.processIdentifier): \(error)")
            record(from: clients[connection.id], event: "connectionRejected", detail: "\(error)")
        }
        disconnect(connection.id)
    }

    /// Sends an answer once what it tells of is on disk. A schedule commits without waiting for the
    /// disk and its answer waits here instead, so the next requests keep committing while the log
    /// syncs, and one sync covers all of them; later messages to the client queue behind it.
    /// - Returns: The ticket the answer waits for, or `nil` when it went out at once.
    private func answer(_ id: UInt64, with response: ServerResponse, on connection: ClientConnection) -> Int? {
        let store = queue.store
        guard let ticket = store.unsyncedTicket else {
            connection.send(.response(id: id, response: response))
            return nil
        }
        connection.send(.response(id: id, response: response), heldUntilDurable: ticket)
        store.whenDurable(through: ticket) { [logger] isDurable in
            guard isDurable else {
                // The client must not learn of a download a power cut could take back: it sees the
                // connection close, and its call fail, instead.
                logger.error("Closed the connection of process \(connection.peer.processIdentifier): the queue could not be synced to disk.")
                connection.close()
                return
            }
            connection.releaseHeld(through: ticket)
        }
        return ticket
    }

    /// Whether the service may exit: no client, no extension, no install, nothing queued, no
    /// upload sending or waiting to try again, no periodic check due soon, and quiet for `idleExitAfter`.
    public func isIdle() async -> Bool {
        let now = wallClock.now
        guard clients.isEmpty, extensionCalls.isEmpty, installs.isEmpty, tasks.host.backgroundLaunches.isEmpty,
            !notifications.hasPendingRequests, !assetPacks.isBusy, !urlSessions.hasUploadsInFlight,
            now.timeIntervalSince(lastActivity) >= configuration.idleExitAfter
        else { return false }
        if let next = await nextPeriodicCheck(), next.timeIntervalSince(now) < configuration.idleExitAfter { return false }
        if await hasTaskDueSoon(now: now) { return false }
        return (try? await queue.hasWork()) == false
    }

    /// Stops every transfer, timer, watcher and process the service started, in the reverse of
    /// ``lifecycle``'s order; their bytes are kept for the next start. When it returns, nothing of
    /// the service runs any more.
    public func stop() async {
        await Self.lifecycle.stop(self)
    }

    /// The device's time now.
    var deviceNow: Date { deviceClock.deviceTime(at: wallClock.now) }

    /// How many clients are connected.
    var clientCount: Int { clients.count }

    func allocateIdentifier() -> UInt64 {
        defer { nextIdentifier += 1 }
        return nextIdentifier
    }

    /// Forgets a connection: its exclusive control passes on, and its pending deliveries are released.
    func disconnect(_ id: UInt64) {
        guard let client = clients.remove(id) else { return }
        lastActivity = wallClock.now
        client.connection.close()
        for waiter in arbiter.disconnect(id) { grant(waiter) }
        // A file whose delegates all went away before returning (an app that exited or crashed)
        // goes on to its next owner.
        deliveriesConnectionClosed(id)
        if !deliveries.appsHoldingFilesUnderControl.isEmpty {
            activities.run("files held under the exclusive control of connection \(id)") { [weak self] in
                await self?.deliverFilesHeldUnderControl()
            }
        }
        installs.connectionClosed(id)
        tasksConnectionClosed(id)
        activities.run("notifications of connection \(id)") { [weak self] in await self?.notificationsConnectionClosed(id) }
        let stoppedApp = client.hello.flatMap { hello in
            hello.role == .app && !clients.all.contains { $0.hello?.bundleIdentifier == hello.bundleIdentifier && $0.hello?.role == .app }
                ? hello.bundleIdentifier : nil
        }
        // With the app known to have ended: what its process left, or what waited while it ran, may launch it again.
        urlSessionsConnectionClosed(id, appStopped: stoppedApp)
        assetPacks.disconnected(id)
        if let hello = client.hello {
            // The pid pairs it with its `connected`, for a timeline of each process's life.
            record(from: client, event: "disconnected", app: hello.bundleIdentifier, detail: "pid \(hello.processIdentifier)")
            extensionDisconnected(connection: id, app: hello.bundleIdentifier)
        }
    }

    /// Appends a trace entry for something a client did.
    func record(from client: Client?, event: String, app: String? = nil, download: String? = nil, detail: String? = nil) {
        let role = client?.hello?.role.rawValue ?? "client"
        trace.append(.init(from: role, to: "backgroundassetsd", event: event, app: app, download: download, detail: detail))
    }
}
