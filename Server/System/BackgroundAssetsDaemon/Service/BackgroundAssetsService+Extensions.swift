/*
Abstract:
Routing between the service and its extension host: calls to make, what the host reports, and what a call's end means.
*/

import BackgroundAssetsIPC
import Foundation

extension BackgroundAssetsService {
    /// Queues entry-point calls for an app's extension, launching it when it is not running.
    ///
    /// Calls that cannot be made (the app is gone, its daily budget is spent, the executable does
    /// not start) are abandoned: a file the extension did not take is kept for the app, and an install they serve completes.
    func callExtension(of app: String, _ records: [ExtensionCallRecord]) async {
        guard !records.isEmpty else { return }
        switch extensionHost.runs.queue(records, for: app) {
        case .toRunning:
            extensionHost.runs[app]?.idleTimer?.cancel()
            extensionHost.sendNextCall(of: app)
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
        if extensionHost.runs[app] != nil { return await callExtension(of: app, records) }
        extensionHost.runs.setRuntimeUsedToday(installed.extensionRuntimeUsed(on: deviceNow), for: app)
        if case let .budgetExhausted(used) = extensionHost.policy.grant(for: installed, at: deviceNow) {
            let reason = "its daily runtime budget is spent (\(used.formatted()) of \(extensionHost.policy.dailyBudget.formatted()) s)"
            trace.append(.init(from: "backgroundassetsd", to: "nobody", event: "extensionNotLaunched", app: app, detail: reason))
            return await abandon(records, of: app, reason: reason)
        }
        do {
            try extensionHost.launch(installed)
        } catch is ServiceStopping {
            // Nothing is launched while the service stops. The calls end with it, as they would if
            // it were killed, and the next start settles what they were for.
            return
        } catch {
            let reason = "\(installed.extensionExecutable?.path ?? "its extension") could not be started (\(error))"
            logger.error("The extension of \(app) was not launched: \(reason). Reinstall the app after building it.")
            trace.append(.init(from: "backgroundassetsd", to: "nobody", event: "extensionNotLaunched", app: app, detail: reason))
            return await abandon(records, of: app, reason: reason)
        }
        lastActivity = time.now
        extensionHost.runs[app]?.pending = ExtensionCallQueue(records)
    }

    /// Hands what the extension host reported back to it, with what only the service knows.
    func handle(_ event: ExtensionHost.Event) async {
        switch event {
        case let .checkedIn(app):
            extensionHost.sendNextCall(of: app)
        case let .callOverran(app, callID, limit):
            extensionHost.callOverran(of: app, callID: callID, limit: limit)
        case let .overLimit(app, pid, reason):
            extensionHost.kill(app, pid: pid, reason: reason)
        case let .idle(app):
            let holdsExclusiveControl = extensionHost.runs[app]?.connection.map { arbiter.involves($0.id, app: app) } ?? false
            // Done with what it was given: an install waiting for it ends before it is asked to go.
            if !holdsExclusiveControl, extensionHost.isIdle(app) { await extensionIsDone(app: app) }
            extensionHost.terminateIfIdle(app, holdsExclusiveControl: holdsExclusiveControl)
        case let .forcedExitDue(app, pid):
            extensionHost.forceExit(of: app, pid: pid)
        case let .exited(app, exit):
            await extensionExited(app: app, exit)
        case let .runtimeSaveDue(app):
            await saveRuntime(of: app)
        }
    }

    /// The extension the service launched introduced itself: calls can flow.
    func extensionCheckIn(client: Client) -> ServerResponse {
        guard let hello = client.hello, hello.role == .extension,
            extensionHost.checkIn(app: hello.bundleIdentifier, connection: client.connection)
        else {
            return failure(.callerConnectionNotAccepted, "Only the extension process the service launched can check in; the system launches extensions (try backgroundassets-debug simulate --app-install).")
        }
        return .done
    }

    /// An entry point returned: act on its result, then send the next call.
    func extensionCallReturned(callID: UInt64, result: ExtensionCallResult, connection: UInt64) async -> ServerResponse {
        guard let (app, record) = extensionHost.callReturned(callID: callID, connection: connection, deviceNow: deviceNow) else {
            return failure(.callerConnectionInvalid, "No extension call \(callID) is running on this connection; it may have timed out.")
        }
        await complete(record, with: result, of: app)
        if case .willTerminate = record.call {} else { extensionHost.sendNextCall(of: app) }
        return .done
    }

    /// The process ended: calls it owed are abandoned, and calls that waited for it get a fresh launch.
    private func extensionExited(app: String, _ exit: ExtensionProcess.Exit) async {
        guard let ending = extensionHost.exited(app: app, exit, deviceNow: deviceNow) else { return }
        // The run is over: its runtime goes into the record now rather than a second later, before
        // the trace says it ended.
        await saveRuntime(of: app)
        trace.append(ending.traceEntry)
        await extensionIsDone(app: app)
        await abandon(ending.owed, of: app, reason: ending.reason)
        if !ending.deferred.isEmpty { await callExtension(of: app, ending.deferred) }
    }

    /// Acts on what an entry point returned.
    private func complete(_ record: ExtensionCallRecord, with result: ExtensionCallResult, of app: String) async {
        switch record.purpose {
        case let .contentRequest(kind, manifest):
            unlink(manifest.path)
            extensionHost.runs.contentRequestEnded(app)
            if case .shouldDownload = record.call { return await assetPackSelectionReturned(result, kind: kind, of: app) }
            var downloads: [DownloadDescriptor] = []
            if case let .downloads(returned) = result { downloads = returned }
            await acceptReturnedDownloads(downloads, for: kind, of: app)
        case let .delivery(file, _):
            // Deleted unless the extension moved it, which is what it was asked to do.
            StagingArea.release(handedOver: file)
        case let .challenge(rowID):
            var answer = ChallengeAnswer(disposition: .performDefaultHandling)
            if case let .challengeAnswer(given) = result { answer = given }
            try? await queue.answerChallenge(id: rowID, answer: answer)
        case .notice:
            break
        }
        if record.completesInstall {
            // The sample moves each file into place under exclusive control, which it asks for from
            // its entry point and may get only after the call returned.
            await perform(installs.essentialOutcomesReturned(app: app, extensionConnected: extensionHost.runs[app]?.connection != nil))
        }
    }

    /// The extension of an app stayed idle for the idle grace, or ended: an install held for it ends.
    func extensionIsDone(app: String) async {
        await perform(installs.extensionDone(app: app))
    }

    /// Gives up on calls that will never run or return.
    func abandon(_ records: [ExtensionCallRecord], of app: String, reason: String) async {
        for record in records {
            if record.completesInstall { await perform(installs.essentialOutcomesUndelivered(app: app, reason: reason)) }
            switch record.purpose {
            case let .contentRequest(kind, manifest):
                unlink(manifest.path)
                extensionHost.runs.contentRequestEnded(app)
                await perform(installs.contentRequestAbandoned(app: app, kind: kind, reason: reason))
            case let .delivery(file, rowID):
                await extensionDidNotTake(file, rowID: rowID, of: app)
            case let .challenge(rowID):
                try? await queue.answerChallenge(id: rowID, answer: ChallengeAnswer(disposition: .performDefaultHandling))
            case .notice:
                break
            }
        }
    }

    /// Writes the app's unsaved runtime charges to its record.
    func saveRuntime(of app: String) async {
        let charges = extensionHost.unsavedRuntime.take(for: app)
        guard !charges.isEmpty else { return }
        _ = try? await registry.update(app) { installed in
            for charge in charges { installed.recordExtensionRuntime(charge.seconds, at: charge.date) }
        }
    }
}
