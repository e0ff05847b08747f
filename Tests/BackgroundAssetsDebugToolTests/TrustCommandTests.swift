/*
Abstract:
Unit tests of the debug tool's trust command on a temporary device root.
*/

import BackgroundAssetsIPC
import Foundation
import TestSupport
import Testing
import TLS

@testable import BackgroundAssetsDebugTool

@Suite("Trusting CA certificates on a device")
struct TrustCommandTests {
    static func run(_ words: [String], _ paths: DevicePaths) async throws -> DebugExitCode {
        let command = try TrustCommand.parsing(Array(words.dropFirst()))
        return try await command.run(in: ToolContext.recording(paths))
    }

    @Test("A CA is added under the device root, listed by fingerprint, and removed by path or fingerprint")
    func addListRemove() async throws {
        let root = try TemporaryDeviceRoot()
        let paths = DevicePaths(root: root.url)
        let authority = try LocalCertificateAuthority(directory: root.url.appending(path: "tls"))
        let store = TrustStore(directory: paths.trustDirectory)

        #expect(try await Self.run(["trust", "add", authority.caCertificate.path], paths) == .success)
        let entries = try store.list()
        #expect(entries.count == 1)
        #expect(entries.first?.file.deletingLastPathComponent().standardizedFileURL == paths.trustDirectory.standardizedFileURL)
        #expect(try await Self.run(["trust", "list", "--json"], paths) == .success)

        #expect(try await Self.run(["trust", "remove", authority.caCertificate.path], paths) == .success)
        #expect(try store.list().isEmpty)

        _ = try store.add(authority.caCertificate)
        let fingerprint = try #require(try store.list().first?.summary.sha256)
        #expect(try await Self.run(["trust", "remove", fingerprint.uppercased()], paths) == .success)
        #expect(try store.list().isEmpty)
    }

    @Test("A server certificate or a file that is not PEM is refused, saying what to give instead")
    func refusesWhatIsNotACA() async throws {
        let root = try TemporaryDeviceRoot()
        let authority = try LocalCertificateAuthority(directory: root.url.appending(path: "tls"))
        let store = TrustStore(directory: DevicePaths(root: root.url).trustDirectory)
        do {
            _ = try store.add(authority.serverCertificate)
            Issue.record("a server certificate was trusted as a CA")
        } catch let error as DebugToolError {
            #expect(error.message.contains("not a CA certificate"))
        }
        let text = root.url.appending(path: "notes.txt")
        try Data("hello".utf8).write(to: text)
        do {
            _ = try store.add(text)
            Issue.record("a text file was trusted")
        } catch let error as DebugToolError {
            #expect(error.message.contains("not a PEM certificate"))
        }
        #expect(throws: DebugToolError.self) { try store.remove("0123456789abcdef") }
    }

    @Test("trust without a known verb is a usage error")
    func usage() {
        #expect(throws: DebugToolError.self) { try TrustCommand.parsing(["trust-me"]) }
    }
}
