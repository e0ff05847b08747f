/*
Abstract:
Checks of the test harness itself: teardown that always ends children, deadlines, and readiness parsing.
*/

import Foundation
import SystemLogging
import Testing
import TestSupport

@Suite("Test harness", .serialized, .timeLimit(.minutes(3)))
struct LiveHarnessTests {
    @Test("The readiness line yields the base URL and port, and other lines yield nothing")
    func readinessLineParsing() throws {
        let (url, port) = try #require(
            AssetServerProcess.parseReadinessLine("asset-server listening on http://127.0.0.1:41234"))
        #expect(url.absoluteString == "http://127.0.0.1:41234")
        #expect(port == 41234)
        #expect(AssetServerProcess.parseReadinessLine("asset-server listening on http://127.0.0.1") == nil)
        #expect(AssetServerProcess.parseReadinessLine("asset-server listening on ftp://127.0.0.1:21") == nil)
        #expect(AssetServerProcess.parseReadinessLine("listening on http://127.0.0.1:8080") == nil)
    }

    @Test("Teardown ends a child that ignores SIGTERM with SIGKILL after the grace period")
    func teardownKillsStubbornChild() async throws {
        let shell = try locateExecutable("sh")
        let process = try ChildProcess.launch(
            executableURL: shell, arguments: ["-c", "trap '' TERM; echo ready; while :; do sleep 0.1; done"])
        _ = try await process.waitForLine { $0 == "ready" }
        #expect(process.isRunning)
        // Without the SIGKILL it would never end: the suite's time limit would.
        let status = await process.terminate(gracePeriod: .milliseconds(300))
        #expect(status == .signalled(SIGKILL))
        #expect(!process.isRunning)
    }

    @Test("The scoped runner ends its child when the body throws, and rethrows the error")
    func scopedRunnerEndsChildOnThrow() async throws {
        let sleep = try locateExecutable("sleep")
        var started: ChildProcess?
        await #expect(throws: TestSupportError("planned")) {
            try await withChildProcess(executableURL: sleep, arguments: ["30"]) { process in
                started = process
                throw TestSupportError("planned")
            }
        }
        let process = try #require(started)
        #expect(!process.isRunning)
        #expect(process.exitStatus == .signalled(SIGTERM))
    }

    @Test("Waiting for a line fails at once, with stderr, when the child exits first")
    func waitForLineFailsFastOnExit() async throws {
        let shell = try locateExecutable("sh")
        let process = try ChildProcess.launch(executableURL: shell, arguments: ["-c", "echo broken catalog >&2; exit 3"])
        do {
            // Ten times the suite's time limit: only the child's exit can end the wait in time.
            _ = try await process.waitForLine(timeout: .seconds(600)) { $0.hasPrefix("asset-server listening") }
            Issue.record("waitForLine returned although the child printed nothing")
        } catch let error as TestSupportError {
            #expect(error.description.contains("exit code 3"))
            #expect(error.description.contains("broken catalog"))
        }
    }

    @Test("Polling gives up at its deadline with a message naming what it waited for, and where the logs are")
    func pollTimesOut() async throws {
        await #expect(throws: TestSupportError("Timed out after 0.1 seconds waiting for the impossible. "
            + "The log lines of the code under test are in \(TestLogs.folder.path).")) {
            try await poll(until: { false }, timeout: .milliseconds(100), "the impossible")
        }
    }

    @Test("Log lines of code running in the test process go to the run's log folder, not among the results")
    func inProcessLogLinesGoToAFile() async throws {
        try await withTemporaryDirectory { _ in
            let marker = "log line \(UUID().uuidString)"
            Logger(subsystem: "tests", category: "server", writesToDeviceLog: false).error(marker)
            let log = try String(contentsOf: TestLogs.inProcessLog, encoding: .utf8)
            #expect(log.contains("[server] error: \(marker)"))
        }
    }

    @Test("A child starts with standard input, output and error only, whatever the test process has open")
    func childInheritsNoDescriptors() async throws {
        // A pipe without close-on-exec, as some code in the test process opens them.
        // -1, not 0: should the call fail, closing these must not close descriptor 0, or whatever took its number.
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { ends.forEach { close($0) } }
        let listing = try await runCommand("ls", arguments: ["/proc/self/fd"])
        let open = Set(listing.standardOutput.split(separator: "\n").compactMap { Int32($0) })
        // ls itself holds one more, the folder it lists.
        #expect(open.isSubset(of: [0, 1, 2, 3]), "the child had \(open.sorted()) open; the pipe is \(ends)")
    }

    @Test("A missing product is reported with the next step")
    func missingProductNamesNextStep() throws {
        do {
            _ = try ProductsDirectory.executable(named: "no-such-product")
            Issue.record("a missing product was found")
        } catch let error as TestSupportError {
            #expect(error.description.contains("swift build"))
        }
    }

    @Test("The folders of a test process that no longer exists are removed, and no others")
    func staleFoldersOfGoneProcessesAreRemoved() async throws {
        let finished = try ChildProcess.launch(executableURL: try locateExecutable("true"), arguments: [])
        #expect(try await finished.waitForExit() == .exited(0))
        try await withTemporaryDirectory(prefix: "stale") { folder in
            let names = [
                "gone": "wwdc-device-t\(finished.pid).Ab12Cd", "mine": "wwdc-device-t\(getpid()).Ab12Cd",
                "init": "e2e-t1.Ab12Cd", "unmarked": "wwdc-device.Ab12Cd", "other": "notes-t\(finished.pid).txt",
            ]
            for name in names.values {
                try FileManager.default.createDirectory(
                    at: folder.appendingPathComponent(name), withIntermediateDirectories: false)
            }
            #expect(StaleTemporaryFolders.owner(ofFolderNamed: names["gone"]!) == finished.pid)
            #expect(StaleTemporaryFolders.owner(ofFolderNamed: names["unmarked"]!) == nil)

            StaleTemporaryFolders.removeStale(in: folder)

            let left = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
            #expect(left == Set(names.filter { $0.key != "gone" }.values))
        }
    }

    @Test("A temporary folder's name records the process that made it")
    func temporaryFolderNameRecordsOwner() throws {
        let directory = try TemporaryDirectory(prefix: "harness")
        defer { directory.remove() }
        #expect(StaleTemporaryFolders.owner(ofFolderNamed: directory.url.lastPathComponent) == getpid())
    }
}
