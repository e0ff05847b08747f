/*
Abstract:
One instance of every message and event, with awkward values, for round-trip tests.
*/

import BackgroundAssetsIPC
import Foundation
import TestSupport

enum SampleMessages {
    /// Strings a careless encoder or store would mangle.
    static let hostileStrings: [RawText] = [
        "../../x", "a\0b", RawText(String(repeating: "é", count: 2048)), "quote \" backslash \\ slash /",
        "line\nbreak\ttab\r", "emoji 👩🏽‍💻 and RTL \u{202E}txt", "{\"json\": [1, 2]}", "",
    ]

    static func descriptor(identifier: String = "wwdc2023-10108", state: DownloadDescriptor.State = .waiting)
        -> DownloadDescriptor
    {
        DownloadDescriptor(
            identifier: identifier, uniqueIdentifier: "6B1F8E53-0E5C-4C71-9C5E-8C5F2E0B4F10", kind: .url,
            url: "https://cdn.example.com/sessions/10108.mov?token=a%20b", headers: ["Authorization": "Basic eDp5"],
            fileSize: 1_234_567_890, applicationGroupIdentifier: "group.com.example.sessions", priority: -1000,
            isEssential: true, state: state)
    }

    static let requests: [ClientRequest] = [
        .hello(Hello(bundleIdentifier: "com.example.sessions", role: .app, processIdentifier: 4242)),
        .hello(
            Hello(protocolVersion: 99, bundleIdentifier: "com.example.sessions", role: .extension, processIdentifier: 1)
        ),
        .hello(Hello(bundleIdentifier: "com.example.sessions", role: .tool, processIdentifier: Int32.max)),
        .downloads(.setDelegate(isSet: true)),
        .downloads(.setDelegate(isSet: false)),
        .downloads(.schedule(download: descriptor())),
        .downloads(.startForeground(download: descriptor(state: .downloading))),
        .downloads(.cancel(download: descriptor(state: .created))),
        .downloads(.fetchCurrentDownloads),
        .downloads(.acquireExclusiveControl(deadline: nil)),
        .downloads(.acquireExclusiveControl(deadline: Date(timeIntervalSince1970: 1_800_000_000.5))),
        .downloads(.releaseExclusiveControl),
        .downloads(.answerChallenge(
            deliveryID: 7, answer: ChallengeAnswer(disposition: .useCredential, user: "u", password: "p:w"))),
        .downloads(.answerChallenge(deliveryID: 8, answer: ChallengeAnswer(disposition: .performDefaultHandling))),
        .downloads(.acknowledgeDelivery(deliveryID: UInt64.max)),
        .core(.fetchStatus),
    ]

    static let challenge = ChallengeDescriptor(
        host: "localhost", port: 8080, protocol: "http", realm: "WWDC \"protected\"",
        authenticationMethod: "NSURLAuthenticationMethodHTTPBasic", previousFailureCount: 2)

    static let events: [ServerEvent] = [
        .didBegin(download: descriptor(state: .downloading)),
        .didPause(download: descriptor(state: .waiting)),
        .didWriteBytes(
            download: descriptor(state: .downloading), bytesWritten: 65536, totalBytesWritten: 5_000_000_000,
            totalBytesExpectedToWrite: -1),
        .didReceiveChallenge(deliveryID: 3, download: descriptor(), challenge: challenge),
        .failed(
            download: descriptor(state: .failed),
            failure: WireFailure(domain: WireFailure.urlDomain, code: -1001, message: "The request timed out.")),
        .finished(deliveryID: 4, download: descriptor(state: .finished), filePath: "/device/containers/g/BAFile-1.tmp"),
    ]

    static let responses: [ServerResponse] = [
        .hello(HelloReply(processIdentifier: 77, deviceRoot: "/tmp/device root/")),
        .done,
        .download(descriptor()),
        .downloads([]),
        .downloads([descriptor(), descriptor(identifier: "other", state: .downloading)]),
        .exclusiveControlGranted,
        .status(
            ServiceStatus(
                processIdentifier: 9, deviceRoot: "/d", connectionCount: 2,
                downloads: [
                    DownloadStatus(
                        bundleIdentifier: "com.example.sessions", download: descriptor(), isForeground: true,
                        bytesWritten: 1 << 40, bytesExpected: nil, attempts: 3,
                        lastError: .backgroundAssets(code: 102, message: "m"),
                        nextAttemptAt: Date(timeIntervalSince1970: 1_700_000_000))
                ])),
        .failure(.backgroundAssets(code: 101, message: "The download \"a\" is not scheduled.")),
    ]

    static var serverMessages: [ServerMessage] {
        responses.enumerated().map { .response(id: UInt64($0.offset), response: $0.element) }
            + events.map { .event($0) }
    }

    static var clientMessages: [ClientMessage] {
        requests.enumerated().map { ClientMessage(id: UInt64($0.offset + 1), request: $0.element) }
    }
}
