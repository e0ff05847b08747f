/*
Abstract:
Tests of the copies upload tasks send: which files an app may upload, what is copied, and which copies go when no task names them.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import TestSupport
import Testing

@Suite("Background upload files")
struct BackgroundSessionUploadFilesTests {
    @Test("An app uploads files outside the device root, in its own folder or its groups' containers, and nothing else under it")
    func sources() throws {
        let root = try TemporaryDirectory(prefix: "upload-sources")
        defer { root.remove() }
        let paths = DevicePaths(root: root.url.appending(path: "device"))
        let files = BackgroundSessionFiles(paths: paths)
        let app = "com.example.game"
        func refused(_ path: String) -> Bool {
            files.isRefusedUploadSource(URL(fileURLWithPath: path), app: app, appGroups: ["group.com.example.game"])
        }
        #expect(!refused(root.url.appending(path: "elsewhere/scores.json").path))
        #expect(!refused(paths.root.appending(path: "containers/group.com.example.game/scores.json").path))
        #expect(!refused(paths.root.appending(path: "apps/com.example.game/Data/scores.json").path))
        #expect(refused(paths.root.appending(path: "containers/group.com.example.other/secret.json").path))
        #expect(refused(paths.root.appending(path: "apps/com.example.other/Data/secret.json").path))
        #expect(refused(paths.root.appending(path: "system/queue.sqlite").path))
        #expect(refused(paths.root.appending(path: "containers/group.com.example.game/../group.com.example.other/x").path))
        // A link in the app's container that leads to the service's files is judged where it leads.
        let container = paths.root.appending(path: "containers/group.com.example.game")
        try FileManager.default.createDirectory(at: container, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: paths.root.appending(path: "system"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: container.appending(path: "system"), withDestinationURL: paths.root.appending(path: "system"))
        #expect(refused(container.appending(path: "system/queue.sqlite").path))
        // Copying judges the file the kernel opened, so the link does not get the service's file out.
        try Data("store".utf8).write(to: paths.root.appending(path: "system/queue.sqlite"))
        #expect(throws: UploadBodyError.self) {
            try files.stageUploadBody(copying: container.appending(path: "system/queue.sqlite"), for: app,
                                      appGroups: ["group.com.example.game"])
        }
        try Data("mine".utf8).write(to: container.appending(path: "scores.json"))
        let copy = try files.stageUploadBody(copying: container.appending(path: "scores.json"), for: app,
                                             appGroups: ["group.com.example.game"])
        #expect(try Data(contentsOf: copy) == Data("mine".utf8))
    }

    @Test("The copy is the file's bytes; a link or a folder is refused with the reason; unreferenced copies go")
    func copies() throws {
        let root = try TemporaryDirectory(prefix: "upload-copies")
        defer { root.remove() }
        let files = BackgroundSessionFiles(paths: DevicePaths(root: root.url.appending(path: "device")))
        let source = root.url.appending(path: "scores.json")
        try Data("{\"score\":42}".utf8).write(to: source)
        let first = try files.stageUploadBody(copying: source, for: "com.example.game", appGroups: [])
        let second = try files.stageUploadBody(copying: source, for: "com.example.game", appGroups: [])
        #expect(try Data(contentsOf: first) == Data("{\"score\":42}".utf8))
        #expect(first != second)

        let link = root.url.appending(path: "link.json")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: source)
        #expect(throws: UploadBodyError.self) { try files.stageUploadBody(copying: link, for: "com.example.game", appGroups: []) }
        do {
            _ = try files.stageUploadBody(copying: root.url, for: "com.example.game", appGroups: [])
            Issue.record("a folder was copied")
        } catch {
            #expect(error.reason == "it is not a regular file")
        }

        #expect(files.appsWithUploadBodies() == ["com.example.game"])
        #expect(files.removeUnreferencedUploadBodies(for: "com.example.game", keeping: [second.path]) == 1)
        #expect(!FileManager.default.fileExists(atPath: first.path) && FileManager.default.fileExists(atPath: second.path))
        files.removeUploadBody(second, for: "com.example.other")
        #expect(FileManager.default.fileExists(atPath: second.path), "another app's folder is not this copy's")
        files.removeUploadBody(second, for: "com.example.game")
        #expect(!FileManager.default.fileExists(atPath: second.path))
    }
}
