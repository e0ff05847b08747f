/*
Abstract:
End-to-end: a BAManifestURL that serves something other than a manifest is explained by install, in the extension's words.
*/

import Foundation
import Testing
import TestSupport

extension SampleTests {
    @Suite("Explain a manifest that is not one")
    struct SampleManifestFailureTests {
        @Test("install prints what the extension logged when it could not read the manifest")
        func installShowsExtensionErrors() async throws {
            try await withSampleDevice { device in
                // The server reads manifest.json on every request, so this is what the install fetches.
                try Data("hello\n".utf8).write(to: device.server.catalogURL.appending(path: "manifest.json"))
                let result = try await device.scenario.runTool(try device.installArguments())
                #expect(result.status.isSuccess, "\(result.standardError)")
                let output = result.standardOutput + result.standardError
                #expect(output.contains("The extension returned no downloads. It logged: Failed to load and replace the manifest"),
                        "\(output)")
            }
        }
    }
}
