/*
Abstract:
Tests of transfers over https: trust, certificate failures, resume inside TLS, and redirects that would leave TLS.
*/

@testable import BackgroundAssetsDaemon
import Foundation
import TestSupport
import Testing
import TLS

@Suite("Transferring a file over https", .timeLimit(.minutes(3)))
struct HTTPSTransferTests {
    let folder: TemporaryDirectory
    let authority: LocalCertificateAuthority
    let trustFolder: URL

    init() throws {
        folder = try TemporaryDirectory()
        authority = try LocalCertificateAuthority(directory: folder.url.appending(path: "ca"))
        trustFolder = folder.url.appending(path: "trust")
        try FileManager.default.createDirectory(at: trustFolder, withIntermediateDirectories: true)
    }

    func serverContext() throws -> TLSServerContext {
        try TLSServerContext(certificateChain: authority.serverCertificate, privateKey: authority.serverKey)
    }

    func trustCA() throws {
        try FileManager.default.copyItem(at: authority.caCertificate, to: trustFolder.appending(path: "local.pem"))
    }

    func request(_ url: URL, onDisk: Int = 0) throws -> TransferRequest {
        var request = try HTTPTransferTests.request(url, in: folder.url, onDisk: onDisk)
        request.trust = TrustedCertificates(directory: trustFolder)
        return request
    }

    @Test("A fresh download over https writes the file, with the device's CA trusted")
    func downloadsOverTLS() async throws {
        try trustCA()
        let server = try ScriptedHTTPServer(tls: try serverContext(), script: HTTPTransferTests.fullResponse)
        defer { server.stop() }
        let request = try request(server.url("/a.mp4"))
        #expect(request.url.scheme == "https")
        let (result, _) = await HTTPTransferTests.transfer(request)
        #expect(try result.get().length == Int64(HTTPTransferTests.file.count))
        #expect(try HTTPTransferTests.bytesOnDisk(request) == HTTPTransferTests.file)
    }

    @Test("A resumed download over https asks for the rest with Range and If-Range and splices it")
    func resumesOverTLS() async throws {
        try trustCA()
        let server = try ScriptedHTTPServer(tls: try serverContext(), script: HTTPTransferTests.rangeResponse)
        defer { server.stop() }
        let request = try request(server.url("/a.mp4"), onDisk: 100_000)
        let (result, events) = await HTTPTransferTests.transfer(request)
        #expect(try result.get().length == Int64(HTTPTransferTests.file.count))
        #expect(server.requests.first?.headerValue("Range") == "bytes=100000-")
        #expect(server.requests.first?.headerValue("If-Range") == HTTPTransferTests.etag)
        #expect(!events.contains { if case .restartedFromZero = $0 { true } else { false } })
        #expect(try HTTPTransferTests.bytesOnDisk(request) == HTTPTransferTests.file)
    }

    @Test("A certificate from a CA the device does not trust fails at once: certificate, reason, host; not retryable")
    func untrustedFailsAtOnce() async throws {
        let server = try ScriptedHTTPServer(tls: try serverContext(), script: HTTPTransferTests.fullResponse)
        defer { server.stop() }
        let (result, _) = await HTTPTransferTests.transfer(try request(server.url("/a.mp4")))
        guard case let .failure(error) = result else { Issue.record("an untrusted server was accepted"); return }
        #expect(error.kind == .certificate(.untrustedIssuer))
        #expect(!error.isRetryable)
        #expect(error.description.contains("certificate") && error.description.contains("untrusted issuer")
            && error.description.contains("127.0.0.1"))
        #expect(error.wireFailure.code == -1203)
        #expect(server.requests.isEmpty)
    }

    @Test("A CA trusted after a failure is used by the next transfer")
    func trustAddedLater() async throws {
        let server = try ScriptedHTTPServer(tls: try serverContext(), script: HTTPTransferTests.fullResponse)
        defer { server.stop() }
        let first = await HTTPTransferTests.transfer(try request(server.url("/a.mp4")))
        #expect(throws: TransferError.self) { try first.result.get() }
        try trustCA()
        let second = await HTTPTransferTests.transfer(try request(server.url("/a.mp4")))
        #expect(try second.result.get().length == Int64(HTTPTransferTests.file.count))
    }

    @Test("A redirect from https to plain http is refused, to another host and to this machine alike")
    func insecureRedirects() async throws {
        try trustCA()
        let plain = try ScriptedHTTPServer(script: HTTPTransferTests.fullResponse)
        defer { plain.stop() }
        for location in ["http://cdn.example.com/a.mp4", plain.url("/a.mp4").absoluteString] {
            let redirecting = try ScriptedHTTPServer(tls: try serverContext()) { _, _ in
                .response("302 Found", ["Location: \(location)"])
            }
            defer { redirecting.stop() }
            let outcome = await HTTPTransferTests.transfer(try request(redirecting.url("/a.mp4")))
            guard case let .failure(error) = outcome.result else { Issue.record("the redirect to \(location) was followed"); continue }
            #expect(error.kind == .insecureRedirect, "\(location)")
            #expect(!error.isRetryable)
            #expect(error.description.contains("leaves https for plain http"), "\(error)")
        }
        #expect(plain.requests.isEmpty, "nothing was asked of the plain server")
    }

    @Test("A server that goes silent after the head over https is a stall, retryable")
    func stallOverTLS() async throws {
        try trustCA()
        let server = try ScriptedHTTPServer(tls: try serverContext()) { _, _ in
            Self.partial()
        }
        defer { server.stop() }
        var request = try request(server.url("/a.mp4"))
        request.stallTimeout = .seconds(1)
        let (result, _) = await HTTPTransferTests.transfer(request)
        guard case let .failure(error) = result else { Issue.record("a stalled transfer completed"); return }
        #expect(error.kind == .stalled)
        #expect(error.isRetryable)
    }

    static func partial() -> ScriptedHTTPServer.Reply {
        let file = HTTPTransferTests.file
        var reply = ScriptedHTTPServer.Reply.response("200 OK", ["ETag: \(HTTPTransferTests.etag)", "Content-Length: \(file.count)"])
        reply.bytes += file.prefix(1000)
        reply.stallAfterwards = true
        return reply
    }
}
