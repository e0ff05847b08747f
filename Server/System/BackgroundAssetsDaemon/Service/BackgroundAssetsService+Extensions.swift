/*
Abstract:
The service's side of extension calls: events to the call lifecycle, its actions performed, and what a call's end means.
*/

import BackgroundAssetsIPC
import Foundation

extension BackgroundAssetsService {
    /// Queues entry-point calls for an app's extension, launching it when it is not running.
    ///
    /// Calls that cannot be made (the app is gone, its daily budget is spent, the executable does
    /// not start) are abandoned: a file the extension did not take is kept for the app, and an install they serve completes.
    func callExtension(of app: String, _ records: [ExtensionCallRecord]) async {
        await perform(extensionCalls.callsWanted(records, app: app, now: wallClock.now))
    }

    /// Hands what the extension host reported to the call lifecycle, with what only the service knows.
    func handle(_ event: ExtensionHost.Event) async {
        switch event {
        case let .checkedIn(app):
            await perform(extensionCalls.nextCall(of: app, now: wallClock.now))
        case let .deadlinePassed(app, callID):
            await perform(extensionCalls.deadlinePassed(app: app, callID: callID))
        case let .overLimit(app, pid, reason):
            await perform(extensionCalls.kill(app, pid: pid, reason: reason))
        case let .idle(app):
            let connection = extensionCalls.runs[app]?.connection
            let holdsExclusiveControl = connection.map { arbiter.involves($0, app: app) } ?? false
            await perform(extensionCalls.idleGracePassed(app: app, holdsExclusiveControl: holdsExclusiveControl))
        case let .forcedExitDue(app, pid):
            await perform(extensionCalls.forcedExitDue(app: app, pid: pid))
        case let .exited(app, exit):
            await perform(extensionCalls.processExited(app: app, exit, now: wallClock.now))
        case let .runtimeSaveDue(app):
            await saveRuntime(of: app)
        }
    }

    /// The extension the service launched introduced itself: calls can flow.
    func extensionCheckIn(client: Client) -> ServerResponse {
        guard let hello = client.hello, hello.role == .extension,
            let coldStart = extensionCalls.checkedIn(
                app: hello.bundleIdentifier, pid: client.connection.peer.processIdentifier, connection: client.connection.id, now: wallClock.now)
        else {
            return failure(.callerConnectionNotAccepted, "Only the extension process the service launched can check in; the system launches extensions (try backgroundassets-debug simulate --app-install).")
        }
        extensionHost.checkedIn(hello.bundleIdentifier, connection: client.connection, coldStart: coldStart)
        return .done
    }

    /// An entry point returned: act on its result, then send the next call.
    func extensionCallReturned(callID: UInt64, result: ExtensionCallResult, connection: UInt64) async -> ServerResponse {
        guard let returned = extensionCalls.callReturned(callID: callID, connection: connection, now: wallClock.now) else {
            return failure(.callerConnectionInvalid, "No extension call \(callID) is running on this connection; it may have timed out.")
        }
        await perform(returned.actions)
        await complete(returned.record, with: result, after: returned.parts, of: returned.app)
        if returned.sendsNext { await perform(extensionCalls.nextCall(of: returned.app, now: wallClock.now)) }
        return .done
    }

    /// The extension's connection closed: one that was not asked to go has crashed or quit, and is
    /// killed at once, so its exit reports the crash rather than an exit of its own.
    func extensionDisconnected(connection: UInt64, app: String) {
        for case let .kill(app, pid, reason) in extensionCalls.disconnected(app: app, connection: connection) {
            extensionHost.kill(app, pid: pid, reason: reason)
        }
    }

    /// Acts on what an entry point returned, after the parts of its answer it sent before.
    private func complete(_ record: ExtensionCallRecord, with result: ExtensionCallResult, after parts: ReturnedPartsTally, of app: String) async {
        switch record.purpose {
        case let .contentRequest(kind, manifest):
            unlink(manifest.path)
            if case .shouldDownload = record.call { return await assetPackSelectionReturned(result, kind: kind, of: app) }
            var downloads: [DownloadDescriptor] = []
            if case let .downloads(returned) = result { downloads = returned }
            await acceptReturnedDownloads(downloads, for: kind, of: app, after: parts)
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
            await perform(installs.essentialOutcomesReturned(app: app, extensionConnected: extensionCalls.runs[app]?.connection != nil))
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
                if case .shouldDownload = record.call { await assetPackSelectionAbandoned(of: app) }
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
