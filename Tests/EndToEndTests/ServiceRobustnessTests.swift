/*
Abstract:
End-to-end: bad bytes and hostile identifiers on the service's socket cannot take it down or escape the device root.
*/

import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

@Suite("Talk to the service with bad input", .serialized, .timeLimit(.minutes(2)))
struct ServiceRobustnessTests {
    @Test("Malformed bytes close that connection, and the service keeps serving others")
    func malformedBytes() async throws {
        let scenario = try Scenario()
        try await withService(deviceRoot: scenario.deviceRoot, configuration: quickConfiguration) { service in
            let socketPath = scenario.deviceRoot.appendingPathComponent("run/backgroundassetsd.sock").path
            let garbage: [[UInt8]] = [
                [0x7F, 0xFF, 0xFF, 0xFF] + Array("not a frame".utf8),  // announces 2 GB
                [0, 0, 0, 5] + Array("{oops".utf8),  // a frame that is not JSON
                [0, 0, 0, 0],  // an empty frame
            ]
            for bytes in garbage {
                let socket = try UnixSocket.connect(to: socketPath)
                try socket.send(bytes)
                #expect(try await RawServiceClient.nextOutcome(on: socket) == .closed, "after \(bytes.prefix(8))")
                socket.close()
            }
            // A well-formed request before hello is refused with a failure, then the connection closes.
            let early = try UnixSocket.connect(to: socketPath)
            try early.send(MessageCodec.frame(ClientMessage(id: 1, request: .core(.fetchStatus))))
            let outcome = try await RawServiceClient.nextOutcome(on: early)
            guard case let .message(.response(_, response)) = outcome, case .failure = response else {
                Issue.record("A request before hello was answered with \(outcome)")
                return
            }
            #expect(try await RawServiceClient.nextOutcome(on: early) == .closed)
            early.close()
            #expect(service.process.isRunning)
            let status = try await scenario.runTool(["status"])
            #expect(status.status == .exited(0), "\(status.standardError)")
            #expect(status.standardOutput.contains("backgroundassetsd pid \(service.process.pid)"))
        }
    }

    @Test("A refusal quotes at most 64 characters of a huge identifier, with its size, never the whole of it")
    func refusalsQuoteBriefly() async throws {
        let scenario = try Scenario()
        try await withService(deviceRoot: scenario.deviceRoot, configuration: quickConfiguration) { _ in
            let client = try RawServiceClient(deviceRoot: scenario.deviceRoot, bundleIdentifier: "com.example.hostile")
            let huge = String(repeating: "A", count: 1_000_000)
            let descriptor = DownloadDescriptor(
                identifier: huge, uniqueIdentifier: UUID().uuidString, url: "http://127.0.0.1:1/x", headers: [:],
                fileSize: 1, applicationGroupIdentifier: "group.com.example.hostile", priority: 0, isEssential: false)
            guard case let .failure(failure) = try client.send(.downloads(.cancel(download: descriptor))) else {
                Issue.record("cancelling an unknown download with a 1 MB identifier was not refused")
                return
            }
            #expect(failure.message.utf8.count < 400, "\(failure.message.utf8.count) bytes")
            #expect(failure.message.contains("(1000000 bytes)"), "\(failure.message.prefix(300))")
        }
    }

    @Test("Hostile identifiers and app groups are refused or stored harmlessly, and nothing escapes the device root")
    func hostileIdentifiers() async throws {
        let scenario = try Scenario()
        try await withAssetServer(sessionSize: 65_536) { server in
            try await withService(deviceRoot: scenario.deviceRoot, configuration: quickConfiguration) { service in
                let before = try filesOutsideDeviceRoot(scenario)
                let url = server.url(try CatalogFile.all(in: server.catalogURL)[0].path).absoluteString
                let client = try RawServiceClient(deviceRoot: scenario.deviceRoot, bundleIdentifier: "com.example.hostile")
                #expect(try RawServiceClient.refusesHello(deviceRoot: scenario.deviceRoot, bundleIdentifier: "../../x"))

                let hostile = ["../../x", String(repeating: "A", count: 4096), "a\u{0}b", "/etc/passwd", "..", "x/../../y"]
                var accepted: [String] = []
                for identifier in hostile {
                    let group = "group.com.example.hostile"
                    if case .download = try client.send(.downloads(.schedule(download: descriptor(identifier, url: url, group: group)))) {
                        accepted.append(identifier)
                    }
                    // The same identifier as an app group is never accepted.
                    let response = try client.send(.downloads(.schedule(download: descriptor("ok-\(accepted.count)-\(identifier.count)", url: url, group: identifier))))
                    guard case .failure = response else {
                        Issue.record("The app group \(identifier.prefix(20).debugDescription) was accepted: \(response)")
                        continue
                    }
                }
                #expect(!accepted.contains(String(repeating: "A", count: 4096)))
                #expect(!accepted.contains("a\u{0}b"))
                // Whatever was accepted runs to its end inside the device root.
                try await poll(until: {
                    guard case let .downloads(current) = try client.send(.downloads(.fetchCurrentDownloads)) else { return false }
                    return current.isEmpty
                }, "the accepted downloads to end")
                #expect(service.process.isRunning)
                #expect(try filesOutsideDeviceRoot(scenario) == before)
            }
        }
    }

