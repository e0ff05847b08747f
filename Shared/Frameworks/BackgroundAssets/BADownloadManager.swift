/*
Abstract:
The shared download manager: schedules, promotes, cancels, and lists the app's downloads.
*/

import BackgroundAssetsIPC
import Dispatch
import Foundation
import ServiceClient
import Synchronization

/// An object that manages the queue of scheduled asset downloads, shared by the app and its extension.
///
/// Every call goes to the system service, `backgroundassetsd`, which is started on demand. Because
/// the queue is shared, wrap work on it in ``withExclusiveControl(_:)-7wz1x`` so the app and the
/// extension never act on it at the same time.
/// - Note: Apple's synchronous methods talk to the system over XPC; these talk to the service over
///   a Unix socket under the device root and block the calling thread the same way, so avoid
///   calling them from the main thread of an interactive app.
/// - Note: As in Apple's framework it is an `NSObject`; use ``shared`` rather than creating one.
public final class BADownloadManager: NSObject, Sendable {
    /// The download manager that the app and the extension share.
    public static let shared = BADownloadManager(
        paths: DevicePaths.current(), identity: ProcessIdentity.current(),
        launcher: ServiceLauncher.besideExecutable(paths: DevicePaths.current()))

    /// Holds the delegate weakly, as Apple's `weak var delegate` does.
    ///
    /// The delegate is not `Sendable` (Apple's protocol does not require it), yet it is stored here
    /// and read from other threads, which is why this box is `@unchecked Sendable`. The framework
    /// only ever calls the delegate from the callback thread, one call at a time, as Apple's calls it
    /// on its own queue; what the app does with it elsewhere is the app's to synchronise.
    private struct WeakDelegate: @unchecked Sendable {
        weak var value: (any BADownloadManagerDelegate)?
    }

    let connection: ServiceConnection
    let identity: ProcessIdentity
    private let weakDelegate = Mutex(WeakDelegate())
    /// Delegate callbacks run here, one at a time and in the order the service sent them.
    let callbackThread = WorkerThread(name: "ba-delegate")
    /// Install progress, for the launch gate; the delegate has no callback for it.
    let installProgressObservers = EventObservers<InstallProgress>()
    /// Entry-point calls, for the extension runner.
    let extensionCallObservers = EventObservers<(callID: UInt64, call: ExtensionCall)>()
    /// Why the connection to the service was lost, each time it is.
    let disconnectObservers = EventObservers<String>()
    /// Whether `downloads(for:manifestURL:extensionInfo:)` is running, when scheduling is refused.
    let isAnsweringContentRequest = Mutex(false)

    /// Creates a manager that talks to the service of a device root.
    /// - Parameters:
    ///   - paths: The device root.
    ///   - identity: What this process presents to the service.
    ///   - launcher: Starts the service when it is not running; `nil` never starts it.
    package init(paths: DevicePaths, identity: ProcessIdentity, launcher: ServiceLauncher?) {
        self.identity = identity
        // The connection is built before self exists, so its events reach the manager through a
        // forwarder that holds the manager weakly: no cycle keeps a discarded manager alive.
        let forwarder = EventForwarder()
        connection = ServiceConnection(
            socketPath: paths.serviceSocket.path, hello: identity.hello, launcher: launcher,
            onEvent: { forwarder.forward($0) }, onDisconnect: { forwarder.forwardDisconnect(reason: $0) })
        super.init()
        forwarder.attach(self)
    }

    /// The object that receives the app's download callbacks; the manager holds it weakly.
    ///
    /// Setting a delegate connects to the service so callbacks start flowing; callbacks that happened
    /// before are not replayed.
    public var delegate: (any BADownloadManagerDelegate)? {
        get { weakDelegate.withLock { $0.value } }
        set {
            weakDelegate.withLock { $0.value = newValue }
            connection.setWantsEvents(newValue != nil)
            connection.request(.downloads(.setDelegate(isSet: newValue != nil))) { _ in }
        }
    }

    /// Schedules a background download.
    /// - Parameter download: The download; it must not be essential.
    /// - Throws: ``BAError`` with ``BAError/Code/downloadInvalid`` for an invalid download,
    ///   ``BAError/Code/downloadEssentialDownloadNotPermitted`` for an essential one,
    ///   ``BAError/Code/downloadAlreadyScheduled`` when its identifier is in flight,
    ///   ``BAError/Code/callFromExtensionNotAllowed`` while `downloads(for:manifestURL:extensionInfo:)`
    ///   runs, or the service's refusal.
    /// - Note: Returns only once the service has stored the download durably.
    public func scheduleDownload(_ download: BADownload) throws {
        try refuseDuringContentRequest(download)
        try download.validate()
        guard !download.isEssential else {
            throw BAError(
                .downloadEssentialDownloadNotPermitted,
                message: "The download \(download.identifier.debugDescription) is essential, and essential downloads "
                    + "are only returned from downloads(for:manifestURL:extensionInfo:). "
                    + "Schedule download.removingEssential() instead.")
        }
        try expectDownload(connection.send(.downloads(.schedule(download: download.wireDescriptor))), for: "scheduleDownload")
    }

