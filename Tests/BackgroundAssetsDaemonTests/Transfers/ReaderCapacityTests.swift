/*
Abstract:
Tests that a transfer reads a small file through a buffer its size, and any response through any buffer.
*/

@testable import BackgroundAssetsDaemon
import Foundation
import HTTPCore
import Testing
import TestSupport

@Suite("The response reader's buffer", .timeLimit(.minutes(3)))
struct ReaderCapacityTests {
    @Test("A small body gets a buffer of its size and a head's room in whole pages; a large or unknown one the default")
    func capacityFollowsTheBody() {
        #expect(HTTPResponseReader.capacity(forBodyOf: 20_000) == 28_672)
        #expect(HTTPResponseReader.capacity(forBodyOf: 0) == 8_192)
        #expect(HTTPResponseReader.capacity(forBodyOf: 250_000) == HTTPResponseReader.defaultCapacity)
        #expect(HTTPResponseReader.capacity(forBodyOf: 300_000) == HTTPResponseReader.defaultCapacity)
        #expect(HTTPResponseReader.capacity(forBodyOf: nil) == HTTPResponseReader.defaultCapacity)
        #expect(HTTPResponseReader.capacity(forBodyOf: -1) == HTTPResponseReader.defaultCapacity)
        #expect(HTTPResponseReader.capacity(forBodyOf: .max) == HTTPResponseReader.defaultCapacity)
    }

    @Test("A small file whose response head is longer than its buffer still arrives whole")
    func headLongerThanTheBuffer() async throws {
        let body = [UInt8]((0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        // 40 KB of fields: the head alone takes several reads of a 28 KB buffer.
        let fields = (0..<400).map { "X-Field-\($0): " + String(repeating: "v", count: 80) + "\r\n" }.joined()
        let server = try ScriptedHTTPServer { _, _ in
            ScriptedHTTPServer.Reply(Array("HTTP/1.1 200 OK\r\nContent-Length: \(body.count)\r\n\(fields)\r\n".utf8) + body)
        }
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        var request = try HTTPTransferTests.request(server.url("/small.mp4"), in: folder.url)
        request.expectedLength = Int64(body.count)
        let (result, _) = await HTTPTransferTests.transfer(request)
        guard case let .success(outcome) = result else { Issue.record("\(result)"); return }
        #expect(outcome.length == Int64(body.count))
        #expect(try HTTPTransferTests.bytesOnDisk(request) == body)
    }
}
