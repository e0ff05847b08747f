/*
Abstract:
FileManager.replaceItemAt, as a file that imports only BackgroundAssets sees it: Apple's behaviour.
*/

// Only BackgroundAssets, as an Apple app file imports it: Foundation arrives through the framework,
// so these calls reach the framework's replaceItemAt, whatever form they take.
import BackgroundAssets
import Testing
import TestSupport

@Suite("FileManager.replaceItemAt")
struct ReplaceItemAtTests {
    private let files = FileManager.default

    @Test("A download moves into place when no file is there yet, and leaves the staging folder")
    func movesIntoAnEmptyPlace() throws {
        let folder = try TemporaryDirectory(prefix: "replace")
        let staged = try write("new video", to: folder.appending("BAFile-1.tmp"))
        let destination = folder.appending("wwdc23-10108.mp4")

        let result = try files.replaceItemAt(destination, withItemAt: staged)

        #expect(result == destination)
        #expect(try contents(of: destination) == "new video")
        #expect(!files.fileExists(atPath: staged.path))
    }

    @Test("An existing file is replaced, keeps its permissions, and the new item is gone")
    func replacesAnExistingFile() throws {
        let folder = try TemporaryDirectory(prefix: "replace")
        let destination = try write("old manifest", to: folder.appending("manifest.json"), permissions: 0o640)
        let staged = try write("new manifest", to: folder.appending("manifest.json.new"), permissions: 0o600)

        let result = try files.replaceItemAt(destination, withItemAt: staged, backupItemName: nil, options: [])

        #expect(result == destination)
        #expect(try contents(of: destination) == "new manifest")
        #expect(try permissions(of: destination) == 0o640)
        #expect(!files.fileExists(atPath: staged.path))
    }

    @Test("With usingNewMetadataOnly the result keeps the new item's permissions")
    func usesNewMetadata() throws {
        let folder = try TemporaryDirectory(prefix: "replace")
        let destination = try write("old", to: folder.appending("a"), permissions: 0o644)
        let staged = try write("new", to: folder.appending("b"), permissions: 0o600)

        _ = try files.replaceItemAt(destination, withItemAt: staged, options: .usingNewMetadataOnly)

        #expect(try permissions(of: destination) == 0o600)
    }

    @Test("A backup holds the original's bytes, and is deleted unless asked to stay")
    func keepsABackupWhenAsked() throws {
        let folder = try TemporaryDirectory(prefix: "replace")
        let destination = try write("version 1", to: folder.appending("manifest.json"))
        _ = try write("stale", to: folder.appending("manifest.json.bak"))

        _ = try files.replaceItemAt(
            destination, withItemAt: try write("version 2", to: folder.appending("v2")), backupItemName: "manifest.json.bak",
            options: .withoutDeletingBackupItem)
        #expect(try contents(of: folder.appending("manifest.json.bak")) == "version 1")
        #expect(try contents(of: destination) == "version 2")

        _ = try files.replaceItemAt(
            destination, withItemAt: try write("version 3", to: folder.appending("v3")), backupItemName: "manifest.json.bak")
        #expect(!files.fileExists(atPath: folder.appending("manifest.json.bak").path))
        #expect(try contents(of: destination) == "version 3")
    }

    @Test(
        "A new item on another file system is copied in and removed",
        .enabled(if: ReplaceItemAtTests.sharedMemoryIsAnotherFileSystem))
    func replacesAcrossFileSystems() throws {
        let folder = try TemporaryDirectory(prefix: "replace")
        let other = try SharedMemoryFolder()
        defer { other.remove() }
        let bytes = String(repeating: "0123456789abcdef", count: 65_536)
        let staged = try write(bytes, to: other.url.appendingPathComponent("BAFile-2.tmp"))
        let destination = try write("old", to: folder.appending("video.mp4"))

        _ = try files.replaceItemAt(destination, withItemAt: staged)

        #expect(try contents(of: destination) == bytes)
        #expect(!files.fileExists(atPath: staged.path))
        #expect(try files.contentsOfDirectory(atPath: folder.url.path) == ["video.mp4"])
    }

    @Test("A folder replaces a file and a file replaces a folder")
    func replacesAcrossKinds() throws {
        let folder = try TemporaryDirectory(prefix: "replace")
        let destination = try write("a file", to: folder.appending("item"))
        let newFolder = folder.appending("new-folder")
        try files.createDirectory(at: newFolder, withIntermediateDirectories: false)
        _ = try write("inside", to: newFolder.appendingPathComponent("inside.txt"))

        _ = try files.replaceItemAt(destination, withItemAt: newFolder)
        #expect(try contents(of: destination.appendingPathComponent("inside.txt")) == "inside")

        _ = try files.replaceItemAt(destination, withItemAt: try write("a file again", to: folder.appending("f")))
        #expect(try contents(of: destination) == "a file again")
        #expect(try files.contentsOfDirectory(atPath: folder.url.path) == ["item"])
    }

    @Test("A missing new item or folder fails with fileNoSuchFile and loses nothing")
    func failuresLoseNothing() throws {
        let folder = try TemporaryDirectory(prefix: "replace")
        let destination = try write("keep me", to: folder.appending("keep.txt"))

        #expect {
            _ = try files.replaceItemAt(destination, withItemAt: folder.appending("missing"))
        } throws: { ($0 as? CocoaError)?.code == .fileNoSuchFile }
        #expect(try contents(of: destination) == "keep me")

        let staged = try write("new", to: folder.appending("new.txt"))
        #expect {
            _ = try files.replaceItemAt(folder.appending("no-such-folder/file"), withItemAt: staged)
        } throws: { ($0 as? CocoaError)?.code == .fileNoSuchFile }
        #expect(try contents(of: staged) == "new")
    }

    // MARK: - Helpers

    private func write(_ text: String, to url: URL, permissions: Int? = nil) throws -> URL {
        try Data(text.utf8).write(to: url)
        if let permissions { try files.setAttributes([.posixPermissions: permissions], ofItemAtPath: url.path) }
        return url
    }

    private func contents(of url: URL) throws -> String {
        String(decoding: try Data(contentsOf: url), as: UTF8.self)
    }

    private func permissions(of url: URL) throws -> Int? {
        try files.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
    }

    static var sharedMemoryIsAnotherFileSystem: Bool {
        var temporary = stat()
        var shared = stat()
        return stat(NSTemporaryDirectory(), &temporary) == 0 && stat("/dev/shm", &shared) == 0
            && access("/dev/shm", W_OK) == 0 && temporary.st_dev != shared.st_dev
    }
}

/// A folder on /dev/shm (tmpfs), another file system than the temporary directory's.
private struct SharedMemoryFolder {
    let url: URL

    init() throws {
        var template = Array("/dev/shm/replace-test.XXXXXX".utf8CString)
        guard let created = mkdtemp(&template) else { throw CocoaError(.fileWriteUnknown) }
        url = URL(fileURLWithPath: String(cString: created), isDirectory: true)
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
