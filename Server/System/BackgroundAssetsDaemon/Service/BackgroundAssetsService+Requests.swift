/*
Abstract:
How the service answers each client request, with the errors Apple's framework would raise.
*/

import BackgroundAssetsIPC
import Foundation

extension BackgroundAssetsService {
    /// Answers a request, or returns `nil` when the answer comes later (exclusive control).
    ///
    /// Each family of requests goes to the one handler of its subsystem; the debug tool's family
    /// is refused here, once, to every other role.
    func handle(_ request: ClientRequest, id: UInt64, from connection: UInt64) async -> ServerResponse? {
        guard let client = clients[connection] else { return nil }
        if case let .hello(hello) = request { return await greet(hello, client: client) }
        guard let hello = client.hello else {
            return failure(.callerConnectionInvalid, "The first request on a connection must be hello; reconnect and introduce the process.")
        }
        if request.seesAnsweredForegroundStarts { await awaitAnsweredForegroundStarts() }
        do {
            switch request {
            case .hello:
                return nil
            case let .core(request):
                return try await handleCoreRequest(request, id: id, hello: hello, client: client)
            case let .downloads(request):
                return try await handleDownloadRequest(request, id: id, hello: hello, client: client)
            case let .assetPacks(request):
                return await handleAssetPackRequest(request, hello: hello, connection: connection)
            case let .tasks(request):
                return await handleTaskRequest(request, hello: hello, connection: connection)
            case let .urlSessions(request):
                return await handleURLSessionRequest(request, hello: hello, connection: connection)
            case let .notifications(request):
                return await handleNotificationRequest(request, hello: hello, connection: connection)
            case let .tool(request):
                guard hello.role == .tool else { return toolOnly(request.command) }
                return try await handleToolRequest(request)
            }
        } catch let error as DaemonError {
            if case let .downloadAlreadyScheduled(_, identifier) = error { return alreadyScheduled(identifier) }
            return failure(.downloadDoesNotExist, error.description)
        } catch {
            return failure(.downloadFailedToStart, "The service could not do that: \(error).")
        }
    }

    private func greet(_ hello: Hello, client: Client) async -> ServerResponse {
        guard hello.protocolVersion == WireProtocol.version else {
            return failure(.callerConnectionNotAccepted, "This client speaks protocol \(hello.protocolVersion) but the service speaks \(WireProtocol.version); rebuild the package so both match.")
        }
        guard !hello.bundleIdentifier.isEmpty, hello.bundleIdentifier.utf8.count <= 255,
              DevicePaths.isSafePathComponent(hello.bundleIdentifier) else {
            return failure(.callerConnectionNotAccepted, "\(hello.bundleIdentifier.debugSummary) is not a valid bundle identifier; use reverse-DNS letters, digits, '.', '-' and '_'.")
        }
        // A connection is who the kernel says it is: the claim is checked against the executable
        // the peer runs, as Apple's system reads an app's identity from its code signature.
        let peer = client.connection.peer.processIdentifier
        var installed = await registry.apps().apps.map(ClientVerifier.InstalledExecutables.init)
        // An install of the claimed app that ended while the apps were read closed the connections it
        // found, not this one, which has no hello yet: read again, with the new app among them.
        if installedApps.contains(hello.bundleIdentifier), !installed.contains(where: { $0.bundleIdentifier == hello.bundleIdentifier }) {
            installed = await registry.apps().apps.map(ClientVerifier.InstalledExecutables.init)
        }
        let verdict = clientVerifier.verdict(for: hello, processIdentifier: peer, installed: installed)
        if case let .refused(reason) = verdict {
            guard configuration.trustsClientClaims else {
                logger.notice("Refused a hello: \(reason)")
                return failure(.callerConnectionNotAccepted, reason)
            }
            logger.info("Accepted a hello only because trustsClientClaims is on: \(reason)")
        }
        // The connection may have closed while the installed apps were read.
        guard clients[client.connection.id] != nil else { return failure(.callerConnectionInvalid, "The connection closed during its hello.") }
        let isOpenedApp = verdict == .accepted && hello.role == .app
            && installed.contains { $0.bundleIdentifier == hello.bundleIdentifier }
            && tasks.host.backgroundLaunch(of: hello.bundleIdentifier)?.processIdentifier != peer
        let wasOpen = clients.openedProcesses(of: hello.bundleIdentifier).contains(peer)
        clients.introduce(client.connection.id, as: hello, isOpenedApp: isOpenedApp)
        client.connection.liftFrameLimit()
        if hello.role == .app { urlSessions.setRunning(app: hello.bundleIdentifier) }
        record(from: clients[client.connection.id], event: "connected", app: hello.bundleIdentifier, detail: "pid \(hello.processIdentifier)")
        // Opening an app is its launch, as on Apple platforms: the first connection of its process
        // counts, with no call of the app's own. One still installing counts once the install ends.
        // The launch's recording suspends, and another connection of the same process may say hello
        // meanwhile; that one waits for it too, so the launch comes before anything the app asks.
        if isOpenedApp, !wasOpen, !installs.isInstalling(hello.bundleIdentifier) {
            let app = hello.bundleIdentifier
            let launch = Task { _ = await self.recordLaunch(of: app) }
            clients.setLaunch(launch, of: client.connection.id)
            await launch.value
        } else if isOpenedApp, let launch = clients.launch(ofProcess: peer) {
            await launch.value
        }
        var reply = HelloReply(processIdentifier: getpid(), deviceRoot: paths.root.path)
        reply.notice = queue.pausedWorkReason
        return .hello(reply)
    }

