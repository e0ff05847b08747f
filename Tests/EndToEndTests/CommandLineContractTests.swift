/*
Abstract:
End-to-end: every executable answers --help and a mistake on its command line the same way.
*/

import Foundation
import Testing
import TestSupport

@Suite("Command lines")
struct CommandLineContractTests {
    /// The five executables; the app by the name its Info.plist gives it.
    static let executables = ["asset-server", "backgroundassetsd", "backgroundassets-debug", SampleDevice.appExecutable, "wwdc-sessions-demo"]

    @Test("--help prints the usage on standard output and exits 0", arguments: executables)
    func help(_ executable: String) async throws {
        let scenario = try Scenario()
        let result = try await runCommand(
            try ProductsDirectory.executable(named: executable).path, arguments: ["--help"], environment: scenario.environment)
        #expect(result.status == .exited(0), "\(result.standardError)")
        #expect(result.standardOutput.hasPrefix("Usage: "), "\(result.standardOutput.prefix(200))")
        #expect(result.standardError.isEmpty, "\(result.standardError)")
    }

    @Test("An unknown argument is named on standard error, with exit code 64", arguments: executables)
    func unknownArgument(_ executable: String) async throws {
        let scenario = try Scenario()
        let result = try await runCommand(
            try ProductsDirectory.executable(named: executable).path, arguments: ["--bogus"], environment: scenario.environment)
        #expect(result.status == .exited(64), "\(result.standardError)")
        // `tool: message`, then the usage.
        #expect(result.standardError.split(separator: "\n").first?.contains(": ") == true, "\(result.standardError.prefix(200))")
        #expect(result.standardError.contains("Usage: ") || executable == "backgroundassets-debug", "\(result.standardError.prefix(300))")
        #expect(result.standardError.contains("--bogus"), "\(result.standardError.prefix(200))")
        #expect(result.standardOutput.isEmpty, "\(result.standardOutput.prefix(200))")
    }

    @Test("An option without its value is named, with exit code 64", arguments: [
        ("asset-server", ["--port"]), ("wwdc-sessions-demo", ["--port"]), (SampleDevice.appExecutable, ["--timeout"]),
        ("backgroundassets-debug", ["trace", "--last"]),
    ])
    func missingValue(_ executable: String, _ arguments: [String]) async throws {
        let scenario = try Scenario()
        let result = try await runCommand(
            try ProductsDirectory.executable(named: executable).path, arguments: arguments, environment: scenario.environment)
        #expect(result.status == .exited(64), "\(result.standardError)")
        #expect(result.standardError.contains("The option \(arguments.last!) needs a value."), "\(result.standardError.prefix(300))")
    }

    /// The executables whose options are declared once, in a signature that parses them and renders `--help`.
    static let declaredExecutables = [
        "asset-server", "backgroundassetsd", SampleDevice.appExecutable, "wwdc-sessions-demo", "lifecycle-test-app",
        "task-test-app", "exclusive-control-probe", "asset-pack-unpack-probe", "url-session-test-app",
        "asset-pack-test-app",
    ]

    @Test("Every option --help lists is accepted, and a word it does not list is refused", arguments: declaredExecutables)
    func helpListsWhatIsParsed(_ executable: String) async throws {
        let scenario = try Scenario()
        let path = try ProductsDirectory.executable(named: executable).path
        let help = try await runCommand(path, arguments: ["--help"], environment: scenario.environment).standardOutput
        #expect(HelpOptions.spellings(inHelp: help).suffix(2) == ["-h", "--help"], "\(help)")
        for line in HelpOptions.probes(inHelp: help) {
            let result = try await runCommand(path, arguments: line, environment: scenario.environment)
            // The unlisted word is the one refused: the option before it, and its value, were read.
            #expect(result.status == .exited(64), "\(line)")
            #expect(result.standardError.hasPrefix("\(executable): \(HelpOptions.unlistedRefusal)"),
                    "\(line): \(result.standardError.prefix(200))")
        }
    }
}
