/*
Abstract:
Unit tests for request-head parsing: syntax, limits, framing fields and keep-alive.
*/

@testable import AssetServer
import HTTPCore
import TestSupport
import Testing

struct RequestParserUnitTests {
    private let parser = HTTPRequestParser(limits: AssetServer.Limits(
        maximumRequestLineLength: 64, maximumHeaderBytes: 256, maximumHeaderCount: 5))

    private func parse(_ text: String) throws(HTTPRequestError) -> HTTPRequestHead {
        try parser.parse(Array(text.utf8))
    }

    private func failure(_ text: String) -> HTTPRequestError? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test("A well-formed GET parses into method, target, version and fields")
    func wellFormed() throws {
        let head = try parse("GET /manifest.json?x=1 HTTP/1.1\r\nHost: example\r\nRange:  bytes=0-1 \r\n\r\n")
        #expect(head.method == "GET")
        #expect(head.target == "/manifest.json?x=1")
        #expect(head.minorVersion == 1)
        #expect(head.headers.singleValue(for: "range") == "bytes=0-1")
        #expect(head.pathForLog == "/manifest.json")
        #expect(head.wantsKeepAlive)
    }

    @Test("Bare LF line ends and leading empty lines are accepted")
    func lenientLineEnds() throws {
        let head = try parse("\r\nHEAD / HTTP/1.0\nX-A: b\n\n")
        #expect(head.method == "HEAD")
        #expect(head.minorVersion == 0)
        #expect(!head.wantsKeepAlive)
    }

    @Test("Keep-alive follows the version and the Connection field")
    func keepAlive() throws {
        #expect(try !parse("GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n").wantsKeepAlive)
        #expect(try parse("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n").wantsKeepAlive)
        #expect(try !parse("GET / HTTP/1.1\r\nHost: a\r\nConnection: keep-alive, close\r\n\r\n").wantsKeepAlive)
    }

    @Test("Malformed request lines are refused with 400", arguments: [
        "GET /\r\nHost: a\r\n\r\n", "GET  / HTTP/1.1\r\nHost: a\r\n\r\n", "GET / HTTP/1.1 \r\nHost: a\r\n\r\n",
        "G(T / HTTP/1.1\r\nHost: a\r\n\r\n", "GET / HTTX/1.1\r\nHost: a\r\n\r\n", "GET a b HTTP/1.1\r\nHost: a\r\n\r\n",
    ])
    func malformedRequestLine(request: RawText) {
        #expect(failure(request.text)?.status == 400)
    }

    @Test("Malformed fields are refused with 400", arguments: [
        "GET / HTTP/1.1\r\nHost : a\r\n\r\n", "GET / HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: a\r\nNoColon\r\n\r\n", "GET / HTTP/1.1\r\nHost: a\rb\r\n\r\n",
        "GET / HTTP/1.1\r\n\r\n", "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
    ])
    func malformedFields(request: RawText) {
        #expect(failure(request.text)?.status == 400)
    }

    @Test("A long request line is 414, too many or too large fields are 431")
    func limits() {
        #expect(failure("GET /\(String(repeating: "a", count: 80)) HTTP/1.1\r\nHost: a\r\n\r\n") == .uriTooLong)
        let many = (0..<6).map { "X-\($0): 1\r\n" }.joined()
        #expect(failure("GET / HTTP/1.1\r\nHost: a\r\n\(many)\r\n") == .headerFieldsTooLarge)
        #expect(failure("GET / HTTP/1.1\r\nHost: a\r\nX: \(String(repeating: "b", count: 300))\r\n\r\n")
            == .headerFieldsTooLarge)
    }

    @Test("Bodies are framed by one Content-Length; Transfer-Encoding is refused with 501")
    func bodyFraming() throws {
        #expect(try parse("GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\n").contentLength == 5)
        #expect(failure("GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n")?.status == 400)
        #expect(failure("GET / HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n")?.status == 400)
        #expect(failure("GET / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n")?.status == 501)
        // A list of one repeated value is that value; Transfer-Encoding wins over conflicting lengths.
        #expect(try parse("GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 5, 5\r\nContent-length: 5\r\n\r\n")
            .contentLength == 5)
        #expect(failure("GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 5, 6\r\n\r\n")?.status == 400)
        #expect(failure("GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n"
            + "Transfer-Encoding: chunked\r\n\r\n")?.status == 501)
    }

    @Test("Field names are lowercased and values trimmed, whatever the case and spacing sent")
    func fieldNames() throws {
        let head = try parse("GET / HTTP/1.1\r\nHOST: a\r\nX-Custom-Name:\t value with spaces \t\r\n\r\n")
        #expect(head.headers.fields.map(\.name) == ["host", "x-custom-name"])
        #expect(head.headers.singleValue(for: "x-custom-name") == "value with spaces")
        #expect(head.headers.singleValue(for: "absent") == nil)
    }

    @Test("Versions other than HTTP/1.x answer 505")
    func unsupportedVersion() {
        #expect(failure("GET / HTTP/2.0\r\nHost: a\r\n\r\n") == .versionNotSupported)
    }

    @Test("The end of a head is found after CRLF CRLF or LF LF, and not before")
    func headLength() {
        func length(_ text: String) -> Int? {
            Array(text.utf8).withUnsafeBytes { HTTPHeadEnd.length(in: $0) }
        }
        #expect(length("GET / HTTP/1.1\r\nHost: a\r\n\r\nextra") == 27)
        #expect(length("GET / HTTP/1.1\nHost: a\n\nextra") == 24)
        #expect(length("GET / HTTP/1.1\r\nHost: a\r\n") == nil)
    }
}