    /// Closes the connections that took an app's identifier before the app was installed and do not
    /// run its executables: a name no app had was anyone's, the installed app's data is its own.
    /// - Parameter installed: The app just installed or updated.
    func closeConnectionsNotRunning(_ installed: InstalledApp) {
        guard !configuration.trustsClientClaims else { return }
        let executables = [ClientVerifier.InstalledExecutables(installed)]
        for client in clients.all {
            guard let hello = client.hello, hello.bundleIdentifier == installed.bundleIdentifier, hello.role != .tool,
                case let .refused(reason) = clientVerifier.verdict(
                    for: hello, processIdentifier: client.connection.peer.processIdentifier, installed: executables)
            else { continue }
            logger.notice("Closed a connection that spoke for \(installed.bundleIdentifier.debugSummary) before it was installed: \(reason)")
            client.connection.close()
        }
    }

    func schedule(_ download: DownloadDescriptor, app: String, client: Client) async throws -> ServerResponse {
        if let refusal = await scheduleRefusal(of: download, app: app, client: client) { return refusal }
        record(from: client, event: "scheduleDownload", app: app, download: download.identifier)
        // Committed without waiting for the disk: the answer waits for it instead (see `answer`).
        let rows = try await queue.enqueue([NewDownload(bundleIdentifier: app, descriptor: download)], durability: .answerWaits)
        return .download(rows[0].descriptor)
    }

    /// Answers schedules a client pipelined, in order, each as if it came alone; those accepted go
    /// into the queue in one transaction, with one pump, where one each cost a commit, a pump and
    /// the hops between threads that, on a busy machine, took longer than the work.
    /// - Parameters:
    ///   - messages: `schedule` requests, in the order the client sent them.
    ///   - connection: The connection they came on; it has said hello.
    /// - Returns: Each request's id and answer, in order.
    func scheduleAll(_ messages: [ClientMessage], from connection: UInt64) async -> [(UInt64, ServerResponse)] {
        guard let client = clients[connection], let app = client.hello?.bundleIdentifier else { return [] }
        await awaitAnsweredForegroundStarts()
        var answers: [ServerResponse?] = Array(repeating: nil, count: messages.count)
        var accepted: [(index: Int, download: NewDownload)] = []
        for (index, message) in messages.enumerated() {
            guard case let .downloads(.schedule(download)) = message.request else { continue }
            if let refusal = await scheduleRefusal(of: download, app: app, client: client) {
                answers[index] = refusal
                continue
            }
            record(from: client, event: "scheduleDownload", app: app, download: download.identifier)
            accepted.append((index, NewDownload(bundleIdentifier: app, descriptor: download)))
        }
        do {
            let outcomes = try await queue.enqueueEach(accepted.map(\.download), durability: .answerWaits)
            for (slot, outcome) in zip(accepted, outcomes) {
                switch outcome {
                case let .success(row): answers[slot.index] = .download(row.descriptor)
                case .failure: answers[slot.index] = alreadyScheduled(slot.download.descriptor.identifier)
                }
            }
        } catch {
            for slot in accepted { answers[slot.index] = failure(.downloadFailedToStart, "The service could not do that: \(error).") }
        }
        return zip(messages, answers).map { message, answer in
            (message.id, answer ?? failure(.downloadFailedToStart, "The service could not do that: the request is not a schedule."))
        }
    }

    /// Why a schedule is refused before it reaches the queue, or `nil` when it may be queued.
    private func scheduleRefusal(of download: DownloadDescriptor, app: String, client: Client) async -> ServerResponse? {
        if let problem = download.validationProblem() { return failure(.downloadInvalid, problem) }
        if download.isEssential {
            return failure(.downloadEssentialDownloadNotPermitted, "Essential downloads can only be returned from downloads(for:manifestURL:extensionInfo:) during an install or update; schedule \(download.identifier.debugSummary) with removingEssential() instead.")
        }
        return await installedAppRefusal(of: download, app: app, client: client)
    }

    /// The answer to a schedule of a download the app has scheduled already.
    func alreadyScheduled(_ identifier: String) -> ServerResponse {
        failure(.downloadAlreadyScheduled, "The download \(identifier.debugSummary) is already scheduled; promote or cancel it instead of scheduling it again.")
    }

