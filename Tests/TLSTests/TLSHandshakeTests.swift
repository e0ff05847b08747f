/*
Abstract:
Tests of the TLS handshake: trust, host and address checks, validity, versions, deadlines and resumption.
*/

import DevicePlatform
import Foundation
import TestSupport
import Testing
import TLS

@Suite("TLS handshakes", .timeLimit(.minutes(3)))
struct TLSHandshakeTests {
    let folder: TemporaryDirectory
    let authority: LocalCertificateAuthority

    init() throws {
        folder = try TemporaryDirectory()
        authority = try LocalCertificateAuthority(directory: folder.url.appending(path: "ca"))
    }

    var trustingClient: TLSClientContext { get throws { try TLSClientContext(extraCAFiles: [authority.caCertificate]) } }
    var localServer: TLSServerContext { get throws { try TLSServerContext(certificateChain: authority.serverCertificate, privateKey: authority.serverKey) } }

    func issuedBy(_ names: [String], notBefore: Int64 = -3600, notAfter: Int64 = 86_400) throws -> TLSServerContext {
        let ca = IssuedCertificate(certificatePEM: try String(contentsOf: authority.caCertificate, encoding: .utf8),
                                   privateKeyPEM: try String(contentsOf: authority.caKey, encoding: .utf8))
        let issued = try CertificateIssuer.server(names: names, issuer: ca, notBefore: notBefore, notAfter: notAfter)
        let files = try TLSPair.files(issued, in: folder.url, name: UUID().uuidString)
        return try TLSServerContext(certificateChain: files.certificate, privateKey: files.key)
    }

    func problem(_ outcome: TLSPair.Outcome) -> (TLSError.CertificateProblem?, String) {
        guard case let .failure(error) = outcome.client else { return (nil, "connected") }
        if case let .certificate(problem) = error.kind { return (problem, error.message) }
        return (nil, error.message)
    }

