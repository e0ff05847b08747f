/*
Abstract:
End-to-end: opening the app promotes the background downloads in flight to the foreground, from the byte they reached.
*/

import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

extension SampleTests {
    @Suite("Promote in-flight downloads at launch")
    struct SamplePromotionTests {
        /// Bytes per second per response: the two background downloads move at the same pace, so
        /// the relay's hold finds both part-way.
        static let throttle = 24_576
        /// The hold lasts as long as the app takes to start, which on a busy machine may be longer than
        /// the five seconds after which a silent transfer would reconnect and fetch bytes twice.
        static let configuration: [String: Double] = ["stallTimeout": 600]

        @Test("Launching the app promotes background downloads in flight, continuing from the same byte")
        func launchPromotesInFlightDownloads() async throws {
            let throttled = ["--throttle", String(Self.throttle)]
            try await withSampleDevice(sessionSize: 98_304, serverArguments: throttled, configuration: Self.configuration) { device in
                let sessions = try device.catalog()
                let others = sessions.filter { !$0.essential }
                #expect(others.count == 2)
                let relay = try Self.relay(holdingHalfOf: others, of: device)
                defer { relay.stop() }
                try await device.install(manifest: relay.url("/manifest.json"))

                // Every other session is downloading in the background, part of the way, and held there.
                let inFlight = try await poll(interval: .milliseconds(20),
                                              "the other sessions to be part-way downloaded") {
                    let downloads = try await device.serviceDownloads()
                    let partWay = others.filter { session in
                        guard let download = downloads[session.id], !download.isForeground else { return false }
                        return download.written > 0 && download.written < Int64(session.size)
                    }
                    return partWay.count == others.count ? downloads : nil
                }
                try await poll(until: { relay.isHolding }, "the relay to hold the rest of the other sessions")
                let app = try await Self.runApp(device, releasing: relay, oncePromoted: others)
                #expect(app.status == .exited(0), "\(app.standardOutput)\n\(app.standardError)")
                #expect(app.standardOutput.contains("All \(sessions.count) sessions are on the device."),
                        "\(app.standardOutput)")

                let trace = device.trace()
                for session in others {
                    let events = trace.filter { $0.download == session.id }
                    let promoted = try #require(
                        events.firstIndex { $0.from == "app" && $0.event == "startForegroundDownload" },
                        "the app did not start \(session.id) in the foreground: \(events.map(\.event))")
                    #expect(events[promoted].detail == "promoted", "\(events[promoted])")
                    // The promotion pauses the background download, then it carries on for the app.
                    let paused = try #require(
                        events[promoted...].firstIndex { $0.event == "downloadDidPause" },
                        "\(session.id) was not paused when promoted: \(events.map(\.event))")
                    #expect(events[paused].to.split(separator: "+").contains("app"), "\(events[paused])")
                    #expect(events[paused...].contains { $0.event == "downloadDidBegin" }, "\(events.map(\.event))")
                    #expect(events[paused...].contains {
                        $0.event == "finishedWithFileURL" && $0.to.split(separator: "+").contains("app")
                    }, "\(events.map(\.event))")

                    // The server sent every byte once. The service lifts the background limit on the running
                    // transfer, so one request may serve the whole file; a transfer that reconnects instead
                    // must ask, with a Range, for the bytes from its last checkpoint, never from the start.
                    let requests = try device.accessLog().filter { $0.path == session.path }
                    let before = inFlight[session.id]?.written ?? 0
                    #expect(requests.first?.range == nil && requests.first?.status == 200, "\(requests)")
                    var served: Int64 = 0
                    for (index, request) in requests.enumerated() {
                        if index > 0 {
                            let start = try #require(rangeStart(of: request), "\(session.path): \(requests)")
                            #expect(request.status == 206, "\(requests)")
                            #expect(start > 0 && start <= served, "resumed at \(start) after \(served) bytes")
                            let refetched = served - start
                            #expect(refetched <= Int64(quickConfiguration["checkpointBytes"] ?? 0),
                                    "\(refetched) bytes were fetched twice: \(requests)")
                            served = start
                        }
                        served += request.bytes
                    }
                    #expect(served == Int64(session.size), "\(session.path): \(requests)")
                    #expect(requests.reduce(0) { $0 + $1.bytes } < Int64(session.size) + before,
                            "bytes before the promotion were fetched again: \(requests)")
                }
                let verified = try await device.verifiedSessions(of: sessions)
                #expect(verified == Set(sessions.map(\.id)))
            }
        }

        @Test("The app starts the sessions nobody downloads before it promotes the downloads in flight")
        func startsNewSessionsBeforePromotions() async throws {
            let throttled = ["--throttle", String(Self.throttle)]
            try await withSampleDevice(sessionSize: 98_304, serverArguments: throttled, configuration: Self.configuration) { device in
                let sessions = try device.catalog()
                let others = sessions.filter { !$0.essential }
                try #require(others.count == 2)
                let (inFlight, cancelled) = (others[0], others[1])
                let relay = try Self.relay(holdingHalfOf: others, of: device)
                defer { relay.stop() }
                try await device.install(manifest: relay.url("/manifest.json"))
                try await poll(until: {
                    let downloads = try await device.serviceDownloads()
                    return (downloads[inFlight.id]?.written ?? 0) > 0 && downloads[cancelled.id] != nil
                }, interval: .milliseconds(20), "\(inFlight.id) to be part-way downloaded")
                try await poll(until: { relay.isHolding }, "the relay to hold the rest of \(inFlight.id)")
                // Nothing downloads this session when the app opens: its loop has to start it anew.
                try await device.tool(["cancel", cancelled.id, "--app-bundle-id", SampleDevice.bundleIdentifier])

                let app = try await Self.runApp(device, releasing: relay, oncePromoted: [inFlight])
                #expect(app.status == .exited(0), "\(app.standardOutput)\n\(app.standardError)")

                // The service handles the app's starts in the order its loop makes them, one at a time.
                let starts = device.trace().filter { $0.from == "app" && $0.event == "startForegroundDownload" }
                let started = try #require(starts.firstIndex { $0.download == cancelled.id }, "\(starts)")
                let promoted = try #require(starts.firstIndex { $0.download == inFlight.id }, "\(starts)")
                #expect(starts[started].detail == nil, "\(starts[started])")
                #expect(starts[promoted].detail == "promoted", "\(starts[promoted])")
                #expect(started < promoted, "\(starts)")
                let verified = try await device.verifiedSessions(of: sessions)
                #expect(verified == Set(sessions.map(\.id)))
            }
        }
    }
}

