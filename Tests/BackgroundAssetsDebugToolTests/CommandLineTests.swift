/*
Abstract:
Unit tests of the debug tool's command line: options, positionals, download requests and their identifiers.
*/

import Foundation
import Testing

@testable import BackgroundAssetsDebugTool

@Suite("Parse the debug tool's command line")
struct CommandLineTests {
    @Test("Options take a value in either form; unknown arguments are reported")
    func optionsAndLeftovers() throws {
        var arguments = SubcommandArguments(["--output=a", "--size", "5", "URL", "--json"], subcommand: "test")
        #expect(try arguments.option("--output") == "a")
        #expect(try arguments.option("--size") == "5")
        let first = arguments.flag("--json")
        let second = arguments.flag("--json")
        #expect(first && !second, "a flag is consumed once")
        #expect(try arguments.positional("URL") == "URL")
        try arguments.finish()

        var missing = SubcommandArguments(["--output"], subcommand: "test")
        do {
            _ = try missing.option("--output")
            Issue.record("An option without a value was accepted.")
        } catch {
            #expect(error.exitCode == .usage)
        }
        let extra = SubcommandArguments(["--bogus"], subcommand: "test")
        #expect { try extra.finish() } throws: { ($0 as? DebugToolError)?.exitCode == .usage }
    }

    @Test("The same URL and output give the same download identifier, a different output another")
    func stableIdentifier() throws {
        let folder = FileManager.default.temporaryDirectory.path
        func request(_ output: String, extra: [String] = []) throws -> DownloadRequest {
            var arguments = SubcommandArguments(
                ["http://127.0.0.1:8080/a.mp4", "--output", "\(folder)/\(output)"] + extra, subcommand: "download")
            return try DownloadRequest(parsing: &arguments)
        }
        let first = try request("a.mp4")
        #expect(first.identifier == (try request("a.mp4", extra: ["--foreground"])).identifier)
        #expect(first.identifier != (try request("b.mp4")).identifier)
        #expect(first.identifier.hasPrefix("download-"))
        #expect(first.identifier.count == "download-".count + 16)
        #expect(first.makeDescriptor().validationProblem() == nil)
    }

    @Test("Download requests with a bad URL, size, credential or folder are refused with the value named")
    func invalidDownloads() {
        let cases: [([String], String)] = [
            (["ftp://example.com/a", "--output", "/tmp/a"], "ftp"),
            (["http://example.com/a", "--output", "/tmp/a"], "loopback"),
            (["http://127.0.0.1/a", "--output", "/tmp/a", "--size", "0"], "--size"),
            (["http://127.0.0.1/a", "--output", "/tmp/a", "--credential", "nopassword"], "USER:PASSWORD"),
            (["http://127.0.0.1/a", "--output", "/no/such/folder/a"], "/no/such/folder"),
            (["http://127.0.0.1/a"], "--output"),
        ]
        for (line, expected) in cases {
            var arguments = SubcommandArguments(line, subcommand: "download")
            do {
                _ = try DownloadRequest(parsing: &arguments)
                Issue.record("\(line) was accepted.")
            } catch {
                #expect(error.message.contains(expected), "\(line): \(error.message)")
            }
        }
    }
}
