/*
Abstract:
Tests for the pre-first-launch allowance accounting and the BAError code each refusal carries.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Testing

@Suite("Download allowance")
struct DownloadAllowanceTests {
    static let restrictions = InitialDownloadRestrictions(
        downloadAllowance: 100, essentialDownloadAllowance: 30,
        domainAllowList: try! DomainAllowList(["cdn.example.com", "*.example.org"])
    )

    static func request(
        _ identifier: String, size: Int, essential: Bool = false,
        url: String = "https://cdn.example.com/file", inAppContent: Bool = true
    ) -> DownloadAllowance.Request {
        DownloadAllowance.Request(
            identifier: identifier, url: URL(string: url)!, fileSize: size, isEssential: essential,
            inAppContentEnabled: inAppContent
        )
    }

    static func code(_ body: () throws -> Void) -> BAError.Code? {
        do {
            try body()
            return nil
        } catch {
            return (error as? BAError)?.code
        }
    }

    @Test("Accepted downloads use up their own pool, and the extension sees what remains")
    func accounting() throws {
        var allowance = DownloadAllowance(restrictions: Self.restrictions)
        #expect(allowance.extensionInfo.restrictedDownloadSizeRemaining == 100)
        #expect(allowance.extensionInfo.restrictedEssentialDownloadSizeRemaining == 30)
        try allowance.admit(Self.request("essential-1", size: 20, essential: true))
        try allowance.admit(Self.request("later-1", size: 60))
        try allowance.admit(Self.request("later-2", size: 40, url: "https://a.b.example.org/x"))
        #expect(allowance.downloadRemaining == 0)
        #expect(allowance.essentialRemaining == 10)
        #expect(allowance.extensionInfo.restrictedDownloadSizeRemaining == 0)
        #expect(allowance.extensionInfo.restrictedEssentialDownloadSizeRemaining == 10)
    }

    @Test("A download larger than what remains throws downloadWouldExceedAllowance and takes nothing")
    func wouldExceed() {
        var allowance = DownloadAllowance(restrictions: Self.restrictions)
        #expect(Self.code { try allowance.admit(Self.request("big", size: 101)) } == .downloadWouldExceedAllowance)
        #expect(
            Self.code { try allowance.admit(Self.request("e", size: 31, essential: true)) }
                == .downloadWouldExceedAllowance)
        #expect(Self.code { try allowance.admit(Self.request("huge", size: Int.max)) } == .downloadWouldExceedAllowance)
        #expect(allowance.downloadRemaining == 100)
        #expect(allowance.essentialRemaining == 30)
        do {
            try allowance.admit(Self.request("big", size: 101))
        } catch {
            #expect("\(error)".contains("BADownloadAllowance"))
            #expect("\(error)".contains("\"big\""))
        }
    }

    @Test("Each refusal carries the BAError code Docs describe")
    func refusalCodes() {
        var allowance = DownloadAllowance(restrictions: Self.restrictions)
        let outside = Self.request("outside", size: 1, url: "https://example.org/x")
        #expect(Self.code { try allowance.admit(outside) } == .sessionDownloadDisallowedByDomain)
        #expect(
            Self.code { try allowance.admit(Self.request("sizeless", size: 0)) }
                == .sessionDownloadDisallowedByAllowance)
        let off = Self.request("off", size: 1, inAppContent: false)
        #expect(Self.code { try allowance.admit(off) } == .sessionDownloadNotPermittedBeforeAppLaunch)
        #expect(
            Self.code { try allowance.checkHost("redirect.evil.net", identifier: "x") }
                == .sessionDownloadDisallowedByDomain)
        #expect(allowance.downloadRemaining == 100)
    }

    @Test("A server sending more than declared fails once the excess no longer fits the pool")
    func transferOverrun() throws {
        var allowance = DownloadAllowance(restrictions: Self.restrictions)
        let request = Self.request("a", size: 50)
        try allowance.admit(request)
        #expect(Self.code { try allowance.checkTransfer(request, receivedBytes: 100) } == nil)
        #expect(
            Self.code { try allowance.checkTransfer(request, receivedBytes: 101) } == .sessionDownloadAllowanceExceeded)
        #expect(
            Self.code { try allowance.checkTransfer(request, receivedBytes: Int.max) }
                == .sessionDownloadAllowanceExceeded)
        #expect(Self.code { try allowance.checkTransfer(request, receivedBytes: Int.min) } == nil)
        allowance.settle(request, actualBytes: 70)
        #expect(allowance.downloadRemaining == 30)
        allowance.settle(request, actualBytes: 0)
        #expect(allowance.downloadRemaining == 80)
    }

    @Test("Refunds and settlements never leave a pool below zero or above the Info.plist's value")
    func bounds() throws {
        var allowance = DownloadAllowance(restrictions: Self.restrictions)
        let request = Self.request("a", size: 10, essential: true)
        try allowance.admit(request)
        allowance.refund(request)
        allowance.refund(request)
        #expect(allowance.essentialRemaining == 30)
        allowance.settle(request, actualBytes: Int.max)
        #expect(allowance.essentialRemaining == 0)
    }

    @Test("After the first launch nothing is restricted and the extension sees nil")
    func liftedAfterLaunch() throws {
        var allowance = DownloadAllowance(restrictions: Self.restrictions)
        allowance.lift()
        #expect(allowance.isLifted)
        #expect(allowance.extensionInfo.restrictedDownloadSizeRemaining == nil)
        #expect(allowance.extensionInfo.restrictedEssentialDownloadSizeRemaining == nil)
        try allowance.admit(Self.request("big", size: 1 << 40, url: "https://anywhere.net/x"))
        try allowance.admit(Self.request("sizeless", size: 0, inAppContent: false))
        try allowance.checkTransfer(Self.request("big", size: 1), receivedBytes: 1 << 40)
        let updated = DownloadAllowance(restrictions: Self.restrictions, hasLaunched: true)
        #expect(updated.isLifted)
    }
}
