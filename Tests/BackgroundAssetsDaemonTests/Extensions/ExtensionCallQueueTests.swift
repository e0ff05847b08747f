/*
Abstract:
Tests for the queue of calls waiting for an extension: order kept through takes, additions and removals.
*/

@testable import BackgroundAssetsDaemon
import Foundation
import Testing

@Suite("Extension call queue")
struct ExtensionCallQueueTests {
    static func record(_ rowID: Int64) -> ExtensionCallRecord {
        ExtensionCallRecord(call: .willTerminate, purpose: .delivery(file: URL(fileURLWithPath: "/f\(rowID)"), rowID: rowID))
    }

    static func rowID(_ record: ExtensionCallRecord?) -> Int64? {
        guard let record, case let .delivery(_, rowID) = record.purpose else { return nil }
        return rowID
    }

    @Test("Thousands of calls come out in the order they went in, with more added while they are taken")
    func keepsOrderAcrossCompactions() {
        var queue = ExtensionCallQueue((1...3000).map(Self.record))
        var taken: [Int64] = []
        for step in 0..<2000 {
            if let id = Self.rowID(queue.popFirst()) { taken.append(id) }
            // Additions between takes land behind everything already waiting.
            if step % 10 == 0 { queue.append(contentsOf: [Self.record(Int64(10_000 + step))]) }
        }
        #expect(queue.count == 1000 + 200)
        #expect(Self.rowID(queue.waiting.first) == 2001)
        while let record = queue.popFirst() { taken.append(Self.rowID(record) ?? -1) }
        #expect(queue.isEmpty)
        #expect(Self.rowID(queue.popFirst()) == nil)
        let first: [Int64] = Array(1...3000)
        let added: [Int64] = (0..<200).map { Int64(10_000 + $0 * 10) }
        #expect(taken == first + added)
    }

    @Test("Removing calls that match keeps the others in order, and what was taken stays taken")
    func removesMatchingCalls() {
        var queue = ExtensionCallQueue((1...200).map(Self.record))
        for _ in 0..<100 { _ = queue.popFirst() }
        let removed = queue.removeAll { (Self.rowID($0) ?? 0) % 2 == 0 }
        #expect(removed.compactMap(Self.rowID) == Array(stride(from: 102, through: 200, by: 2)))
        #expect(queue.waiting.compactMap(Self.rowID) == Array(stride(from: 101, through: 199, by: 2)))
        #expect(queue.removeAll { _ in false }.isEmpty)
        #expect(queue.count == 50)
    }
}

extension ExtensionCallQueueTests {
    @Test("The count of finished files waiting follows every take, addition and removal, among notices")
    func countsDeliveries() {
        let notice = ExtensionCallRecord(call: .willTerminate, purpose: .notice)
        var queue = ExtensionCallQueue([notice, Self.record(1), notice])
        #expect(queue.deliveryCount == 1)
        queue.append(contentsOf: Array(repeating: notice, count: 100) + [Self.record(2), Self.record(3)])
        #expect(queue.deliveryCount == 3)
        _ = queue.popFirst()
        _ = queue.popFirst()
        #expect(queue.deliveryCount == 2, "the first file was taken")
        let removed = queue.removeAll { Self.rowID($0) == 2 }
        #expect(removed.count == 1 && queue.deliveryCount == 1)
        while queue.popFirst() != nil {}
        #expect(queue.deliveryCount == 0)
    }
}
