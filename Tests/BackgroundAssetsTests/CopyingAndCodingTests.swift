/*
Abstract:
Tests of the NSObject conformances Apple lists: copying and secure coding of downloads and extension info.
*/

@testable import BackgroundAssets
import BackgroundAssetsIPC
import Foundation
import Testing

@Suite("Copying and secure coding")
struct CopyingAndCodingTests {
    @Test("copy() returns an equal download of the same class, with the same request")
    func copyKeepsClassAndRequest() throws {
        let download = BADownloadTests.makeDownload(essential: true, priority: .max)
        let copy = try #require(download.copy() as? BAURLDownload)
        #expect(copy !== download)
        #expect(copy == download)
        #expect(copy.request.url == download.request.url)
        #expect(copy.wireDescriptor == download.wireDescriptor)

        let manifest = BADownload.make(from: download.wireDescriptor.withKind(.manifest))
        #expect(type(of: manifest.copy() as AnyObject) == BAManifestDownload.self)
    }

    @Test("A download survives NSKeyedArchiver and back, as the same class and state")
    func archiveRoundTrip() throws {
        var descriptor = BADownloadTests.makeDownload().wireDescriptor
        descriptor.state = .downloading
        let download = BADownload.make(from: descriptor)
        let data = try NSKeyedArchiver.archivedData(withRootObject: download, requiringSecureCoding: true)
        let restored = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: BAURLDownload.self, from: data))
        #expect(restored.wireDescriptor == descriptor)
        #expect(restored.state == .downloading)
    }

    @Test("An archive that holds no download decodes to nil rather than a broken download")
    func archiveWithoutDescriptor() throws {
        let coder = NSKeyedArchiver(requiringSecureCoding: true)
        coder.encode("not a download", forKey: "something")
        coder.finishEncoding()
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: coder.encodedData)
        #expect(BAURLDownload(coder: unarchiver) == nil)
    }

    @Test("Extension info survives NSKeyedArchiver and back, restricted and lifted alike")
    func extensionInfoRoundTrip() throws {
        for info in [
            BAAppExtensionInfo(restrictedDownloadSizeRemaining: 1_000, restrictedEssentialDownloadSizeRemaining: 0),
            BAAppExtensionInfo(restrictedDownloadSizeRemaining: nil, restrictedEssentialDownloadSizeRemaining: nil),
        ] {
            let data = try NSKeyedArchiver.archivedData(withRootObject: info, requiringSecureCoding: true)
            let restored = try #require(
                try NSKeyedUnarchiver.unarchivedObject(ofClass: BAAppExtensionInfo.self, from: data))
            #expect(restored == info)
            #expect(restored.restrictedDownloadSizeRemaining == info.restrictedDownloadSizeRemaining)
        }
    }

    @Test("The download manager is an NSObject, as Apple's is")
    func managerIsNSObject() {
        let manager: NSObject = BADownloadManager.shared
        #expect(manager.isEqual(BADownloadManager.shared))
    }
}

extension DownloadDescriptor {
    fileprivate func withKind(_ kind: Kind) -> DownloadDescriptor {
        var copy = self
        copy.kind = kind
        return copy
    }
}
