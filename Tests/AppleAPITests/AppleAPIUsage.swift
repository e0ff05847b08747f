/*
Abstract:
Every public Background Assets symbol (iOS 16.1–17), used as Apple's documentation declares it.
*/

// Written from Apple's declarations, not from this module's: if this file compiles (it is built in
// Swift 6 and, through a symlink, in Swift 5 language mode), Apple code that uses these symbols
// compiles here too. Only `import BackgroundAssets`, as in an Apple app: Foundation and, on Linux,
// FoundationNetworking (URLRequest, URLSession, the challenge types) come with it.
import BackgroundAssets
import Testing

// MARK: - A delegate as Apple developers write one

/// A plain, non-final class with mutable state and no `Sendable` conformance, every method
/// implemented, the challenge in its completion-handler form.
class AppleStyleDelegate: NSObject, BADownloadManagerDelegate {
    var events: [String] = []

    func downloadDidBegin(_ download: BADownload) {
        events.append("begin \(download.identifier)")
    }

    func downloadDidPause(_ download: BADownload) {
        events.append("pause \(download.identifier)")
    }

    func download(
        _ download: BADownload, didWriteBytes bytesWritten: Int64, totalBytesWritten: Int64,
        totalBytesExpectedToWrite: Int64
    ) {
        events.append("progress \(totalBytesWritten)/\(totalBytesExpectedToWrite)")
    }

    func download(
        _ download: BADownload, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        events.append("challenge \(challenge.protectionSpace.host)")
        completionHandler(.performDefaultHandling, nil)
    }

    func download(_ download: BADownload, failedWithError error: Error) {
        events.append("failed \(describe(error))")
    }

    func download(_ download: BADownload, finishedWithFileURL fileURL: URL) {
        events.append("finished \(fileURL.lastPathComponent)")
    }
}

/// A subclass, as an app's view model often is, answering challenges in the `async` form.
final class AsyncChallengeDelegate: AppleStyleDelegate {
    var credentialsOffered = 0

    func download(_ download: BADownload, didReceive challenge: URLAuthenticationChallenge) async
        -> (URLSession.AuthChallengeDisposition, URLCredential?)
    {
        credentialsOffered += 1
        return (.useCredential, URLCredential(user: "user", password: "password", persistence: .none))
    }
}

// MARK: - An extension as Apple developers write one

/// A configuration type, as ExtensionKit code names one; main-actor isolated, as Apple declares it.
@MainActor
struct AppleStyleConfiguration: BADownloaderExtensionConfiguration {}

@MainActor
func configurationTypes() -> [any BADownloaderExtensionConfiguration.Type] {
    [AppleStyleConfiguration.self]
}

struct AppleStyleDownloaderExtension: BADownloaderExtension {
    func downloads(for request: BAContentRequest, manifestURL: URL, extensionInfo: BAAppExtensionInfo)
        -> Set<BADownload>
    {
        let remaining: Int? = extensionInfo.restrictedDownloadSizeRemaining
        let essentialRemaining: Int? = extensionInfo.restrictedEssentialDownloadSizeRemaining
        let request2 = URLRequest(url: URL(string: "https://example.com/video.mov")!)
        let essential: Bool
        switch request {
        case .install, .update:
            essential = (essentialRemaining ?? 0) > 0
        case .periodic:
            essential = false
        @unknown default:
            essential = false
        }
        let download = BAURLDownload(
            identifier: "video", request: request2, essential: essential, fileSize: remaining ?? 1024,
            applicationGroupIdentifier: "group.com.example.apple-samplecode.WWDC-Sessions",
            priority: .default)
        return [download]
    }

    func backgroundDownload(_ download: BADownload, didReceive challenge: URLAuthenticationChallenge) async
        -> (URLSession.AuthChallengeDisposition, URLCredential?)
    {
        (.performDefaultHandling, nil)
    }

    func backgroundDownload(_ failedDownload: BADownload, failedWithError error: Error) {
        guard type(of: failedDownload) == BAURLDownload.self else { return }
        if failedDownload.isEssential {
            let nonEssential = failedDownload.removingEssential()
            try? BADownloadManager.shared.scheduleDownload(nonEssential)
        }
    }

    func backgroundDownload(_ finishedDownload: BADownload, finishedWithFileURL fileURL: URL) {
        BADownloadManager.shared.withExclusiveControl { acquiredLock, error in
            guard acquiredLock else { return }
            try? FileManager.default.removeItem(at: fileURL)
        }
    }

