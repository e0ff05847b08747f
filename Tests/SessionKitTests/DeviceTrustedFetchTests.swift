/*
Abstract:
Tests of the app's https fetch: it trusts the device's CAs, and only them beyond the system's.
*/

import BackgroundAssetsIPC
import Foundation
import SessionKit
import TestSupport
import Testing
import TLS

@Suite("Fetching over https with the device's CAs", .timeLimit(.minutes(3)))
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

    @Test("Answers are read as the service reads them: redirects followed, a malformed head, a compressed or short body refused")
    func readsAnswersStrictly() async throws {
        let root = try TemporaryDirectory()
        let paths = DevicePaths(root: root.url.appending(path: "device"))
        let authority = try LocalCertificateAuthority(directory: root.url.appending(path: "ca"))
        try FileManager.default.createDirectory(at: paths.trustDirectory, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: authority.caCertificate, to: paths.trustDirectory.appending(path: "local.pem"))
        let context = try TLSServerContext(certificateChain: authority.serverCertificate, privateKey: authority.serverKey)
        let server = try ScriptedHTTPServer(tls: context) { head, _ in
            let path = head.requestTarget ?? ""
            return switch path {
            case "/moved": .response("302 Found", ["Location: /manifest.json"])
            case "/manifest.json": .response("200 OK", body: Array(#"{"sessions":[]}"#.utf8))
            case "/compressed": .response("200 OK", ["Content-Encoding: gzip"], body: [0x1F, 0x8B, 8, 0])
            case "/short": ScriptedHTTPServer.Reply(Array("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc".utf8))
            default: ScriptedHTTPServer.Reply(Array("HTTP/2 200\r\n\r\n".utf8))
            }
        }
        defer { server.stop() }

        let (data, status) = try await DeviceTrustedFetch.data(from: server.url("/moved"), paths: paths)
        #expect(status == 200)
        #expect(String(decoding: data, as: UTF8.self) == #"{"sessions":[]}"#)
        let refusals = ["/compressed": "Content-Encoding: gzip", "/short": "ended after 3 of 10 bytes", "/h2": "is not HTTP/1.x"]
        for (path, reason) in refusals {
            do {
                _ = try await DeviceTrustedFetch.data(from: server.url(path), paths: paths, timeout: .seconds(120))
                Issue.record("\(path) was accepted")
            } catch {
                #expect(error.localizedDescription.contains(reason), "\(path): \(error.localizedDescription)")
            }
        }
    }
}
