/*
Abstract:
The note that names a device root when it is not the one a reader expects.
*/

import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

@testable import BackgroundAssetsDebugTool

@Suite("The device root is named when it is not the expected one")
struct DeviceRootNoteTests {
    @Test("The package's own .device says nothing, from its folder or from BA_DEVICE_ROOT naming it")
    func expectedRootIsQuiet() throws {
        let folder = try TemporaryDirectory(prefix: "root-note")
        try Data().write(to: folder.appending("Package.swift"))
        let root = DevicePaths(root: folder.appending(".device"))
        #expect(DeviceRootNote.text(for: root, environment: [:], currentDirectory: folder.url) == nil)
        #expect(DeviceRootNote.text(for: root, environment: ["BA_DEVICE_ROOT": root.root.path],
                                    currentDirectory: folder.url) == nil)
    }

    @Test("Another root from BA_DEVICE_ROOT is named with where it came from")
    func environmentRootIsNamed() throws {
        let folder = try TemporaryDirectory(prefix: "root-note")
        try Data().write(to: folder.appending("Package.swift"))
        let other = DevicePaths(root: folder.appending("elsewhere/device"))
        let note = DeviceRootNote.text(for: other, environment: ["BA_DEVICE_ROOT": other.root.path], currentDirectory: folder.url)
        #expect(note == "Using device root \(other.root.resolvingSymlinksInPath().path) (from BA_DEVICE_ROOT).")
    }

    @Test("A root found above the current folder names the package it belongs to")
    func rootAboveIsNamed() throws {
        let folder = try TemporaryDirectory(prefix: "root-note")
        try Data().write(to: folder.appending("Package.swift"))
        let subfolder = folder.appending("App/Sub")
        try FileManager.default.createDirectory(at: subfolder, withIntermediateDirectories: true)
        let found = DevicePaths(root: DevicePaths.defaultRoot(from: subfolder))
        let note = try #require(DeviceRootNote.text(for: found, environment: [:], currentDirectory: subfolder))
        #expect(note.hasPrefix("Using device root \(folder.url.resolvingSymlinksInPath().path)/.device, the one of the package in"),
                "\(note)")
    }

    @Test("A root about to be made outside any package says so, and how to choose one")
    func rootMadeOutsideAPackageIsNamed() throws {
        let folder = try TemporaryDirectory(prefix: "root-note")
        let made = DevicePaths(root: folder.appending(".device"))
        let note = try #require(DeviceRootNote.text(for: made, environment: [:], currentDirectory: folder.url))
        #expect(note.hasPrefix("Making a new device root"), "\(note)")
        #expect(note.contains("set BA_DEVICE_ROOT"), "\(note)")
        // Once it exists, it is the folder's own device: nothing more to say.
        try FileManager.default.createDirectory(at: made.root, withIntermediateDirectories: true)
        #expect(DeviceRootNote.text(for: made, environment: [:], currentDirectory: folder.url) == nil)
    }
}
