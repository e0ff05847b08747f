/*
Abstract:
Unit tests for what a transfer reads from a server: Content-Range, response heads, chunked bodies, validators.
*/

@testable import BackgroundAssetsDaemon
import Foundation
import HTTPCore
import Testing

@Suite("Reading server responses")
struct TransferParsingTests {
    @Test("Content-Range gives the bytes held and the complete length")
    func parsesContentRange() {
        #expect(ContentRange(parsing: "bytes 100-199/1000") == ContentRange(range: 100...199, completeLength: 1000))
        #expect(ContentRange(parsing: "bytes 0-0/*") == ContentRange(range: 0...0, completeLength: nil))
        #expect(ContentRange(parsing: "bytes */4294967296") == ContentRange(range: nil, completeLength: 4_294_967_296))
        for malformed in ["bytes 5-4/10", "bytes 0-10/10", "bytes */*", "items 0-1/2", "bytes -1-2/3", "bytes 0-1", "bytes 1-2/x"] {
            #expect(ContentRange(parsing: malformed) == nil, "\(malformed) should be rejected")
        }
    }

    @Test("A response head is parsed with case-insensitive field names")
    func parsesResponseHead() throws {
        let head = try HTTPResponseHead(parsing: Array("HTTP/1.1 206 Partial Content\r\ncontent-LENGTH: 10\r\nETag: \"v1\"".utf8))
        #expect(head.status == 206)
        #expect(head["Content-Length"] == "10")
        #expect(try head.contentLength() == 10)
        #expect(ResumeValidator(of: head) == .entityTag("\"v1\""))
    }

    @Test("Values are trimmed of spaces and tabs only, and a head that is not UTF-8 is read as Latin-1")
    func readsFieldValues() throws {
        let head = try HTTPResponseHead(parsing: Array("HTTP/1.0 200 \r\nX-A:\t  a b \t\r\nX-B:\r\nX-C:c:d".utf8))
        #expect(head.status == 200)
        #expect(head["X-A"] == "a b")
        #expect(head["X-B"] == "")
        #expect(head["X-C"] == "c:d")
        let latin1 = try HTTPResponseHead(parsing: Array("HTTP/1.1 200 OK\r\nX-Name: caf".utf8) + [0xE9])
        #expect(latin1["X-Name"] == "café")
        #expect(throws: HTTPError.self) { try HTTPResponseHead(parsing: [UInt8]()) }
    }

    @Test("Malformed heads and contradictory lengths are refused by name")
    func refusesMalformedHeads() throws {
        for text in ["HTTP/2 200 OK", "HTTP/1.1 20 OK", "SIP/2.0 200 OK", "HTTP/1.1 200 OK\r\nno colon here", "HTTP/1.1 200 OK\r\nBad Name: x"] {
            let error = #expect(throws: HTTPError.self, "\(text)") { try HTTPResponseHead(parsing: Array(text.utf8)) }
            #expect(error?.kind == .malformedResponse, "\(text)")
            #expect(TransferError(error ?? HTTPError(.cancelled, "")).kind == .malformedResponse, "a transfer gives up on it")
        }
        let conflicting = try HTTPResponseHead(parsing: Array("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6".utf8))
        #expect(throws: HTTPError.self) { try conflicting.contentLength() }
        let signed = try HTTPResponseHead(parsing: Array("HTTP/1.1 200 OK\r\nContent-Length: +5".utf8))
        #expect(throws: HTTPError.self) { try signed.contentLength() }
    }

    @Test("Only a strong entity tag or a valid date can validate a resume")
    func choosesResumeValidator() throws {
        let weak = try HTTPResponseHead(parsing: Array("HTTP/1.1 200 OK\r\nETag: W/\"v1\"".utf8))
        #expect(ResumeValidator(of: weak) == nil)
        let dated = try HTTPResponseHead(parsing: Array("HTTP/1.1 200 OK\r\nETag: W/\"v1\"\r\nLast-Modified: Sun, 06 Nov 1994 08:49:37 GMT".utf8))
        #expect(ResumeValidator(of: dated) == .lastModified("Sun, 06 Nov 1994 08:49:37 GMT"))
    }

    @Test("A chunked body decodes the same however the bytes are split")
    func decodesChunkedBodies() throws {
        let encoded = Array("4\r\nWiki\r\n7;ext=1\r\npedia i\r\nB\r\nn \r\nchunks.\r\n0\r\nTrailer: x\r\n\r\n".utf8)
        for split in [1, 2, 3, 5, 8, 13, encoded.count] {
            var decoder = ChunkedBodyDecoder()
            var output: [UInt8] = []
            for start in stride(from: 0, to: encoded.count, by: split) {
                let piece = Array(encoded[start..<min(start + split, encoded.count)])
                try piece.withUnsafeBytes { buffer in
                    try decoder.decode(buffer) { output.append(contentsOf: $0) }
                }
            }
            #expect(String(decoding: output, as: UTF8.self) == "Wikipedia in \r\nchunks.")
            #expect(decoder.isComplete)
        }
    }

    @Test("Malformed chunk framing is an error, not silent corruption")
    func refusesMalformedChunks() {
        for text in ["zz\r\nab\r\n", "2\r\nabc\r\n", "\(String(repeating: "f", count: 20))\r\n"] {
            var decoder = ChunkedBodyDecoder()
            #expect(throws: TransferError.self, "\(text)") {
                try Array(text.utf8).withUnsafeBytes { buffer in try decoder.decode(buffer) { _ in } }
            }
        }
    }

    @Test("A chunk size too large for any file is called that, not 'not hexadecimal'; leading zeros are no size",
          arguments: ["7fffffffffffffff", "ffffffffffffffffffff", "1000000000000000"])
    func hugeChunkSizes(size: String) throws {
        var decoder = ChunkedBodyDecoder()
        do {
            try Array("\(size)\r\nab".utf8).withUnsafeBytes { buffer in try decoder.decode(buffer) { _ in } }
            Issue.record("The chunk size \(size) was accepted.")
        } catch let error as TransferError {
            #expect(error.description.contains("larger than any file"), "\(error)")
        }
        var padded = ChunkedBodyDecoder()
        var output: [UInt8] = []
        try Array("0000000000000000002\r\nab\r\n0\r\n\r\n".utf8).withUnsafeBytes { buffer in
            try padded.decode(buffer) { output.append(contentsOf: $0) }
        }
        #expect(output == Array("ab".utf8))
    }

    @Test("Only connectivity, stalls and server-side statuses are retryable")
    func classifiesRetries() {
        #expect(TransferError(.transport, .connectionLost, "").isRetryable)
        #expect(TransferError(.remote, .httpStatus(503), "").isRetryable)
        #expect(TransferError(.remote, .httpStatus(429), "").isRetryable)
        #expect(TransferError(.remote, .httpStatus(408), "").isRetryable)
        #expect(!TransferError(.remote, .httpStatus(404), "").isRetryable)
        #expect(!TransferError(.remote, .sizeMismatch(expected: 1, actual: 2), "").isRetryable)
        #expect(!TransferError(.local, .localFile(errno: ENOSPC), "").isRetryable)
    }
}
