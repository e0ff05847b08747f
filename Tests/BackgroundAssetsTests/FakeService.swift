/*
Abstract:
An in-process stand-in for backgroundassetsd: a real Unix socket that answers with canned responses.
*/

import BackgroundAssetsIPC
import Foundation
import Synchronization
import TestSupport

/// Listens on a temporary device root's service socket, records every request, answers each with
/// `respond`, and pushes events on demand.
final class FakeService: Sendable {
    let paths: DevicePaths
    private let root: URL
    private let listener: UnixSocketListener
    private let respond: @Sendable (ClientRequest) -> ServerResponse?
    private let connections = Mutex<[UnixSocket]>([])
    private let requests = Mutex<[ClientRequest]>([])
    private let ended = Mutex(0)
    /// Requests `respond` left unanswered, with what is needed to answer them later.
    private let unanswered = Mutex<[(id: UInt64, request: ClientRequest, connection: UnixSocket)]>([])

    /// Starts listening.
    /// - Parameter respond: The answer to a request, or `nil` to leave it unanswered; the default
    ///   answers like a healthy service.
    init(respond: @escaping @Sendable (ClientRequest) -> ServerResponse? = FakeService.healthy) throws {
        let template = Array((NSTemporaryDirectory() + "ba-fake.XXXXXX").utf8CString)
        var bytes = template
        guard let created = mkdtemp(&bytes) else {
            throw SocketError.socketFailed(operation: "mkdtemp", path: "", errno: errno)
        }
        root = URL(fileURLWithPath: String(cString: created), isDirectory: true)
        paths = DevicePaths(root: root)
        listener = try UnixSocketListener(path: paths.serviceSocket.path)
        self.respond = respond
        // The threads hold the service weakly while they wait, so a test that lets go of it ends
        // them (deinit closes the socket) and removes its temporary device root.
        let listener = listener
        let thread = Thread { [weak self] in
            while let (connection, _) = try? listener.accept() {
                guard let self else {
                    connection.close()
                    return
                }
                accept(connection)
            }
        }
        thread.start()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: root)
    }

    /// Stops listening and closes every connection.
    func stop() {
        listener.close()
        dropConnections()
    }

    /// Every request received so far, in order.
    var received: [ClientRequest] { requests.withLock { $0 } }

    /// The number of connections the clients have closed.
    var endedConnectionCount: Int { ended.withLock { $0 } }

    /// Closes the open connections, as a crashed service would.
    func dropConnections() {
        // Taken off the list before they close: a client reconnects as soon as its connection
        // ends, and the new connection, accepted meanwhile, must stay on the list for ``push(_:)``.
        let dropped = connections.withLock { connections in
            defer { connections.removeAll() }
            return connections
        }
        for connection in dropped { connection.close() }
    }

    /// Sends an event to every connection.
    func push(_ event: ServerEvent) throws {
        for connection in connections.withLock({ $0 }) {
            try connection.send(MessageCodec.frame(ServerMessage.event(event)))
        }
    }

    /// Answers the oldest request `respond` left unanswered that matches, as a service that took its time would.
    /// - Parameters:
    ///   - matching: Picks the request.
    ///   - response: The answer.
    /// - Returns: Whether such a request was waiting.
    @discardableResult
    func answer(_ matching: (ClientRequest) -> Bool, with response: ServerResponse) throws -> Bool {
        let waiting = unanswered.withLock { unanswered -> (id: UInt64, request: ClientRequest, connection: UnixSocket)? in
            guard let index = unanswered.firstIndex(where: { matching($0.request) }) else { return nil }
            return unanswered.remove(at: index)
        }
        guard let waiting else { return false }
        try waiting.connection.send(MessageCodec.frame(ServerMessage.response(id: waiting.id, response: response)))
        return true
    }

    /// Waits until the received requests satisfy a condition, or a poll's default bound passes (a
    /// loaded machine running the whole suite can take seconds to schedule a connection's threads).
    /// - Returns: Whether they did; the test decides what to do when they did not.
    func waitFor(_ condition: @escaping ([ClientRequest]) -> Bool) async -> Bool {
        do {
            try await poll(until: { condition(self.received) }, interval: .milliseconds(5))
            return true
        } catch {
            return false
        }
    }

    private func accept(_ connection: UnixSocket) {
        connections.withLock { $0.append(connection) }
        let thread = Thread { [weak self] in
            defer { self?.ended.withLock { $0 += 1 } }
            var decoder = FrameDecoder()
            while let bytes = try? connection.receive(), !bytes.isEmpty {
                guard let self else { return }
                decoder.append(bytes)
                while let payload = try? decoder.nextFrame() {
                    guard let message = try? MessageCodec.decode(ClientMessage.self, from: payload) else { return }
                    // A request left unanswered is kept before it is listed as received: a test
                    // that sees it received answers it at once, and must find it waiting.
                    let response = respond(message.request)
                    if response == nil { unanswered.withLock { $0.append((message.id, message.request, connection)) } }
                    requests.withLock { $0.append(message.request) }
                    if let response {
                        try? connection.send(MessageCodec.frame(ServerMessage.response(id: message.id, response: response)))
                    }
                }
            }
        }
        thread.start()
    }

    /// Answers like a service with an empty queue that grants everything.
    static func healthy(_ request: ClientRequest) -> ServerResponse? {
        switch request {
        case .hello: .hello(HelloReply(processIdentifier: 1, deviceRoot: "/fake"))
        case let .downloads(.schedule(download)), let .downloads(.startForeground(download)):
            .download(
                {
                    var stored = download
                    stored.state = .waiting
                    return stored
                }())
        case .downloads(.fetchCurrentDownloads): .downloads([])
        case .downloads(.fetchCurrentDownloadsPage): .currentDownloadsPage(CurrentDownloadsPage(downloads: [], moreAfter: nil))
        case .downloads(.acquireExclusiveControl): .exclusiveControlGranted
        case .core(.fetchStatus), .tool(.resetDeviceClock):
            .status(ServiceStatus(processIdentifier: 1, deviceRoot: "/fake", connectionCount: 1, downloads: []))
        case .core(.fetchDownloadStatuses): .downloadStatuses(DownloadStatusPage(downloads: [], moreAfter: nil))
        case .downloads(.setDelegate), .downloads(.cancel), .downloads(.releaseExclusiveControl), .downloads(.answerChallenge),
            .downloads(.acknowledgeDelivery), .core(.extensionCheckIn), .core(.extensionCallReturned),
            .core(.extensionCallReturnedPart):
            .done
        case .core(.awaitLaunchable), .tool(.install), .tool(.uninstall), .tool(.simulate):
            .app(
                AppStatus(
                    bundleIdentifier: "com.example.fake", version: "1", appGroup: "group.com.example.fake",
                    state: .launchable, progress: InstallProgress(phase: .complete, completedBytes: 1, totalBytes: 1),
                    hasLaunched: true, runtimeBudgetLeft: 600))
        case .tool(.updateSettings): .settings(DeviceSettings())
        case .tasks(.fetchPendingTaskRequests): .taskRequests([])
        case .tasks, .tool(.simulateTask), .assetPacks(.watchAssetPacks):
            .done
        case .urlSessions, .notifications, .tool(.forceQuit), .tool(.respondToNotification):
            // BackgroundAssets never sends them.
            nil
        case .assetPacks(.fetchAssetPackManifest):
            .assetPackManifest(AssetPackManifestReply(url: "http://127.0.0.1:9/manifest.json", json: #"{"assetPacks": []}"#))
        case .assetPacks(.requestAssetPack): .assetPackRequest(outcome: .scheduled)
        case .assetPacks, .tool(.purgeAssetPacks):
            .assetPackChanges(AssetPackChanges())
        }
    }
}
