/*
Abstract:
Tests of framing: any chunking reassembles, and oversized, empty, or cut-off frames are rejected.
*/

import BackgroundAssetsIPC
import Testing

@Suite("Framing")
struct FrameDecoderTests {
    @Test("A frame is a 4-byte big-endian length and the payload")
    func frameLayout() throws {
        let frame = try FrameEncoder.frame(Array("hello".utf8))
        #expect(frame == [0, 0, 0, 5] + Array("hello".utf8))
        let large = try FrameEncoder.frame([UInt8](repeating: 7, count: 0x01_02_03))
        #expect(Array(large.prefix(4)) == [0, 0x01, 0x02, 0x03])
    }

    @Test("Frames reassemble from chunks of any size", arguments: [1, 2, 3, 7, 64, 1000, 12345])
    func randomChunking(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        let payloads = (0..<200).map { index in
            [UInt8](repeating: UInt8(truncatingIfNeeded: index), count: Int.random(in: 1...5000, using: &generator))
        }
        let stream = try payloads.flatMap { try FrameEncoder.frame($0) }
        var decoder = FrameDecoder()
        var decoded: [[UInt8]] = []
        var offset = 0
        while offset < stream.count {
            let chunk = Int.random(in: 1...max(1, Int.random(in: 1...9000, using: &generator)), using: &generator)
            let end = min(stream.count, offset + chunk)
            decoder.append(stream[offset..<end])
            offset = end
            while let payload = try decoder.nextFrame() { decoded.append(payload) }
        }
        #expect(decoded == payloads)
        #expect(decoder.bufferedByteCount == 0)
        try decoder.finish()
    }

    @Test("Several frames arriving in one read come out one by one")
    func coalescedFrames() throws {
        var decoder = FrameDecoder()
        decoder.append(try FrameEncoder.frame([1]) + FrameEncoder.frame([2, 2]) + FrameEncoder.frame([3, 3, 3]))
        #expect(try decoder.nextFrame() == [1])
        #expect(try decoder.nextFrame() == [2, 2])
        #expect(try decoder.nextFrame() == [3, 3, 3])
        #expect(try decoder.nextFrame() == nil)
    }

    @Test("An oversized frame is rejected from its header alone, and the decoder stays failed")
    func oversizedFrame() throws {
        var decoder = FrameDecoder(maximumFrameSize: 1024)
        decoder.append([0, 0, 0x04, 0x01])
        #expect(throws: IPCError.frameTooLarge(size: 1025, limit: 1024)) { try decoder.nextFrame() }
        decoder.append(try FrameEncoder.frame([1]))
        #expect(throws: IPCError.frameTooLarge(size: 1025, limit: 1024)) { try decoder.nextFrame() }
        #expect(decoder.bufferedByteCount == 0, "nothing more is buffered after a failure")
    }

    @Test("Garbage instead of a length header is rejected")
    func garbageHeader() {
        var decoder = FrameDecoder()
        decoder.append(Array("GET / HTTP/1.1\r\n\r\n".utf8))
        #expect(throws: IPCError.self) { try decoder.nextFrame() }
    }

    @Test("Random garbage never crashes the decoder or yields more than it was given", arguments: [11, 22, 33])
    func randomGarbage(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        var decoder = FrameDecoder(maximumFrameSize: 4096)
        let garbage = (0..<100_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        decoder.append(garbage)
        var total = 0
        do throws(IPCError) {
            while let payload = try decoder.nextFrame() {
                total += payload.count + 4
            }
        } catch {
            switch error {
            case .emptyFrame, .frameTooLarge: break
            default: Issue.record("unexpected error \(error)")
            }
        }
        #expect(total <= garbage.count)
    }

    @Test("An empty frame is rejected")
    func emptyFrame() {
        var decoder = FrameDecoder()
        decoder.append([0, 0, 0, 0])
        #expect(throws: IPCError.emptyFrame) { try decoder.nextFrame() }
        #expect(throws: IPCError.emptyFrame) { try FrameEncoder.frame([UInt8]()) }
    }

    @Test("A stream that ends inside a frame is reported")
    func truncatedStream() throws {
        var decoder = FrameDecoder()
        let frame = try FrameEncoder.frame([UInt8](repeating: 1, count: 10))
        decoder.append(frame.prefix(7))
        #expect(try decoder.nextFrame() == nil)
        #expect(throws: IPCError.connectionClosedMidFrame(bufferedBytes: 7)) { try decoder.finish() }
    }

    @Test("Errors name the sizes involved")
    func errorDescriptions() {
        #expect(IPCError.frameTooLarge(size: 99_999_999, limit: 1024).description.contains("99999999"))
        #expect(SocketError.socketPathTooLong(path: "/very/long", limit: 107).description.contains("/very/long"))
        #expect(SocketError.peerNotAllowed(uid: 1001, expected: 0).description.contains("1001"))
    }
}
