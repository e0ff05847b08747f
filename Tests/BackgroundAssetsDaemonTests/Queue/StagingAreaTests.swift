/*
Abstract:
Tests that a finished staging file is handed over into its app group, folder or not, and that a lost one is named as lost.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

@Suite("The staging area")
struct StagingAreaTests {
    static let group = "group.com.example.sessions"

    @Test("A hand-over creates the app group's folder the first time, and renames into it after that")
    func handsOver() throws {
        let root = try TemporaryDirectory(prefix: "ba-staging")
        let staging = StagingArea(paths: DevicePaths(root: root.url))
        try FileManager.default.createDirectory(at: staging.paths.stagingDirectory, withIntermediateDirectories: true)
        for row: Int64 in [1, 2] {
            let contents = Data("video \(row)".utf8)
            try contents.write(to: staging.partFile(forRow: row))
            let file = try staging.handOver(rowID: row, toAppGroup: Self.group)
            #expect(file.deletingLastPathComponent().standardizedFileURL.path
                == staging.handOverFolder(ofAppGroup: Self.group)?.standardizedFileURL.path)
            #expect(try Data(contentsOf: file) == contents)
            #expect(!FileManager.default.fileExists(atPath: staging.partFile(forRow: row).path))
        }
    }

    /// A download of the sessions' app group, as the queue launched it.
    static func row(_ id: Int64) -> DownloadRow {
        let now = Date()
        let descriptor = DownloadDescriptor(
            identifier: "wwdc23-\(id)", uniqueIdentifier: "unique-\(id)", url: "https://cdn.example.com/\(id).mp4",
            fileSize: 100, applicationGroupIdentifier: group, state: .downloading)
        return DownloadRow(
            id: id, bundleIdentifier: "com.example.sessions", descriptor: descriptor, isForeground: false, bytesDurable: 0,
            expectedLength: nil, entityTag: nil, lastModified: nil, attempts: 1, lastError: nil, createdAt: now,
            updatedAt: now, nextAttemptAt: now, lastProgressAt: nil)
    }

    @Test("Files that end together go into their folder opened once; the next batch opens it again and refuses a link planted meanwhile")
    func batchSharesItsFolder() throws {
        let root = try TemporaryDirectory(prefix: "ba-staging")
        let outside = try TemporaryDirectory(prefix: "ba-outside")
        let staging = StagingArea(paths: DevicePaths(root: root.url))
        try FileManager.default.createDirectory(at: staging.paths.stagingDirectory, withIntermediateDirectories: true)
        let folder = try #require(staging.handOverFolder(ofAppGroup: Self.group))
        for row: Int64 in 1...4 { try Data("video \(row)".utf8).write(to: staging.partFile(forRow: row)) }

        var batch = HandOverFolders()
        let first = try staging.handOver(Self.row(1), folders: &batch)
        // Moved aside while the batch holds the folder open: the batch's next file follows the
        // folder it opened, as a rename into it would, and does not make a new one.
        let movedAside = root.url.appending(path: "moved-aside")
        try FileManager.default.moveItem(at: folder, to: movedAside)
        let second = try staging.handOver(Self.row(2), folders: &batch)
        _ = consume batch
        #expect(first.deletingLastPathComponent().path == folder.path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: movedAside.path).count == 4, "two files and their kept names")
        #expect(second.lastPathComponent.hasPrefix("BAFile-2-"))

        // The next batch opens the folder afresh: made again where it belongs.
        var next = HandOverFolders()
        let third = try staging.handOver(Self.row(3), folders: &next)
        _ = consume next
        #expect(try Data(contentsOf: third) == Data("video 3".utf8))
        #expect(third.deletingLastPathComponent().path == folder.path)

        // And a link planted between two batches is refused by the next one.
        try FileManager.default.removeItem(at: folder)
        try FileManager.default.createSymbolicLink(at: folder, withDestinationURL: outside.url)
        var afterLink = HandOverFolders()
        #expect {
            try staging.handOver(Self.row(4), folders: &afterLink)
        } throws: { error in
            (error as? TransferError)?.kind == .localFile(errno: ELOOP)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.url.path).isEmpty, "written outside the root")
    }

    @Test("A folder removed in the middle of a batch, as an uninstall removes it, fails the next file as such, not as a lost staging file")
    func folderRemovedMidBatch() throws {
        let root = try TemporaryDirectory(prefix: "ba-staging")
        let staging = StagingArea(paths: DevicePaths(root: root.url))
        try FileManager.default.createDirectory(at: staging.paths.stagingDirectory, withIntermediateDirectories: true)
        for row: Int64 in 1...2 { try Data("video \(row)".utf8).write(to: staging.partFile(forRow: row)) }
        var batch = HandOverFolders()
        _ = try staging.handOver(Self.row(1), folders: &batch)
        try FileManager.default.removeItem(at: try #require(staging.paths.container(forAppGroup: Self.group)))
        #expect {
            try staging.handOver(Self.row(2), folders: &batch)
        } throws: { error in
            (error as? TransferError)?.kind == .localFile(errno: EIO) && "\(error)".contains("the folder was removed")
        }
        #expect(FileManager.default.fileExists(atPath: staging.partFile(forRow: 2).path), "the staging file is kept")
    }

    @Test("A hand-over keeps a second name beside the file, and its release deletes both")
    func keptNameAndRelease() throws {
        let root = try TemporaryDirectory(prefix: "ba-staging")
        let staging = StagingArea(paths: DevicePaths(root: root.url))
        try FileManager.default.createDirectory(at: staging.paths.stagingDirectory, withIntermediateDirectories: true)
        try Data("video".utf8).write(to: URL(fileURLWithPath: staging.partFilePath(forRow: 5)))
        let file = try staging.handOver(rowID: 5, toAppGroup: Self.group)
        let kept = StagingArea.keptName(of: file)
        #expect(kept.path == StagingArea.keptPath(of: file.path))
        #expect(kept.deletingLastPathComponent().path == file.deletingLastPathComponent().path)
        #expect(kept.lastPathComponent == file.lastPathComponent + ".held")
        #expect(FileManager.default.fileExists(atPath: kept.path), "the second name is made with the hand-over")
        StagingArea.release(handedOver: file)
        #expect(!FileManager.default.fileExists(atPath: file.path))
        #expect(!FileManager.default.fileExists(atPath: kept.path))
    }

    @Test("A staging file deleted during its transfer is reported as missing, so the download starts over")
    func missingStagingFile() throws {
        let root = try TemporaryDirectory(prefix: "ba-staging")
        let staging = StagingArea(paths: DevicePaths(root: root.url))
        #expect {
            try staging.handOver(rowID: 9, toAppGroup: Self.group)
        } throws: { error in
            (error as? TransferError)?.kind == .localFile(errno: ENOENT)
        }
        #expect {
            try staging.handOver(rowID: 9, toAppGroup: "../escape")
        } throws: { error in
            (error as? TransferError)?.kind == .localFile(errno: EINVAL)
        }
    }

    @Test("A link planted among a container's folders is refused by name: the finished file never leaves the device root",
          arguments: ["Library", "Library/Caches", "Library/Caches/com.apple.BackgroundAssets"])
    func linkInsideContainer(linked: String) throws {
        let root = try TemporaryDirectory(prefix: "ba-staging")
        let outside = try TemporaryDirectory(prefix: "ba-outside")
        let staging = StagingArea(paths: DevicePaths(root: root.url))
        try FileManager.default.createDirectory(at: staging.paths.stagingDirectory, withIntermediateDirectories: true)
        let container = try #require(staging.paths.container(forAppGroup: Self.group))
        let link = container.appending(path: linked)
        try FileManager.default.createDirectory(at: link.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: outside.url)
        try Data("video".utf8).write(to: staging.partFile(forRow: 3))

        #expect {
            try staging.handOver(rowID: 3, toAppGroup: Self.group)
        } throws: { error in
            (error as? TransferError)?.kind == .localFile(errno: ELOOP) && "\(error)".contains("symbolic link")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.url.path).isEmpty, "written outside the root")
        #expect(FileManager.default.fileExists(atPath: staging.partFile(forRow: 3).path), "the staging file is kept")
    }

    @Test("A link among a container's folders that stays inside the device root is refused as well: no link is followed at all")
    func linkInsideRoot() throws {
        let root = try TemporaryDirectory(prefix: "ba-staging")
        let staging = StagingArea(paths: DevicePaths(root: root.url))
        try FileManager.default.createDirectory(at: staging.paths.stagingDirectory, withIntermediateDirectories: true)
        let container = try #require(staging.paths.container(forAppGroup: Self.group))
        let elsewhere = root.url.appending(path: "elsewhere")
        try FileManager.default.createDirectory(at: elsewhere.appending(path: "com.apple.BackgroundAssets"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: container.appending(path: "Library"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: container.appending(path: "Library/Caches"), withDestinationURL: elsewhere)
        try Data("video".utf8).write(to: staging.partFile(forRow: 4))

        #expect {
            try staging.handOver(rowID: 4, toAppGroup: Self.group)
        } throws: { error in
            (error as? TransferError)?.kind == .localFile(errno: ELOOP) && "\(error)".contains("symbolic link")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.appending(path: "com.apple.BackgroundAssets").path).isEmpty)

        // Without the link, the same hand-over goes through, the folders made where the link was.
        try FileManager.default.removeItem(at: container.appending(path: "Library/Caches"))
        let file = try staging.handOver(rowID: 4, toAppGroup: Self.group)
        #expect(try String(contentsOf: file, encoding: .utf8) == "video")
        #expect(file.path.hasPrefix(container.path))
    }
}
