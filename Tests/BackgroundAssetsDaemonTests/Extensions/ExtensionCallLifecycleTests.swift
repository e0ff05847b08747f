/*
Abstract:
Tests for the extension call lifecycle: launch and its refusals, one call at a time, returns, deadlines, crashes, idleness and the budget, with no process.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Testing

@Suite("Extension call lifecycle")
struct ExtensionCallLifecycleTests {
    static let t0 = AppRegistryTests.installDate
    static let pid: Int32 = 4242
    static let connection: UInt64 = 9
    static let policy = ExtensionRuntimePolicy(entryPointLimit: 60, dailyBudget: 600)

    static func at(_ seconds: Double) -> Date { t0.addingTimeInterval(seconds) }

    static func delivery(_ rowID: Int64) -> ExtensionCallRecord {
        let download = DownloadDescriptor(
            identifier: "d\(rowID)", uniqueIdentifier: "u\(rowID)", url: "https://example.com/\(rowID)", fileSize: 1,
            applicationGroupIdentifier: "group.com.example.app")
        return ExtensionCallRecord(call: .finished(download: download, filePath: "/f\(rowID)"),
                                   purpose: .delivery(file: URL(fileURLWithPath: "/f\(rowID)"), rowID: rowID))
    }

    static let terminate = ExtensionCallRecord(call: .willTerminate, purpose: .notice)

    /// A lifecycle whose app's extension was launched for `records` and checked in, with the first call sent.
    static func running(
        _ records: [ExtensionCallRecord], usedToday: Double = 0
    ) throws -> (lifecycle: ExtensionCallLifecycle, app: InstalledApp, first: [ExtensionCallAction]) {
        var app = try AppRegistryTests.sampleApp()
        if usedToday > 0 { app.recordExtensionRuntime(usedToday, at: t0) }
        var lifecycle = ExtensionCallLifecycle(policy: policy)
        let id = app.bundleIdentifier
        #expect(lifecycle.callsWanted(records, app: id, now: t0) == [.prepareLaunch(app: id, records)])
        #expect(lifecycle.launchChecked(app: id, records: records, installed: app, now: t0, deviceNow: t0) == [.launch(app, records)])
        lifecycle.launched(app: id, pid: pid, records: records, now: t0)
        #expect(lifecycle.nextCall(of: id, now: at(0.1)).isEmpty, "nothing is sent before the check-in")
        #expect(lifecycle.checkedIn(app: id, pid: pid, connection: connection, now: at(0.5)) == 0.5)
        let first = lifecycle.nextCall(of: id, now: at(1))
        return (lifecycle, app, first)
    }

    static func sentID(_ actions: [ExtensionCallAction]) -> UInt64? {
        for case let .send(_, callID, _, _) in actions { return callID }
        return nil
    }

    // MARK: - Launching

    @Test("Calls wanted with no extension running launch one; it gets them one at a time once it checks in")
    func launchAndSend() throws {
        let setup = try Self.running([Self.delivery(1), Self.delivery(2)])
        var lifecycle = setup.lifecycle
        let id = setup.app.bundleIdentifier
        #expect(setup.first == [.send(app: id, callID: 1, Self.delivery(1), limit: .init(seconds: 60, isBudget: false))])
        #expect(lifecycle.nextCall(of: id, now: Self.at(2)).isEmpty, "one call at a time")
        // More calls while one runs wait behind it.
        #expect(lifecycle.callsWanted([Self.delivery(3)], app: id, now: Self.at(2)) == [.cancelIdleTimer(app: id)])
        #expect(lifecycle.runs.callsOwed(to: id).count == 3)
    }

    @Test("A process that is not the one launched, or checks in twice, is refused")
    func checkInRefused() throws {
        let setup = try Self.running([Self.delivery(1)])
        var lifecycle = setup.lifecycle
        let id = setup.app.bundleIdentifier
        #expect(lifecycle.checkedIn(app: id, pid: Self.pid, connection: 10, now: Self.at(2)) == nil, "already checked in")
        #expect(lifecycle.checkedIn(app: "com.example.other", pid: Self.pid, connection: 11, now: Self.at(2)) == nil)
        var fresh = ExtensionCallLifecycle(policy: Self.policy)
        fresh.launched(app: id, pid: Self.pid, records: [], now: Self.t0)
        #expect(fresh.checkedIn(app: id, pid: Self.pid + 1, connection: 12, now: Self.at(1)) == nil, "another process")
    }

    @Test("Calls for an app that is not installed are abandoned, saying so")
    func notInstalled() {
        var lifecycle = ExtensionCallLifecycle(policy: Self.policy)
        let records = [Self.delivery(1)]
        #expect(lifecycle.launchChecked(app: "com.example.gone", records: records, installed: nil, now: Self.t0, deviceNow: Self.t0)
            == [.abandon(app: "com.example.gone", records, reason: "the app is not installed")])
        #expect(lifecycle.isEmpty)
    }

    @Test("A spent daily budget refuses the launch, and an executable that does not start abandons the calls with its error")
    func launchRefused() throws {
        var app = try AppRegistryTests.sampleApp()
        app.recordExtensionRuntime(600, at: Self.t0)
        let id = app.bundleIdentifier
        var lifecycle = ExtensionCallLifecycle(policy: Self.policy)
        let records = [Self.delivery(1)]
        #expect(lifecycle.launchChecked(app: id, records: records, installed: app, now: Self.t0, deviceNow: Self.t0)
            == [.refuseLaunch(app: id, records, reason: "its daily runtime budget is spent (600 of 600 s)")])
        #expect(lifecycle.launchFailed(app: id, records: records, reason: "x could not be started")
            == [.refuseLaunch(app: id, records, reason: "x could not be started")])
        #expect(lifecycle.isEmpty, "nothing runs")
    }

    @Test("Calls wanted while the record was read join the extension another call launched meanwhile")
    func launchedMeanwhile() throws {
        let setup = try Self.running([Self.delivery(1)])
        var lifecycle = setup.lifecycle
        let id = setup.app.bundleIdentifier
        #expect(lifecycle.launchChecked(app: id, records: [Self.delivery(2)], installed: setup.app, now: Self.at(2), deviceNow: Self.at(2))
            == [.cancelIdleTimer(app: id)])
        #expect(lifecycle.runs.callsOwed(to: id).count == 2)
    }

    // MARK: - Returns and deadlines

    @Test("A returned call is charged, and the next one follows; a return on another connection or for another call is refused")
    func returns() throws {
        let setup = try Self.running([Self.delivery(1), Self.delivery(2)])
        var lifecycle = setup.lifecycle
        let id = setup.app.bundleIdentifier
        let callID = try #require(Self.sentID(setup.first))
        #expect(lifecycle.callReturned(callID: callID, connection: Self.connection + 1, now: Self.at(3)) == nil)
        #expect(lifecycle.callReturned(callID: callID + 1, connection: Self.connection, now: Self.at(3)) == nil)
        let returnedResult = lifecycle.callReturned(callID: callID, connection: Self.connection, now: Self.at(3))
        let returned = try #require(returnedResult)
        #expect(returned == .init(app: id, record: Self.delivery(1), actions: [
            .returned(app: id, Self.delivery(1), seconds: 2), .recordRuntime(app: id, seconds: 2),
        ], sendsNext: true))
        #expect(lifecycle.runs.runtimeUsedToday(id) == 2)
        #expect(lifecycle.callReturned(callID: callID, connection: Self.connection, now: Self.at(4)) == nil, "a call ends once")
        #expect(Self.sentID(lifecycle.nextCall(of: id, now: Self.at(4))) == callID + 1)
    }

    @Test("A call past its deadline kills the process once; its exit abandons the call with the deadline's reason")
    func deadline() throws {
        let setup = try Self.running([Self.delivery(1), Self.delivery(2)])
        var lifecycle = setup.lifecycle
        let id = setup.app.bundleIdentifier
        let callID = try #require(Self.sentID(setup.first))
        let reason = "runtime limit: backgroundDownload(_:finishedWithFileURL:) ran longer than the 60 s extensionRuntimeLimit"
        #expect(lifecycle.deadlinePassed(app: id, callID: callID + 7).isEmpty, "another call's deadline")
        #expect(lifecycle.deadlinePassed(app: id, callID: callID) == [.kill(app: id, pid: Self.pid, reason: reason)])
        #expect(lifecycle.kill(id, pid: Self.pid, reason: "memory limit").isEmpty, "killed once")
        #expect(lifecycle.runs.lastTermination(of: id) == reason, "the first reason is kept")

        let exit = ExtensionProcess.Exit(processIdentifier: Self.pid, status: 9, wasSignalled: true)
        #expect(lifecycle.processExited(app: id, exit, now: Self.at(61)) == [
            .recordRuntime(app: id, seconds: 60),
            .ended(app: id, exit, reason: reason, unexpected: false),
            .extensionDone(app: id),
            .abandon(app: id, [Self.delivery(1), Self.delivery(2)], reason: reason),
        ])
        #expect(lifecycle.isEmpty)
        #expect(lifecycle.processExited(app: id, exit, now: Self.at(62)).isEmpty, "the run ends once")
    }

    @Test("A call that returns after its deadline killed the process is acted on, and not abandoned again at the exit")
    func returnAfterDeadline() throws {
        let setup = try Self.running([Self.delivery(1)])
        var lifecycle = setup.lifecycle
        let id = setup.app.bundleIdentifier
        let callID = try #require(Self.sentID(setup.first))
        _ = lifecycle.deadlinePassed(app: id, callID: callID)
        #expect(lifecycle.callReturned(callID: callID, connection: Self.connection, now: Self.at(61))?.record == Self.delivery(1))
        #expect(lifecycle.nextCall(of: id, now: Self.at(61)).isEmpty, "nothing is sent to a process being killed")
        let exit = ExtensionProcess.Exit(processIdentifier: Self.pid, status: 9, wasSignalled: true)
        let actions = lifecycle.processExited(app: id, exit, now: Self.at(62))
        #expect(!actions.contains { if case .abandon = $0 { true } else { false } })
    }

    @Test("The call's limit is cut to the budget left, and its deadline then names the daily budget")
    func budgetCutsTheLimit() throws {
        let setup = try Self.running([Self.delivery(1)], usedToday: 580)
        var lifecycle = setup.lifecycle
        let id = setup.app.bundleIdentifier
        #expect(setup.first == [.send(app: id, callID: 1, Self.delivery(1), limit: .init(seconds: 20, isBudget: true))])
        #expect(lifecycle.deadlinePassed(app: id, callID: 1)
            == [.kill(app: id, pid: Self.pid, reason: "daily budget: backgroundDownload(_:finishedWithFileURL:) ran past the 600 s extensionDailyBudget")])
    }

    @Test("A reset budget gives the next call its whole limit")
    func budgetReset() throws {
        let setup = try Self.running([Self.delivery(1), Self.delivery(2)], usedToday: 580)
        var lifecycle = setup.lifecycle
        let id = setup.app.bundleIdentifier
        lifecycle.budgetReset(app: id)
        _ = lifecycle.callReturned(callID: try #require(Self.sentID(setup.first)), connection: Self.connection, now: Self.at(2))
        #expect(lifecycle.nextCall(of: id, now: Self.at(2)) == [.send(app: id, callID: 2, Self.delivery(2), limit: .init(seconds: 60, isBudget: false))])
        #expect(lifecycle.runs.runtimeUsedToday(id) == 1)
    }

    // MARK: - Crashes

    @Test("A process that exits on its own mid-call abandons the running and queued calls as a crash, and is charged")
    func crashMidCall() throws {
        let setup = try Self.running([Self.delivery(1), Self.delivery(2)])
        var lifecycle = setup.lifecycle
        let id = setup.app.bundleIdentifier
        let exit = ExtensionProcess.Exit(processIdentifier: Self.pid, status: 1, wasSignalled: false)
        let reason = "crash: it \(exit) without being asked to"
        #expect(lifecycle.processExited(app: id, exit, now: Self.at(5)) == [
            .recordRuntime(app: id, seconds: 4),
            .ended(app: id, exit, reason: reason, unexpected: true),
            .extensionDone(app: id),
            .abandon(app: id, [Self.delivery(1), Self.delivery(2)], reason: reason),
        ])
        #expect(lifecycle.runs.lastTermination(of: id) == reason)
        #expect(lifecycle.pid(of: id) == nil)
        #expect(lifecycle.processExited(app: "com.example.other", exit, now: Self.at(5)).isEmpty)
    }

    @Test("A connection that closes while the extension works is a crash: killed, and its calls abandoned with that reason")
    func connectionClosed() throws {
        let setup = try Self.running([Self.delivery(1)])
        var lifecycle = setup.lifecycle
        let id = setup.app.bundleIdentifier
        let reason = "crash: it closed its connection to the service"
        #expect(lifecycle.disconnected(app: id, connection: Self.connection + 1).isEmpty, "another connection")
        #expect(lifecycle.disconnected(app: id, connection: Self.connection) == [.kill(app: id, pid: Self.pid, reason: reason)])
        let exit = ExtensionProcess.Exit(processIdentifier: Self.pid, status: 9, wasSignalled: true)
        let actions = lifecycle.processExited(app: id, exit, now: Self.at(2))
        #expect(actions.last == .abandon(app: id, [Self.delivery(1)], reason: reason))
    }

    @Test("A content request that dies with its process no longer counts as answering, and calls deferred meanwhile get a fresh launch")
    func contentRequestAndDeferred() throws {
        let manifest = URL(fileURLWithPath: "/staging/manifests/m.json")
        let request = ExtensionCallRecord(call: .downloads(request: .install, manifestPath: manifest.path,
                                                           restrictedDownloadSizeRemaining: 0, restrictedEssentialDownloadSizeRemaining: 0),
                                          purpose: .contentRequest(.install, manifest: manifest))
        let setup = try Self.running([request])
        var lifecycle = setup.lifecycle
        let id = setup.app.bundleIdentifier
        #expect(lifecycle.runs.isAnsweringContentRequest(id))
        _ = lifecycle.kill(id, pid: Self.pid, reason: "memory limit")
        #expect(lifecycle.callsWanted([Self.delivery(2)], app: id, now: Self.at(2)).isEmpty, "they wait for a fresh launch")
        let exit = ExtensionProcess.Exit(processIdentifier: Self.pid, status: 9, wasSignalled: true)
        let actions = lifecycle.processExited(app: id, exit, now: Self.at(3))
        #expect(Array(actions.suffix(2)) == [
            .abandon(app: id, [request], reason: "memory limit"), .prepareLaunch(app: id, [Self.delivery(2)]),
        ])
        #expect(!lifecycle.runs.isAnsweringContentRequest(id))
    }

    // MARK: - Idleness and termination

    @Test("An idle extension is done, asked to terminate, and its end is no crash; it is killed if it outstays the grace")
    func idleThenTerminate() throws {
        let setup = try Self.running([Self.delivery(1)])
        var lifecycle = setup.lifecycle
        let id = setup.app.bundleIdentifier
        #expect(lifecycle.idleGracePassed(app: id, holdsExclusiveControl: false).isEmpty, "not idle while a call runs")
        _ = lifecycle.callReturned(callID: try #require(Self.sentID(setup.first)), connection: Self.connection, now: Self.at(2))
        #expect(lifecycle.nextCall(of: id, now: Self.at(2)) == [.armIdleGrace(app: id)])
        #expect(lifecycle.idleGracePassed(app: id, holdsExclusiveControl: false) == [.extensionDone(app: id), .askToTerminate(app: id)])
        let asked = lifecycle.askToTerminate(app: id, now: Self.at(3))
        #expect(asked == [.send(app: id, callID: 2, Self.terminate, limit: .init(seconds: 2, isBudget: false))])
        #expect(lifecycle.callsWanted([Self.delivery(5)], app: id, now: Self.at(3)).isEmpty, "calls wait for the next launch")
        let lastResult = lifecycle.callReturned(callID: 2, connection: Self.connection, now: Self.at(3.5))
        let last = try #require(lastResult)
        #expect(!last.sendsNext)
        #expect(last.actions.last == .armForcedExit(app: id, pid: Self.pid))
        #expect(lifecycle.forcedExitDue(app: id, pid: Self.pid) == [.killQuietly(app: id, pid: Self.pid)])
        #expect(lifecycle.disconnected(app: id, connection: Self.connection).isEmpty, "a terminating extension's close is no crash")
        let exit = ExtensionProcess.Exit(processIdentifier: Self.pid, status: 0, wasSignalled: false)
        #expect(lifecycle.processExited(app: id, exit, now: Self.at(4)) == [
            .ended(app: id, exit, reason: "terminated after its work", unexpected: false),
            .extensionDone(app: id),
            .prepareLaunch(app: id, [Self.delivery(5)]),
        ])
        #expect(lifecycle.runs.lastTermination(of: id) == nil, "an ordinary end is not a termination")
    }

    @Test("An idle extension that holds exclusive control is not asked to go, but given the per-call limit; work arriving keeps it")
    func exclusiveControlHold() throws {
        let setup = try Self.running([Self.delivery(1)])
        var lifecycle = setup.lifecycle
        let id = setup.app.bundleIdentifier
        _ = lifecycle.callReturned(callID: try #require(Self.sentID(setup.first)), connection: Self.connection, now: Self.at(2))
        #expect(lifecycle.idleGracePassed(app: id, holdsExclusiveControl: true)
            == [.armExclusiveControlLimit(app: id, pid: Self.pid, seconds: 60)])
        #expect(lifecycle.releasedExclusiveControl(app: id, connection: Self.connection, holdsExclusiveControl: false)
            == [.extensionDone(app: id), .armIdleGrace(app: id)], "holding nothing and waiting for nothing, it is done")
        #expect(lifecycle.releasedExclusiveControl(app: id, connection: Self.connection, holdsExclusiveControl: true)
            == [.armIdleGrace(app: id)], "still waiting for control, it is not done yet")
        #expect(lifecycle.releasedExclusiveControl(app: id, connection: Self.connection + 1, holdsExclusiveControl: false).isEmpty)
        #expect(lifecycle.callsWanted([Self.delivery(2)], app: id, now: Self.at(3))
            == [.cancelIdleTimer(app: id), .send(app: id, callID: 2, Self.delivery(2), limit: .init(seconds: 60, isBudget: false))])
        #expect(lifecycle.askToTerminate(app: id, now: Self.at(3)).isEmpty, "not idle any more")
    }

    @Test("Letting go of exclusive control with only failure notices left is done with its files; a file or a challenge left is not")
    func releaseWithNoticesLeft() throws {
        let notices = (0..<3).map { ExtensionCallRecord(call: ExtensionNoticeBacklogTests.notice($0), purpose: .notice) }
        let setup = try Self.running([Self.delivery(1)] + notices)
        var lifecycle = setup.lifecycle
        let id = setup.app.bundleIdentifier
        _ = lifecycle.callReturned(callID: try #require(Self.sentID(setup.first)), connection: Self.connection, now: Self.at(2))
        #expect(lifecycle.runs[id]?.hasWork == true, "the notices are still owed")
        #expect(lifecycle.releasedExclusiveControl(app: id, connection: Self.connection, holdsExclusiveControl: false)
            == [.extensionDone(app: id)], "the notices hand it no file: done, and no grace while it still has calls")
        #expect(lifecycle.releasedExclusiveControl(app: id, connection: Self.connection, holdsExclusiveControl: true).isEmpty,
                "still waiting for control for a file it was given")

        let challenge = ExtensionCallRecord(call: ExtensionNoticeBacklogTests.notice(9), purpose: .challenge(rowID: 9))
        for owed in [Self.delivery(2), challenge] {
            let behind = try Self.running([Self.delivery(1), notices[0], owed])
            var lifecycle = behind.lifecycle
            _ = lifecycle.callReturned(callID: try #require(Self.sentID(behind.first)), connection: Self.connection, now: Self.at(2))
            #expect(lifecycle.releasedExclusiveControl(app: id, connection: Self.connection, holdsExclusiveControl: false).isEmpty,
                    "a call that is not a notice is still owed behind the notice")
        }
    }

    @Test("Uninstalling the app kills its extension and forgets its budget")
    func uninstalled() throws {
        let setup = try Self.running([Self.delivery(1)], usedToday: 10)
        var lifecycle = setup.lifecycle
        let id = setup.app.bundleIdentifier
        #expect(lifecycle.appRemoved(id) == [.kill(app: id, pid: Self.pid, reason: "the app was uninstalled")])
        #expect(lifecycle.runs.runtimeUsedToday(id) == nil)
        #expect(lifecycle.appRemoved("com.example.other").isEmpty)
    }
}
