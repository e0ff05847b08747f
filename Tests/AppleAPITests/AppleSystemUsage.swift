/*
Abstract:
`import System` as Apple code writes it: FilePath values built, taken apart and given to AssetPackManager.
*/

import BackgroundAssets
import Foundation
import System
import Testing

@Suite("System's FilePath, as Apple declares it")
struct AppleSystemUsageTests {
    @Test("A path is normalised when made, and compares, hashes and encodes as its string")
    func pathValues() throws {
        let path = FilePath("Videos//Introduction.m4v/")
        #expect(path == "Videos/Introduction.m4v" && path.string == "Videos/Introduction.m4v")
        #expect(path.description == "Videos/Introduction.m4v" && String(decoding: path) == path.string)
        #expect(Set([path, FilePath("Videos/Introduction.m4v")]).count == 1)
        #expect(FilePath("/").string == "/" && FilePath("/").isAbsolute && FilePath("/").lastComponent == nil)
        let encoded = try JSONEncoder().encode(["path": path])
        #expect(String(decoding: encoded, as: UTF8.self) == #"{"path":"Videos\/Introduction.m4v"}"#)
        #expect(try JSONDecoder().decode([String: FilePath].self, from: encoded)["path"] == path)
    }

    @Test("Components, the last one's stem and extension, appending and removing, as swift-system does")
    func components() {
        var slides: FilePath = "/tmp/Slides"
        slides.append("wwdc2023-10108.pdf")
        #expect(slides == "/tmp/Slides/wwdc2023-10108.pdf")
        #expect(slides.lastComponent?.string == "wwdc2023-10108.pdf")
        #expect(slides.stem == "wwdc2023-10108" && slides.extension == "pdf")
        #expect(slides.components.map(\.string) == ["tmp", "Slides", "wwdc2023-10108.pdf"])
        #expect(slides.removingLastComponent() == "/tmp/Slides" && slides.root?.string == "/")
        #expect(FilePath("Slides").appending("intro.pdf") == "Slides/intro.pdf")
        #expect(FilePath("/").appending("tmp") == "/tmp" && FilePath("").appending("tmp") == "tmp")
        let transcript: FilePath.Component = "Transcript.txt"
        #expect(FilePath("Transcripts").appending(transcript) == "Transcripts/Transcript.txt")
        let hidden = ".profile", nested = "a/b", parent = ".."
        #expect(FilePath.Component(hidden)?.extension == nil && FilePath.Component(nested) == nil)
        #expect(FilePath.Component(parent)?.kind == .parentDirectory)
        #expect(FilePath("a/./b/../c").lexicallyNormalized() == "a/c")
        #expect(FilePath("/a/b").starts(with: "/a") && !FilePath("a/b").starts(with: "/a"))
        var edited: FilePath = "/a/b/c"
        edited.components.removeFirst()
        #expect(edited == "/b/c")
        #expect(edited.pushing("/x") == "/x" && edited.pushing("y") == "/b/c/y")
    }

    @Test("FilePath values built at run time go to AssetPackManager, and FileDescriptor's close throws Errno")
    func pathsToAssetPackManager() throws {
        let folder = FilePath("Slides")
        // This test process is no installed app, so the manager refuses before it looks for the file;
        // what matters here is that Apple's calls with FilePath values compile and fail as errors.
        #expect(throws: (any Error).self) { try AssetPackManager.shared.url(for: folder.appending("intro.pdf")) }
        #expect(throws: (any Error).self) {
            try AssetPackManager.shared.contents(at: folder.appending("intro.pdf"), searchingInAssetPackWithID: "Slides")
        }
        #expect(FileDescriptor(rawValue: -1).rawValue == -1)
        #expect(throws: Errno.badFileDescriptor) { try FileDescriptor(rawValue: -1).close() }
        #expect(Errno.badFileDescriptor.description == "Bad file descriptor")
    }
}
