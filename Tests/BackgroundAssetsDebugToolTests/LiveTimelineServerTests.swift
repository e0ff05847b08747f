/*
Abstract:
The live timeline's server over sockets: redrawn as the trace grows, started over when replaced, alive after bad requests.
*/

@testable import BackgroundAssetsDebugTool
import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

@Suite("The live timeline's server", .timeLimit(.minutes(3)))
struct LiveTimelineServerTests {
    /// How long a client waits for an answer: long, since a machine running every test at once can
    /// leave the server's thread unscheduled for seconds.
    static let patience = Duration.seconds(30)

    /// Serves a trace file on a free port for the length of `body`, then stops and checks the server ended.
    func withServer(trace: URL, _ body: (LiveTimelineServer) async throws -> Void) async throws {
        let source = LiveTimelineSource(file: trace, caption: "") { $0 }
        let routes = LiveTimelineRoutes(
            page: { LiveTimelinePage.render(picture: source.picture(), file: trace.path) }, picture: { source.picture() })
        let server = try LiveTimelineServer(port: 0, routes: routes)
        let running = Task { await server.run() }
        do {
            try await body(server)
        } catch {
            server.stop()
            await running.value
            throw error
        }
        server.stop()
        await running.value
    }

    func get(_ path: String, from server: LiveTimelineServer) async throws -> RawHTTPResponse {
        let client = try RawHTTPClient(port: server.port, timeout: Self.patience)
        defer { client.close() }
        return try await client.request("GET", path)
    }

    @Test("The picture gains a lane and its bytes as the trace grows, and starts over when the trace is replaced")
    func redrawsAsTheTraceGrows() async throws {
        let folder = try TemporaryDirectory(prefix: "live-timeline")
        let trace = folder.appending("trace.jsonl")
        try await withServer(trace: trace) { server in
            #expect(server.url == "http://127.0.0.1:\(server.port)/")
            let waiting = try await get("/timeline.svg", from: server)
            #expect(waiting.statusCode == 200)
            #expect(waiting.bodyText.contains("Waiting for the first event"), "\(waiting.bodyText)")

            var script = TraceScript()
            script.at(0, "install", from: "tool", to: "backgroundassetsd", detail: "version 1")
            script.at(0.5, "downloadDidBegin", download: "session-1", transfer: TraceScript.transfer(0))
            script.at(1, TraceEntry.progressEvent, download: "session-1", transfer: TraceScript.transfer(250_000))
            try Data(script.entries.flatMap(\.line)).write(to: trace)
            let first = try await get("/timeline.svg", from: server).bodyText
            #expect(first.contains("data-download=\"session-1\""))
            #expect(first.contains("data-bytes=\"250000\""), "\(first)")

            // A line arrives in two writes: nothing of it shows until its newline does.
            var more = TraceScript()
            more.at(2, TraceEntry.progressEvent, download: "session-1", transfer: TraceScript.transfer(600_000))
            let line = more.entries[0].line
            let handle = try FileHandle(forWritingTo: trace)
            try handle.seekToEnd()
            try handle.write(contentsOf: line.prefix(20))
            #expect(try await get("/timeline.svg", from: server).bodyText.contains("data-bytes=\"250000\""))
            try handle.write(contentsOf: line.dropFirst(20))
            try handle.close()
            let grown = try await get("/timeline.svg", from: server).bodyText
            #expect(grown.contains("data-bytes=\"600000\""), "\(grown)")

            // A trace replaced by a new file: the picture is of the new one alone.
            var after = TraceScript()
            after.at(10, "install", from: "tool", to: "backgroundassetsd", detail: "version 2")
            // An atomic write renames a new file over the old one, as a replaced trace is.
            try Data(after.entries.flatMap(\.line)).write(to: trace, options: .atomic)
            let restarted = try await get("/timeline.svg", from: server).bodyText
            #expect(restarted.contains("<svg"))
            #expect(!restarted.contains("session-1"), "\(restarted)")

            let page = try await get("/", from: server)
            #expect(page.statusCode == 200)
            #expect(page.value(forHeader: "Content-Type") == "text/html; charset=utf-8")
            #expect(page.bodyText.contains("<svg") && page.bodyText.contains("fetch(\"/timeline.svg\""))
            #expect(!page.bodyText.contains("<?xml"), "inline SVG has no XML declaration")
        }
    }

    @Test("Garbage gets a 400, an unknown path a 404, a silent client nothing, and the server keeps answering")
    func survivesBadRequests() async throws {
        let folder = try TemporaryDirectory(prefix: "live-timeline")
        try await withServer(trace: folder.appending("trace.jsonl")) { server in
            // A connection that never sends a byte must not hold up the others.
            let silent = try RawHTTPClient(port: server.port, timeout: Self.patience)
            defer { silent.close() }
            let garbage = try RawHTTPClient(port: server.port, timeout: Self.patience)
            defer { garbage.close() }
            try await garbage.send([0x16, 0x03, 0x01, 0x00, 0xFF, 0x0D, 0x0A, 0x0D, 0x0A])
            let refused = try await garbage.readResponse()
            #expect(refused.statusCode == 400)
            #expect(refused.bodyText.hasPrefix("400 Bad Request: "), "\(refused.bodyText)")
            #expect(await garbage.waitForClose(timeout: Self.patience))

            let endless = try RawHTTPClient(port: server.port, timeout: Self.patience)
            defer { endless.close() }
            try await endless.send("GET / HTTP/1.1\r\nX: " + String(repeating: "a", count: 20_000))
            #expect(try await endless.readResponse().statusCode == 431)

            #expect(try await get("/nothing-here", from: server).statusCode == 404)
            #expect(try await get("/timeline.svg", from: server).statusCode == 200)
        }
    }
}
