/*
Abstract:
Signposts and os_log in a process of a device: the lines land in the device log and the trace, and the debug tool shows them.
*/

import BackgroundAssetsIPC
import Foundation
@testable import OSLog
import TestSupport
import Testing

@Suite("Signposts reach the device log and the trace", .serialized, .timeLimit(.minutes(3)))
struct SignpostDeviceTests {
    /// A device root with the `system/` folder the service would have made.
    func deviceRoot() throws -> TemporaryDeviceRoot {
        let root = try TemporaryDeviceRoot()
        try FileManager.default.createDirectory(
            at: root.appending("system"), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return root
    }

    @Test("A process that imports os.log writes its os_log line and signposts to system/log and system/trace.jsonl")
    func probeLinesLand() async throws {
        let root = try deviceRoot()
        defer { root.remove() }
        let probe = try ProductsDirectory.executable(named: "signpost-probe").path
        let run = try await runCommand(probe, environment: root.environment, timeout: .seconds(60))
        #expect(run.status.isSuccess, "signpost-probe: \(run.standardError)")

        let log = try String(contentsOf: root.appending("system/log"), encoding: .utf8)
        #expect(log.contains("[probe] Loading manifest.json with 12 sessions"), "\(log)")
        #expect(log.contains(#"[probe] signpost begin "Load manifest" id "#), "\(log)")
        #expect(log.contains(#"signpost event "Manifest parsed""#) && log.contains(": 12 sessions"), "\(log)")
        #expect(log.contains(#"signpost end "Load manifest""#) && log.contains(": after "), "\(log)")
        #expect(log.contains("[probe] notice: The sessions last 390 minutes in all."), "\(log)")

        let entries = TraceEntry.entries(in: try Data(contentsOf: root.appending("system/trace.jsonl")))
        let signposts = entries.filter { $0.signpost != nil }
        #expect(signposts.map(\.event) == [
            TraceSignpost.beginEvent, TraceSignpost.emitEvent, TraceSignpost.endEvent,
            TraceSignpost.beginEvent, TraceSignpost.endEvent, TraceSignpost.beginEvent, TraceSignpost.endEvent,
        ])
        let begin = try #require(signposts.first)
        #expect(begin.signpost?.name == "Load manifest" && begin.detail == "manifest.json")
        #expect(begin.signpost?.subsystem == "com.example.apple-samplecode.WWDC-Sessions")
        #expect(begin.signpost?.category == "probe" && begin.from == "app")
        // The end pairs with its begin by ID and process; the interval the closure ran in is exclusive.
        let end = signposts[2].signpost, closure = signposts[3].signpost
        #expect(end?.id == begin.signpost?.id && end?.process == begin.signpost?.process)
        #expect(closure?.name == "Sum durations" && closure?.id == OSSignpostID.exclusive.rawValue)
        // os_signpost's end carries its format's message.
        #expect(signposts[6].signpost?.name == "Refresh panel" && signposts[6].detail == "12 rows")
        #expect(log.contains(#"[probe] signpost end "Refresh panel" id exclusive: 12 rows"#), "\(log)")
    }

    @Test("backgroundassets-debug trace lists the signposts, and trace --svg draws the interval in a Signposts row")
    func debugToolShowsSignposts() async throws {
        let root = try deviceRoot()
        defer { root.remove() }
        let probe = try await runCommand(
            try ProductsDirectory.executable(named: "signpost-probe").path, environment: root.environment,
            timeout: .seconds(60))
        #expect(probe.status.isSuccess, "signpost-probe: \(probe.standardError)")

        let tool = try ProductsDirectory.executable(named: "backgroundassets-debug").path
        let lines = try await runCommand(tool, arguments: ["trace"], environment: root.environment, timeout: .seconds(60))
        let printed = lines.standardOutput
        #expect(lines.status.isSuccess, "trace: \(lines.standardError)")
        #expect(printed.contains(#"app -> app signpostBegin "Load manifest" (manifest.json)"#), "\(printed)")
        #expect(printed.contains(#"app -> app signpostEnd "Load manifest" (after "#), "\(printed)")

        let picture = root.appending("trace.svg")
        let svg = try await runCommand(
            tool, arguments: ["trace", "--svg", picture.path], environment: root.environment, timeout: .seconds(60))
        #expect(svg.status.isSuccess, "trace --svg: \(svg.standardError)")
        let drawing = try String(contentsOf: picture, encoding: .utf8)
        #expect(drawing.contains(">Signposts<"), "the timeline has no Signposts row")
        #expect(drawing.contains("Load manifest"), "the timeline does not draw the Load manifest interval")
    }

    @Test("An end that reuses its state, or names another interval, is recorded with an error instead of stopping")
    func misusedEndsAreRecorded() throws {
        let root = try deviceRoot()
        defer { root.remove() }
        let recorder = SignpostRecorder(paths: DevicePaths(root: root.url), writesLogLines: false)
        let signposter = OSSignposter(log: OSLog(subsystem: "com.example.test", category: "signposts"), recorder: recorder)
        let state = signposter.beginInterval("Download")
        signposter.endInterval("Download", state)
        signposter.endInterval("Download", state)
        signposter.endInterval("Unpack", signposter.beginInterval("Download"))
        let ends = TraceEntry.entries(in: try Data(contentsOf: root.appending("system/trace.jsonl")))
            .filter { $0.event == TraceSignpost.endEvent }
        #expect(ends.count == 3)
        #expect(ends[0].detail?.contains("error") == false)
        #expect(ends[1].detail?.contains("error: this interval state was already ended") == true, "\(ends[1])")
        #expect(ends[2].detail?.contains(#"error: the interval began as "Download""#) == true, "\(ends[2])")
    }

    @Test("A signpost's message keeps tokens in URL queries out of the trace, as the service's lines do")
    func tokensAreRedacted() throws {
        let root = try deviceRoot()
        defer { root.remove() }
        let recorder = SignpostRecorder(paths: DevicePaths(root: root.url), writesLogLines: false)
        let signposter = OSSignposter(log: OSLog(subsystem: "com.example.test", category: "signposts"), recorder: recorder)
        let url = "https://cdn.example.com/a.mp4?token=s3cr3t"
        signposter.emitEvent("Fetch", "\(url, privacy: .public)")
        let trace = try String(contentsOf: root.appending("system/trace.jsonl"), encoding: .utf8)
        #expect(!trace.contains("s3cr3t") && trace.contains("token=<redacted>"), "\(trace)")
    }

    @Test("A device root without system/ gets no trace: a signpost never creates the device's folders")
    func noDeviceNoTrace() throws {
        let root = try TemporaryDeviceRoot()
        defer { root.remove() }
        let signposter = OSSignposter(
            log: OSLog(subsystem: "com.example.test", category: "signposts"),
            recorder: SignpostRecorder(paths: DevicePaths(root: root.url), writesLogLines: false))
        signposter.emitEvent("Tick")
        #expect(!FileManager.default.fileExists(atPath: root.appending("system").path))
    }
}
