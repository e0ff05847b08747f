/*
Abstract:
End-to-end: the debug tool says what it waits for, an install without content says so with its own exit status, and an unexpected device root is named.
*/

import Foundation
import Testing
import TestSupport

@Suite("The debug tool says what it waits for", .serialized, .timeLimit(.minutes(2)))
struct ToolWaitTests {
    @Test("install --wait whose manifest is unreachable says the app has no content and exits 2")
    func installWithoutContentExits2() async throws {
        let scenario = try Scenario()
        let nobody = try RefusingPort()
        // Held to the end of the test, so no other test's server takes the port meanwhile.
        defer { withExtendedLifetime(nobody) {} }
        let manifest = try #require(URL(string: "http://127.0.0.1:\(nobody.port)/manifest.json"))
        let appPlist = try infoPlistCopy(
            of: "App/Info.plist", setting: "BAManifestURL", to: manifest, at: scenario.folder.appending("App-Info.plist"))
        let extensionPlist = SampleIdentity.repositoryRoot.appending(path: "Extension/Info.plist")
        // The extension the service launches to hear of the failed manifest is not the test's child.
        defer { killExtensions(of: scenario.deviceRoot) }
        try await withService(deviceRoot: scenario.deviceRoot, configuration: quickConfiguration) { _ in
            let result = try await scenario.runTool([
                "install", "--app-plist", appPlist.path, "--extension-plist", extensionPlist.path, "--wait",
            ])
            #expect(result.status == .exited(2), "\(result.standardError)")
            let error = result.standardError
            #expect(error.contains("version 1, without its content."), "\(error)")
            #expect(error.contains("The manifest at \(manifest.absoluteString) could not be fetched"), "\(error)")
            #expect(error.contains("Nothing was downloaded for it"), "\(error)")
            #expect(error.contains("simulate --app-install -b \(SampleDevice.bundleIdentifier)"), "\(error)")
            #expect(!result.standardOutput.contains("its other downloads continue"), "\(result.standardOutput)")
        }
    }

    @Test("download from a server that is down says it waits for that server, and what to do")
    func downloadSaysItWaitsForTheServer() async throws {
        let scenario = try Scenario()
        let nobody = try RefusingPort()
        defer { withExtendedLifetime(nobody) {} }
        try await withService(deviceRoot: scenario.deviceRoot, configuration: quickConfiguration) { _ in
            let tool = try scenario.launchTool([
                "download", "http://127.0.0.1:\(nobody.port)/later.mp4",
                "--output", scenario.outputFolder.appending(path: "later.mp4").path,
            ])
            try await tool.runScoped { tool in
                try await poll(until: { tool.standardError().contains("Waiting for the server 127.0.0.1:\(nobody.port) to answer") },
                               "the tool to say what it waits for")
                let error = tool.standardError()
                #expect(error.contains("Connection refused"), "\(error)")
                #expect(error.contains("start the server, or press Ctrl-C"), "\(error)")
                // Said once, not on every retry.
                #expect(error.components(separatedBy: "Waiting for the server").count == 2, "\(error)")
            }
        }
    }

    @Test("install --wait whose essential download waits for a failing server says which server, and what to do")
    func installSaysWhichServerItsEssentialDownloadsWaitFor() async throws {
        let failing = CatalogSession.firstEssentialPath
        // 503 for longer than the install waits: the essential download retries until essentialWait ends it.
        try await withSampleDevice(serverArguments: ["--fail", "\(failing)=503x1000"], configuration: ["essentialWait": 10]) { device in
            let result = try await device.scenario.runTool(try device.installArguments())
            #expect(result.status == .exited(0), "\(result.standardError)")
            let error = result.standardError
            #expect(error.contains("Waiting for the server 127.0.0.1:\(device.server.port) to answer"), "\(error)")
            #expect(error.contains("answered 503"), "\(error)")
            #expect(error.contains("essentialWait"), "\(error)")
            #expect(error.components(separatedBy: "Waiting for the server").count == 2, "said once: \(error)")
        }
    }

    @Test("A device root from BA_DEVICE_ROOT is named once, before the command's own lines")
    func deviceRootFromEnvironmentIsNamed() async throws {
        let scenario = try Scenario()
        let result = try await scenario.runTool(["clock"])
        // The command may have started the service on demand; it is this test's to stop.
        await ServiceProcess.killAll(in: scenario.deviceRoot)
        let first = result.standardError.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.hasPrefix("Using device root "), "\(result.standardError)")
        #expect(first.hasSuffix("device (from BA_DEVICE_ROOT)."), "\(result.standardError)")
        #expect(result.standardError.components(separatedBy: "Using device root").count == 2)
        // --help acts on no device, and says nothing of one.
        let help = try await scenario.runTool(["clock", "--help"])
        #expect(!help.standardError.contains("Using device root"), "\(help.standardError)")
    }
}
