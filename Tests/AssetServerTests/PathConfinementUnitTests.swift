/*
Abstract:
Unit tests for request path decoding and for confining files to the catalog folder, symlinks included.
*/

@testable import AssetServer
import Foundation
import Testing

struct PathConfinementUnitTests {
    @Test("Targets are percent-decoded, and queries and fragments dropped")
    func decoding() throws {
        #expect(try RequestPath.decode("/sessions/a%20b.mp4?x=../../etc") == "/sessions/a b.mp4")
        #expect(try RequestPath.decode("/manifest.json#top") == "/manifest.json")
        #expect(try RequestPath.decode("http://host:80/manifest.json") == "/manifest.json")
        #expect(try RequestPath.decode("http://host") == "/")
        #expect(try RequestPath.decode("HTTPS://host/a.mp4?x") == "/a.mp4")
        #expect(try RequestPath.decode("/caf%C3%A9.mp4") == "/café.mp4")
    }

    @Test("Paths are normalised so one file has one spelling")
    func normalisation() throws {
        #expect(try RequestPath.decode("//protected/a.mp4") == "/protected/a.mp4")
        #expect(try RequestPath.decode("/./protected/./a.mp4") == "/protected/a.mp4")
        #expect(try RequestPath.decode("/%70rotected%2Fa.mp4") == "/protected/a.mp4")
        #expect(try RequestPath.decode("/sessions/") == "/sessions/")
        #expect(try RequestPath.decode("/") == "/")
        #expect(try RequestPath.decode("//") == "/")
        #expect(try RequestPath.decode("/./") == "/")
        #expect(try RequestPath.decode("/a//b/./") == "/a/b/")
        #expect(try RequestPath.decode("/a/.") == "/a")
        #expect(try RequestPath.decode("/a/.b/..c") == "/a/.b/..c")
    }

    @Test("Each refusal names its reason, invalid UTF-8 before a `..` segment")
    func refusalReasons() {
        #expect(throws: RequestPath.Failure.notOriginForm) { try RequestPath.decode("a.mp4") }
        #expect(throws: RequestPath.Failure.badPercentEncoding) { try RequestPath.decode("/a%2") }
        #expect(throws: RequestPath.Failure.forbiddenCharacter) { try RequestPath.decode("/a%00b") }
        #expect(throws: RequestPath.Failure.dotDotSegment) { try RequestPath.decode("/a/%2E./b") }
        #expect(throws: RequestPath.Failure.notUTF8) { try RequestPath.decode("/%ff/../b") }
    }

    @Test("Traversal, NUL, backslashes and bad escapes are refused", arguments: [
        "/../etc/passwd", "/%2e%2e/etc/passwd", "/%2E%2E%2Fetc", "/sessions/..%2f..%2fetc/passwd", "/a/%00",
        "/a\\b", "/a%5cb", "/%zz", "/%4", "*", "example.com:443", "/%ff%fe",
    ])
    func refused(target: String) {
        #expect(throws: RequestPath.Failure.self) { try RequestPath.decode(target) }
    }

