/*
Abstract:
A downloader extension for tests that records each entry point it runs, and a runner on its own thread.
*/

@testable import BackgroundAssets
import BackgroundAssetsIPC
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization
import TestSupport

/// Records every entry point as a line; what `downloads(for:)` returns and does is up to each test.
final class RecordingExtension: BADownloaderExtension {
    typealias ContentRequestHandler = @Sendable (BAContentRequest, URL, BAAppExtensionInfo) -> Set<BADownload>

    let log = Mutex<[String]>([])
    private let onContentRequest: ContentRequestHandler
    /// Signalled when a finished call starts; the call then waits for `releaseFinished`.
    let finishedStarted = DispatchSemaphore(value: 0)
    let releaseFinished: DispatchSemaphore?
    let credential: URLCredential?

    init() {
        onContentRequest = { _, _, _ in [] }
        releaseFinished = nil
        credential = nil
    }

    /// Creates an extension.
    /// - Parameters:
    ///   - holdFinished: Makes each finished call wait for `releaseFinished`.
    ///   - credential: The answer to challenges: use it, or cancel when `nil`.
    ///   - onContentRequest: Runs as `downloads(for:manifestURL:extensionInfo:)`.
    init(
        holdFinished: Bool = false, credential: URLCredential? = nil,
        onContentRequest: @escaping ContentRequestHandler = { _, _, _ in [] }
    ) {
        self.onContentRequest = onContentRequest
        releaseFinished = holdFinished ? DispatchSemaphore(value: 0) : nil
        self.credential = credential
    }

    var lines: [String] { log.withLock { $0 } }

    func downloads(for request: BAContentRequest, manifestURL: URL, extensionInfo: BAAppExtensionInfo)
        -> Set<BADownload>
    {
        func bytes(_ value: Int?) -> String { value.map(String.init) ?? "unrestricted" }
        record(
            "downloads \(request) \(manifestURL.path) \(bytes(extensionInfo.restrictedDownloadSizeRemaining)) "
                + bytes(extensionInfo.restrictedEssentialDownloadSizeRemaining))
        return onContentRequest(request, manifestURL, extensionInfo)
    }

    func backgroundDownload(_ download: BADownload, didReceive challenge: URLAuthenticationChallenge) async
        -> (URLSession.AuthChallengeDisposition, URLCredential?)
    {
        record("challenge \(download.identifier) \(challenge.protectionSpace.realm ?? "")")
        return credential.map { (.useCredential, $0) } ?? (.cancelAuthenticationChallenge, nil)
    }

    func backgroundDownload(_ download: BADownload, failedWithError error: any Error) {
        let reason = (error as? BAError).map { "\($0.code.rawValue) \($0.message)" } ?? "\(error)"
        record("failed \(download.identifier) \(Self.className(download)) \(reason)")
    }

    func backgroundDownload(_ download: BADownload, finishedWithFileURL fileURL: URL) {
        record("finished \(download.identifier) \(Self.className(download)) \(fileURL.path)")
        finishedStarted.signal()
        releaseFinished?.wait()
    }

    func extensionWillTerminate() { record("willTerminate") }

    /// The sample's own test: the manifest download is not a plain `BAURLDownload`.
    private static func className(_ download: BADownload) -> String {
        type(of: download) == BAURLDownload.self ? "BAURLDownload" : "other"
    }

    private func record(_ line: String) { log.withLock { $0.append(line) } }
}

/// A runner working on a thread of its own, as `main()` runs it, and its outcome once it ends.
final class RunningExtension: Sendable {
    private let ended = Mutex<ExtensionRunner.Outcome?>(nil)

    /// Starts the runner.
    init(_ runner: ExtensionRunner) {
        let thread = Thread { [self] in
            let outcome = runner.run()
            ended.withLock { $0 = outcome }
        }
        thread.start()
    }

    /// The outcome, if the runner has ended.
    var outcome: ExtensionRunner.Outcome? { ended.withLock { $0 } }

    /// Waits until the runner ends, or a poll's default bound passes.
    /// - Returns: The outcome, or `nil` when it has not ended in time.
    func waitForOutcome() async -> ExtensionRunner.Outcome? {
        try? await poll(interval: .milliseconds(5), "the runner's outcome") { outcome }
    }
}
