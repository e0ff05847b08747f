/*
Abstract:
Tests that schedules a client pipelines are handled together yet each answered as if it came alone.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import TestSupport
import Testing

@Suite("Pipelined schedules", .serialized, .timeLimit(.minutes(2)))
struct PipelinedScheduleTests {
    @Test("Schedules sent together are each answered as if alone: accepted, refused as a duplicate, or refused as essential")
    func eachAnsweredAlone() async throws {
        let device = try await InProcessService()
        let app = "com.example.pipelined"
        let client = try await device.client(app)
        func download(_ identifier: String, essential: Bool = false) -> DownloadDescriptor {
            DownloadDescriptor(
                identifier: identifier, uniqueIdentifier: UUID().uuidString, url: "http://127.0.0.1:9/\(identifier)",
                fileSize: essential ? 10 : 0, applicationGroupIdentifier: "group.\(app)", isEssential: essential)
        }
        var requests = (0..<300).map { ClientRequest.downloads(.schedule(download: download("d\($0)"))) }
        requests[100] = .downloads(.schedule(download: download("d7")))
        requests[200] = .downloads(.schedule(download: download("e", essential: true)))
        let sent = requests
        let answers = try await blocking { try client.pipeline(sent) }

        for (index, answer) in answers.enumerated() {
            switch (index, answer) {
            case (100, .failure(let failure)): #expect(failure.code == 100, "a duplicate of d7: \(failure.message)")
            case (200, .failure(let failure)): #expect(failure.code == 109, "an essential schedule: \(failure.message)")
            case (100, _), (200, _): Issue.record("request \(index) was answered \(answer), not refused")
            case (_, .download(let stored)): #expect(stored.identifier == "d\(index)" && stored.state == .waiting)
            default: Issue.record("request \(index) was answered \(answer)")
            }
        }
        let store = await device.service.queue.store
        let stored = try store.currentDownloads(bundleIdentifier: app).map(\.descriptor.identifier)
        #expect(Set(stored) == Set((0..<300).filter { $0 != 100 && $0 != 200 }.map { "d\($0)" }))
        #expect(stored.count == 298)
        await device.stop()
    }

    @Test("Downloads inserted together are each refused alone when they duplicate one not ended")
    func insertEach() throws {
        let fixture = try StoreFixture()
        let first = StoreFixture.download("a")
        let outcomes = try fixture.store.insertEach(
            [first, StoreFixture.download("b"), StoreFixture.download("a"), StoreFixture.download("c")], at: StoreFixture.epoch)
        #expect(outcomes.map { (try? $0.get())?.descriptor.identifier } == ["a", "b", nil, "c"])
        guard case .failure(.downloadAlreadyScheduled(_, "a")) = outcomes[2] else {
            Issue.record("the duplicate was answered \(outcomes[2])"); return
        }
        #expect(try fixture.store.allDownloads().map(\.descriptor.identifier) == ["a", "b", "c"])
    }
}