    @Test("Files inside the catalog resolve; directories, missing files and symlinks out are refused")
    func confinement() throws {
        let root = FileManager.default.temporaryDirectory.appending(path: "asset-server-unit-\(UUID().uuidString)")
        let outside = root.appending(path: "outside")
        let catalog = root.appending(path: "catalog")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: catalog.appending(path: "sessions"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try Data("hello".utf8).write(to: catalog.appending(path: "sessions/a.mp4"))
        try Data("secret".utf8).write(to: outside.appending(path: "secret.txt"))
        try FileManager.default.createSymbolicLink(atPath: catalog.appending(path: "escape").path,
                                                   withDestinationPath: outside.path)
        try FileManager.default.createSymbolicLink(atPath: catalog.appending(path: "alias.mp4").path,
                                                   withDestinationPath: "sessions/a.mp4")

        let resolver = try CatalogFileResolver(root: catalog)
        let file = try resolver.openFile("/sessions/a.mp4")
        #expect(file.size == 5)
        #expect(try resolver.openFile("/alias.mp4").size == 5)
        #expect(resolver.realRelativePath(of: try resolver.openFile("/alias.mp4")) == "/sessions/a.mp4")
        #expect(throws: CatalogFileResolver.Failure.forbidden) { _ = try resolver.openFile("/escape/secret.txt") }
        #expect(throws: CatalogFileResolver.Failure.notFound) { _ = try resolver.openFile("/sessions") }
        #expect(throws: CatalogFileResolver.Failure.notFound) { _ = try resolver.openFile("/sessions/") }
        #expect(throws: CatalogFileResolver.Failure.notFound) { _ = try resolver.openFile("/missing.mp4") }
    }

    @Test("Symlinks the kernel cannot judge alone are resolved in full: absolute ones in, `..` ones out")
    func symlinksResolvedInFull() throws {
        let root = FileManager.default.temporaryDirectory.appending(path: "asset-server-unit-\(UUID().uuidString)")
        let catalog = root.appending(path: "catalog")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: catalog.appending(path: "sessions"), withIntermediateDirectories: true)
        try Data("hello".utf8).write(to: catalog.appending(path: "sessions/a.mp4"))
        try Data("secret".utf8).write(to: root.appending(path: "secret.txt"))
        let links = [
            ("absolute-in.mp4", catalog.appending(path: "sessions/a.mp4").path),
            ("absolute-out.txt", root.appending(path: "secret.txt").path),
            ("sessions/up-and-in.mp4", "../sessions/a.mp4"),
            ("sessions/up-and-out.txt", "../../secret.txt"),
        ]
        for (name, destination) in links {
            try FileManager.default.createSymbolicLink(atPath: catalog.appending(path: name).path,
                                                       withDestinationPath: destination)
        }

        let resolver = try CatalogFileResolver(root: catalog)
        #expect(try resolver.openFile("/absolute-in.mp4").size == 5)
        #expect(resolver.realRelativePath(of: try resolver.openFile("/absolute-in.mp4")) == "/sessions/a.mp4")
        #expect(try resolver.openFile("/sessions/up-and-in.mp4").size == 5)
        #expect(throws: CatalogFileResolver.Failure.forbidden) { _ = try resolver.openFile("/absolute-out.txt") }
        #expect(throws: CatalogFileResolver.Failure.forbidden) { _ = try resolver.openFile("/sessions/up-and-out.txt") }
    }

    @Test("Media types come from the extension")
    func contentTypes() {
        #expect(ContentType.forPath("/sessions/a.MP4") == "video/mp4")
        #expect(ContentType.forPath("/manifest.json") == "application/json")
        #expect(ContentType.forPath("/README") == "application/octet-stream")
        #expect(ContentType.forPath("/.hidden") == "application/octet-stream")
    }

    @Test("The entity tag is size, modification time in nanoseconds and inode, in lowercase hex")
    func entityTagFromStatus() {
        var status = stat()
        status.st_size = 0x1_0000
        status.st_mtim = timespec(tv_sec: 1_700_000_000, tv_nsec: 123_456_789)
        status.st_ino = 0xABCDEF
        let nanoseconds = UInt64(1_700_000_000) * 1_000_000_000 + 123_456_789
        let validators = CatalogFileResolver.validators(of: status)
        #expect(validators.entityTag.opaque == "10000-\(String(nanoseconds, radix: 16))-abcdef")
        #expect(validators.lastModified == 1_700_000_000)
        status.st_size = 0
        status.st_mtim = timespec(tv_sec: 0, tv_nsec: 0)
        status.st_ino = .max
        #expect(CatalogFileResolver.validators(of: status).entityTag.opaque == "0-0-ffffffffffffffff")
    }
}