    func startForeground(_ download: DownloadDescriptor, app: String, client: Client) async throws -> ServerResponse {
        guard client.hello?.role != .extension else {
            return failure(.callFromExtensionNotAllowed, "startForegroundDownload is only allowed in the app; from the extension, use scheduleDownload.")
        }
        // Answered a moment ago, its row still to come: already in the foreground.
        if let answered = foregroundStarts.answered(app: app, identifier: download.identifier) { return .download(answered) }
        // Both lookups in one read, here: the app's loop over its sessions waits for every answer,
        // and a hop to the reader's thread and back took longer than the read.
        let (active, ended) = try storeReader.foregroundStartRows(
            bundleIdentifier: app, identifier: download.identifier, uniqueIdentifier: download.uniqueIdentifier)
        if let row = active {
            // Starting a download that is already in the foreground does nothing.
            guard !row.isForeground else { return .download(row.descriptor) }
            // Recorded first: the promotion's own events (pause, then begin) follow the request.
            record(from: client, event: "startForegroundDownload", app: app, download: download.identifier, detail: "promoted")
            return .download(try await queue.promote(id: row.id).descriptor)
        }
        // A download that ended a moment ago (its file may still be on its way to a delegate) is not
        // started again: the app learns of its end through its callbacks. One whose file the extension
        // receives ends for the extension; the app would wait for a callback that never comes.
        if let ended, ended.bundleIdentifier == app, ended.state.isTerminal {
            guard !rowsGivenToExtension(of: app).contains(ended.id) else {
                return failure(.downloadNotScheduled, "The download \(download.identifier.debugSummary) has finished, and its file went to the app's downloader extension (backgroundDownload(_:finishedWithFileURL:)) rather than to the app's delegate; look for the file where the extension puts it, or start a new download to fetch it again.")
            }
            return .download(ended.descriptor)
        }
        if let problem = download.validationProblem() { return failure(.downloadInvalid, problem) }
        if download.isEssential {
            return failure(.downloadEssentialDownloadNotPermitted, "A foreground download cannot be essential; start \(download.identifier.debugSummary) with removingEssential().")
        }
        if let refusal = await installedAppRefusal(of: download, app: app, client: client) { return refusal }
        record(from: client, event: "startForegroundDownload", app: app, download: download.identifier)
        // Answered once checked, before its row is inserted (``ForegroundStartInserts``) and before
        // it is on disk, unlike a schedule: the app that started it runs, and a power cut that takes
        // the row back ends the app too, whose next launch starts the session again (Apple's sample
        // looks at the current downloads at each launch). The log is synced within a second, so the
        // download stays on its way if the app quits (TransferEngine.md).
        return .download(startSoon(NewDownload(bundleIdentifier: app, descriptor: download, isForeground: true)))
    }

    func status() async throws -> ServiceStatus {
        let firstPage = try await downloadStatuses(after: 0)
        var status = ServiceStatus(
            processIdentifier: getpid(), deviceRoot: paths.root.path, connectionCount: clients.count,
            downloads: firstPage.downloads, apps: await registry.apps().apps.map(appStatus),
            settings: settings, tasks: await taskStatuses())
        status.moreDownloadsAfter = firstPage.moreAfter
        let now = wallClock.now
        status.deviceClock = DeviceClockStatus(deviceTime: deviceClock.deviceTime(at: now), realTime: now, timeScale: deviceClock.timeScale)
        let sessions = urlSessions.statuses
        status.urlSessions = sessions.isEmpty ? nil : sessions
        status.pausedWork = queue.pausedWorkReason
        return status
    }

    /// The rules an installed app's downloads follow: scheduling is refused inside
    /// `downloads(for:...)`, the app group must be the app's, and the allowances apply until the
    /// first launch. Apps that were never installed (the debug tool's own downloads) have none.
    private func installedAppRefusal(of download: DownloadDescriptor, app: String, client: Client) async -> ServerResponse? {
        guard installedApps.contains(app) else { return nil }
        if client.hello?.role == .extension, extensionCalls.runs.isAnsweringContentRequest(app) {
            return failure(.callFromExtensionNotAllowed, "scheduleDownload is not allowed while downloads(for:manifestURL:extensionInfo:) runs; return \(download.identifier.debugSummary) from that method instead.")
        }
        let request = allowanceRequest(for: download)
        let group = download.applicationGroupIdentifier
        do {
            try await registry.update(app) { installed in
                guard group == installed.bundle.appGroup else {
                    throw BAError(.downloadInvalid, message: "The download \(download.identifier.debugSummary) names the app group \(group.debugSummary), which the app is not in; use \(installed.bundle.appGroup.debugSummary).")
                }
                try installed.allowance.admit(request)
            }
        } catch let error as BAError {
            return .failure(.backgroundAssets(code: error.code.rawValue, message: error.message))
        } catch {
            return nil
        }
        return nil
    }

    func toolOnly(_ command: String) -> ServerResponse {
        failure(.callerConnectionNotAccepted, "Only backgroundassets-debug may \(command); run backgroundassets-debug \(command).")
    }

    func failure(_ code: BAError.Code, _ message: String) -> ServerResponse {
        .failure(.backgroundAssets(code: code.rawValue, message: message))
    }
}
