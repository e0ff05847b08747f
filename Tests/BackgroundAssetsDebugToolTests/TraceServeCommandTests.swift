/*
Abstract:
Unit tests of trace --serve: its option, the address it prints, the filters its picture keeps, and its end on cancellation.
*/

import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

@testable import BackgroundAssetsDebugTool

@Suite("trace --serve", .timeLimit(.minutes(3)))
struct TraceServeCommandTests {
    @Test("--serve takes a port from 0 to 65535, and goes with no other output")
    func parsesThePort() throws {
        #expect(try TraceCommand.parsing(["--serve", "0"]).output == .serve(port: 0))
        #expect(try TraceCommand.parsing(["--serve", "8123", "-b", "a"]).output == .serve(port: 8123))
        for line in [["--serve", "65536"], ["--serve", "-1"], ["--serve", "x"], ["--serve", "0", "--svg", "t.svg"],
                     ["--serve", "0", "--follow"]] {
            #expect(throws: DebugToolError.self, "\(line)") { try TraceCommand.parsing(line) }
        }
    }

    @Test("It prints its address, serves the filtered picture there, and ends as interrupted when cancelled")
    func servesUntilCancelled() async throws {
        let root = try TemporaryDirectory(prefix: "trace-serve")
        let paths = DevicePaths(root: root.url)
        try FileManager.default.createDirectory(
            at: paths.traceFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        var script = TraceScript()
        script.at(0, "downloadDidBegin", download: "shown", transfer: TraceScript.transfer(0))
        script.at(1, "downloadDidBegin", download: "filtered-out", transfer: TraceScript.transfer(0))
        try Data(script.entries.flatMap(\.line)).write(to: paths.traceFile)

        let transcript = ConsoleTranscript()
        let command = try TraceCommand.parsing(["--serve", "0", "--download", "shown"])
        let serving = Task { try await command.run(in: .recording(paths, into: transcript)) }
        let line = try await poll("the address line") {
            transcript.output.split(separator: "\n").first { $0.hasPrefix(TraceCommand.servingPrefix) }
        }
        let port = try #require(line.firstMatch(of: /^Serving the live timeline at http:\/\/127\.0\.0\.1:(\d+)\/$/)
            .flatMap { Int($0.1) })
        let client = try RawHTTPClient(port: port, timeout: .seconds(30))
        defer { client.close() }
        let picture = try await client.request("GET", "/timeline.svg")
        #expect(picture.statusCode == 200)
        #expect(picture.bodyText.contains("data-download=\"shown\""))
        #expect(!picture.bodyText.contains("filtered-out"), "--download narrows the live picture as it does --svg's")

        serving.cancel()
        #expect(try await serving.value == .interrupted)
        // The port is closed once the command returned.
        #expect(throws: (any Error).self) { try RawHTTPClient(port: port) }
    }
}
