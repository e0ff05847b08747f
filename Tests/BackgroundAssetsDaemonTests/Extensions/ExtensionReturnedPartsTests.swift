/*
Abstract:
Tests that the parts of an extension's answer are kept for its running call only, in order, within their limit, and handed over with its return.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Testing

@Suite("Extension answers in parts")
struct ExtensionReturnedPartsTests {
    static let connection = ExtensionCallLifecycleTests.connection

    static func downloads(_ range: Range<Int>) -> [DownloadDescriptor] {
        range.map {
            DownloadDescriptor(identifier: "d\($0)", uniqueIdentifier: "u\($0)", url: "https://example.com/\($0)",
                               applicationGroupIdentifier: "group.com.example.app")
        }
    }

    static let contentRequest = ExtensionCallRecord(
        call: .downloads(request: .install, manifestPath: "/m.json", restrictedDownloadSizeRemaining: nil,
                         restrictedEssentialDownloadSizeRemaining: nil),
        purpose: .contentRequest(.install, manifest: URL(fileURLWithPath: "/m.json")))

    /// A lifecycle whose app's extension runs `downloads(for:...)` and then a delivery, and the id of the running call.
    static func running() throws -> (lifecycle: ExtensionCallLifecycle, callID: UInt64) {
        let setup = try ExtensionCallLifecycleTests.running([contentRequest, ExtensionCallLifecycleTests.delivery(1)])
        return (setup.lifecycle, try #require(ExtensionCallLifecycleTests.sentID(setup.first)))
    }

    @Test("Parts of the running call are kept in order and handed over once, with its return")
    func partsInOrder() throws {
        var (lifecycle, callID) = try Self.running()
        try lifecycle.partReturned(Self.downloads(0..<1_000), callID: callID, connection: Self.connection)
        try lifecycle.partReturned(Self.downloads(1_000..<2_000), callID: callID, connection: Self.connection)
        let ended = lifecycle.callReturned(callID: callID, connection: Self.connection, now: ExtensionCallLifecycleTests.at(2))
        let returned = try #require(ended)
        let result = returned.result(withParts: .downloads(Self.downloads(2_000..<2_500)))
        guard case let .downloads(all) = result else { Issue.record("not downloads: \(result)"); return }
        #expect(all.map(\.identifier) == Self.downloads(0..<2_500).map(\.identifier))
        // The next call starts with none.
        let sent = lifecycle.nextCall(of: returned.app, now: ExtensionCallLifecycleTests.at(3))
        let next = try #require(ExtensionCallLifecycleTests.sentID(sent))
        let nextEnded = lifecycle.callReturned(callID: next, connection: Self.connection, now: ExtensionCallLifecycleTests.at(4))
        let nextReturn = try #require(nextEnded)
        #expect(nextReturn.returnedParts.isEmpty, "handed over once")
    }

    @Test("A part for a call that is not running, or on another connection, is refused")
    func otherCalls() throws {
        var (lifecycle, callID) = try Self.running()
        #expect(throws: ReturnedPartRefusal.noSuchCall) {
            try lifecycle.partReturned(Self.downloads(0..<1), callID: callID + 1, connection: Self.connection)
        }
        #expect(throws: ReturnedPartRefusal.noSuchCall) {
            try lifecycle.partReturned(Self.downloads(0..<1), callID: callID, connection: Self.connection + 1)
        }
        try lifecycle.partReturned(Self.downloads(0..<1), callID: callID, connection: Self.connection)
        let ended = lifecycle.callReturned(callID: callID, connection: Self.connection, now: ExtensionCallLifecycleTests.at(2))
        #expect(ended != nil)
        #expect(throws: ReturnedPartRefusal.noSuchCall, "the call already returned") {
            try lifecycle.partReturned(Self.downloads(1..<2), callID: callID, connection: Self.connection)
        }
    }

    @Test("Parts past the limit are refused, naming the count, and what was kept is dropped")
    func limit() throws {
        var (lifecycle, callID) = try Self.running()
        try lifecycle.partReturned(Self.downloads(0..<2), callID: callID, connection: Self.connection, limit: 3)
        try lifecycle.partReturned(Self.downloads(2..<3), callID: callID, connection: Self.connection, limit: 3)
        #expect(throws: ReturnedPartRefusal.tooMany(4)) {
            try lifecycle.partReturned(Self.downloads(3..<4), callID: callID, connection: Self.connection, limit: 3)
        }
        let ended = lifecycle.callReturned(callID: callID, connection: Self.connection, now: ExtensionCallLifecycleTests.at(2))
        let returned = try #require(ended)
        #expect(returned.returnedParts.isEmpty)
    }

    @Test("Parts followed by a result that is not downloads are dropped with the call")
    func otherResult() throws {
        var (lifecycle, callID) = try Self.running()
        try lifecycle.partReturned(Self.downloads(0..<2), callID: callID, connection: Self.connection)
        let ended = lifecycle.callReturned(callID: callID, connection: Self.connection, now: ExtensionCallLifecycleTests.at(2))
        let returned = try #require(ended)
        let refusal = ExtensionCallResult.notManagedExtension(typeName: "BackgroundDownloadHandler")
        #expect(returned.result(withParts: refusal) == refusal)
    }
}