    /// Starts a download in the foreground at once, promoting it if it is already queued or running.
    ///
    /// A promoted background download pauses (``BADownloadManagerDelegate/downloadDidPause(_:)``) and
    /// continues from the same byte in the foreground; a download already in the foreground is left alone.
    /// - Parameter download: The download.
    /// - Throws: ``BAError`` with ``BAError/Code/callFromExtensionNotAllowed`` from the extension,
    ///   ``BAError/Code/downloadInvalid`` for an invalid download, or the service's refusal.
    public func startForegroundDownload(_ download: BADownload) throws {
        guard identity.role != .extension else {
            throw BAError(
                .callFromExtensionNotAllowed,
                message: "The extension cannot start \(download.identifier.debugDescription) in the foreground; "
                    + "only the app can. Schedule it, or return it from downloads(for:manifestURL:extensionInfo:).")
        }
        try download.validate()
        let request = ClientRequest.downloads(.startForeground(download: download.wireDescriptor))
        // The service answers a new foreground download before it inserts its row: kept until the
        // download's first callback, the start is sent again to a service that restarted in between
        // (``handle(_:)`` withdraws it). Without a delegate no callback comes, and none is kept.
        let isKept = delegate != nil
        let key = Self.replayKey(forForegroundStartOf: download.identifier)
        if isKept { connection.replayUntilWithdrawn(request, key: key) }
        do {
            let response = try connection.send(request)
            try expectDownload(response, for: "startForegroundDownload")
            // One that had ended already gets no callback to withdraw it.
            if isKept, case let .download(answered) = response, answered.state.isTerminal { connection.withdrawReplay(key: key) }
        } catch {
            if isKept { connection.withdrawReplay(key: key) }
            throw error
        }
    }

    /// What a foreground start is kept under until the download's first callback.
    static func replayKey(forForegroundStartOf identifier: String) -> String {
        "startForeground:\(identifier)"
    }

    /// Cancels a queued or running download.
    /// - Parameter download: The download.
    /// - Throws: ``BAError`` with ``BAError/Code/downloadNotScheduled`` when it is not in flight.
    public func cancel(_ download: BADownload) throws {
        connection.withdrawReplay(key: Self.replayKey(forForegroundStartOf: download.identifier))
        let response = try connection.send(.downloads(.cancel(download: download.wireDescriptor)))
        guard case .done = response else { throw Self.unexpected(response, for: "cancel") }
    }

    /// The app's downloads that are scheduled or in flight.
    ///
    /// A download that has just finished but whose file is still being handed over (to a delegate,
    /// or to the extension) is listed too, in the ``BADownload/State/finished`` state: don't start
    /// it again, its file is on its way.
    /// - Returns: Snapshots of the downloads, oldest first.
    /// - Throws: ``BAError`` when the service cannot be reached.
    public func fetchCurrentDownloads() throws -> [BADownload] {
        var pages = CurrentDownloadsPages()
        while let after = pages.nextPageAfter { try pages.add(connection.send(.downloads(.fetchCurrentDownloadsPage(after: after)))) }
        return pages.downloads.map(BADownload.make(from:))
    }

    /// Fetches the app's downloads that are scheduled or in flight, then calls a handler.
    /// - Parameter completionHandler: Called once on a background thread, with the downloads or an error.
    /// - Note: The handler need not be `@Sendable`, so Apple code that captures a non-`Sendable`
    ///   object compiles in Swift 6 mode; it is called once, on a thread of the framework.
    public func fetchCurrentDownloads(completionHandler: @escaping ([BADownload], (any Error)?) -> Void) {
        fetchCurrentDownloads(after: CurrentDownloadsPages(), completionHandler: UncheckedReference(completionHandler))
    }

    /// Asks for the next page, and calls the handler once the last one arrived or a page failed.
    private func fetchCurrentDownloads(
        after pages: CurrentDownloadsPages, completionHandler handler: UncheckedReference<([BADownload], (any Error)?) -> Void>
    ) {
        guard let after = pages.nextPageAfter else { return handler.value(pages.downloads.map(BADownload.make(from:)), nil) }
        connection.request(.downloads(.fetchCurrentDownloadsPage(after: after))) { [self] result in
            var pages = pages
            do {
                try pages.add(Self.unwrap(result))
            } catch {
                return handler.value([], error)
            }
            fetchCurrentDownloads(after: pages, completionHandler: handler)
        }
    }

    /// The app's downloads that are scheduled or in flight.
    public var currentDownloads: [BADownload] {
        get async throws {
            var pages = CurrentDownloadsPages()
            while let after = pages.nextPageAfter { try await pages.add(connection.send(.downloads(.fetchCurrentDownloadsPage(after: after)))) }
            return pages.downloads.map(BADownload.make(from:))
        }
    }

    // MARK: - Responses

    private func expectDownload(_ response: ServerResponse, for call: String) throws {
        guard case .download = response else { throw Self.unexpected(response, for: call) }
    }

    static func unwrap(_ result: Result<ServerResponse, any Error>) throws -> ServerResponse {
        let response = try result.get()
        if case let .failure(failure) = response { throw failure.makeError() }
        return response
    }

    static func unexpected(_ response: ServerResponse, for call: String) -> BAError {
        BAError(
            .callerConnectionInvalid,
            message: "The Background Assets service answered \(call) with \(response), which this framework does "
                + "not expect. Rebuild the app and the service from the same sources.")
    }
}
