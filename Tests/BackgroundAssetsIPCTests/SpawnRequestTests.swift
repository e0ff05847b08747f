/*
Abstract:
Starting a child with posix_spawn: it works in a process that has no descriptor left, and a failure says why.
*/

import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

@Suite("Spawning a child")
struct SpawnRequestTests {
    @Test("A process with no descriptor left still starts a child")
    func atTheDescriptorLimit() async throws {
        let request = SpawnRequest(path: "/bin/true", arguments: ["true"], environment: [:])
        // Once here first, so the child of fork() below runs code whose every type is already set up.
        guard case let .success(warmUp) = request.spawn() else {
            Issue.record("could not start /bin/true at all")
            return
        }
        var warmUpStatus: Int32 = 0
        waitpid(warmUp, &warmUpStatus, 0)

        var pipeEnds: [Int32] = [-1, -1]
        try #require(pipe(&pipeEnds) == 0)
        defer { pipeEnds.forEach { close($0) } }
        let child = fork()
        try #require(child >= 0)
        if child == 0 {
            // Room for three standard descriptors and one more: this process holds dozens, so it
            // can open nothing, while the spawned child, which closes all but three first, can.
            var limit = rlimit()
            getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
            limit.rlim_cur = 4
            var outcome: UInt8 = 2
            if setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0, open("/dev/null", O_RDONLY) < 0 {
                if case let .success(pid) = request.spawn() {
                    var status: Int32 = 0
                    outcome = waitpid(pid, &status, 0) == pid && status == 0 ? 1 : 3
                } else {
                    outcome = 0
                }
            }
            _ = write(pipeEnds[1], &outcome, 1)
            _exit(0)
        }
        // A child that hangs (Foundation's `Process` does, at the limit) is killed, and fails the test.
        var status: Int32 = 0
        let ended = try? await poll(timeout: .seconds(30), "the process at its limit to end") { () -> Bool? in
            waitpid(child, &status, WNOHANG) == child ? true : nil
        }
        if ended == nil {
            kill(child, SIGKILL)
            waitpid(child, &status, 0)
            Issue.record("the process at its descriptor limit hung starting a child")
            return
        }
        #expect(status & 0x7f == 0, "the process at its limit was killed by signal \(status & 0x7f)")
        var outcome: UInt8 = 255
        #expect(read(pipeEnds[0], &outcome, 1) == 1)
        #expect(outcome != 2, "the process could not take away its descriptors")
        #expect(outcome != 3, "the child started but did not run /bin/true to its end")
        #expect(outcome == 1, "no child started from a process at its descriptor limit")
    }

    @Test("A failure names the command and the reason")
    func failure() {
        let request = SpawnRequest(path: "/nonexistent/tool", arguments: ["tool", "--flag"], environment: [:])
        guard case let .failure(failure) = request.spawn() else {
            Issue.record("a missing executable started")
            return
        }
        #expect(failure.code == ENOENT)
        #expect(failure.description == "could not start tool --flag: \(errnoText(ENOENT))", "\(failure)")
    }
}
