/*
Abstract:
Tests that failure notices go to the extension a window at a time, returned in order, each timed from the return before it, and end with the process as queued calls do.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Testing

@Suite("Extension notices sent ahead")
struct ExtensionNoticeWindowTests {
    typealias Base = ExtensionCallLifecycleTests

    static let window = ExtensionCallLifecycle.noticesInFlight
    static let limit = ExtensionCallLimit(seconds: 60, isBudget: false)

    static func notice(_ index: Int) -> ExtensionCallRecord {
        let download = DownloadDescriptor(
            identifier: "n\(index)", uniqueIdentifier: "v\(index)", url: "https://example.com/n\(index)", fileSize: 1,
            applicationGroupIdentifier: "group.com.example.app", state: .failed)
        return ExtensionCallRecord(
            call: .failed(download: download, failure: .backgroundAssets(code: 112, message: "refused \(index)")), purpose: .notice)
    }

    static func notices(_ range: Range<Int>) -> [ExtensionCallRecord] { range.map(notice) }

    /// The calls the actions send, in order: those with a deadline and those sent ahead.
    static func sent(_ actions: [ExtensionCallAction]) -> [(id: UInt64, record: ExtensionCallRecord, isAhead: Bool)] {
        actions.compactMap { action in
            switch action {
            case let .send(_, id, record, _): (id, record, false)
            case let .sendAhead(_, id, record): (id, record, true)
            default: nil
            }
        }
    }

    @Test("Failure notices go a window at a time without waiting for returns; each return starts the next one's deadline and sends one more")
    func windowInOrder() throws {
        let records = Self.notices(0..<40)
        let setup = try Base.running(records)
        var lifecycle = setup.lifecycle
        let id = setup.app.bundleIdentifier
        let first = Self.sent(setup.first)
        #expect(first.map(\.record) == Array(records.prefix(Self.window)), "a whole window, in order")
        #expect(first.map(\.isAhead) == [false] + Array(repeating: true, count: Self.window - 1), "only the first has a deadline now")
        #expect(first.map(\.id) == (1...UInt64(Self.window)).map { $0 })
        #expect(lifecycle.callsOwed(by: id) == 40)
        #expect(lifecycle.nextCall(of: id, now: Base.at(1.5)).isEmpty, "the window is full")

        let returnedResult = lifecycle.callReturned(callID: 1, connection: Base.connection, now: Base.at(3))
        let returned = try #require(returnedResult)
        #expect(returned.record == records[0])
        #expect(returned.actions == [
            .returned(app: id, records[0], seconds: 2), .recordRuntime(app: id, seconds: 2),
            .startDeadline(app: id, callID: 2, limit: Self.limit),
        ])
        let next = Self.sent(lifecycle.nextCall(of: id, now: Base.at(3)))
        #expect(next.map(\.record) == [records[Self.window]] && next.map(\.isAhead) == [true], "one more fills the window")

        // The second call ran from the first one's return, not from when it was sent.
        let secondResult = lifecycle.callReturned(callID: 2, connection: Base.connection, now: Base.at(3.5))
        let second = try #require(secondResult)
        #expect(Array(second.actions.prefix(2)) == [.returned(app: id, records[1], seconds: 0.5), .recordRuntime(app: id, seconds: 0.5)])
        #expect(lifecycle.runs.runtimeUsedToday(id) == 2.5, "each second the extension worked is charged once")
    }

    @Test("A return for a call sent ahead, before the calls sent before it have returned, is refused")
    func returnsInOrder() throws {
        let setup = try Base.running(Self.notices(0..<5))
        var lifecycle = setup.lifecycle
        #expect(lifecycle.callReturned(callID: 3, connection: Base.connection, now: Base.at(2)) == nil)
        #expect(lifecycle.callsOwed(by: setup.app.bundleIdentifier) == 5, "nothing ended")
        #expect(lifecycle.callReturned(callID: 1, connection: Base.connection, now: Base.at(2))?.record == Self.notice(0))
    }

    @Test("A hung notice still times out: only the running call has a deadline, and the exit abandons every call sent ahead and queued, in order")
    func hungCallTimesOut() throws {
        let records = Self.notices(0..<40)
        let setup = try Base.running(records)
        var lifecycle = setup.lifecycle
        let id = setup.app.bundleIdentifier
        _ = lifecycle.callReturned(callID: 1, connection: Base.connection, now: Base.at(2))
        #expect(lifecycle.deadlinePassed(app: id, callID: 3).isEmpty, "a call sent ahead has not begun")
        let reason = "runtime limit: backgroundDownload(_:failedWithError:) ran longer than the 60 s extensionRuntimeLimit"
        #expect(lifecycle.deadlinePassed(app: id, callID: 2) == [.kill(app: id, pid: Base.pid, reason: reason)])
        #expect(lifecycle.nextCall(of: id, now: Base.at(62)).isEmpty, "nothing more goes to a process being killed")

        let exit = ExtensionProcess.Exit(processIdentifier: Base.pid, status: 9, wasSignalled: true)
        #expect(lifecycle.processExited(app: id, exit, now: Base.at(62)) == [
            .recordRuntime(app: id, seconds: 60),
            .ended(app: id, exit, reason: reason, unexpected: false),
            .extensionDone(app: id),
            .abandon(app: id, Array(records[1...]), reason: reason),
        ])
    }

    @Test("An extension that dies mid-window ends the calls it was sent and those queued as a crash, charged for the running one only")
    func deathMidWindow() throws {
        let records = Self.notices(0..<10)
        let setup = try Base.running(records)
        var lifecycle = setup.lifecycle
        let id = setup.app.bundleIdentifier
        let exit = ExtensionProcess.Exit(processIdentifier: Base.pid, status: 1, wasSignalled: false)
        let reason = "crash: it \(exit) without being asked to"
        #expect(lifecycle.processExited(app: id, exit, now: Base.at(4)) == [
            .recordRuntime(app: id, seconds: 3),
            .ended(app: id, exit, reason: reason, unexpected: true),
            .extensionDone(app: id),
            .abandon(app: id, records, reason: reason),
        ])
        #expect(lifecycle.isEmpty)
    }

    @Test("Any other call goes alone: notices wait behind it, and it waits for the notices sent before it")
    func otherCallsAlone() throws {
        let records = [Base.delivery(1), Self.notice(2), Self.notice(3), Base.delivery(4), Self.notice(5)]
        let setup = try Base.running(records)
        var lifecycle = setup.lifecycle
        let id = setup.app.bundleIdentifier
        #expect(Self.sent(setup.first).map(\.record) == [records[0]], "a finished file goes alone")

        _ = lifecycle.callReturned(callID: 1, connection: Base.connection, now: Base.at(2))
        let notices = Self.sent(lifecycle.nextCall(of: id, now: Base.at(2)))
        #expect(notices.map(\.record) == [records[1], records[2]])
        #expect(notices.map(\.isAhead) == [false, true])

        let afterFirstResult = lifecycle.callReturned(callID: 2, connection: Base.connection, now: Base.at(3))
        let afterFirst = try #require(afterFirstResult)
        #expect(afterFirst.actions.last == .startDeadline(app: id, callID: 3, limit: Self.limit))
        #expect(lifecycle.nextCall(of: id, now: Base.at(3)).isEmpty, "the finished file waits for the notice before it")
        _ = lifecycle.callReturned(callID: 3, connection: Base.connection, now: Base.at(4))
        #expect(Self.sent(lifecycle.nextCall(of: id, now: Base.at(4))).map(\.record) == [records[3]])
    }

    @Test("Notices queued while one runs are sent ahead at once, and an extension with nothing out is idle")
    func queuedWhileRunning() throws {
        let setup = try Base.running([Self.notice(0)])
        var lifecycle = setup.lifecycle
        let id = setup.app.bundleIdentifier
        let queued = lifecycle.callsWanted(Self.notices(1..<3), app: id, now: Base.at(2))
        #expect(queued.first == .cancelIdleTimer(app: id))
        #expect(Self.sent(queued).map(\.id) == [2, 3] && Self.sent(queued).allSatisfy(\.isAhead))
        for callID: UInt64 in 1...3 {
            #expect(!lifecycle.isIdle(id))
            _ = lifecycle.callReturned(callID: callID, connection: Base.connection, now: Base.at(3))
        }
        #expect(lifecycle.nextCall(of: id, now: Base.at(3)) == [.armIdleGrace(app: id)])
        #expect(lifecycle.isIdle(id))
    }
}
