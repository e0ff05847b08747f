/*
Abstract:
Tests that a staging file's path joined as a string is the path of its URL, whatever the device root is called.
*/

import BackgroundAssetsIPC
import Foundation
import Testing

@Suite("A staging file's path without a URL")
struct StagingFilePathTests {
    @Test("The joined path is the URL's path", arguments: [
        "/tmp/device", "/tmp/device/", "/tmp/a/../device", "/tmp/with space/device",
        "/tmp/per%20cent/device", "/tmp/Größe/device", "/", "/tmp/./device",
    ])
    func joinedPathIsTheURLsPath(root: String) {
        let paths = DevicePaths(root: URL(fileURLWithPath: root, isDirectory: true))
        for row: Int64 in [0, 1, 42, Int64.max] {
            #expect(paths.stagingFilePath(forDownloadRow: row) == paths.stagingFile(forDownloadRow: row).path)
        }
    }
}
