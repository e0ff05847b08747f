/*
Abstract:
Tests of a body's budget as values: which length limits it, what is reserved, and what cannot fit.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

@Suite("A body's budget")
struct BodyBudgetTests {
    static let file = URL(fileURLWithPath: "/device/staging/1.part")
    static let mebibyte: Int64 = 1 << 20

    @Test("A declared size is the limit and is reserved, whatever the server announces")
    func declared() throws {
        let budget = try BodyBudget(declared: 8 * Self.mebibyte, announced: nil, written: 0, available: { 100 * Self.mebibyte }, file: Self.file)
        #expect(budget.limit == 8 * Self.mebibyte && budget.source == .declared && budget.reservation == 8 * Self.mebibyte)
        let small = try BodyBudget(declared: 1000, announced: 1000, written: 0, available: {
            Issue.record("the free space is asked for a small file, a system call per download")
            return 10
        }, file: Self.file)
        #expect(small.limit == 1000 && small.reservation == nil, "small files are neither reserved nor checked")
    }

    @Test("An announced length is the limit but reserves nothing")
    func announced() throws {
        let budget = try BodyBudget(declared: nil, announced: 8 * Self.mebibyte, written: 0, available: { 100 * Self.mebibyte }, file: Self.file)
        #expect(budget.limit == 8 * Self.mebibyte && budget.source == .announced && budget.reservation == nil)
    }

    @Test("With no length at all, the free space less what is kept free is the limit")
    func unknown() throws {
        let budget = try BodyBudget(declared: nil, announced: nil, written: 5, available: { 100 * Self.mebibyte }, file: Self.file)
        #expect(budget.limit == 5 + 100 * Self.mebibyte - BodyBudget.keptFree)
        #expect(budget.source == .freeSpace)
        let full = try BodyBudget(declared: nil, announced: nil, written: 5, available: { Self.mebibyte }, file: Self.file)
        #expect(full.limit == 5, "nothing more may be written on a disk below what is kept free")
        #expect(try BodyBudget(declared: nil, announced: nil, written: 5, available: { nil }, file: Self.file).limit == .max)
        #expect(try BodyBudget(declared: nil, announced: nil, written: .max - 1, available: { .max }, file: Self.file).limit == .max,
                "a file system reporting more than Int64 can count saturates instead of trapping")
    }

    @Test("What remains of a length must fit the free space, counting the bytes already written")
    func mustFit() throws {
        #expect(throws: TransferError.self) {
            try BodyBudget(declared: 10 * Self.mebibyte, announced: nil, written: 0, available: { 9 * Self.mebibyte }, file: Self.file)
        }
        _ = try BodyBudget(declared: 10 * Self.mebibyte, announced: nil, written: 2 * Self.mebibyte, available: { 9 * Self.mebibyte }, file: Self.file)
        #expect(throws: TransferError.self) {
            try BodyBudget(declared: nil, announced: .max, written: 0, available: { .max - 1 }, file: Self.file)
        }
    }

    @Test("An endless body with no length stops short of filling the disk", .enabled(if: getuid() == 0))
    func endlessBodyOnSmallDisk() async throws {
        let folder = try TemporaryDirectory()
        // An 80 MiB file system: 16 MiB for the body once 64 MiB are kept free. Mounting needs root.
        guard mount("tmpfs", folder.url.path, "tmpfs", 0, "size=80m") == 0 else {
            Issue.record("mount failed: \(errnoText())"); return
        }
        defer { umount2(folder.url.path, Int32(MNT_DETACH)) }
        let server = try ScriptedHTTPServer { _, _ in .endlessChunkedBody() }
        defer { server.stop() }
        var request = try HTTPTransferTests.request(server.url("/a.mp4"), in: folder.url)
        request.expectedLength = nil
        let (result, _) = await HTTPTransferTests.transfer(request)
        guard case let .failure(error) = result else { Issue.record("an endless body completed"); return }
        #expect(error.kind == .localFile(errno: ENOSPC), "\(error)")
        #expect(error.description.contains("declares no size"), "\(error)")
        var disk = statvfs()
        #expect(statvfs(folder.url.path, &disk) == 0)
        #expect(Int64(disk.f_bavail) * Int64(disk.f_frsize) >= BodyBudget.keptFree, "the disk kept its free space")
    }
}
