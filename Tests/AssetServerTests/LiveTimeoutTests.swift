/*
Abstract:
Live client deadlines: a slow client is dropped by the header deadline, a silent one by the idle timeout.
*/

import Foundation
import Testing
import TestSupport

// The deadlines themselves are checked on a clock the test advances (ClientDeadlineUnitTests); these
// check that the asset-server process applies its defaults (10 s for a head, 15 s idle), so they wait
// for them in real time. Each test has its own server, so the two waits run at once.
@Suite("Client deadlines", .timeLimit(.minutes(3)))
struct LiveTimeoutTests {
    @Test("A client sending one byte a second is dropped by the header deadline while others are served")
    func slowClientIsDropped() async throws {
        try await withAssetServer { server in
            let slow = try RawHTTPClient(port: server.port)
            let request = Array("GET /manifest.json HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: \(String(repeating: "p", count: 200))\r\n\r\n".utf8)
            let clock = ContinuousClock()
            let start = clock.now
            var servedMeanwhile = 0
            var dropped = false
            for byte in request {
                do {
                    try await slow.send([byte])
                } catch {
                    dropped = true  // The server closed the connection; the write failed.
                    break
                }
                // Waiting for the close doubles as the one-second pace of the slow client.
                if await slow.waitForClose(timeout: .seconds(1)) {
                    dropped = true
                    break
                }
                let response = try await server.raw("GET", "/manifest.json")
                #expect(response.statusCode == 200)
                servedMeanwhile += 1
                // Against a server that never drops it, give up well within the time limit.
                if clock.now - start > .seconds(40) { break }
            }
            #expect(dropped, "a client sending one byte a second was still connected after \(clock.now - start)")
            #expect(servedMeanwhile >= 1, "no other request was served while the slow client was connected")
        }
    }

    @Test("A connection that never sends a byte is closed after the idle timeout")
    func silentConnectionIsClosed() async throws {
        try await withAssetServer { server in
            let silent = try RawHTTPClient(port: server.port)
            #expect(await silent.waitForClose(timeout: .seconds(40)), "a silent connection stayed open for 40 seconds")
            #expect(try await server.raw("GET", "/manifest.json").statusCode == 200)
        }
    }
}
