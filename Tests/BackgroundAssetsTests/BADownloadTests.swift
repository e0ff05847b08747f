/*
Abstract:
Tests of downloads: Apple's raw values, identities, copies, and the wire form.
*/

@testable import BackgroundAssets
import BackgroundAssetsIPC
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

@Suite("Downloads")
struct BADownloadTests {
    static let group = "group.com.example.apple-samplecode.WWDC-Sessions"

    static func makeDownload(
        identifier: String = "wwdc2023-10108", essential: Bool = false, fileSize: Int = 4096,
        priority: BADownload.Priority = .default
    ) -> BAURLDownload {
        BAURLDownload(
            identifier: identifier, request: URLRequest(url: URL(string: "https://example.com/\(identifier).mov")!),
            essential: essential, fileSize: fileSize, applicationGroupIdentifier: group, priority: priority)
    }

    @Test("Download states keep Apple's raw values")
    func stateRawValues() {
        let expected: [BADownload.State: Int] = [.failed: -1, .created: 0, .waiting: 1, .downloading: 2, .finished: 3]
        for state in BADownload.State.allCases {
            #expect(state.rawValue == expected[state])
            #expect(state.wireState.rawValue == state.rawValue)
            #expect(BADownload.State(state.wireState) == state)
        }
        #expect(BADownload.State.allCases.count == DownloadDescriptor.State.allCases.count)
    }

    @Test("Priorities run from min to max around the default")
    func priorities() {
        #expect(BADownload.Priority.min.rawValue == -1000)
        #expect(BADownload.Priority.default.rawValue == 0)
        #expect(BADownload.Priority.max.rawValue == 1000)
        #expect(BADownload.Priority.min < .default && BADownload.Priority.default < .max)
        let custom: BADownloaderPriority = BADownload.Priority(rawValue: 250)
        #expect(custom == BADownload.Priority(250))
        #expect(custom > .default)
    }

    @Test("A new download is created, not yet scheduled, with the values it was given")
    func newDownload() {
        let download = Self.makeDownload(essential: true, fileSize: 1234, priority: .max)
        #expect(download.identifier == "wwdc2023-10108")
        #expect(download.state == .created)
        #expect(download.isEssential)
        #expect(download.priority == .max)
        #expect(download.fileSize == 1234)
        #expect(download.applicationGroupIdentifier == Self.group)
        #expect(download.request.url?.absoluteString == "https://example.com/wwdc2023-10108.mov")
        #expect(UUID(uuidString: download.uniqueIdentifier) != nil)
    }

    @Test("The size-known initialiser makes a non-essential download of default priority")
    func convenienceInitialiser() {
        let download = BAURLDownload(
            identifier: "a", request: URLRequest(url: URL(string: "https://example.com/a")!), fileSize: 10,
            applicationGroupIdentifier: Self.group)
        #expect(!download.isEssential)
        #expect(download.priority == .default)
        #expect(download.fileSize == 10)
    }

    @Test("Two downloads of the same asset are different download objects")
    func uniqueIdentifiers() {
        let first = Self.makeDownload()
        let second = Self.makeDownload()
        #expect(first.identifier == second.identifier)
        #expect(first.uniqueIdentifier != second.uniqueIdentifier)
        #expect(first != second)
        #expect(Set<BADownload>([first, second, first]).count == 2)
    }

    @Test("removingEssential() keeps the identifiers and the class and clears essential")
    func removingEssential() {
        let essential = Self.makeDownload(essential: true, priority: BADownload.Priority(42))
        let copy = essential.removingEssential()
        #expect(type(of: copy) == BAURLDownload.self)
        #expect(copy.identifier == essential.identifier)
        #expect(copy.uniqueIdentifier == essential.uniqueIdentifier)
        #expect(!copy.isEssential)
        #expect(essential.isEssential, "the original is left unchanged")
        #expect(copy.priority == essential.priority)
        #expect(copy.fileSize == essential.fileSize)
        #expect(copy.request.url == essential.request.url)
        #expect(copy == essential)
    }

    @Test("A download survives the trip to the service and back as the same class")
    func wireRoundTrip() {
        var request = URLRequest(url: URL(string: "https://example.com/protected/a.mov")!)
        request.setValue("Basic dXNlcjpwYXNz", forHTTPHeaderField: "Authorization")
        let download = BAURLDownload(
            identifier: "a", request: request, essential: true, fileSize: 99, applicationGroupIdentifier: Self.group,
            priority: .min)
        var descriptor = download.wireDescriptor
        #expect(descriptor.headers["Authorization"] == "Basic dXNlcjpwYXNz")
        descriptor.state = .downloading
        let snapshot = BADownload.make(from: descriptor)
        #expect(type(of: snapshot) == BAURLDownload.self)
        #expect(snapshot.state == .downloading)
        #expect(snapshot == download)
        #expect(
            (snapshot as? BAURLDownload)?.request.value(forHTTPHeaderField: "Authorization") == "Basic dXNlcjpwYXNz")
    }

    @Test("The manifest download is not a plain BAURLDownload, as the sample's filter expects")
    func manifestDownloadClass() {
        var descriptor = Self.makeDownload().wireDescriptor
        descriptor.kind = .manifest
        let manifest = BADownload.make(from: descriptor)
        #expect(manifest is BAURLDownload)
        #expect(type(of: manifest) != BAURLDownload.self)
        #expect(type(of: manifest.removingEssential()) == type(of: manifest))
        #expect(manifest.removingEssential().wireDescriptor.kind == .manifest)
    }

    @Test("Content requests and extension info keep Apple's values")
    func contentRequestsAndExtensionInfo() {
        #expect(BAContentRequest.install.rawValue == 1)
        #expect(BAContentRequest.update.rawValue == 2)
        #expect(BAContentRequest.periodic.rawValue == 3)
        let restricted = BAAppExtensionInfo(
            restrictedDownloadSizeRemaining: 1000, restrictedEssentialDownloadSizeRemaining: 500)
        #expect(restricted.restrictedDownloadSizeRemaining == 1000)
        #expect(restricted.restrictedEssentialDownloadSizeRemaining == 500)
        let launched = BAAppExtensionInfo(
            restrictedDownloadSizeRemaining: nil, restrictedEssentialDownloadSizeRemaining: nil)
        #expect(launched.restrictedDownloadSizeRemaining == nil)
        #expect(launched != restricted)
        #expect(launched.description.contains("unrestricted"))
    }
}
