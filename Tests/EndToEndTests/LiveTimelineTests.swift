/*
Abstract:
End-to-end: trace --serve draws a download while it runs, held in its middle, over HTTP and in a headless browser if installed.
*/

import Foundation
import Testing
import TestSupport

@Suite("Watch the timeline live", .serialized, .timeLimit(.minutes(3)))
struct LiveTimelineTests {
    /// A session whose first half reaches the service in about a second; the relay holds the second half.
    static let sessionSize = 2_000_000

    @Test("The live timeline's lane appears mid-download, then fills, without a reload of the view")
    func laneGrowsWhileTheTransferRuns() async throws {
        try await withLiveRun { live, download, size, relay in
            // Held halfway, the download stays in its middle for as long as a busy machine takes to look.
            try await poll(until: { relay.isHolding }, "the relay to hold the second half of the file")
            let first = try await poll(timeout: .seconds(60), "a lane with some bytes in the live picture") {
                try await Self.lane(live).flatMap { $0.bytes > 0 ? $0.bytes : nil }
            }
            #expect(first < size, "the picture was taken while the transfer was held: \(first) of \(size) bytes")
            relay.release()
            let exit = try await download.waitForExit(timeout: .seconds(90))
            #expect(exit.isSuccess, "\(download.diagnostics())")
            // The same view, never reloaded, now shows where the download ended.
            try await poll(until: { try await Self.lane(live)?.bytes == size },
                           "the live picture to show the whole file")
        }
    }

    @Test("A headless browser shows the page's lanes, redrawn by its script",
          .enabled(if: HeadlessBrowser.runs,
                   "needs chromium, chromium-browser or google-chrome on PATH; none is installed, so this is skipped"))
    func browserDrawsTheLanes() async throws {
        let browser = try #require(HeadlessBrowser.executable, "BA_REQUIRE_BROWSER=1, but no Chromium is on PATH")
        try await withLiveRun { live, download, _, relay in
            let lane = try await poll(timeout: .seconds(60), "a lane in the live picture") { try await Self.lane(live) }
            let profile = try TemporaryDirectory(prefix: "live-timeline-browser")
            // The budget lets the page's timers run a few refreshes; the fetches themselves take real time.
            let result = try await runCommand(browser.path, arguments: [
                "--headless", "--disable-gpu", "--no-sandbox", "--user-data-dir=\(profile.url.path)",
                "--virtual-time-budget=3000", "--dump-dom", live.url.absoluteString,
            ], timeout: .seconds(90))
            let dom = result.standardOutput
            #expect(dom.contains("class=\"lane\""), "\(dom.prefix(2000))\n\(result.standardError.suffix(2000))")
            #expect(dom.contains("data-download=\"\(lane.download)\""))
            let refreshes = dom.firstMatch(of: /data-refreshes="(\d+)"/).flatMap { Int($0.1) } ?? 0
            #expect(refreshes >= 1, "the page's script fetched the picture and swapped it in")
            #expect(dom.contains("Live: redrawn at"))
            relay.release()
            #expect(try await download.waitForExit(timeout: .seconds(120)).isSuccess, "\(download.diagnostics())")
        }
    }

    /// The live view of a scenario.
    struct LiveView {
        var url: URL
    }

    /// Starts an asset server behind a relay that holds the second half of every answer, the
    /// service, `trace --serve 0` and a `download` of one session through the relay, runs `body`
    /// while they run, and stops them all.
    func withLiveRun(_ body: (LiveView, ChildProcess, Int, HoldingRelay) async throws -> Void) async throws {
        let scenario = try Scenario()
        // However long the hold lasts, the download waits: no bound on a foreground wait.
        let configuration = quickConfiguration.merging(["foregroundWait": 0]) { $1 }
        // At 1 MiB/s the first half takes a second, so the service reports its progress as it comes.
        try await withAssetServer(sessions: 1, sessionSize: Self.sessionSize, arguments: ["--throttle", "1048576"]) { server in
            let relay = try HoldingRelay(to: server.port, holdingAfter: Self.sessionSize / 2)
            defer { relay.stop() }
            try await withService(deviceRoot: scenario.deviceRoot, configuration: configuration) { _ in
                try await scenario.launchTool(["trace", "--serve", "0"]).runScoped { serving in
                    let line = try await serving.waitForLine {
                        $0.hasPrefix("Serving the live timeline at ")
                    }
                    let address = try #require(line.firstMatch(of: /at (http:\/\/127\.0\.0\.1:\d+\/)$/)?.1)
                    let url = try #require(URL(string: String(address)))
                    let file = try #require(try CatalogFile.all(in: server.catalogURL).first)
                    let output = scenario.outputFolder.appendingPathComponent("session.mp4")
                    try await scenario.launchTool([
                        "download", relay.url(file.path).absoluteString, "--output", output.path,
                        "--size", String(file.size),
                    ]).runScoped { download in
                        try await body(LiveView(url: url), download, file.size, relay)
                    }
                }
            }
        }
    }

    /// The download the live picture draws and the bytes it shows for it, or `nil` while it has no lane.
    static func lane(_ live: LiveView) async throws -> (download: String, bytes: Int)? {
        let port = try #require(live.url.port)
        let client = try RawHTTPClient(port: port, timeout: .seconds(30))
        defer { client.close() }
        let response = try await client.request("GET", "/timeline.svg")
        #expect(response.statusCode == 200)
        let pattern = /class="lane" data-download="([^"]+)" data-app="[^"]*" data-bytes="(\d+)"/
        guard let lane = response.bodyText.firstMatch(of: pattern),
              let bytes = Int(lane.2)
        else { return nil }
        return (String(lane.1), bytes)
    }
}

/// A Chromium-family browser that can load a page headless, when one is installed.
enum HeadlessBrowser {
    /// Whether the browser test runs: with a browser installed, or always where `BA_REQUIRE_BROWSER=1`
    /// says one must be, so a machine that should have one fails instead of skipping.
    static let runs = executable != nil || ProcessInfo.processInfo.environment["BA_REQUIRE_BROWSER"] == "1"

    static let executable: URL? = ["chromium", "chromium-browser", "google-chrome"].lazy.compactMap {
        try? locateExecutable($0)
    }.first
}
