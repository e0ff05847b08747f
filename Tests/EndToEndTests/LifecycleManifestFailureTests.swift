/*
Abstract:
End-to-end: when the app's manifest cannot be fetched, the extension hears of it as a failed download and is asked for nothing.
*/

import Foundation
import Testing
import TestSupport

extension LifecycleTests {
    @Suite("Report a manifest that cannot be fetched")
    struct LifecycleManifestFailureTests {
        @Test("A failing BAManifestURL reaches the extension as a failed download that is not exactly a BAURLDownload")
        func manifestFailure() async throws {
            try await withLifecycle(serverArguments: ["--fail", "/manifest.json=500x100"]) { life in
                try life.write(life.behaviour())
                let install = try await life.install(wait: false)
                #expect(install.status == .exited(0), "\(install.standardError)")

                let calls = try await life.waitForExtensionCalls("the manifest's failure") { !$0.calls("failed").isEmpty }
                let failure = try #require(calls.calls("failed").first)
                #expect(failure.isExactlyURLDownload == false, "the manifest's download must be a private subclass")
                #expect(failure.isEssential != true)
                #expect(failure.errorDomain != nil, "\(failure)")
                // The launch that reported the failure ends without ever being asked for downloads.
                try await poll(until: { !isProcessAlive(failure.pid) }, "the extension to end")
                #expect(life.extensionCalls().calls("downloads").isEmpty, "\(life.extensionCalls())")
                #expect(life.trace().allSatisfy { $0.event != "downloads(for:manifestURL:extensionInfo:)" })
                #expect(try life.accessLog().contains { $0.path == "/manifest.json" && $0.status == 500 })
                _ = try await life.waitForAppStatus("the app launchable") { $0["state"] as? String == "launchable" }
            }
        }

        @Test("install --wait says why the manifest could not be fetched, or what the extension logged about it")
        func installExplainsManifestFailures() async throws {
            try await withLifecycle(serverArguments: ["--fail", "/manifest.json=404"]) { life in
                try life.write(life.behaviour())
                let install = try await life.install()
                // Installed, but without content: its own exit status, so a script can tell.
                #expect(install.status == .exited(2), "\(install.standardError)")
                let output = install.standardOutput + install.standardError
                #expect(output.contains("could not be fetched") && output.contains("404"), "\(output)")
                #expect(output.contains("Check BAManifestURL"), "\(output)")
                #expect(install.standardError.contains("without its content"), "\(install.standardError)")
            }
        }
    }
}
