/*
Abstract:
Tests that asset-pack events survive the wire, and that an event missing what its kind needs is dropped, not guessed at.
*/

import AssetPackFormat
import BackgroundAssetsIPC
import Foundation
import Testing

@Suite("Asset-pack events on the wire")
struct AssetPackWireEventTests {
    @Test("Every kind of event comes back from its wire form unchanged")
    func roundTrip() throws {
        let failure = WireFailure.backgroundAssets(code: 0, message: "Tutorial.aar does not match its SHA-256.")
        let events: [AssetPackEvent] = [
            .began(packID: "Tutorial", version: 2), .paused(packID: "Tutorial", version: 2),
            .downloading(packID: "Tutorial", version: 2, completedBytes: 10, totalBytes: 40),
            .finished(packID: "Tutorial", version: 2), .failed(packID: "Tutorial", version: 2, failure: failure),
            .removed(packID: "Tutorial"),
        ]
        for event in events {
            let frame = try MessageCodec.encode(ServerMessage.event(.assetPackStatus(event.wireEvent)))
            guard case let .event(.assetPackStatus(wire)) = try MessageCodec.decode(ServerMessage.self, from: frame) else {
                Issue.record("\(event) did not decode as an asset-pack event"); continue
            }
            #expect(AssetPackEvent(wireEvent: wire) == event)
        }
    }

    @Test("An event without its version, totals or failure, or naming a path instead of a pack, is dropped")
    func incompleteEventsAreDropped() {
        let hostile: [AssetPackStatusEvent] = [
            .init(kind: .began, packID: "Tutorial", version: nil),
            .init(kind: .downloading, packID: "Tutorial", version: 1, completedBytes: 5),
            .init(kind: .failed, packID: "Tutorial", version: 1),
            .init(kind: .finished, packID: "Tutorial", version: -1),
            .init(kind: .finished, packID: "../Tutorial", version: 1),
            .init(kind: .removed, packID: "", version: nil),
        ]
        for event in hostile { #expect(AssetPackEvent(wireEvent: event) == nil, "\(event)") }
    }
}
