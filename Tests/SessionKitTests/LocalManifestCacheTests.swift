/*
Abstract:
Tests that the app group's manifest is decoded again exactly when its file changed.
*/

import Foundation
#if canImport(Glibc)
import Glibc
#endif
import SessionKit
import TestSupport
import Testing

@Suite("Loading the local manifest once per version")
struct LocalManifestCacheTests {
    static func manifest(version: Int) -> Manifest {
        Manifest(version: version, sessions: [LocalSessionTests.session()])
    }

    @Test("A save replaces the manifest loaded before, even one of the same size within the same second")
    func saveIsSeen() async throws {
        try await withTemporaryDirectory { folder in
            let settings = LocalSessionTests.settings(in: folder)
            try settings.saveLocalManifest(Self.manifest(version: 1))
            #expect(try settings.loadLocalManifest()?.version == 1)
            try settings.saveLocalManifest(Self.manifest(version: 2))
            #expect(try settings.loadLocalManifest()?.version == 2)
            try FileManager.default.removeItem(at: settings.localManifestURL)
            #expect(try settings.loadLocalManifest() == nil, "a deleted manifest is noticed")
        }
    }

    @Test("An unchanged file is not decoded again; a changed date or size makes it decode again")
    func unchangedFileIsNotReadAgain() async throws {
        try await withTemporaryDirectory { folder in
            let settings = LocalSessionTests.settings(in: folder)
            let url = settings.localManifestURL
            try settings.saveLocalManifest(Self.manifest(version: 1))
            // A whole second, which setting the date back below restores exactly.
            let date = Date(timeIntervalSince1970: 1_700_000_000)
            try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: url.path)
            #expect(try settings.loadLocalManifest()?.version == 1)

            // The same inode, size and date with other bytes: only a cache still answers version 1.
            let size = try Data(contentsOf: url).count
            let handle = try FileHandle(forWritingTo: url)
            try handle.write(contentsOf: Data(repeating: UInt8(ascii: " "), count: size))
            try handle.close()
            try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: url.path)
            #expect(try settings.loadLocalManifest()?.version == 1)

            try FileManager.default.setAttributes([.modificationDate: date.addingTimeInterval(1)], ofItemAtPath: url.path)
            #expect(throws: SessionKitError.self, "the changed file is read, and its blanks are not a manifest") {
                try settings.loadLocalManifest()
            }
        }
    }

    #if canImport(Glibc)
    @Test("The manifest a process saved is its next load's answer, without reading the file back")
    func savedManifestIsNotReadBack() async throws {
        try await withTemporaryDirectory { folder in
            let settings = LocalSessionTests.settings(in: folder)
            let url = settings.localManifestURL
            try settings.saveLocalManifest(Self.manifest(version: 3))
            var status = stat()
            #expect(stat(url.path, &status) == 0)

            // Other bytes in the same inode, with the size and the exact modification time the save
            // left: only a manifest kept from the save still answers version 3.
            let size = try Data(contentsOf: url).count
            let handle = try FileHandle(forWritingTo: url)
            try handle.write(contentsOf: Data(repeating: UInt8(ascii: " "), count: size))
            try handle.close()
            var times = [status.st_atim, status.st_mtim]
            #expect(utimensat(AT_FDCWD, url.path, &times, 0) == 0)
            #expect(try settings.loadLocalManifest()?.version == 3)
        }
    }
    #endif
}
