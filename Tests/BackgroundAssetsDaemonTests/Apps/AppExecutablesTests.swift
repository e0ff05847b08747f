/*
Abstract:
Tests for finding an app bundle's two executables beside the debug tool.
*/

@testable import BackgroundAssetsDaemon
import Foundation
import TestSupport
import Testing

@Suite("App executables")
struct AppExecutablesTests {
    static func makeFile(_ url: URL, permissions: Int) throws {
        try Data("#!/bin/sh\n".utf8).write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: permissions], ofItemAtPath: url.path)
    }

    @Test("Both executables are found by their CFBundleExecutable names")
    func found() throws {
        let folder = try TemporaryDirectory()
        let bundle = try SampleBundle.description()
        try Self.makeFile(folder.appending(bundle.app.executable), permissions: 0o755)
        let extensionExecutable = try #require(bundle.extension?.executable)
        try Self.makeFile(folder.appending(extensionExecutable), permissions: 0o755)
        let executables = try bundle.executables(in: folder.url)
        #expect(executables.app.lastPathComponent == bundle.app.executable)
        #expect(executables.extension?.lastPathComponent == extensionExecutable)
    }

    @Test("A missing, non-executable or folder executable is refused, naming the Info.plist and CFBundleExecutable")
    func refused() throws {
        let folder = try TemporaryDirectory()
        let bundle = try SampleBundle.description()
        let extensionExecutable = try #require(bundle.extension?.executable)
        try Self.makeFile(folder.appending(bundle.app.executable), permissions: 0o755)
        #expect(throws: AppBundleError.self) { try bundle.executables(in: folder.url) }
        do {
            _ = try bundle.executables(in: folder.url)
        } catch let error as AppBundleError {
            #expect(error.file == "Extension/Info.plist")
            #expect(error.key == "CFBundleExecutable")
            #expect(error.description.contains(extensionExecutable))
        }
        // access(2) grants even root execution only when some execute bit is set, so 0644 is refused for everyone.
        try Self.makeFile(folder.appending(extensionExecutable), permissions: 0o644)
        #expect(throws: AppBundleError.self) { try bundle.executables(in: folder.url) }
        try FileManager.default.removeItem(at: folder.appending(extensionExecutable))
        try FileManager.default.createDirectory(
            at: folder.appending(extensionExecutable), withIntermediateDirectories: false)
        #expect(throws: AppBundleError.self) { try bundle.executables(in: folder.url) }
    }
}
