/*
Abstract:
Tests that a response body cannot take more than it may: declared size as a hard limit, disk reserved with care, codings refused.
*/

@testable import BackgroundAssetsDaemon
import Foundation
import Testing
import TestSupport

@Suite("Bodies from a hostile server", .timeLimit(.minutes(3)))
struct HostileBodyTests {
    static let chunk = [UInt8](repeating: 0x78, count: 65_536)

    /// A request for `/a.mp4` on `server` into a fresh folder, declaring `size` (nil for none).
    static func request(_ server: ScriptedHTTPServer, in folder: TemporaryDirectory, size: Int64?) throws -> TransferRequest {
        var request = try HTTPTransferTests.request(server.url("/a.mp4"), in: folder.url)
        request.expectedLength = size
        request.stallTimeout = .seconds(2)
        return request
    }

    /// The bytes a file holds on disk, reserved blocks included.
    static func allocatedBytes(_ url: URL) -> Int64 {
        var status = stat()
        return stat(url.path, &status) == 0 ? Int64(status.st_blocks) * 512 : -1
    }

    @Test("An endless chunked body fails as soon as it passes the declared size, and nothing past it is written")
    func endlessChunkedBody() async throws {
        let server = try ScriptedHTTPServer { _, _ in .endlessChunkedBody() }
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        let request = try Self.request(server, in: folder, size: 1_000_000)
        let (result, _) = await HTTPTransferTests.transfer(request)
        guard case let .failure(error) = result else { Issue.record("an endless body completed"); return }
        guard case let .sizeMismatch(expected, actual) = error.kind else { Issue.record("\(error)"); return }
        #expect(expected == 1_000_000 && actual > 1_000_000)
        #expect(!error.isRetryable)
        #expect(error.description.contains("more than the 1000000 bytes the download declared"), "\(error)")
        #expect(try HTTPTransferTests.bytesOnDisk(request).count <= 1_000_000)
    }

    @Test("A body ended by a close fails when it passes the declared size, not after")
    func closeDelimitedBodyTooLong() async throws {
        let server = try ScriptedHTTPServer { _, _ in
            // No Content-Length and not chunked: the body runs until the server closes.
            ScriptedHTTPServer.Reply(Array("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n".utf8) + HTTPTransferTests.file)
        }
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        let request = try Self.request(server, in: folder, size: 100_000)
        let (result, _) = await HTTPTransferTests.transfer(request)
        guard case let .failure(error) = result else { Issue.record("a longer body completed"); return }
        guard case let .sizeMismatch(expected, actual) = error.kind else { Issue.record("\(error)"); return }
        #expect(expected == 100_000 && actual > 100_000)
        #expect(try HTTPTransferTests.bytesOnDisk(request).count <= 100_000)
    }

    @Test("A 10 GB Content-Length reserves nothing when the download declared no size")
    func announcedLengthIsNotReserved() async throws {
        let folder = try TemporaryDirectory()
        // 10 GB, or half the free space on a smaller disk, where 10 GB would rightly fail at once.
        var disk = statvfs()
        #expect(statvfs(folder.url.path, &disk) == 0)
        let announced = max(4 << 20, min(10_000_000_000, Int64(disk.f_bavail) * Int64(disk.f_frsize) / 2))
        let server = try ScriptedHTTPServer { _, _ in
            ScriptedHTTPServer.Reply(Array("HTTP/1.1 200 OK\r\nContent-Length: \(announced)\r\n\r\n".utf8) + Self.chunk, stallAfterwards: true)
        }
        defer { server.stop() }
        let request = try Self.request(server, in: folder, size: nil)
        let control = TransferControl()
        async let outcome = HTTPTransferTests.transfer(request, control: control)
        try await poll(until: { (try? HTTPTransferTests.bytesOnDisk(request).count) == Self.chunk.count },
                       "the first bytes on disk")
        #expect(Self.allocatedBytes(request.partFile) < 1 << 20, "only what arrived takes disk")
        control.cancel()
        _ = await outcome
    }

