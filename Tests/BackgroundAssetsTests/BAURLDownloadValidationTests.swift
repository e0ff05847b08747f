/*
Abstract:
Tests of download validation: invalid input is an error with a message, never a trap.
*/

@testable import BackgroundAssets
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

@Suite("Download validation")
struct BAURLDownloadValidationTests {
    static func download(
        url: String = "https://cdn.example.com/a.mov", identifier: String = "a", essential: Bool = false,
        fileSize: Int = 100, group: String = "group.com.example.sessions", priority: Int = 0
    ) -> BAURLDownload {
        BAURLDownload(
            identifier: identifier, request: URLRequest(url: URL(string: url)!), essential: essential,
            fileSize: fileSize, applicationGroupIdentifier: group, priority: BADownload.Priority(priority))
    }

    /// The error `validate()` throws, checked to be `downloadInvalid`.
    static func invalidity(of download: BAURLDownload) -> BAError? {
        do {
            try download.validate()
            return nil
        } catch let error as BAError {
            #expect(error.code == .downloadInvalid)
            return error
        } catch {
            Issue.record("validate() threw \(error), not a BAError")
            return nil
        }
    }

    @Test("An https download is valid, and so is http on a loopback host")
    func validDownloads() throws {
        try Self.download().validate()
        try Self.download(url: "http://localhost:8080/a.mov").validate()
        try Self.download(url: "http://127.0.0.1:8080/a.mov").validate()
        try Self.download(url: "http://[::1]:8080/a.mov").validate()
        try Self.download(essential: true, fileSize: 1).validate()
        try Self.download(priority: 1000).validate()
    }

    @Test("An http download from another host is refused with a message naming the URL")
    func httpRefused() {
        let error = Self.invalidity(of: Self.download(url: "http://cdn.example.com/a.mov"))
        #expect(error?.message.contains("http://cdn.example.com/a.mov") == true)
        #expect(error?.message.contains("https") == true)
    }

    @Test("Other schemes are refused")
    func otherSchemesRefused() {
        #expect(Self.invalidity(of: Self.download(url: "ftp://cdn.example.com/a.mov"))?.message.contains("ftp") == true)
        #expect(Self.invalidity(of: Self.download(url: "file:///etc/passwd")) != nil)
    }

    @Test("An empty identifier is refused")
    func emptyIdentifier() {
        #expect(Self.invalidity(of: Self.download(identifier: ""))?.message.contains("identifier is empty") == true)
    }

    @Test("An essential download without a size is refused with advice")
    func essentialWithoutSize() {
        let error = Self.invalidity(of: Self.download(identifier: "keynote", essential: true, fileSize: 0))
        #expect(error?.message.contains("\"keynote\"") == true)
        #expect(error?.message.contains("fileSize") == true)
        #expect(Self.invalidity(of: Self.download(essential: true, fileSize: -5)) != nil)
    }

    @Test("A non-essential download may leave its size unknown but not negative")
    func nonEssentialSizes() throws {
        try Self.download(fileSize: 0).validate()
        #expect(Self.invalidity(of: Self.download(fileSize: -1))?.message.contains("-1") == true)
    }

    @Test("An app group that could escape the containers folder is refused")
    func hostileAppGroup() {
        #expect(Self.invalidity(of: Self.download(group: "../../etc"))?.message.contains("../../etc") == true)
        #expect(Self.invalidity(of: Self.download(group: "")) != nil)
    }

    @Test("A priority outside min...max is refused")
    func priorityRange() {
        #expect(Self.invalidity(of: Self.download(priority: 1001))?.message.contains("1001") == true)
        #expect(Self.invalidity(of: Self.download(priority: -1001)) != nil)
    }

    @Test("A hostile identifier is refused with a short message")
    func hostileIdentifiers() {
        let long = String(repeating: "x", count: 4096)
        let error = Self.invalidity(of: Self.download(identifier: long))
        #expect(error != nil)
        #expect((error?.message.count ?? .max) < 400, "the message quotes a prefix, not 4 KB")
        #expect(Self.invalidity(of: Self.download(identifier: "a\0b")) != nil)
    }
}
