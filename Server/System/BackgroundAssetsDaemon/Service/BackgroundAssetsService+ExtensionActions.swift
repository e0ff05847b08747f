/*
Abstract:
The shell of the extension call lifecycle: performs what it decided, with the extension host for the process and its timers.
*/

import BackgroundAssetsIPC
import Foundation
import SystemLogging

extension BackgroundAssetsService {
    /// Does what the extension call lifecycle decided, in order.
    func perform(_ actions: [ExtensionCallAction]) async {
        for action in actions {
            switch action {
            case let .prepareLaunch(app, records):
                // The record read next holds every charge so far, also those of a run that just ended.
                await saveRuntime(of: app)
                let installed = try? await registry.app(app)
                await perform(extensionCalls.launchChecked(app: app, records: records, installed: installed, now: wallClock.now, deviceNow: deviceNow))
            case let .launch(installed, records):
                await launchExtension(of: installed, records)
            case let .refuseLaunch(app, records, reason):
                extensionHost.notLaunched(app, reason: reason)
                await abandon(records, of: app, reason: reason)
            case let .send(app, callID, record, limit):
                extensionHost.send(record, callID: callID, limit: limit, to: app)
            case let .sendAhead(app, callID, record):
                extensionHost.send(record, callID: callID, limit: nil, to: app)
            case let .startDeadline(app, callID, limit):
                extensionHost.startDeadline(of: callID, limit: limit, for: app)
            case let .returned(app, record, seconds):
                extensionHost.returned(record, of: app, seconds: seconds)
            case let .recordRuntime(app, seconds):
                extensionHost.recordRuntime(seconds, of: app, deviceNow: deviceNow)
            case let .armIdleGrace(app):
                // Its queue drained: notices waiting in its backlog come before any idleness.
                let held = extensionHost.takeHeldNotices(of: app)
                if held.isEmpty { extensionHost.armIdleGrace(of: app) } else { await callExtension(of: app, held) }
            case let .cancelIdleTimer(app):
                extensionHost.cancelIdleTimer(of: app)
            case let .armExclusiveControlLimit(app, pid, seconds):
                extensionHost.armExclusiveControlLimit(of: app, pid: pid, seconds: seconds)
            case let .armForcedExit(app, pid):
                extensionHost.armForcedExit(of: app, pid: pid)
            case let .kill(app, pid, reason):
                extensionHost.kill(app, pid: pid, reason: reason)
            case let .killQuietly(app, pid):
                extensionHost.killQuietly(app, pid: pid)
            case let .ended(app, exit, reason, unexpected):
                let entry = extensionHost.ended(app, exit, reason: reason, unexpected: unexpected)
                // The run is over: its runtime goes into the record now rather than a second later,
                // before the trace says it ended.
                await saveRuntime(of: app)
                trace.append(entry)
            case let .extensionDone(app):
                await extensionIsDone(app: app)
            case let .askToTerminate(app):
                await perform(extensionCalls.askToTerminate(app: app, now: wallClock.now))
            case let .abandon(app, records, reason):
                await abandon(records, of: app, reason: reason)
            case let .partlyReturned(app, record, parts, reason):
                await partlyReturned(record, parts: parts, of: app, reason: reason)
            }
        }
        // Once every action is done: a file the extension left behind is kept for the app before a
        // waiter that file held back gets control.
        var noted: [String] = []
        for action in actions where !noted.contains(action.app) {
            noted.append(action.app)
            noteFileInHand(of: action.app)
        }
    }

    /// Starts the extension and tells the lifecycle, or tells it why it did not start.
    private func launchExtension(of installed: InstalledApp, _ records: [ExtensionCallRecord]) async {
        let app = installed.bundleIdentifier
        do {
            let pid = try extensionHost.launch(installed)
            lastActivity = wallClock.now
            extensionCalls.launched(app: app, pid: pid, records: records, now: wallClock.now)
        } catch is ServiceStopping {
            // Nothing is launched while the service stops. The calls end with it, as they would if
            // it were killed, and the next start settles what they were for.
        } catch {
            let reason = "\(installed.extensionExecutable?.path ?? "its extension") could not be started (\(error))"
            logger.error("The extension of \(app) was not launched: \(reason). Reinstall the app after building it.")
            await perform(extensionCalls.launchFailed(app: app, records: records, reason: reason))
        }
    }
}
