/*
Abstract:
The extension host: launches an app's extension, sends it entry-point calls one at a time, and enforces its limits.
*/

import BackgroundAssetsIPC
import Foundation

extension BackgroundAssetsService {
    /// How long an idle extension is kept before `extensionWillTerminate()`: long enough for a
    /// request it sends just after returning (exclusive control from a `Task`) to arrive.
    static let extensionIdleGrace: Duration = .milliseconds(250)
    /// The limit of `extensionWillTerminate()` itself, and the wait for the process to exit after it.
    static let terminationGrace: Double = 2
    /// How often the extension's resident memory is sampled.
    static let memorySampleInterval: Duration = .milliseconds(50)

    /// Queues entry-point calls for an app's extension, launching it when it is not running.
    ///
    /// Calls that cannot be made (the app is gone, its daily budget is spent, the executable does
    /// not start) are abandoned: their files are deleted and an install they serve completes.
    func callExtension(of app: String, _ records: [ExtensionCallRecord]) async {
        guard !records.isEmpty else { return }
        switch extensions.queue(records, for: app) {
        case .toRunning:
            extensions[app]?.idleTimer?.cancel()
            sendNextCall(of: app)
            return
        case .deferred:
            // The running process is on its way out; the calls wait for a fresh launch.
            return
        case .needsLaunch:
            break
        }
        // The record read next holds every charge so far, also those of a run that just ended.
        await saveRuntime(of: app)
        guard let installed = try? await registry.app(app) else {
            return await abandon(records, of: app, reason: "the app is not installed")
        }
        // Another call may have launched it while the registry was read.
        if extensions[app] != nil { return await callExtension(of: app, records) }
        extensions.setRuntimeUsedToday(installed.extensionRuntimeUsed(on: clock.deviceTime(at: .now)), for: app)
        if case let .budgetExhausted(used) = runtimePolicy.grant(for: installed, at: clock.deviceTime(at: .now)) {
            let reason = "its daily runtime budget is spent (\(used.formatted()) of \(runtimePolicy.dailyBudget.formatted()) s)"
            trace.append(.init(from: "backgroundassetsd", to: "nobody", event: "extensionNotLaunched", app: app, detail: reason))
            return await abandon(records, of: app, reason: reason)
        }
        do {
            try launchExtension(installed)
        } catch {
            let reason = "\(installed.extensionExecutable.path) could not be started (\(error))"
            logger.error("The extension of \(app) was not launched: \(reason). Reinstall the app after building it.")
            trace.append(.init(from: "backgroundassetsd", to: "nobody", event: "extensionNotLaunched", app: app, detail: reason))
            return await abandon(records, of: app, reason: reason)
        }
        extensions[app]?.pending = records
    }

    /// Starts an app's extension process and its memory watch.
    private func launchExtension(_ installed: InstalledApp) throws {
        let app = installed.bundleIdentifier
        var environment = ProcessInfo.processInfo.environment
        environment["BA_DEVICE_ROOT"] = paths.root.path
        environment["BA_BUNDLE_IDENTIFIER"] = app
        environment["BA_PROCESS_ROLE"] = Hello.Role.extension.rawValue
        // Stands in for the extension reading its app's Info.plist, as it can on Apple platforms.
        environment["BA_MANIFEST_URL"] = installed.bundle.app.manifestURL.absoluteString
        // The extension runs from its installed bundle, linked again to the latest build first.
        if let built = installed.builtExtensionExecutable {
            try InstalledExecutable.refresh(installed.extensionExecutable, from: built)
        }
        let process = try ExtensionProcess.launch(executable: installed.extensionExecutable, environment: environment) {
            [weak self] exit in
            Task { await self?.extensionExited(app: app, exit) }
        }
        var run = ExtensionRun(process: process)
        let limit = configuration.extensionMemoryLimit
        let pid = process.processIdentifier
        run.memoryWatch = Task { [weak self] in
            while !Task.isCancelled {
                guard let resident = process.residentBytes else { return }
                if resident > limit {
                    let reason = "memory limit: its resident memory reached \(resident >> 20) MiB, over extensionMemoryLimit \(limit >> 20) MiB"
                    await self?.killExtension(of: app, pid: pid, reason: reason)
                    return
                }
                try? await Task.sleep(for: Self.memorySampleInterval)
            }
        }
        extensions[app] = run
        lastActivity = .now
        trace.append(.init(from: "backgroundassetsd", to: "extension", event: "extensionLaunched", app: app, detail: "pid \(pid)"))
    }

