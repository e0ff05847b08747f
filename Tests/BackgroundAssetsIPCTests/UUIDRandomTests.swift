/*
Abstract:
The service's random UUIDs: version 4, RFC 9562's variant, and different every time.
*/

import BackgroundAssetsIPC
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

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
    func withoutDescriptors() throws {
        var pipeEnds: [Int32] = [-1, -1]
        try #require(pipe(&pipeEnds) == 0)
        defer { pipeEnds.forEach { close($0) } }
        let child = fork()
        try #require(child >= 0)
        if child == 0 {
            // The child only makes system calls and compares bytes: no allocation after fork().
            var limit = rlimit()
            getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
            limit.rlim_cur = 0
            var differ: UInt8 = 2
            if setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0, open("/dev/null", O_RDONLY) < 0 {
                let first = UUID.random()
                let second = UUID.random()
                differ = first == second ? 0 : 1
            }
            _ = write(pipeEnds[1], &differ, 1)
            _exit(0)
        }
        var status: Int32 = 0
        waitpid(child, &status, 0)
        var answer: UInt8 = 255
        #expect(read(pipeEnds[0], &answer, 1) == 1)
        #expect(answer != 2, "the child could not take away its descriptors")
        #expect(answer == 1, "two UUIDs made without a descriptor were the same")
    }
}
