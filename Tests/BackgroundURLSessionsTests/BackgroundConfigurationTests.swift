/*
Abstract:
Every property Apple's background configuration has can be set; the ones the system honours reach it, and a copy keeps them all.
*/

import BackgroundAssetsIPC
@testable import BackgroundURLSessions
import Testing

@Suite("Background session configuration")
struct BackgroundConfigurationTests {
    /// A configuration with every property changed from its default, as a download manager sets them.
    func configured() -> BackgroundURLSessionConfiguration {
        let configuration = URLSessionConfiguration.background(withIdentifier: "uploads")
        configuration.isDiscretionary = true
        configuration.sessionSendsLaunchEvents = false
        configuration.sharedContainerIdentifier = "group.com.example.game"
        configuration.waitsForConnectivity = true
        configuration.allowsCellularAccess = false
        configuration.allowsExpensiveNetworkAccess = false
        configuration.allowsConstrainedNetworkAccess = false
        configuration.timeoutIntervalForResource = 3600
        configuration.timeoutIntervalForRequest = 20
        configuration.httpAdditionalHeaders = ["X-Client": "game/2", "Accept": "application/json"]
        configuration.networkServiceType = .background
        configuration.httpMaximumConnectionsPerHost = 2
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        return configuration
    }

    @Test("Every property can be set, and a copy keeps each one")
    func copyKeepsEverything() throws {
        let copy = try #require(configured().copy() as? BackgroundURLSessionConfiguration)
        #expect(copy.identifier == "uploads")
        #expect(copy.isDiscretionary)
        #expect(!copy.sessionSendsLaunchEvents)
        #expect(copy.sharedContainerIdentifier == "group.com.example.game")
        #expect(copy.waitsForConnectivity)
        #expect(!copy.allowsCellularAccess)
        #expect(!copy.allowsExpensiveNetworkAccess)
        #expect(!copy.allowsConstrainedNetworkAccess)
        #expect(copy.timeoutIntervalForResource == 3600)
        #expect(copy.timeoutIntervalForRequest == 20)
        #expect(copy.additionalHeaderFields == ["X-Client": "game/2", "Accept": "application/json"])
        #expect(copy.networkServiceType == .background)
        #expect(copy.httpMaximumConnectionsPerHost == 2)
        #expect(copy.requestCachePolicy == .reloadIgnoringLocalCacheData)
        #expect(!copy.httpShouldSetCookies)
        #expect(copy.httpCookieAcceptPolicy == .never)
    }

    @Test("The settings the system honours reach it")
    func honouredSettings() {
        let settings = configured().settings
        #expect(settings == BackgroundSessionSettings(
            identifier: "uploads", sendsLaunchEvents: false, isDiscretionary: true,
            sharedContainerIdentifier: "group.com.example.game", timeoutIntervalForResource: 3600,
            timeoutIntervalForRequest: 20))
    }

    @Test("Additional header fields reach each request that does not set them itself")
    func additionalHeadersReachRequests() async throws {
        let system = try InMemoryURLSessionSystem()
        let session = BackgroundURLSession(configuration: configured(), delegate: nil, delegateQueue: nil,
                                           service: system.client(app: "com.example.game"))
        var request = URLRequest(url: try #require(URL(string: "https://cdn.example.com/game/data.archive")))
        request.setValue("*/*", forHTTPHeaderField: "accept")
        let task = session.downloadTask(with: request)
        let sent = try #require(system.tasks(app: "com.example.game", session: "uploads")[task.taskIdentifier])
        #expect(sent.originalRequest.headers["X-Client"] == "game/2")
        // The request's own field wins over the configuration's, whatever case either spells it in.
        #expect(sent.originalRequest.headers.filter { $0.key.lowercased() == "accept" } == ["Accept": "*/*"])
        session.invalidateAndCancel()
    }
}
