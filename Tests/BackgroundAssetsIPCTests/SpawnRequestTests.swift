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

        // Room for three standard descriptors and one more: this process holds dozens, so it can
        // open nothing, while the spawned child, which closes all but three first, can.
        let outcome = try await DescriptorLimitChild.run(room: 4) {
            guard case let .success(pid) = request.spawn() else { return 2 }
            var status: Int32 = 0
            return waitpid(pid, &status, 0) == pid && status == 0 ? 1 : 3
        }
        // Foundation's `Process` hangs here.
        #expect(outcome == .answered(1), "1: /bin/true ran; 2: no child started; 3: it did not run to its end")
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
