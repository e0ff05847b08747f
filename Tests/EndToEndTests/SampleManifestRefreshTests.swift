/*
Abstract:
End-to-end: the app saves the server's manifest as the local copy only when it differs from the copy it loaded.
*/

import Foundation
import SessionKit
import Testing
import TestSupport

extension SampleTests {
    @Suite("The app's refresh of the manifest")
    struct SampleManifestRefreshTests {
        /// The local copy's inode: every save renames a new file over the old one.
        func inode(of url: URL) throws -> UInt64 {
            var status = stat()
            guard stat(url.path, &status) == 0 else { throw TestSupportError("no local manifest at \(url.path)") }
            return UInt64(status.st_ino)
        }

        @Test("The manifest the extension saved is not saved again; a new version from the server replaces it")
        func savedOnlyWhenChanged() async throws {
            try await withSampleDevice { device in
                _ = try await device.installAndRunToCompletion()
                let local = device.caches.appending(path: "manifest.json")
                let saved = try inode(of: local)

                let unchanged = try await device.runApp()
                #expect(unchanged.status.isSuccess, "\(unchanged.standardError)")
                #expect(try inode(of: local) == saved, "the app wrote the unchanged manifest again")

                // The server reads manifest.json on every request, so the next refresh gets version 2.
                let served = device.server.catalogURL.appending(path: "manifest.json")
                var manifest = try Manifest.load(from: served)
                manifest.version += 1
                try manifest.save(to: served)
                let changed = try await device.runApp()
                #expect(changed.status.isSuccess, "\(changed.standardError)")
                #expect(try inode(of: local) != saved, "the app kept the old manifest")
                #expect(try Manifest.load(from: local).version == manifest.version)
            }
        }
    }
}
