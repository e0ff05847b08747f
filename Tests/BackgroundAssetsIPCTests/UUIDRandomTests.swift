/*
Abstract:
The service's random UUIDs: version 4, RFC 9562's variant, and different every time.
*/

import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

@Suite("Random UUIDs")
struct UUIDRandomTests {
    @Test("The system's UUIDs are version 4, read back as themselves, and differ")
    func systemUUIDs() {
        let made = (0..<1000).map { _ in UUID.random() }
        #expect(Set(made).count == made.count)
        for uuid in made {
            let text = Array(uuid.uuidString)
            #expect(text[14] == "4", "\(uuid)")
            #expect("89AB".contains(text[19]), "\(uuid)")
            #expect(UUID(uuidString: uuid.uuidString) == uuid)
        }
    }

    @Test("A process with no descriptor left still gets UUIDs that differ")
    func withoutDescriptors() async throws {
        _ = UUID.random()
        let outcome = try await DescriptorLimitChild.run(room: 0) {
            UUID.random() == UUID.random() ? 2 : 1
        }
        #expect(outcome == .answered(1), "1: they differ; 2: two UUIDs made without a descriptor were the same")
    }
}
