/*
Abstract:
Unit tests for fault knob parsing and state: injected failures, credentials, corruption, throttling and the access log.
*/

@testable import AssetServer
import Foundation
import ServerRuntime
import Testing

struct FaultKnobUnitTests {
    @Test("--fail takes PATH=STATUS with an optional count")
    func failureRules() throws {
        #expect(try FailureRule(parsing: "/manifest.json=503x2") == FailureRule(path: "/manifest.json", status: 503, count: 2))
        #expect(try FailureRule(parsing: "/a=b.mp4=404") == FailureRule(path: "/a=b.mp4", status: 404))
        #expect(try FailureRule(parsing: "/x=500X1").count == 1)
    }

    @Test("--fail refuses malformed rules with a message naming the value", arguments: [
        "/x", "x=503", "/x=abc", "/x=200", "/x=600", "/x=503x0", "/x=503x", "/x=503x2x3", "/x=",
    ])
    func badFailureRules(text: String) {
        #expect {
            try FailureRule(parsing: text)
        } throws: { error in
            (error as? AssetServerError).map { "\($0)".contains("'\(text)'") && "\($0)".contains("--fail") } ?? false
        }
    }

    @Test("Injected failures count down per path, even across threads, then the path is served")
    func countedFailures() async {
        let state = FaultState(faults: Faults(failures: [
            FailureRule(path: "/a", status: 503, count: 50), FailureRule(path: "/b", status: 404),
        ]))
        let failures = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<100 { group.addTask { state.injectedStatus(for: "/a") == nil ? 0 : 1 } }
            return await group.reduce(0, +)
        }
        #expect(failures == 50)
        #expect(state.injectedStatus(for: "/a") == nil)
        #expect(state.injectedStatus(for: "/b") == 404)
        #expect(state.injectedStatus(for: "/b") == 404)
        #expect(state.injectedStatus(for: "/c") == nil)
    }

    @Test("--auth takes USER:PASSWORD and Basic credentials are checked exactly")
    func credentials() throws {
        let credentials = try BasicCredentials(parsing: "demo:se:cret")
        #expect(credentials == BasicCredentials(user: "demo", password: "se:cret"))
        let good = "Basic " + Data("demo:se:cret".utf8).base64EncodedString()
        #expect(credentials.accepts(authorization: good))
        #expect(credentials.accepts(authorization: "basic " + Data("demo:se:cret".utf8).base64EncodedString()))
        #expect(!credentials.accepts(authorization: "Basic " + Data("demo:wrong".utf8).base64EncodedString()))
        #expect(!credentials.accepts(authorization: "Bearer abc"))
        #expect(!credentials.accepts(authorization: nil))
        #expect(throws: AssetServerError.self) { try BasicCredentials(parsing: ":nouser") }
        #expect(throws: AssetServerError.self) { try BasicCredentials(parsing: "nocolon") }
    }

    @Test("Corruption flips every 4096th byte of the file, wherever the response starts")
    func corruption() {
        var whole = [UInt8](repeating: 0, count: 10_000)
        whole.withUnsafeMutableBytes { Corruption.apply(to: $0, fileOffset: 0) }
        #expect(whole.indices.filter { whole[$0] != 0 } == [0, 4096, 8192])
        var tail = [UInt8](repeating: 0, count: 5000)
        tail.withUnsafeMutableBytes { Corruption.apply(to: $0, fileOffset: 5000) }
        #expect(tail.indices.filter { tail[$0] != 0 } == [8192 - 5000])
    }

    @Test("The token bucket lets a burst through, then paces bytes to the rate")
    func tokenBucket() {
        var bucket = TokenBucket(bytesPerSecond: 1000, capacity: 100, now: 0)
        #expect(bucket.reserve(100, now: 0) == 0)
        #expect(bucket.reserve(100, now: 0) == 100_000_000)
        // Half a second later the debt of 100 bytes is paid and 400 tokens refilled, capped at 100.
        #expect(bucket.reserve(100, now: 600_000_000) == 0)
        #expect(TokenBucket.chunkSize(forRate: 1) == 512)
        #expect(TokenBucket.chunkSize(forRate: 100_000_000) == 256 * 1024)
    }

    @Test("Access log lines are JSON with escaped request text and a null range when absent")
    func accessLogLines() throws {
        let entry = AccessLogEntry(method: "GET", path: "/a\"b\\\u{1}", range: nil, status: 200, bytes: 12)
        #expect(entry.jsonLine == #"{"method":"GET","path":"/a\"b\\\u0001","range":null,"status":200,"bytes":12}"# + "\n")
        let ranged = AccessLogEntry(method: "HEAD", path: "/x", range: "bytes=0-1", status: 206, bytes: 0)
        let object = try JSONSerialization.jsonObject(with: Data(ranged.jsonLine.utf8)) as? [String: Any]
        #expect(object?["range"] as? String == "bytes=0-1")
        #expect(object?["bytes"] as? Int == 0)
    }
}
