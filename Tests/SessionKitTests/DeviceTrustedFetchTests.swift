/*
Abstract:
Tests of the app's https fetch: it trusts the device's CAs, and only them beyond the system's.
*/

import BackgroundAssetsIPC
import Foundation
import SessionKit
import TestSupport
import Testing

@Suite("Fetching over https with the device's CAs", .timeLimit(.minutes(1)))
struct DeviceTrustedFetchTests {
    @Test("A manifest from asset-server --tls is refused until the device trusts its CA")
    func trustsDeviceCAs() async throws {
        let root = try TemporaryDirectory()
        let paths = DevicePaths(root: root.url.appending(path: "device"))
        let tls = root.url.appending(path: "tls")
        try await withAssetServer(arguments: ["--tls", "--tls-dir", tls.path]) { server in
            let url = server.url("/manifest.json")
            do {
                _ = try await DeviceTrustedFetch.data(from: url, paths: paths)
                Issue.record("an untrusted CA was accepted")
            } catch {
                #expect(error.localizedDescription.contains("certificate"))
            }
            try FileManager.default.createDirectory(at: paths.trustDirectory, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: tls.appending(path: "ca.pem"), to: paths.trustDirectory.appending(path: "local.pem"))
            let (data, status) = try await DeviceTrustedFetch.data(from: url, paths: paths)
            #expect(status == 200)
            #expect(String(decoding: data, as: UTF8.self).contains("\"sessions\""))
        }
    }
}