    func extensionWillTerminate() {}
}

// MARK: - Errors as Apple developers read them

/// Every `BAErrorCode`, switched over exhaustively with `@unknown default`.
func describe(_ error: Error) -> String {
    let nsError = error as NSError
    guard nsError.domain == BAErrorDomain, let code = BAErrorCode(rawValue: nsError.code) else {
        return "other"
    }
    switch code {
    case .downloadInvalid: return "downloadInvalid"
    case .callFromExtensionNotAllowed: return "callFromExtensionNotAllowed"
    case .callFromInactiveProcessNotAllowed: return "callFromInactiveProcessNotAllowed"
    case .callerConnectionNotAccepted: return "callerConnectionNotAccepted"
    case .callerConnectionInvalid: return "callerConnectionInvalid"
    case .downloadAlreadyScheduled: return "downloadAlreadyScheduled"
    case .downloadNotScheduled: return "downloadNotScheduled"
    case .downloadFailedToStart: return "downloadFailedToStart"
    case .downloadAlreadyFailed: return "downloadAlreadyFailed"
    case .downloadEssentialDownloadNotPermitted: return "downloadEssentialDownloadNotPermitted"
    case .downloadBackgroundActivityProhibited: return "downloadBackgroundActivityProhibited"
    case .downloadWouldExceedAllowance: return "downloadWouldExceedAllowance"
    case .downloadDoesNotExist: return "downloadDoesNotExist"
    case .sessionDownloadDisallowedByDomain: return "sessionDownloadDisallowedByDomain"
    case .sessionDownloadDisallowedByAllowance: return "sessionDownloadDisallowedByAllowance"
    case .sessionDownloadAllowanceExceeded: return "sessionDownloadAllowanceExceeded"
    case .sessionDownloadNotPermittedBeforeAppLaunch: return "sessionDownloadNotPermittedBeforeAppLaunch"
    @unknown default: return "unknown"
    }
}

// MARK: - The download manager as Apple developers call it

/// A non-`Sendable` controller whose completion handlers capture `self`, as Apple's sample does.
final class AppleStyleController {
    var downloads: [BADownload] = []
    var lastError: Error?
    let manager = BADownloadManager.shared

    func connect(_ delegate: BADownloadManagerDelegate) {
        manager.delegate = delegate
        _ = manager.delegate
    }

    func callEveryMethod(_ download: BADownload) throws {
        try manager.scheduleDownload(download)
        try manager.startForegroundDownload(download)
        try manager.cancel(download)
        downloads = try manager.fetchCurrentDownloads()
        manager.fetchCurrentDownloads { downloads, error in
            self.downloads = downloads
            self.lastError = error
        }
        manager.withExclusiveControl { acquiredLock, error in
            if acquiredLock { self.downloads = (try? self.manager.fetchCurrentDownloads()) ?? [] }
            self.lastError = error
        }
        manager.withExclusiveControl(beforeDate: Date(timeIntervalSinceNow: 5)) { acquiredLock, error in
            self.lastError = acquiredLock ? nil : error
        }
    }

    func callEveryAsyncMethod() async throws {
        downloads = try await manager.currentDownloads
        let count = try await manager.withExclusiveControl {
            try BADownloadManager.shared.fetchCurrentDownloads().count
        }
        try await manager.withExclusiveControl(before: Date(timeIntervalSinceNow: 5)) {
            _ = count
        }
    }
}

// MARK: - Downloads as Apple developers make them

enum AppleStyleDownloads {
    static let request = URLRequest(url: URL(string: "https://example.com/session.mov")!)
    static let group = "group.com.example.apple-samplecode.WWDC-Sessions"

    static func make() -> [BAURLDownload] {
        [
            BAURLDownload(
                identifier: "a", request: request, essential: true, fileSize: 1024,
                applicationGroupIdentifier: group, priority: .max),
            BAURLDownload(
                identifier: "b", request: request, fileSize: 1024, applicationGroupIdentifier: group),
            BAURLDownload(
                identifier: "c", request: request, essential: false, fileSize: 1024,
                applicationGroupIdentifier: group, priority: BADownload.Priority(rawValue: 10)),
            BAURLDownload(
                identifier: "d", request: request, essential: false, fileSize: 1024,
                applicationGroupIdentifier: group, priority: .min),
        ]
    }

