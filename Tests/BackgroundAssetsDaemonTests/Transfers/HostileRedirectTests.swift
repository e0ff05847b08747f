/*
Abstract:
Tests that a redirect obeys the rules the download's own URL obeyed: scheme, host, allow list, hop limit, credentials.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

@Suite("Redirects from a hostile server", .timeLimit(.minutes(3)))
struct HostileRedirectTests {
    /// Runs one transfer of `/a.mp4` from a server that redirects `/a.mp4` to `location` and serves
    /// the file at every other path.
    static func redirect(to location: String, configure: (inout TransferRequest) -> Void = { _ in })
        async throws -> (result: Result<TransferResult, TransferError>, events: [TransferEvent], requests: [String]) {
        let server = try ScriptedHTTPServer { head, index in
            head.hasPrefix("GET /a.mp4 ") ? .response("302 Found", ["Location: \(location)"]) : HTTPTransferTests.fullResponse(head, index)
        }
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        var request = try HTTPTransferTests.request(server.url("/a.mp4"), in: folder.url)
        configure(&request)
        let (result, events) = await HTTPTransferTests.transfer(request)
        return (result, events, server.requests)
    }

    @Test("A redirect to a URL that is not http or https, or has no host, fails at once and for good",
          arguments: ["file:///etc/passwd", "mailto:someone@example.com", "data:text/plain,hello", "http:///x", "https://h:99999/x"])
    func unfetchableLocation(_ location: String) async throws {
        let (result, _, requests) = try await Self.redirect(to: location)
        guard case let .failure(error) = result else { Issue.record("the redirect to \(location) was followed"); return }
        #expect(error.kind == .unsupportedURL)
        #expect(!error.isRetryable)
        #expect(error.description.contains("redirected to"), "\(error)")
        #expect(error.description.contains(location.prefix(10)), "the message names the Location: \(error)")
        #expect(requests.count == 1)
    }

    @Test("A redirect from loopback http to plain http on another host is refused, as scheduling that URL is")
    func plainHTTPToAnotherHost() async throws {
        // 192.0.2.1 is TEST-NET-1: were the redirect followed, the attempt would end in a connection
        // failure, not in this refusal.
        let (result, _, _) = try await Self.redirect(to: "http://192.0.2.1/a.mp4")
        guard case let .failure(error) = result else { Issue.record("the redirect was followed"); return }
        #expect(error.kind == .insecureRedirect)
        #expect(!error.isRetryable)
        #expect(error.wireFailure.code == -1022)
        #expect(error.description.contains("not this machine"), "\(error)")
        #expect(DownloadDescriptor.urlProblem("http://192.0.2.1/a.mp4") != nil, "scheduling it directly is refused too")
    }

    @Test("A host that only looks like loopback (127.0.0.1.example.com) is not loopback")
    func lookalikeLoopback() async throws {
        let (result, _, _) = try await Self.redirect(to: "http://127.0.0.1.example.com/a.mp4")
        guard case let .failure(error) = result else { Issue.record("the redirect was followed"); return }
        #expect(error.kind == .insecureRedirect)
    }

    @Test("Before the first launch every hop is checked against the allow list, not only the first")
    func allowListOnEveryHop() async throws {
        let server = try ScriptedHTTPServer { head, index in
            switch head.split(separator: " ")[1] {
            case "/a.mp4": .response("302 Found", ["Location: /b.mp4"])
            case "/b.mp4": .response("307 Temporary Redirect", ["Location: http://localhost:9/c.mp4"])
            default: HTTPTransferTests.fullResponse(head, index)
            }
        }
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        var request = try HTTPTransferTests.request(server.url("/a.mp4"), in: folder.url)
        request.allowedHosts = try DomainAllowList(["127.0.0.1"])
        let (result, events) = await HTTPTransferTests.transfer(request)
        guard case let .failure(error) = result else { Issue.record("the second hop was followed"); return }
        #expect(error.kind == .disallowedHost("localhost"))
        #expect(error.wireFailure.domain == "BAErrorDomain" && error.wireFailure.code == 202)
        #expect(error.description.contains("\"127.0.0.1\""), "the message quotes the list: \(error)")
        #expect(events.contains(.redirected(from: server.url("/a.mp4"), to: server.url("/b.mp4"), status: 302)))
        #expect(server.requests.count == 2)
    }

    @Test("Redirects in a loop end after the hop limit")
    func hopLimit() async throws {
        let server = try ScriptedHTTPServer { _, index in
            .response("302 Found", ["Location: /hop\(index + 1).mp4"])
        }
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        let request = try HTTPTransferTests.request(server.url("/a.mp4"), in: folder.url)
        let (result, events) = await HTTPTransferTests.transfer(request)
        guard case let .failure(error) = result else { Issue.record("the loop ended in a file"); return }
        #expect(error.kind == .tooManyRedirects)
        #expect(!error.isRetryable)
        #expect(server.requests.count == request.maximumRedirects + 1)
        #expect(events.filter { if case .redirected = $0 { true } else { false } }.count == request.maximumRedirects)
    }

    @Test("A redirect without a Location fails as a malformed response")
    func missingLocation() async throws {
        let server = try ScriptedHTTPServer { _, _ in .response("302 Found") }
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        let (result, _) = await HTTPTransferTests.transfer(try HTTPTransferTests.request(server.url("/a.mp4"), in: folder.url))
        guard case let .failure(error) = result else { Issue.record("a redirect without Location completed"); return }
        #expect(error.kind == .malformedResponse)
        #expect(!error.isRetryable)
    }

    @Test("Each hop followed is reported, and the result names the final URL")
    func reportsEveryHop() async throws {
        let server = try ScriptedHTTPServer { head, index in
            switch head.split(separator: " ")[1] {
            case "/a.mp4": .response("302 Found", ["Location: /b.mp4"])
            case "/b.mp4": .response("308 Permanent Redirect", ["Location: http://localhost:\(head.headerValue("Host")?.split(separator: ":").last ?? "")/c.mp4"])
            default: HTTPTransferTests.fullResponse(head, index)
            }
        }
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        let (result, events) = await HTTPTransferTests.transfer(try HTTPTransferTests.request(server.url("/a.mp4"), in: folder.url))
        let final = try #require(URL(string: "http://localhost:\(server.port)/c.mp4"))
        #expect(try result.get().finalURL == final)
        let hops = events.compactMap { event -> Int? in if case let .redirected(_, _, status) = event { status } else { nil } }
        #expect(hops == [302, 308])
        #expect(events.contains(.movedPermanently(to: final)))
    }

    @Test("Credentials and cookies go to the download's own origin, never to where a redirect leads")
    func credentialsStayWithTheirOrigin() async throws {
        let elsewhere = try ScriptedHTTPServer(script: HTTPTransferTests.fullResponse)
        defer { elsewhere.stop() }
        let location = "http://localhost:\(elsewhere.port)/a.mp4"
        let (result, _, requests) = try await Self.redirect(to: location) { request in
            request.credential = BasicCredential(user: "user", password: "secret")
            request.headers = ["Cookie": "session=1", "X-Client": "sample"]
        }
        #expect(try result.get().finalURL.absoluteString == location)
        let first = try #require(requests.first)
        #expect(first.headerValue("Authorization") == "Basic dXNlcjpzZWNyZXQ=")
        #expect(first.headerValue("Cookie") == "session=1")
        let redirected = try #require(elsewhere.requests.first)
        #expect(redirected.headerValue("Authorization") == nil)
        #expect(redirected.headerValue("Cookie") == nil)
        #expect(redirected.headerValue("X-Client") == "sample", "other fields still go")
    }
}

@Suite("Request targets")
struct RequestTargetTests {
    @Test("An IPv6 host is bracketed in the Host field, and a default port is left out")
    func hostField() throws {
        let ipv6 = try RequestTarget(#require(URL(string: "http://[::1]:8080/a.mp4?v=2")))
        #expect(ipv6.host == "::1")
        #expect(ipv6.hostField == "[::1]:8080")
        #expect(ipv6.path == "/a.mp4?v=2")
        #expect(ipv6.origin == "http://[::1]:8080")
        let https = try RequestTarget(#require(URL(string: "HTTPS://CDN.Example.com")))
        #expect(https.isSecure && https.port == 443 && https.hostField == "CDN.Example.com" && https.path == "/")
        #expect(https.origin == "https://cdn.example.com:443")
    }

    @Test("Characters that would split a request head are percent-encoded or refused")
    func headInjection() throws {
        let encoded = try RequestTarget(#require(URL(string: "http://127.0.0.1/a\nX-Injected: 1")))
        #expect(!encoded.path.contains("\n") && !encoded.path.contains(" "))
        for text in ["http://127.0.0.1:0/a", "ftp://127.0.0.1/a", "http:///a"] {
            #expect(throws: TransferError.self, "\(text)") { try RequestTarget(#require(URL(string: text))) }
        }
    }
}
