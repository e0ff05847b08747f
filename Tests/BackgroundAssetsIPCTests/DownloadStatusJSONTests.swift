/*
Abstract:
Tests that downloads and their statuses, written by hand without a tree, are the bytes the Codable path writes.
*/

import BackgroundAssetsIPC
import Foundation
import TestSupport
import Testing

@Suite("Downloads written without a tree")
struct DownloadStatusJSONTests {
    /// A status with every field set, optionals included, and text that needs escaping.
    static func fullStatus(text: String = "quote \" backslash \\ slash / line\nbreak é") -> DownloadStatus {
        var descriptor = SampleMessages.descriptor(identifier: text)
        descriptor.headers = [text: text, "b": "2", "B": "3", "a": "1", "é": "4"]
        return DownloadStatus(
            bundleIdentifier: "com.example.sessions", download: descriptor, isForeground: true,
            bytesWritten: 1_048_576, bytesExpected: 4_194_304, attempts: 3,
            lastError: WireFailure(domain: "NSURLErrorDomain", code: -1004, message: text),
            nextAttemptAt: Date(timeIntervalSince1970: 1_764_151_234.567), waitsUntilReachable: true)
    }

    /// A status with every optional absent.
    static let bareStatus = DownloadStatus(
        bundleIdentifier: "com.example.sessions",
        download: DownloadDescriptor(identifier: "a", uniqueIdentifier: "b", url: "http://127.0.0.1/a", applicationGroupIdentifier: "g"),
        isForeground: false, bytesWritten: 0, bytesExpected: nil, attempts: 0, lastError: nil, nextAttemptAt: nil)

    @Test("The full sample sets every field, so a field added later and not written by hand fails here")
    func sampleSetsEveryField() {
        for value in [Mirror(reflecting: Self.fullStatus()), Mirror(reflecting: Self.fullStatus().download)] {
            for child in value.children {
                let isAbsent = Mirror(reflecting: child.value).displayStyle == .optional
                    && Mirror(reflecting: child.value).children.isEmpty
                #expect(!isAbsent, "\(child.label ?? "?") is nil in the sample; set it so the hand-written JSON is checked for it")
            }
        }
    }

    @Test("A status, alone, in a status answer and in a page, is Foundation's bytes", arguments: SampleMessages.hostileStrings)
    func statusMatchesFoundation(hostile: RawText) throws {
        for status in [Self.fullStatus(text: hostile.text), Self.bareStatus] {
            #expect(try MessageCodec.encode(status) == (try WireJSONTests.foundationJSON(status)))
            #expect(try MessageCodec.encode(status.download) == (try WireJSONTests.foundationJSON(status.download)))
            let page = ServerMessage.response(
                id: 7, response: .downloadStatuses(DownloadStatusPage(downloads: [status, status], moreAfter: 12)))
            #expect(try MessageCodec.encode(page) == (try WireJSONTests.foundationJSON(page)))
            #expect(try MessageCodec.decode(ServerMessage.self, from: MessageCodec.encode(page)) == page)
            let current = ServerMessage.response(id: 8, response: .downloads([status.download]))
            #expect(try MessageCodec.encode(current) == (try WireJSONTests.foundationJSON(current)))
        }
    }

    @Test("Dates and numbers at their edges are written as Foundation writes them")
    func edgesMatchFoundation() throws {
        var status = Self.fullStatus()
        for seconds in [0, -1.5, 0.1, 1e-7, 1e21, 253_402_300_799] {
            status.nextAttemptAt = Date(timeIntervalSince1970: seconds)
            status.bytesWritten = Int64.max
            status.attempts = Int.min
            status.download.priority = -1000
            #expect(try MessageCodec.encode(status) == (try WireJSONTests.foundationJSON(status)), "\(seconds)")
        }
    }
}
