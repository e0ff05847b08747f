/*
Abstract:
Tests that a hand-over file's name carries its download's row, and nothing else passes for one.
*/

@testable import BackgroundAssetsDaemon
import Testing

@Suite("Hand-over file names")
struct HandOverNameTests {
    @Test("A hand-over name gives back its row")
    func roundTrip() {
        for row: Int64 in [1, 42, 9_000_000_000] {
            let name = StagingArea.handOverName(rowID: row)
            #expect(name.hasPrefix("BAFile-\(row)-") && name.hasSuffix(".tmp"))
            #expect(StagingArea.rowID(ofHandOverFile: name) == row)
        }
        #expect(StagingArea.handOverName(rowID: 7) != StagingArea.handOverName(rowID: 7))
    }

    @Test("Other files in the folder are not taken for hand-overs", arguments: [
        "BAFile-1.tmp", "BAFile-x-1.tmp", "BAFile--1.tmp", "BAFile-1-a.part", "manifest.json", "BAFile-1-",
    ])
    func others(_ name: String) {
        #expect(StagingArea.rowID(ofHandOverFile: name) == nil)
    }
}
