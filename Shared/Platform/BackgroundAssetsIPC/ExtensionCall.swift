/*
Abstract:
The entry points the service calls in a downloader extension it launched, and what each returns.
*/

/// One call of a `BADownloaderExtension` entry point, sent to the extension the service launched.
///
/// The service sends ``ServerEvent/extensionCall(callID:call:)``; the extension runs the entry point
/// and answers with ``ClientRequest/Core/extensionCallReturned(callID:result:)``. The service times each
/// call from the moment it sends it to the moment the answer arrives, against the runtime limit.
public enum ExtensionCall: Codable, Sendable, Equatable {
    /// `downloads(for:manifestURL:extensionInfo:)`: the manifest is a read-only copy, deleted after the call.
    case downloads(
        request: ContentRequestKind, manifestPath: String, restrictedDownloadSizeRemaining: Int?,
        restrictedEssentialDownloadSizeRemaining: Int?)
    /// `backgroundDownload(_:finishedWithFileURL:)`: the file is deleted when the call returns, unless moved.
    case finished(download: DownloadDescriptor, filePath: String)
    /// `backgroundDownload(_:failedWithError:)`.
    case failed(download: DownloadDescriptor, failure: WireFailure)
    /// `backgroundDownload(_:didReceive:)`: answered with ``ExtensionCallResult/challengeAnswer(_:)``.
    case challenge(download: DownloadDescriptor, challenge: ChallengeDescriptor)
    /// `extensionWillTerminate()`: the last call; the process is terminated after it returns.
    case willTerminate
    /// `ManagedDownloaderExtension.shouldDownload(_:)` for each listed pack of the manifest (a
    /// read-only copy, deleted after the call): answered with ``ExtensionCallResult/assetPackSelection(accepted:)``,
    /// or ``ExtensionCallResult/notManagedExtension(typeName:)`` by an extension that does not adopt the protocol.
    case shouldDownload(manifestPath: String, packIDs: [String])

    /// The entry point's Swift name, for the trace and for diagnostics.
    public var entryPoint: String {
        switch self {
        case .downloads: "downloads(for:manifestURL:extensionInfo:)"
        case .finished: "backgroundDownload(_:finishedWithFileURL:)"
        case .failed: "backgroundDownload(_:failedWithError:)"
        case .challenge: "backgroundDownload(_:didReceive:)"
        case .willTerminate: "extensionWillTerminate()"
        case .shouldDownload: "shouldDownload(_:)"
        }
    }
}

/// What an extension entry point returned.
public enum ExtensionCallResult: Codable, Sendable, Equatable {
    /// The downloads `downloads(for:manifestURL:extensionInfo:)` returned.
    case downloads([DownloadDescriptor])
    /// The answer `backgroundDownload(_:didReceive:)` returned.
    case challengeAnswer(ChallengeAnswer)
    /// The entry point returned nothing.
    case done
    /// The packs `shouldDownload(_:)` accepted, of those the call listed.
    case assetPackSelection(accepted: [String])
    /// The extension does not adopt `ManagedDownloaderExtension`; its type's name, for the refusal.
    case notManagedExtension(typeName: String)
}
