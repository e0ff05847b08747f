/*
Abstract:
Tests that files of the device root are opened, read, restricted and replaced without following a symbolic link.
*/

import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

@Suite("Link-refusing files")
struct LinkRefusingFileTests {
    /// A folder with `target` (mode 0644, one line) and `link` pointing to it.
    struct Fixture {
        let folder: TemporaryDirectory
        let target: URL
        let link: URL

        init() throws {
            folder = try TemporaryDirectory()
            target = folder.appending("target")
            link = folder.appending("link")
            try Data("someone else's\n".utf8).write(to: target)
            chmod(target.path, 0o644)
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        }

        var targetIsUntouched: Bool {
            var status = stat()
            return (try? String(contentsOf: target, encoding: .utf8)) == "someone else's\n"
                && stat(target.path, &status) == 0 && status.st_mode & 0o7777 == 0o644
        }
    }

    @Test("Opening, reading or restricting a link is refused, naming the link and its target")
    func refusesLinks() throws {
        let fixture = try Fixture()
        defer { fixture.folder.remove() }
        #expect { try LinkRefusingFile.open(fixture.link, flags: O_WRONLY | O_APPEND | O_CREAT) } throws: { error in
            (error as? LinkRefusingFile.Failure)?.linkTarget == fixture.target.path
        }
        #expect { try LinkRefusingFile.read(fixture.link, limit: 1024) } throws: { error in
            "\(error)".contains("\(fixture.link.path) cannot be used: it is a symbolic link (to \(fixture.target.path))")
        }
        #expect(LinkRefusingFile.restrictMode(fixture.link, to: 0o600)?.isLink == true)
        #expect(fixture.targetIsUntouched)

        // A dangling link is not a way to create a file either.
        let dangling = fixture.folder.appending("dangling")
        let missing = fixture.folder.appending("missing")
        try FileManager.default.createSymbolicLink(at: dangling, withDestinationURL: missing)
        #expect(throws: LinkRefusingFile.Failure.self) { try LinkRefusingFile.open(dangling, flags: O_WRONLY | O_CREAT) }
        #expect(!FileManager.default.fileExists(atPath: missing.path))
    }

    @Test("A real file is read and restricted; a missing one reads as nothing")
    func realFiles() throws {
        let fixture = try Fixture()
        defer { fixture.folder.remove() }
        #expect(try LinkRefusingFile.read(fixture.target, limit: 1024) == Data("someone else's\n".utf8))
        #expect(try LinkRefusingFile.read(fixture.folder.appending("absent"), limit: 1024) == nil)
        #expect(throws: LinkRefusingFile.Failure.self) { try LinkRefusingFile.read(fixture.target, limit: 4) }
        #expect(LinkRefusingFile.restrictMode(fixture.target, to: 0o600) == nil)
        var status = stat()
        #expect(stat(fixture.target.path, &status) == 0 && status.st_mode & 0o7777 == 0o600)
    }

    @Test("A whole-file write replaces a link at its name, and refuses a linked folder in the device root")
    func atomicWrites() throws {
        let fixture = try Fixture()
        defer { fixture.folder.remove() }
        #expect(AtomicFileWriter.write(Data("mine\n".utf8), to: fixture.link, followingFolderLink: false) == nil)
        #expect(LinkRefusingFile.linkTarget(atPath: fixture.link.path) == nil, "the link itself was replaced")
        #expect(fixture.targetIsUntouched)

        let elsewhere = fixture.folder.appending("elsewhere")
        let linkedFolder = fixture.folder.appending("linked-folder")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: linkedFolder, withDestinationURL: elsewhere)
        let refused = AtomicFileWriter.write(Data("x".utf8), to: linkedFolder.appending(path: "app.json"), followingFolderLink: false)
        #expect(refused?.contains("is a symbolic link") == true, "\(refused ?? "written")")
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).isEmpty)
        // A tool's output folder may be a link.
        #expect(AtomicFileWriter.write(Data("x".utf8), to: linkedFolder.appending(path: "out.json")) == nil)
    }
}

@Suite("Link-refusing folders")
struct LinkRefusingFolderTests {
    /// The inode of an open descriptor, to tell which folder was opened.
    private func inode(of descriptor: Int32) -> ino_t {
        var status = stat()
        return fstat(descriptor, &status) == 0 ? status.st_ino : 0
    }

    private func inode(at url: URL) -> ino_t {
        var status = stat()
        return stat(url.path, &status) == 0 ? status.st_ino : 0
    }

    @Test("A folder is opened however it is spelled below the root, and one outside the root is refused")
    func spellings() throws {
        let temporary = try TemporaryDirectory()
        let root = temporary.appending("root")
        let folder = root.appending(path: "a/b", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let spellings = [
            folder, URL(fileURLWithPath: folder.path + "/"), URL(fileURLWithPath: root.path + "/a/./c/../b"),
            URL(fileURLWithPath: root.path + "//a/b"),
        ]
        for spelling in spellings {
            let descriptor = try LinkRefusingFolder.open(spelling, under: root, creating: false)
            defer { close(descriptor) }
            #expect(inode(of: descriptor) == inode(at: folder), "\(spelling.path)")
        }
        let created = try LinkRefusingFolder.open(root.appending(path: "new/folder"), under: root, creating: true)
        close(created)
        #expect(FileManager.default.fileExists(atPath: root.path + "/new/folder"))

        for outside in [URL(fileURLWithPath: root.path + "/../elsewhere"), temporary.url, URL(fileURLWithPath: root.path + "-sibling/a")] {
            #expect(throws: LinkRefusingFile.Failure.self, "\(outside.path)") {
                close(try LinkRefusingFolder.open(outside, under: root, creating: true))
            }
        }
        #expect(!FileManager.default.fileExists(atPath: temporary.url.path + "/elsewhere"))
        #expect(!FileManager.default.fileExists(atPath: root.path + "-sibling"))
    }

    @Test("A link at any component below the root is refused, plainly spelled or not")
    func linksRefused() throws {
        let temporary = try TemporaryDirectory()
        let root = temporary.appending("root")
        let elsewhere = temporary.appending("elsewhere")
        try FileManager.default.createDirectory(at: root.appending(path: "a"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: elsewhere.appending(path: "b"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: root.appending(path: "a/link"), withDestinationURL: elsewhere)
        for spelling in [root.appending(path: "a/link/b"), URL(fileURLWithPath: root.path + "/a/./link/b")] {
            #expect(throws: LinkRefusingFile.Failure.self, "\(spelling.path)") {
                close(try LinkRefusingFolder.open(spelling, under: root, creating: true))
            }
        }
    }
}
