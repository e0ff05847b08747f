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
        try Self.makeFile(folder.appending("wwdc-sessions"), permissions: 0o755)
        try Self.makeFile(folder.appending("wwdc-sessions-extension"), permissions: 0o755)
        let executables = try SampleBundle.description().executables(in: folder.url)
        #expect(executables.app.lastPathComponent == "wwdc-sessions")
        #expect(executables.extension.lastPathComponent == "wwdc-sessions-extension")
    }

    @Test("A missing, non-executable or folder executable is refused, naming the Info.plist and CFBundleExecutable")
    func refused() throws {
        let folder = try TemporaryDirectory()
        try Self.makeFile(folder.appending("wwdc-sessions"), permissions: 0o755)
        let bundle = try SampleBundle.description()
        #expect(throws: AppBundleError.self) { try bundle.executables(in: folder.url) }
        do {
            _ = try bundle.executables(in: folder.url)
        } catch let error as AppBundleError {
            #expect(error.file == "Extension/Info.plist")
            #expect(error.key == "CFBundleExecutable")
            #expect(error.description.contains("wwdc-sessions-extension"))
        }
        // access(2) grants even root execution only when some execute bit is set, so 0644 is refused for everyone.
        try Self.makeFile(folder.appending("wwdc-sessions-extension"), permissions: 0o644)
        #expect(throws: AppBundleError.self) { try bundle.executables(in: folder.url) }
        try FileManager.default.removeItem(at: folder.appending("wwdc-sessions-extension"))
        try FileManager.default.createDirectory(
            at: folder.appending("wwdc-sessions-extension"), withIntermediateDirectories: false)
        #expect(throws: AppBundleError.self) { try bundle.executables(in: folder.url) }
    }
}