    @Test("A declared size is reserved while the body arrives, and given back when the attempt ends short")
    func declaredSizeReservedThenReleased() async throws {
        let size = 8 << 20
        let server = try ScriptedHTTPServer { _, _ in
            ScriptedHTTPServer.Reply(Array("HTTP/1.1 200 OK\r\nContent-Length: \(size)\r\n\r\n".utf8) + Self.chunk, stallAfterwards: true)
        }
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        let request = try Self.request(server, in: folder, size: Int64(size))
        async let outcome = HTTPTransferTests.transfer(request)
        try await poll(until: { (try? HTTPTransferTests.bytesOnDisk(request).count) == Self.chunk.count },
                       "the first bytes on disk")
        let reserved = Self.allocatedBytes(request.partFile)
        let (result, _) = await outcome
        #expect(throws: TransferError.self) { try result.get() }
        // File systems without fallocate (tmpfs on old kernels) reserve nothing: then there is nothing to give back.
        if reserved >= Int64(size) {
            #expect(Self.allocatedBytes(request.partFile) < 1 << 20, "the stalled attempt gave the reservation back")
        }
        #expect(try HTTPTransferTests.bytesOnDisk(request).count == Self.chunk.count, "the bytes received are kept")
    }

    @Test("A declared or announced length larger than the free space fails at once, before any byte")
    func lengthBeyondFreeSpace() async throws {
        for (declared, announced) in [(Int64(1) << 60, Int64(1) << 60), (nil, Int64(1) << 60)] {
            let server = try ScriptedHTTPServer { _, _ in
                ScriptedHTTPServer.Reply(Array("HTTP/1.1 200 OK\r\nContent-Length: \(announced)\r\n\r\n".utf8) + Self.chunk,
                                         stallAfterwards: true)
            }
            defer { server.stop() }
            let folder = try TemporaryDirectory()
            let request = try Self.request(server, in: folder, size: declared)
            let (result, _) = await HTTPTransferTests.transfer(request)
            guard case let .failure(error) = result else { Issue.record("an exabyte fit"); continue }
            #expect(error.kind == .localFile(errno: ENOSPC), "\(error)")
            #expect(error.description.contains("bytes free"), "\(error)")
            #expect(try HTTPTransferTests.bytesOnDisk(request).isEmpty)
            #expect(Self.allocatedBytes(request.partFile) == 0)
        }
    }

    @Test("A body compressed although the request asked for identity is refused, never saved as the file",
          arguments: ["Content-Encoding: gzip", "Content-Encoding: br", "Transfer-Encoding: gzip, chunked"])
    func unrequestedCodings(_ field: String) async throws {
        let server = try ScriptedHTTPServer { _, _ in
            // A gzip stream padded to the declared size: only the coding gives it away.
            let body = [0x1F, 0x8B, 0x08, 0x00] + [UInt8](repeating: 0, count: HTTPTransferTests.file.count - 4)
            return .response("200 OK", [field, "Content-Length: \(body.count)"], body: body)
        }
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        let request = try HTTPTransferTests.request(server.url("/a.mp4"), in: folder.url)
        let (result, _) = await HTTPTransferTests.transfer(request)
        guard case let .failure(error) = result else { Issue.record("the encoded body was saved as the file"); return }
        #expect(error.kind == .unrequestedCoding(field))
        #expect(error.description.contains(field), "\(error)")
        #expect(!error.isRetryable)
        #expect(error.wireFailure.code == -1016)
        #expect(try HTTPTransferTests.bytesOnDisk(request).isEmpty)
    }

    @Test("Content-Encoding: identity is the file as it is")
    func identityCoding() async throws {
        let server = try ScriptedHTTPServer { _, _ in
            .response("200 OK", ["Content-Encoding: identity", "ETag: \(HTTPTransferTests.etag)"], body: HTTPTransferTests.file)
        }
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        let request = try HTTPTransferTests.request(server.url("/a.mp4"), in: folder.url)
        let (result, _) = await HTTPTransferTests.transfer(request)
        #expect(try result.get().length == Int64(HTTPTransferTests.file.count))
    }
}
