/*
Abstract:
How an extension's run ends: asked to terminate when idle, killed over a limit, or noticed when it crashes.
*/

import BackgroundAssetsIPC
import Foundation

extension BackgroundAssetsService {
    /// Asks an idle extension to terminate, after a short grace and only when it holds no exclusive control.
    func scheduleTermination(of app: String) {
        extensions[app]?.idleTimer?.cancel()
        extensions[app]?.idleTimer = Task { [weak self] in
            try? await Task.sleep(for: Self.extensionIdleGrace)
            guard !Task.isCancelled else { return }
            await self?.terminateIfIdle(app)
        }
    }

    private func terminateIfIdle(_ app: String) {
        guard let run = extensions[app], !run.hasWork, !run.isTerminating, run.ending == nil,
            let connectionID = run.connectionID
        else { return }
        // The async exclusive-control handler keeps the extension alive until it returns, but
        // no longer than an entry point may run: holding the lock is work like any other.
        if arbiter.involves(connectionID, app: app) {
            let limit = runtimePolicy.entryPointLimit
            let pid = run.process.processIdentifier
            extensions[app]?.idleTimer = Task { [weak self] in
                try? await Task.sleep(for: .seconds(fractional: limit))
                guard !Task.isCancelled else { return }
                await self?.killExtension(
                    of: app, pid: pid,
                    reason: "runtime limit: it held exclusive control for more than the \(limit.formatted()) s extensionRuntimeLimit after its last entry point returned")
            }
            return
        }
        extensions[app]?.isTerminating = true
        extensions[app]?.pending = [ExtensionCallRecord(call: .willTerminate, purpose: .notice)]
        sendNextCall(of: app)
    }

    /// An extension's exclusive control ended: it may now be idle.
    func extensionReleasedExclusiveControl(app: String, connection: UInt64) async {
        if extensions[app]?.connectionID == connection, extensions[app]?.completesInstallOnRelease == true,
           !arbiter.involves(connection, app: app) {
            extensions[app]?.completesInstallOnRelease = false
            await markLaunchable(app)
        }
        guard let run = extensions[app], run.connectionID == connection, !run.hasWork else { return }
        scheduleTermination(of: app)
    }

    /// Kills the process if it does not exit on its own after `extensionWillTerminate()`.
    func scheduleForcedExit(of app: String, pid: Int32) {
        Task { [weak self] in
            try? await Task.sleep(for: .seconds(fractional: Self.terminationGrace))
            await self?.forceExit(of: app, pid: pid)
        }
    }

    private func forceExit(of app: String, pid: Int32) {
        guard let run = extensions[app], run.process.processIdentifier == pid else { return }
        run.process.kill()
    }

    /// A call ran past its limit: the extension is killed, as the system does.
    func callOverran(of app: String, callID: UInt64, limit: (seconds: Double, isBudget: Bool)) {
        guard let run = extensions[app], let running = run.running, running.id == callID else { return }
        let entryPoint = running.record.call.entryPoint
        let reason = limit.isBudget
            ? "daily budget: \(entryPoint) ran past the \(runtimePolicy.dailyBudget.formatted()) s extensionDailyBudget"
            : "runtime limit: \(entryPoint) ran longer than the \(limit.seconds.formatted()) s extensionRuntimeLimit"
        killExtension(of: app, pid: run.process.processIdentifier, reason: reason)
    }

    /// Kills an extension over a limit and records why.
    func killExtension(of app: String, pid: Int32, reason: String) {
        guard let run = extensions[app], run.process.processIdentifier == pid, run.ending == nil else { return }
        extensions[app]?.ending = .killed(reason)
        extensions.recordTermination(of: app, reason: reason)
        logger.error("Killed the extension of \(app) (pid \(pid)): \(reason).")
        trace.append(.init(from: "backgroundassetsd", to: "extension", event: "extensionKilled", app: app, detail: reason))
        run.process.kill()
    }

    /// The extension's connection closed: an extension that is not terminating has crashed or quit.
    func extensionDisconnected(connection: UInt64, app: String) {
        guard let run = extensions[app], run.connectionID == connection else { return }
        if run.ending == nil, !run.isTerminating {
            killExtension(of: app, pid: run.process.processIdentifier, reason: "crash: it closed its connection to the service")
        }
    }

    /// The process ended: calls it owed are abandoned, and calls that waited for it get a fresh launch.
    func extensionExited(app: String, _ exit: ExtensionProcess.Exit) async {
        guard let run = extensions[app], run.process.processIdentifier == exit.processIdentifier else { return }
        extensions[app] = nil
        run.deadline?.cancel()
        run.memoryWatch?.cancel()
        run.idleTimer?.cancel()
        if let connectionID = run.connectionID { clients[connectionID]?.connection.close() }
        var owed = run.pending
        if let running = run.running {
            owed.insert(running.record, at: 0)
            chargeRuntime(ContinuousClock.now - running.sentAt, to: app)
        }
        // The run is over: its runtime goes into the record now rather than a second later.
        await saveRuntime(of: app)
        let reason: String
        switch run.ending {
        case let .killed(why):
            reason = why
        case .finished:
            reason = "terminated after its work"
        case nil:
            reason = "crash: it \(exit) without being asked to"
            extensions.recordTermination(of: app, reason: reason)
            logger.error("The extension of \(app) (pid \(exit.processIdentifier)) \(exit) on its own.")
        }
        trace.append(.init(from: "extension", to: "backgroundassetsd", event: "extensionExited", app: app,
                           detail: "\(exit); \(reason); peak memory \(run.process.peakResidentBytes >> 20) MiB"))
        await abandon(owed.filter { if case .willTerminate = $0.call { false } else { true } }, of: app, reason: reason)
        // An extension that ended while it still held exclusive control for its moves ends the install too.
        if run.completesInstallOnRelease { await markLaunchable(app) }
        let waiting = extensions.takeDeferred(of: app)
        if !waiting.isEmpty {
            await callExtension(of: app, waiting)
        }
    }
}