    @Test("A server whose CA the client trusts: TLS 1.3, ALPN http/1.1, bytes both ways")
    func trustedHandshake() throws {
        let outcome = TLSPair.handshake(server: try localServer, client: try trustingClient, host: "localhost")
        let client = try outcome.client.get()
        let server = try outcome.server.get()
        #expect(client.version == "TLSv1.3")
        #expect(client.negotiatedProtocol == nil || client.negotiatedProtocol == "http/1.1")
        let message = Array("GET / HTTP/1.1\r\n\r\n".utf8)
        try message.withUnsafeBytes { try client.write($0, timeoutMilliseconds: 1000) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let read = try buffer.withUnsafeMutableBytes { try server.read(into: $0, timeoutMilliseconds: 1000) }
        #expect(read == .bytes(message.count))
        #expect(Array(buffer.prefix(message.count)) == message)
        server.shutdown()
        let end = try buffer.withUnsafeMutableBytes { try client.read(into: $0, timeoutMilliseconds: 1000) }
        #expect(end == .closed)
        close(outcome.descriptors.0)
        close(outcome.descriptors.1)
    }

    @Test("An IP address is checked against the certificate's IP entries", arguments: ["127.0.0.1", "::1", "[::1]"])
    func addressMatches(host: String) throws {
        let outcome = TLSPair.handshake(server: try localServer, client: try trustingClient, host: host)
        #expect(throws: Never.self) { try outcome.client.get() }
    }

    @Test("A CA the client does not trust is refused as an untrusted issuer, naming the host")
    func untrustedIssuer() throws {
        let outcome = TLSPair.handshake(server: try localServer, client: try TLSClientContext(), host: "localhost")
        let (problem, message) = problem(outcome)
        #expect(problem == .untrustedIssuer)
        #expect(message.contains("certificate") && message.contains("localhost") && message.contains("untrusted issuer"))
        #expect(message.contains("trust add"))
    }

    @Test("A certificate for another name is refused as a name mismatch")
    func wrongHost() throws {
        let outcome = TLSPair.handshake(server: try issuedBy(["cdn.example.com"]), client: try trustingClient, host: "localhost")
        #expect(problem(outcome).0 == .nameMismatch)
        let address = TLSPair.handshake(server: try localServer, client: try trustingClient, host: "10.0.0.1")
        #expect(problem(address).0 == .nameMismatch)
    }

    @Test("Expired and not yet valid certificates are refused with their reason")
    func validity() throws {
        let expired = TLSPair.handshake(server: try issuedBy(["localhost"], notBefore: -7200, notAfter: -3600),
                                        client: try trustingClient, host: "localhost")
        #expect(problem(expired).0 == .expired)
        #expect(problem(expired).1.contains("expired"))
        let future = TLSPair.handshake(server: try issuedBy(["localhost"], notBefore: 3600, notAfter: 7200),
                                       client: try trustingClient, host: "localhost")
        #expect(problem(future).0 == .notYetValid)
    }

    @Test("A self-signed server certificate is refused as self-signed")
    func selfSigned() throws {
        let issued = try CertificateIssuer.server(names: ["localhost"], issuer: nil)
        let files = try TLSPair.files(issued, in: folder.url, name: "self")
        let server = try TLSServerContext(certificateChain: files.certificate, privateKey: files.key)
        #expect(problem(TLSPair.handshake(server: server, client: try trustingClient, host: "localhost")).0 == .selfSigned)
    }

    @Test("A server that speaks only TLS 1.1 is refused, and not as a certificate problem")
    func oldVersionsRefused() throws {
        let server = try TLSServerContext(
            certificateChain: authority.serverCertificate, privateKey: authority.serverKey, newestVersion: .tls11)
        let outcome = TLSPair.handshake(server: server, client: try trustingClient, host: "localhost")
        guard case let .failure(error) = outcome.client else { Issue.record("TLS 1.1 was accepted"); return }
        #expect(error.kind == .handshakeFailed || error.kind == .connectionLost)
    }

    @Test("A server that never answers the handshake times out at the deadline")
    func handshakeDeadline() throws {
        // -1, not 0: should the call fail, closing these must not close descriptor 0, or whatever took its number.
        var pair: [Int32] = [-1, -1]
        socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair)
        defer { close(pair[0]); close(pair[1]) }
        let started = ContinuousClock.now
        // Without the deadline it would never return: nothing ever answers on the other end.
        #expect(throws: TLSError.self) {
            try TLSStream.connect(descriptor: pair[0], context: try trustingClient, host: "localhost", port: 1, timeoutMilliseconds: 200)
        }
        #expect(ContinuousClock.now - started >= .milliseconds(200), "it gave up before its deadline")
    }

    @Test("A wait is rounded up to the next whole millisecond, so it never ends before its deadline")
    func waitsRoundUp() {
        let now: UInt64 = 5_000_999_999
        #expect(MonotonicClock.millisecondsUntil(now + 1, now: now) == 1, "a nanosecond left is a millisecond to wait")
        #expect(MonotonicClock.millisecondsUntil(now + 200_000_001, now: now) == 201)
        #expect(MonotonicClock.millisecondsUntil(now + 200_000_000, now: now) == 200)
        #expect(MonotonicClock.millisecondsUntil(now - 1, now: now) == 0)
        let started = MonotonicClock.now()
        let deadline = MonotonicClock.deadline(in: 200)
        #expect(deadline - started >= 200_000_000, "the deadline counts from no earlier than the call")
    }

    @Test("A server that closes during the handshake is a lost connection, not a certificate failure")
    func closedMidHandshake() throws {
        var pair: [Int32] = [-1, -1]
        socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair)
        defer { close(pair[0]) }
        close(pair[1])
        do {
            _ = try TLSStream.connect(descriptor: pair[0], context: try trustingClient, host: "localhost", port: 1, timeoutMilliseconds: 1000)
            Issue.record("connected to a closed peer")
        } catch let error as TLSError {
            #expect(error.kind == .connectionLost)
        }
    }

    @Test("A second connection to the same host and port resumes the session")
    func resumption() throws {
        let client = try trustingClient
        let server = try localServer
        for round in 0..<2 {
            let outcome = TLSPair.handshake(server: server, client: client, host: "localhost", port: 8443)
            let clientStream = try outcome.client.get()
            let serverStream = try outcome.server.get()
            #expect(clientStream.resumedSession == (round == 1))
            // The TLS 1.3 ticket arrives with the first application data.
            try [UInt8](repeating: 1, count: 4).withUnsafeBytes { try serverStream.write($0, timeoutMilliseconds: 1000) }
            var buffer = [UInt8](repeating: 0, count: 16)
            _ = try buffer.withUnsafeMutableBytes { try clientStream.read(into: $0, timeoutMilliseconds: 1000) }
            close(outcome.descriptors.0)
            close(outcome.descriptors.1)
        }
    }
}
