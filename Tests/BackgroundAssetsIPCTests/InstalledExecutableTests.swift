/*
Abstract:
Tests that an installed bundle's executable follows the built one across rebuilds.
*/

import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

@Suite("Installed executables")
struct InstalledExecutableTests {
    private static func inode(_ url: URL) throws -> UInt64 {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return try #require(attributes[.systemFileNumber] as? UInt64)
    }

    @Test("Install links the built executable into the bundle, and a rebuild is linked in again before a launch")
    func followsRebuilds() throws {
        let folder = try TemporaryDirectory(prefix: "installed-executable")
        let built = folder.appending("built")
        let installed = folder.appending("installed")
        try Data("first build".utf8).write(to: built)
        try InstalledExecutable.place(built, at: installed)
        #expect(try Self.inode(installed) == Self.inode(built))

        // A rebuild replaces the file in the build folder; the bundle still holds the old one.
        try FileManager.default.removeItem(at: built)
        try Data("second build".utf8).write(to: built)
        #expect(try Self.inode(installed) != Self.inode(built))
        try InstalledExecutable.refresh(installed, from: built)
        #expect(try Self.inode(installed) == Self.inode(built))
        #expect(try String(contentsOf: installed, encoding: .utf8) == "second build")

        // Nothing to do when it is already the same file, or when the build is gone.
        try InstalledExecutable.refresh(installed, from: built)
        try FileManager.default.removeItem(at: built)
        try InstalledExecutable.refresh(installed, from: built)
        #expect(try String(contentsOf: installed, encoding: .utf8) == "second build")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }
}
