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
}
