/*
Abstract:
Tests that a device root must be the user's own real folder, not reached through a link or a folder someone else could change.
*/

import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

@Suite("Device root ownership")
struct DeviceRootOwnershipTests {
    @Test("The user's own folder passes, also before it exists; a symbolic link as the root is refused")
    func ownFolderAndLink() throws {
        let folder = try TemporaryDirectory()
        let root = folder.appending("device")
        #expect(throws: Never.self) { try DeviceRootOwnership.checkRoot(DevicePaths(root: root)) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        #expect(throws: Never.self) { try DeviceRootOwnership.checkRoot(DevicePaths(root: root)) }
        let link = folder.appending("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: root)
        #expect {
            try DeviceRootOwnership.checkRoot(DevicePaths(root: link))
        } throws: { error in
            "\(error)".contains("is a symbolic link (to \(root.path))")
        }
    }

    @Test("A folder of the device root that is a file or a link is refused, naming it")
    func foldersMustBeFolders() throws {
        let folder = try TemporaryDirectory()
        let paths = DevicePaths(root: folder.url)
        try Data().write(to: paths.stagingDirectory)
        #expect { try DeviceRootOwnership.checkFolders(paths) } throws: { "\($0)".contains("staging is not a folder") }
        try FileManager.default.removeItem(at: paths.stagingDirectory)
        try FileManager.default.createSymbolicLink(at: paths.runDirectory, withDestinationURL: URL(fileURLWithPath: "/tmp"))
        #expect { try DeviceRootOwnership.checkFolders(paths) } throws: { "\($0)".contains("run is a symbolic link (to /tmp)") }
    }

    @Test("A root inside a folder another user owns and may write is refused; inside a sticky one it is not",
          .enabled(if: geteuid() == 0, "making folders of another user needs root"))
    func ancestors() throws {
        let folder = try TemporaryDirectory()
        let shared = folder.appending("shared")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        lchown(shared.path, 65534, 65534)
        let paths = DevicePaths(root: shared.appending(path: "device"))
        try FileManager.default.createDirectory(at: paths.root, withIntermediateDirectories: true)
        #expect { try DeviceRootOwnership.checkRoot(paths) } throws: { "\($0)".contains("inside \(shared.path), which belongs to nobody") }
        chmod(shared.path, 0o1777)
        #expect(throws: Never.self) { try DeviceRootOwnership.checkRoot(paths) }
    }
}
