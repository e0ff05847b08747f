/*
Abstract:
Tests of Background Assets errors: Apple's codes, bridging, matching, and the wire form.
*/

@testable import BackgroundAssets
import BackgroundAssetsIPC
import Foundation
import Testing

@Suite("Background Assets errors")
struct BAErrorTests {
    @Test("Error codes keep Apple's raw values")
    func rawValues() {
        let expected: [BAError.Code: Int] = [
            .downloadInvalid: 0, .callFromExtensionNotAllowed: 50, .callFromInactiveProcessNotAllowed: 51,
            .callerConnectionNotAccepted: 55, .callerConnectionInvalid: 56, .downloadAlreadyScheduled: 100,
            .downloadNotScheduled: 101, .downloadFailedToStart: 102, .downloadAlreadyFailed: 103,
            .downloadEssentialDownloadNotPermitted: 109, .downloadBackgroundActivityProhibited: 111,
            .downloadWouldExceedAllowance: 112, .downloadDoesNotExist: 113, .sessionDownloadDisallowedByDomain: 202,
            .sessionDownloadDisallowedByAllowance: 203, .sessionDownloadAllowanceExceeded: 204,
            .sessionDownloadNotPermittedBeforeAppLaunch: 206,
        ]
        #expect(BAError.Code.allCases.count == expected.count)
        for code in BAError.Code.allCases {
            #expect(code.rawValue == expected[code], "\(code)")
        }
    }

    @Test("Every code has its own advice, phrased as sentences")
    func defaultMessages() {
        let messages = BAError.Code.allCases.map(\.defaultMessage)
        #expect(Set(messages).count == messages.count)
        for message in messages {
            #expect(message.hasSuffix("."), "\(message)")
            #expect(message.split(separator: ".").count >= 2, "says what happened and what to do: \(message)")
        }
    }

    @Test("An error bridges to NSError with BAErrorDomain and Apple's code")
    func bridging() {
        let error = BAError(.downloadNotScheduled, message: "The download \"a\" is not scheduled.")
        let bridged = error as NSError
        #expect(BAErrorDomain == "BAErrorDomain")
        #expect(bridged.domain == BAErrorDomain)
        #expect(bridged.code == 101)
        #expect(bridged.localizedDescription == "The download \"a\" is not scheduled.")
        #expect(error.description == error.message)
        #expect(BAError(.downloadInvalid).message == BAError.Code.downloadInvalid.defaultMessage)
    }

    @Test("A catch clause can match an error code, as on Apple platforms")
    func catchByCode() {
        func cancel() throws { throw BAError(.downloadNotScheduled) }
        var matched = false
        do {
            try cancel()
        } catch BAError.downloadAlreadyScheduled {
            Issue.record("matched the wrong code")
        } catch BAError.downloadNotScheduled {
            matched = true
        } catch {
            Issue.record("did not match: \(error)")
        }
        #expect(matched)
        #expect(!(BAError.downloadNotScheduled ~= URLError(.timedOut)))
    }

    @Test("Errors cross the wire with their code and message")
    func wireRoundTrip() throws {
        for code in BAError.Code.allCases {
            let error = BAError(code, message: "message for \(code)")
            let rebuilt = try #require(error.wireFailure.makeError() as? BAError)
            #expect(rebuilt == error)
        }
    }

    @Test("Transport and unknown errors cross the wire as URLError and NSError")
    func otherDomains() throws {
        let timeout = WireFailure(domain: WireFailure.urlDomain, code: URLError.timedOut.rawValue, message: "timed out")
        let urlError = try #require(timeout.makeError() as? URLError)
        #expect(urlError.code == .timedOut)
        let posix = WireFailure(domain: "NSPOSIXErrorDomain", code: 28, message: "No space left on device")
        let nsError = posix.makeError() as NSError
        #expect(nsError.domain == "NSPOSIXErrorDomain" && nsError.code == 28)
        #expect(nsError.localizedDescription == "No space left on device")
        #expect(BAError(WireFailure.backgroundAssets(code: 9999, message: "unknown")) == nil)
    }
}
