/*
Abstract:
Tests of the deprecated size-less initialisers, which still work for older code.
*/

@testable import BackgroundAssets
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

@Suite("Deprecated initialisers")
struct BAURLDownloadDeprecatedTests {
    @Test("A download made without a size has size 0 and is not essential")
    func sizeLessInitialisers() throws {
        let request = URLRequest(url: URL(string: "https://example.com/a.mov")!)
        let plain = DeprecatedInitialisers.make(request: request, priority: nil)
        let prioritized = DeprecatedInitialisers.make(request: request, priority: .max)
        #expect(plain.fileSize == 0 && prioritized.fileSize == 0)
        #expect(!plain.isEssential && !prioritized.isEssential)
        #expect(plain.priority == .default)
        #expect(prioritized.priority == .max)
        try plain.validate()
    }
}

/// Calls the deprecated initialisers from a context that is itself deprecated, so the build stays warning-free.
private enum DeprecatedInitialisers {
    static func make(request: URLRequest, priority: BADownload.Priority?) -> BAURLDownload {
        (Calls() as DeprecatedCalling).make(request: request, priority: priority)
    }
}

private protocol DeprecatedCalling {
    func make(request: URLRequest, priority: BADownload.Priority?) -> BAURLDownload
}

private struct Calls: DeprecatedCalling {
    @available(*, deprecated, message: "Exercises the deprecated initialisers on purpose.")
    func make(request: URLRequest, priority: BADownload.Priority?) -> BAURLDownload {
        let group = "group.com.example.sessions"
        if let priority {
            return BAURLDownload(
                identifier: "a", request: request, applicationGroupIdentifier: group, priority: priority)
        }
        return BAURLDownload(identifier: "a", request: request, applicationGroupIdentifier: group)
    }
}