extension SampleTests.SamplePromotionTests {
    /// A relay in front of the test's server that passes the manifest, the essential sessions and half
    /// of `others`, then holds every answer: the extension's downloads go through it when the app is
    /// installed with it as `BAManifestURL`, while the app's runs fetch the manifest, and start any
    /// download of their own, from the server itself.
    static func relay(holdingHalfOf others: [CatalogSession], of device: SampleDevice) throws -> HoldingRelay {
        let sessions = try device.catalog()
        let manifest = try FileManager.default.attributesOfItem(atPath: device.server.catalogURL.appendingPathComponent("manifest.json").path)
        let manifestBytes = (manifest[.size] as? Int) ?? 0
        let essentialBytes = sessions.filter(\.essential).reduce(0) { $0 + $1.size }
        // A few hundred bytes of headers for each answer; the others are then just past their middle.
        let headers = 2_048
        return try HoldingRelay(
            to: device.server.port, holdingAfter: manifestBytes + essentialBytes + others.reduce(0) { $0 + $1.size / 2 } + headers)
    }

    /// Runs the app to its end, releasing the relay once the app has promoted every one of `promoted`.
    /// - Returns: How the app ended, and what it wrote.
    static func runApp(
        _ device: SampleDevice, releasing relay: HoldingRelay, oncePromoted promoted: [CatalogSession]
    ) async throws -> (status: ChildExit, standardOutput: String, standardError: String) {
        let app = try ChildProcess.launch(
            executableURL: try ProductsDirectory.executable(named: SampleDevice.appExecutable),
            arguments: device.appArguments(timeout: 60), environment: device.scenario.environment)
        do {
            try await poll(until: {
                let starts = device.trace().filter { $0.from == "app" && $0.event == "startForegroundDownload" && $0.detail == "promoted" }
                return promoted.allSatisfy { session in starts.contains { $0.download == session.id } } || !app.isRunning
            }, "the app to promote \(promoted.map(\.id))")
            relay.release()
            let status = try await app.waitForExit()
            return (status, app.standardOutput(), app.standardError())
        } catch {
            relay.release()
            _ = await app.terminate()
            throw error
        }
    }
}

/// The first byte a `Range: bytes=N-` request asked for, or nil when it has no such header.
func rangeStart(of entry: AccessLogEntry) -> Int64? {
    guard let range = entry.range, range.hasPrefix("bytes="), range.hasSuffix("-") else { return nil }
    return Int64(range.dropFirst("bytes=".count).dropLast())
}
