/*
Abstract:
Unit tests of the debug tool's command line: options, positionals, download requests and their identifiers.
*/

import Foundation
import Testing

@testable import BackgroundAssetsDebugTool

@Suite("Parse the debug tool's command line")
struct CommandLineTests {
    @Test("Options take a value in either form; unknown arguments are usage errors")
    func optionsAndLeftovers() throws {
        let download = try DownloadCommand(from: SubcommandArguments(
            ["--output=a", "--size", "5", "http://127.0.0.1/a", "--foreground"], subcommand: DownloadCommand.signature))
        #expect(download.output == "a")
        #expect(download.size == 5)
        #expect(download.foreground)
        #expect(download.url == "http://127.0.0.1/a")
        for line in [["--output"], ["http://127.0.0.1/a", "--output", "a", "--bogus"]] {
            #expect { try SubcommandArguments(line, subcommand: DownloadCommand.signature) } throws: { error in
                (error as? DebugToolError)?.exitCode == .usage
            }
        }
    }

    @Test("The same URL and output give the same download identifier, a different output another")
    func stableIdentifier() throws {
        let folder = FileManager.default.temporaryDirectory.path
        func request(_ output: String, extra: [String] = []) throws -> DownloadRequest {
            try DownloadCommand.parsing(["http://127.0.0.1:8080/a.mp4", "--output", "\(folder)/\(output)"] + extra).request
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
            do {
                _ = try DownloadCommand.parsing(line).request
                Issue.record("\(line) was accepted.")
            } catch let error as DebugToolError {
                #expect(error.message.contains(expected), "\(line): \(error.message)")
            } catch {
                Issue.record("\(line) threw \(error)")
            }
        }
    }
}