    /// The extension the service launched introduced itself: calls can flow.
    func extensionCheckIn(connection: UInt64, client: Client) -> ServerResponse {
        guard let hello = client.hello, hello.role == .extension,
            let running = extensions[hello.bundleIdentifier],
            running.process.processIdentifier == client.connection.peer.processIdentifier, running.connectionID == nil
        else {
            return failure(.callerConnectionNotAccepted, "Only the extension process the service launched can check in; the system launches extensions (try backgroundassets-debug simulate --app-install).")
        }
        let app = hello.bundleIdentifier
        extensions[app]?.connectionID = connection
        let coldStart = ContinuousClock.now - running.launchedAt
        trace.append(.init(from: "extension", to: "backgroundassetsd", event: "extensionCheckIn", app: app,
                           detail: "ready \(coldStart.milliseconds) ms after launch"))
        // After this answer is written: the first call follows the check-in's response.
        Task { self.sendNextCall(of: app) }
        return .done
    }

    /// Sends the next queued call, or lets an idle extension go.
    func sendNextCall(of app: String) {
        guard var run = extensions[app], let connectionID = run.connectionID, run.running == nil,
            run.ending == nil, let client = clients[connectionID]
        else { return }
        guard !run.pending.isEmpty else {
            if !run.isTerminating { scheduleTermination(of: app) }
            return
        }
        let record = run.pending.removeFirst()
        let id = allocateIdentifier()
        run.running = (id, record, .now)
        run.idleTimer?.cancel()
        let limit = runtimeLimit(for: app, record: record)
        run.deadline = Task { [weak self] in
            try? await Task.sleep(for: .seconds(fractional: limit.seconds))
            guard !Task.isCancelled else { return }
            await self?.callOverran(of: app, callID: id, limit: limit)
        }
        extensions[app] = run
        if case .contentRequest = record.purpose { extensions.contentRequestStarted(app) }
        // Traced before it is sent, so the trace never shows the extension's answer before the call.
        trace.append(.init(from: "backgroundassetsd", to: "extension", event: record.call.entryPoint, app: app,
                           download: record.call.downloadIdentifier, detail: record.call.traceDetail))
        client.connection.send(.event(.extensionCall(callID: id, call: record.call)))
    }

    /// The limit of the next call: the per-call limit, cut to what is left of today's budget.
    private func runtimeLimit(for app: String, record: ExtensionCallRecord) -> (seconds: Double, isBudget: Bool) {
        if case .willTerminate = record.call { return (Self.terminationGrace, false) }
        let left = max(0, runtimePolicy.dailyBudget - (extensions.runtimeUsedToday(app) ?? 0))
        return left < runtimePolicy.entryPointLimit ? (left, true) : (runtimePolicy.entryPointLimit, false)
    }