    /// The deprecated initialisers, called where Apple developers may still have them: from code
    /// marked deprecated itself, so the build stays free of warnings.
    @available(*, deprecated, message: "Uses the deprecated size-less initialisers on purpose.")
    static func makeWithoutSizes() -> [BAURLDownload] {
        [
            BAURLDownload(identifier: "e", request: request, applicationGroupIdentifier: group),
            BAURLDownload(
                identifier: "f", request: request, applicationGroupIdentifier: group, priority: .default),
        ]
    }

    static func describe(_ download: BADownload) -> String {
        let state: String
        switch download.state {
        case .created: state = "created"
        case .waiting: state = "waiting"
        case .downloading: state = "downloading"
        case .finished: state = "finished"
        case .failed: state = "failed"
        @unknown default: state = "unknown"
        }
        let priority: BADownload.Priority = download.priority
        return "\(download.identifier) \(download.uniqueIdentifier) \(state) \(priority.rawValue) \(download.isEssential)"
    }
}

// MARK: - Tests

@Suite("Apple's API, as Apple declares it")
struct AppleAPIUsageTests {
    @Test("Downloads copy and archive as NSCopying and NSSecureCoding objects")
    func copyingAndCoding() throws {
        let download = AppleStyleDownloads.make()[0]
        let copy = download.copy() as! BAURLDownload
        #expect(copy.identifier == download.identifier)
        #expect(copy.uniqueIdentifier == download.uniqueIdentifier)
        #expect(copy.isEssential && copy.priority == .max)
        #expect(BAURLDownload.supportsSecureCoding)

        let data = try NSKeyedArchiver.archivedData(withRootObject: download, requiringSecureCoding: true)
        let restored = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: BAURLDownload.self, from: data))
        #expect(restored.uniqueIdentifier == download.uniqueIdentifier)
        #expect(restored.state == .created)
        #expect(AppleStyleDownloads.describe(restored) == AppleStyleDownloads.describe(download))
    }

    @Test("Error codes keep Apple's raw values and are read through NSError")
    func errorCodes() {
        #expect(BAErrorCode.downloadInvalid.rawValue == 0)
        #expect(BAErrorCode.callFromExtensionNotAllowed.rawValue == 50)
        #expect(BAErrorCode.sessionDownloadNotPermittedBeforeAppLaunch.rawValue == 206)
        let error = NSError(domain: BAErrorDomain, code: 101)
        #expect(describe(error) == "downloadNotScheduled")
        #expect(describe(URLError(.timedOut)) == "other")
    }

    @Test("The extension's entry points run as written for Apple's framework")
    func extensionEntryPoints() {
        let handler = AppleStyleDownloaderExtension()
        handler.extensionWillTerminate()
        #expect(BAContentRequest.install.rawValue == 1 && BAContentRequest.periodic.rawValue == 3)
        #expect(BADownload.State.failed.rawValue == -1 && BADownload.State.finished.rawValue == 3)
        #expect(BADownload.Priority.min < BADownload.Priority.default)
        #expect(BADownload.Priority.default < BADownload.Priority.max)
    }

    @Test("A non-Sendable delegate subclass answers a challenge in the async form")
    func asyncChallengeForm() async {
        let delegate = AsyncChallengeDelegate()
        let (disposition, credential) = await delegate.download(
            AppleStyleDownloads.make()[1], didReceive: challenge())
        #expect(disposition == .useCredential)
        #expect(credential?.user == "user")
        #expect(delegate.credentialsOffered == 1)
    }

    private func challenge() -> URLAuthenticationChallenge {
        let space = URLProtectionSpace(
            host: "example.com", port: 443, protocol: "https", realm: "sessions",
            authenticationMethod: NSURLAuthenticationMethodHTTPBasic)
        return URLAuthenticationChallenge(
            protectionSpace: space, proposedCredential: nil, previousFailureCount: 0, failureResponse: nil,
            error: nil, sender: ChallengeSender())
    }
}

/// The sender a challenge requires; the answers travel through the delegate's return value.
final class ChallengeSender: NSObject, URLAuthenticationChallengeSender {
    func use(_ credential: URLCredential, for challenge: URLAuthenticationChallenge) {}
    func continueWithoutCredential(for challenge: URLAuthenticationChallenge) {}
    func cancel(_ challenge: URLAuthenticationChallenge) {}
    func performDefaultHandling(for challenge: URLAuthenticationChallenge) {}
    func rejectProtectionSpaceAndContinue(with challenge: URLAuthenticationChallenge) {}
}
