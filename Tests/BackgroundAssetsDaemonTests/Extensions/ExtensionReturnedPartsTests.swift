/*
Abstract:
Tests that the parts of an extension's answer are tallied for its running call only, within their limit, handed over with its return, and stand when the process ends before it.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Testing

@Suite("Extension answers in parts")
struct ExtensionReturnedPartsTests {
    static let connection = ExtensionCallLifecycleTests.connection

    static func identifiers(_ range: Range<Int>) -> [String] {
        range.map { "d\($0)" }
    }

    static func essential(_ index: Int) -> DownloadDescriptor {
        DownloadDescriptor(identifier: "d\(index)", uniqueIdentifier: "u\(index)", url: "https://example.com/\(index)", fileSize: 5,
                           applicationGroupIdentifier: "group.com.example.app", isEssential: true)
    }

    static let contentRequest = ExtensionCallRecord(
        call: .downloads(request: .install, manifestPath: "/m.json", restrictedDownloadSizeRemaining: nil,
                         restrictedEssentialDownloadSizeRemaining: nil),
        purpose: .contentRequest(.install, manifest: URL(fileURLWithPath: "/m.json")))

    /// A lifecycle whose app's extension runs `downloads(for:...)` and then a delivery, and the id of the running call.
    static func running() throws -> (lifecycle: ExtensionCallLifecycle, app: String, callID: UInt64) {
        let setup = try ExtensionCallLifecycleTests.running([contentRequest, ExtensionCallLifecycleTests.delivery(1)])
        return (setup.lifecycle, setup.app.bundleIdentifier, try #require(ExtensionCallLifecycleTests.sentID(setup.first)))
    }

    @Test("Each part is tallied as it is scheduled; the tally goes with the return, once")
    func tallyHandedOver() throws {
        var (lifecycle, app, callID) = try Self.running()
        let first = try lifecycle.partReturned(Self.identifiers(0..<1_000), callID: callID, connection: Self.connection)
        #expect(first == .init(app: app, kind: .install, returnedBefore: []))
        lifecycle.partScheduled(.init(scheduled: 989, refused: 10, heldEssentials: [Self.essential(0)]),
                                callID: callID, connection: Self.connection)
        // The second part repeats two identifiers of the first: the service refuses them as returned twice.
        let second = try lifecycle.partReturned(Self.identifiers(998..<2_000), callID: callID, connection: Self.connection)
        #expect(second.returnedBefore == ["d998", "d999"])
        lifecycle.partScheduled(.init(scheduled: 999, refused: 2, heldEssentials: [Self.essential(1_000)]),
                                callID: callID, connection: Self.connection)

        let ended = lifecycle.callReturned(callID: callID, connection: Self.connection, now: ExtensionCallLifecycleTests.at(2))
        let returned = try #require(ended)
        #expect(returned.parts.count == 2_002)
        #expect(returned.parts.identifiers == Set(Self.identifiers(0..<2_000)))
        #expect(returned.parts.scheduled == 1_988)
        #expect(returned.parts.refused == 12)
        #expect(returned.parts.heldEssentials == [Self.essential(0), Self.essential(1_000)], "held for the return, in order")
        // The next call starts with none.
        let sent = lifecycle.nextCall(of: app, now: ExtensionCallLifecycleTests.at(3))
        let next = try #require(ExtensionCallLifecycleTests.sentID(sent))
        let nextEnded = lifecycle.callReturned(callID: next, connection: Self.connection, now: ExtensionCallLifecycleTests.at(4))
        let nextReturn = try #require(nextEnded)
        #expect(nextReturn.parts == ReturnedPartsTally(), "handed over once")
    }

    @Test("A part for a call that is not running, or on another connection, is refused; a late tally is dropped")
    func otherCalls() throws {
        var (lifecycle, _, callID) = try Self.running()
        #expect(throws: ReturnedPartRefusal.noSuchCall) {
            try lifecycle.partReturned(Self.identifiers(0..<1), callID: callID + 1, connection: Self.connection)
        }
        #expect(throws: ReturnedPartRefusal.noSuchCall) {
            try lifecycle.partReturned(Self.identifiers(0..<1), callID: callID, connection: Self.connection + 1)
        }
        _ = try lifecycle.partReturned(Self.identifiers(0..<1), callID: callID, connection: Self.connection)
        let ended = lifecycle.callReturned(callID: callID, connection: Self.connection, now: ExtensionCallLifecycleTests.at(2))
        #expect(ended?.parts.count == 1)
        #expect(throws: ReturnedPartRefusal.noSuchCall, "the call already returned") {
            try lifecycle.partReturned(Self.identifiers(1..<2), callID: callID, connection: Self.connection)
        }
        // Scheduling that ends after its call did changes no other call's tally.
        let keptLate = lifecycle.partScheduled(.init(scheduled: 1), callID: callID, connection: Self.connection)
        #expect(!keptLate)
        let sent = lifecycle.nextCall(of: try #require(ended).app, now: ExtensionCallLifecycleTests.at(3))
        let next = try #require(ExtensionCallLifecycleTests.sentID(sent))
        let nextReturn = lifecycle.callReturned(callID: next, connection: Self.connection, now: ExtensionCallLifecycleTests.at(4))
        #expect(nextReturn?.parts == ReturnedPartsTally())
    }

    @Test("Only downloads(for:...) answers in parts; a part for another entry point is refused, naming it")
    func onlyDownloadsCalls() throws {
        let setup = try ExtensionCallLifecycleTests.running([ExtensionCallLifecycleTests.delivery(1)])
        var lifecycle = setup.lifecycle
        let callID = try #require(ExtensionCallLifecycleTests.sentID(setup.first))
        #expect(throws: ReturnedPartRefusal.notDownloads(entryPoint: "backgroundDownload(_:finishedWithFileURL:)")) {
            try lifecycle.partReturned(Self.identifiers(0..<1), callID: callID, connection: Self.connection)
        }
    }

    @Test("A part past the limit is refused, naming the count, and the parts before it stand")
    func limit() throws {
        var (lifecycle, _, callID) = try Self.running()
        _ = try lifecycle.partReturned(Self.identifiers(0..<2), callID: callID, connection: Self.connection, limit: 3)
        _ = try lifecycle.partReturned(Self.identifiers(2..<3), callID: callID, connection: Self.connection, limit: 3)
        #expect(throws: ReturnedPartRefusal.tooMany(4)) {
            try lifecycle.partReturned(Self.identifiers(3..<4), callID: callID, connection: Self.connection, limit: 3)
        }
        let ended = lifecycle.callReturned(callID: callID, connection: Self.connection, now: ExtensionCallLifecycleTests.at(2))
        let returned = try #require(ended)
        #expect(returned.parts.count == 3)
        #expect(returned.parts.identifiers == Set(Self.identifiers(0..<3)), "the refused part's identifiers are not kept")
    }

    @Test("A process that ends after parts and before the return leaves them scheduled: the call ends partly returned, not abandoned")
    func partsOutliveTheProcess() throws {
        var (lifecycle, app, callID) = try Self.running()
        _ = try lifecycle.partReturned(Self.identifiers(0..<1_000), callID: callID, connection: Self.connection)
        let scheduled = ScheduledReturn(scheduled: 999, heldEssentials: [Self.essential(4)])
        let kept = lifecycle.partScheduled(scheduled, callID: callID, connection: Self.connection)
        #expect(kept)
        let reason = "runtime limit: downloads(for:manifestURL:extensionInfo:) ran longer than the 60 s extensionRuntimeLimit"
        #expect(lifecycle.deadlinePassed(app: app, callID: callID) == [.kill(app: app, pid: ExtensionCallLifecycleTests.pid, reason: reason)])

        let exit = ExtensionProcess.Exit(processIdentifier: ExtensionCallLifecycleTests.pid, status: 9, wasSignalled: true)
        var tally = ReturnedPartsTally()
        tally.add(Self.identifiers(0..<1_000))
        tally.add(scheduled)
        #expect(lifecycle.processExited(app: app, exit, now: ExtensionCallLifecycleTests.at(61)) == [
            .recordRuntime(app: app, seconds: 60),
            .ended(app: app, exit, reason: reason, unexpected: false),
            .extensionDone(app: app),
            .partlyReturned(app: app, Self.contentRequest, tally, reason: reason),
            .abandon(app: app, [ExtensionCallLifecycleTests.delivery(1)], reason: reason),
        ])
    }

    @Test("A downloads call whose process ends before any part is abandoned, as before")
    func noPartsIsAbandoned() throws {
        var (lifecycle, app, _) = try Self.running()
        let exit = ExtensionProcess.Exit(processIdentifier: ExtensionCallLifecycleTests.pid, status: 1, wasSignalled: false)
        let actions = lifecycle.processExited(app: app, exit, now: ExtensionCallLifecycleTests.at(5))
        let reason = "crash: it \(exit) without being asked to"
        #expect(actions.last == .abandon(app: app, [Self.contentRequest, ExtensionCallLifecycleTests.delivery(1)], reason: reason))
        #expect(!actions.contains { if case .partlyReturned = $0 { true } else { false } })
    }
}
