/*
Abstract:
End-to-end: a service out of file descriptors refuses new clients in words and keeps serving the ones it has.
*/

import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

@Suite("Run out of file descriptors", .serialized, .timeLimit(.minutes(2)))
struct DescriptorLimitTests {
    /// The runtime's backtrace of the crashed thread alone: if the service ever crashes at its
    /// limit, the last lines of its standard error that a failure quotes show where.
    static let crashedThreadOnly = ["SWIFT_BACKTRACE": "threads=crashed"]

    @Test("At its descriptor limit the service tells a new client it is refused, and answers the clients it has")
    func refusesPolitelyAtTheLimit() async throws {
        let scenario = try Scenario()
        try ServiceProcess.writeConfiguration(quickConfiguration, in: scenario.deviceRoot)
        // prlimit(1) starts the service with room for a few dozen descriptors.
        let service = try ChildProcess.launch(
            executableURL: try locateExecutable("prlimit"),
            arguments: ["--nofile=64", try ProductsDirectory.executable(named: "backgroundassetsd").path, "--foreground"],
            environment: scenario.environment.merging(Self.crashedThreadOnly) { $1 })
        try await service.runScoped { service in
            let socketPath = scenario.deviceRoot.appending(path: "run/backgroundassetsd.sock").path
            try await poll(until: { ServiceProcess.canConnect(toUnixSocket: socketPath) },
                           "the service to listen")
            let existing = try RawServiceClient(deviceRoot: scenario.deviceRoot, bundleIdentifier: "com.example.existing")
            // Strangers that connect and say nothing, until the service refuses one.
            var strangers: [UnixSocket] = []
            defer { strangers.forEach { $0.close() } }
            let refusal = try await poll(timeout: .seconds(60), interval: .milliseconds(1), "a refusal") { () -> ServerMessage? in
                // A full backlog refuses the connect itself: the service is busy refusing; try again.
                if let stranger = try? UnixSocket.connect(to: socketPath) { strangers.append(stranger) }
                // The service refuses the client longest in its backlog, not necessarily the newest.
                var entries = strangers.map { pollfd(fd: $0.descriptor ?? -1, events: Int16(POLLIN), revents: 0) }
                guard poll(&entries, nfds_t(entries.count), 10) > 0,
                    let ready = zip(strangers, entries).first(where: { $0.1.revents != 0 })?.0
                else { return nil }
                var decoder = FrameDecoder()
                decoder.append(try ready.receive())
                return try decoder.nextFrame().map { try MessageCodec.decode(ServerMessage.self, from: $0) }
            }
            guard case let .response(0, .failure(failure)) = refusal else {
                Issue.record("expected a refusal, got \(refusal)")
                return
            }
            #expect(failure.code == BAError.Code.callerConnectionNotAccepted.rawValue)
            #expect(failure.message.contains("no file descriptors left"), "\(failure.message)")
            #expect(failure.message.contains("its limit is 64"), "\(failure.message)")
            // Refused while descriptors are left for the service's own work (libdispatch halts a
            // process in which it cannot open one), not once the last is gone.
            let held = try #require(service.openFileDescriptorCount())
            #expect(held <= 64 - 8, "the service holds \(held) of its 64 descriptors")

            // The framework's client reads the same refusal and gives it as its error.
            let tool = try await scenario.runTool(["status"])
            #expect(!tool.status.isSuccess)
            #expect(tool.standardError.contains("refused the connection: the service has no file descriptors left"),
                    "\(tool.standardError)")
            // The client connected before the limit is still served.
            guard case .status = try existing.send(.core(.fetchStatus)) else {
                Issue.record("the existing client was not answered")
                return
            }
            #expect(service.isRunning)
        }
    }

    @Test("Near its descriptor limit the service starts only the transfers that fit below the descriptors it keeps, and the rest as those end")
    func transfersWaitForDescriptors() async throws {
        let scenario = try Scenario()
        // Each answer drips its body (and closes), so a transfer holds its socket and its file for a while.
        let server = try ScriptedHTTPServer { _, _ in
            .dripping([UInt8](repeating: 0x61, count: 30), everyMilliseconds: 40, fields: ["Connection: close"])
        }
        defer { server.stop() }
        try await withService(deviceRoot: scenario.deviceRoot, configuration: quickConfiguration) { service in
            let pid = service.process.pid
            let app = try RawServiceClient(deviceRoot: scenario.deviceRoot, bundleIdentifier: "com.example.descriptors")
            defer { app.close() }
            // The limit lowered so that above the highest descriptor the service holds now there is
            // room for two transfers (a socket and a file each) and then the ones it keeps: sixteen,
            // or a quarter of a limit under 64.
            let roomFrom = try #require(service.process.openFileDescriptors()?.max()) + 1 + 2 * 2
            let limit = try #require((roomFrom...).first { $0 - min(16, $0 / 4) >= roomFrom })
            let kept = min(16, limit / 4)
            let prlimit = try ChildProcess.launch(
                executableURL: try locateExecutable("prlimit"), arguments: ["--pid", "\(pid)", "--nofile=\(limit)"])
            #expect(try await prlimit.waitForExit() == .exited(0))

            let answers = try app.pipeline((0..<6).map { index in
                .downloads(.schedule(download: DownloadDescriptor(
                    identifier: "drip-\(index)", uniqueIdentifier: UUID().uuidString, url: server.url("/\(index).mp4").absoluteString,
                    applicationGroupIdentifier: "group.com.example.descriptors")))
            })
            #expect(answers.allSatisfy { if case .download = $0 { true } else { false } }, "\(answers)")
            // Watched until every download has ended: the highest descriptor the service held.
            var highestHeld = 0
            try await poll(until: {
                highestHeld = max(highestHeld, service.process.openFileDescriptors()?.max() ?? 0)
                guard case let .downloads(current) = try app.send(.downloads(.fetchCurrentDownloads)) else { return false }
                return current.isEmpty
            }, timeout: .seconds(90), "the six downloads to end")
            // Below the ones it keeps (from limit - kept up), but for the two a hand-over opens for a
            // moment (the device root, then the folder beneath it): its own work, which is what they
            // are kept for. Without the wait, four transfers at once reached the fourth kept one.
            #expect(highestHeld <= limit - kept + 1, "the service held descriptor \(highestHeld) under a limit of \(limit) keeping \(kept)")
            #expect(server.requests.count == 6, "each download asked once: \(server.requests)")
            #expect(service.process.isRunning)
            let log = try String(contentsOf: scenario.deviceRoot.appending(path: "system/log"), encoding: .utf8)
            #expect(log.contains("Downloads wait for file descriptors: the service is near its limit of \(limit)"), "\(log.suffix(2_000))")
            #expect(log.contains("raise the limit (ulimit -n)"))
            #expect(!log.contains("failed"), "\(log.suffix(2_000))")
        }
    }

    @Test("A crash with no descriptor left still leaves the marker naming the thread, and a backtrace")
    func crashAtTheLimitLeavesItsMarker() async throws {
        let scenario = try Scenario()
        try ServiceProcess.writeConfiguration(quickConfiguration, in: scenario.deviceRoot)
        let service = try ChildProcess.launch(
            executableURL: try ProductsDirectory.executable(named: "backgroundassetsd"), arguments: ["--foreground"],
            environment: scenario.environment.merging(Self.crashedThreadOnly) { $1 })
        try await service.runScoped { service in
            let socketPath = scenario.deviceRoot.appending(path: "run/backgroundassetsd.sock").path
            try await poll(until: { ServiceProcess.canConnect(toUnixSocket: socketPath) }, "the service to listen")
            // The limit lowered to the lowest free descriptor number: every open from now on fails,
            // as in a process whose clients or transfers took the last one.
            let open = try #require(service.openFileDescriptors())
            let lowestFree = (0...).first { !open.contains($0) } ?? open.count
            let prlimit = try ChildProcess.launch(
                executableURL: try locateExecutable("prlimit"), arguments: ["--pid", "\(service.pid)", "--nofile=\(lowestFree)"])
            #expect(try await prlimit.waitForExit() == .exited(0))
            // A crash on the thread that accepts clients.
            let loop = try await poll("the service's connection loop") {
                threads(of: service.pid, namedWithPrefix: "connections").first?.tid
            }
            #expect(signalThread(loop, of: service.pid, with: SIGSEGV))
            #expect(try await service.waitForExit(timeout: .seconds(60)) == .signalled(SIGSEGV))

            let marker = try String(contentsOf: scenario.deviceRoot.appending(path: "system/crashed"), encoding: .utf8)
            #expect(marker == "signal \(SIGSEGV)\nthread connections\n")
            // The runtime's backtracer had the descriptors it needs.
            #expect(service.standardError().contains("\"connections\" crashed:"), "\(service.standardError())")
        }
        ServiceProcess.endCrashReporters(in: scenario.deviceRoot)
    }
}
