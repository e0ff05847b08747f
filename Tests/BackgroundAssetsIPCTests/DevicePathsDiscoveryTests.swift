/*
Abstract:
Tests that every process finds the same device root from anywhere inside the package.
*/

import BackgroundAssetsIPC
import Foundation
import TestSupport
import Testing

@Suite("Finding the device root")
struct DevicePathsDiscoveryTests {
    @Test("From a subfolder of a package, the device root is the package's .device")
    func fromSubfolder() throws {
        let folder = try TemporaryDirectory(prefix: "package")
        let package = folder.appending("MyApp")
        let deep = package.appending(path: "Docs/images")
        try FileManager.default.createDirectory(at: deep, withIntermediateDirectories: true)
        try Data("// swift-tools-version: 6.2\n".utf8).write(to: package.appending(path: "Package.swift"))
        #expect(DevicePaths.defaultRoot(from: deep).standardizedFileURL.path == package.appending(path: ".device").path)
        #expect(DevicePaths.defaultRoot(from: package).standardizedFileURL.path == package.appending(path: ".device").path)
    }

    @Test("An existing .device wins over a Package.swift further up")
    func existingDevice() throws {
        let folder = try TemporaryDirectory(prefix: "package")
        let outer = folder.appending("outer")
        let inner = outer.appending(path: "inner/work")
        try FileManager.default.createDirectory(at: inner, withIntermediateDirectories: true)
        try Data().write(to: outer.appending(path: "Package.swift"))
        try FileManager.default.createDirectory(
            at: outer.appending(path: "inner/.device"), withIntermediateDirectories: true)
        #expect(DevicePaths.defaultRoot(from: inner).path == outer.appending(path: "inner/.device").path)
    }

    @Test("Outside any package, .device is in the current folder; BA_DEVICE_ROOT always wins")
    func outsidePackages() throws {
        let folder = try TemporaryDirectory(prefix: "loose")
        let loose = folder.appending("a/b")
        try FileManager.default.createDirectory(at: loose, withIntermediateDirectories: true)
        #expect(DevicePaths.defaultRoot(from: loose).path == loose.appending(path: ".device").path)
        let explicit = DevicePaths.current(environment: ["BA_DEVICE_ROOT": "/srv/device"])
        #expect(explicit.root.path == "/srv/device")
    }
}