    private func descriptor(_ identifier: String, url: String, group: String) -> DownloadDescriptor {
        DownloadDescriptor(identifier: identifier, uniqueIdentifier: UUID().uuidString, url: url, applicationGroupIdentifier: group)
    }

    /// Every file under the scenario's folder but outside the device root and the output folder.
    private func filesOutsideDeviceRoot(_ scenario: Scenario) throws -> Set<String> {
        let root = scenario.folder.url.resolvingSymlinksInPath().path
        let device = scenario.deviceRoot.resolvingSymlinksInPath().path
        var found = Set<String>()
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let relative = enumerator?.nextObject() as? String {
            let full = root + "/" + relative
            if full.hasPrefix(device + "/") || full == device { continue }
            found.insert(relative)
        }
        return found
    }

    @Test("A service whose device root is deleted under it exits instead of serving nobody")
    func deviceRootDeleted() async throws {
        let scenario = try Scenario()
        try await withService(deviceRoot: scenario.deviceRoot, configuration: quickConfiguration) { service in
            // The service may append its last log line while the folder is being removed; remove again then.
            try await poll(until: {
                (try? FileManager.default.removeItem(at: scenario.deviceRoot)) != nil
                    || !FileManager.default.fileExists(atPath: scenario.deviceRoot.path)
            }, "the device root to be removed")
            let status = try await service.process.waitForExit()
            #expect(status.isSuccess, "\(service.process.diagnostics())")
        }
    }

    @Test("A client that starts the service says why it refused to start, in the service's own words")
    func startRefusalExplained() async throws {
        let scenario = try Scenario()
        defer { Task { await ServiceProcess.killAll(in: scenario.deviceRoot) } }
        let system = scenario.deviceRoot.appending(path: "system")
        try FileManager.default.createDirectory(at: system, withIntermediateDirectories: true)
        try Data(#"{ "timeScal": 60 }"#.utf8).write(to: system.appending(path: "config.json"))
        let result = try await scenario.runTool(["status"])
        #expect(!result.status.isSuccess)
        #expect(result.standardError.contains("exited at start (status 78)"), "\(result.standardError)")
        #expect(result.standardError.contains("timeScal") && result.standardError.contains("not a known setting"),
                "\(result.standardError)")
    }

    @Test("A device root the service cannot write tells the client why, though the device log cannot hold it")
    func unwritableRootExplained() async throws {
        let scenario = try Scenario()
        defer { Task { await ServiceProcess.killAll(in: scenario.deviceRoot) } }
        // A file where the system folder belongs: neither the folder nor its log can be made.
        try Data("not a folder".utf8).write(to: scenario.deviceRoot.appending(path: "system"))
        let result = try await scenario.runTool(["status"])
        #expect(!result.status.isSuccess)
        #expect(result.standardError.contains("exited at start (status 1)"), "\(result.standardError)")
        #expect(result.standardError.contains("is not writable: File exists. Make it writable"), "\(result.standardError)")
        #expect(!result.standardError.contains("logged no reason"))
    }

    @Test("Huge numbers in config.json end the service with the key and the range, not a trap", arguments: [
        #"{"maxConcurrentDownloads": 1e308}"#, #"{"extensionMemoryLimit": 1e30}"#, #"{"retryMaxDelay": 1E400}"#,
    ])
    func hugeConfigurationNumbers(json: String) async throws {
        let scenario = try Scenario()
        defer { Task { await ServiceProcess.killAll(in: scenario.deviceRoot) } }
        let system = scenario.deviceRoot.appending(path: "system")
        try FileManager.default.createDirectory(at: system, withIntermediateDirectories: true)
        try Data(json.utf8).write(to: system.appending(path: "config.json"))
        let result = try await scenario.runTool(["status"])
        #expect(result.standardError.contains("exited at start (status 78)"), "\(result.standardError)")
        #expect(result.standardError.contains("is out of range; use"), "\(result.standardError)")
    }
}