    /// An entry point returned: account its runtime, act on its result, send the next call.
    func extensionCallReturned(callID: UInt64, result: ExtensionCallResult, connection: UInt64) async -> ServerResponse {
        guard let (app, run) = extensions.run(onConnection: connection),
            let running = run.running, running.id == callID
        else {
            return failure(.callerConnectionInvalid, "No extension call \(callID) is running on this connection; it may have timed out.")
        }
        run.deadline?.cancel()
        extensions[app]?.running = nil
        extensions[app]?.deadline = nil
        let elapsed = ContinuousClock.now - running.sentAt
        trace.append(.init(from: "extension", to: "backgroundassetsd", event: "return", app: app,
                           download: running.record.call.downloadIdentifier,
                           detail: "\(running.record.call.entryPoint) in \(elapsed.milliseconds) ms"))
        chargeRuntime(elapsed, to: app)
        await complete(running.record, with: result, of: app)
        if case .willTerminate = running.record.call {
            extensions[app]?.ending = .finished
            scheduleForcedExit(of: app, pid: run.process.processIdentifier)
        } else {
            sendNextCall(of: app)
        }
        return .done
    }

    /// Acts on what an entry point returned.
    private func complete(_ record: ExtensionCallRecord, with result: ExtensionCallResult, of app: String) async {
        switch record.purpose {
        case let .contentRequest(kind, manifest):
            unlink(manifest.path)
            extensions.contentRequestEnded(app)
            var downloads: [DownloadDescriptor] = []
            if case let .downloads(returned) = result { downloads = returned }
            await acceptReturnedDownloads(downloads, for: kind, of: app)
        case let .delivery(file, _):
            // Deleted unless the extension moved it, which is what it was asked to do.
            unlink(file.path)
        case let .challenge(rowID):
            var answer = ChallengeAnswer(disposition: .performDefaultHandling)
            if case let .challengeAnswer(given) = result { answer = given }
            try? await queue.answerChallenge(id: rowID, answer: answer)
        case .notice:
            break
        }
        guard record.completesInstall else { return }
        // Apple's extension moves each essential file inside withExclusiveControl, after the entry point
        // returned: the app is launchable once those moves are done, when the extension lets go.
        if let connection = extensions[app]?.connectionID, arbiter.involves(connection, app: app) {
            extensions[app]?.completesInstallOnRelease = true
        } else {
            await markLaunchable(app)
        }
    }

    /// Gives up on calls that will never run or return.
    func abandon(_ records: [ExtensionCallRecord], of app: String, reason: String) async {
        for record in records {
            if record.completesInstall {
                await markLaunchable(app, note: "The extension did not receive every essential outcome (\(reason)).")
            }
            switch record.purpose {
            case let .contentRequest(kind, manifest):
                unlink(manifest.path)
                extensions.contentRequestEnded(app)
                if kind != .periodic, installs[app] != nil {
                    await markLaunchable(app, note: "The extension did not return downloads (\(reason)), so the app became launchable without essential assets.")
                }
            case let .delivery(file, _):
                unlink(file.path)
            case let .challenge(rowID):
                try? await queue.answerChallenge(id: rowID, answer: ChallengeAnswer(disposition: .performDefaultHandling))
            case .notice:
                break
            }
        }
    }

    /// Adds an entry point's runtime to the app's budget for today.
    ///
    /// The budget counts it at once; the app's record is written within a second, with the charges
    /// made meanwhile (see ``UnsavedRuntime``).
    func chargeRuntime(_ elapsed: Duration, to app: String) {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        let used = (extensions.runtimeUsedToday(app) ?? 0) + max(0, seconds)
        extensions.setRuntimeUsedToday(used, for: app)
        let charge = UnsavedRuntime.Charge(seconds: seconds, date: clock.deviceTime(at: .now))
        guard unsavedRuntime.add(charge, for: app) else { return }
        unsavedRuntime.scheduled(Task { [weak self] in
            try? await Task.sleep(for: UnsavedRuntime.saveDelay)
            guard !Task.isCancelled else { return }
            await self?.saveRuntime(of: app)
        }, for: app)
    }

    /// Writes the app's unsaved runtime charges to its record.
    func saveRuntime(of app: String) async {
        let charges = unsavedRuntime.take(for: app)
        guard !charges.isEmpty else { return }
        _ = try? await registry.update(app) { installed in
            for charge in charges { installed.recordExtensionRuntime(charge.seconds, at: charge.date) }
        }
    }
}
