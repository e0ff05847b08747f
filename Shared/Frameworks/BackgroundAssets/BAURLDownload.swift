/*
Abstract:
A download of a remote asset at a URL, the kind of download apps and extensions create.
*/

import BackgroundAssetsIPC
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An object that represents a remote asset to download.
///
/// - Note: Apple's initialisers trap on invalid input (an http URL, an essential download without
///   a size). Here they never trap: the download is checked when it is scheduled, and an invalid
///   one is refused with a `BAError` whose code is ``BAError/Code/downloadInvalid`` and whose
///   message names the problem.
public class BAURLDownload: BADownload, @unchecked Sendable {
    /// The request that fetches the asset; only its URL and header fields reach the service.
    ///
    /// It is made again from those when asked for rather than kept: on Linux a request holds a
    /// parsed `URL` of about 400 bytes, and an extension can return 100,000 downloads at once.
    package var request: URLRequest {
        var request = URLRequest(url: URL(string: descriptor.url) ?? Self.unusableURL)
        for (field, value) in descriptor.headers {
            request.setValue(value, forHTTPHeaderField: field)
        }
        return request
    }

    /// The exact size of the file in bytes, or 0 when unknown.
    package var fileSize: Int { descriptor.fileSize }

    /// The app group whose container receives the finished file.
    package var applicationGroupIdentifier: String { descriptor.applicationGroupIdentifier }

    /// Creates a download of the asset a request fetches.
    /// - Parameters:
    ///   - identifier: A unique identifier that tracks the download across the app and its extension.
    ///   - request: The request that fetches the asset; its URL must use https (http is accepted
    ///     for loopback hosts, for local development).
    ///   - essential: Whether the download is essential; see ``BADownload/isEssential``.
    ///   - fileSize: The exact size of the file in bytes; a download whose file has another size fails.
    ///   - applicationGroupIdentifier: The app group whose container receives the finished file.
    ///   - priority: The download's priority among the app's downloads.
    public init(
        identifier: String,
        request: URLRequest,
        essential: Bool,
        fileSize: Int,
        applicationGroupIdentifier: String,
        priority: BADownload.Priority
    ) {
        super.init(
            descriptor: DownloadDescriptor(
                identifier: identifier,
                uniqueIdentifier: UUID.random().uuidString,
                kind: Self.kind,
                url: request.url?.absoluteString ?? "",
                headers: request.allHTTPHeaderFields ?? [:],
                fileSize: fileSize,
                applicationGroupIdentifier: applicationGroupIdentifier,
                priority: priority.rawValue,
                isEssential: essential,
                state: .created
            ))
    }

    /// Creates a non-essential download of default priority.
    /// - Parameters:
    ///   - identifier: A unique identifier that tracks the download across the app and its extension.
    ///   - request: The request that fetches the asset; its URL must use https.
    ///   - fileSize: The exact size of the file in bytes; a download whose file has another size fails.
    ///   - applicationGroupIdentifier: The app group whose container receives the finished file.
    public convenience init(
        identifier: String, request: URLRequest, fileSize: Int, applicationGroupIdentifier: String
    ) {
        self.init(
            identifier: identifier, request: request, essential: false, fileSize: fileSize,
            applicationGroupIdentifier: applicationGroupIdentifier, priority: .default)
    }

    /// Creates a download whose size is not known.
    /// - Parameters:
    ///   - identifier: A unique identifier that tracks the download across the app and its extension.
    ///   - request: The request that fetches the asset; its URL must use https.
    ///   - applicationGroupIdentifier: The app group whose container receives the finished file.
    @available(
        *, deprecated,
        message: "Pass the file's size: use init(identifier:request:fileSize:applicationGroupIdentifier:)."
    )
    public convenience init(identifier: String, request: URLRequest, applicationGroupIdentifier: String) {
        self.init(
            identifier: identifier, request: request, essential: false, fileSize: 0,
            applicationGroupIdentifier: applicationGroupIdentifier, priority: .default)
    }

    /// Creates a prioritized download whose size is not known.
    /// - Parameters:
    ///   - identifier: A unique identifier that tracks the download across the app and its extension.
    ///   - request: The request that fetches the asset; its URL must use https.
    ///   - applicationGroupIdentifier: The app group whose container receives the finished file.
    ///   - priority: The download's priority among the app's downloads.
    @available(
        *, deprecated,
        message: "Use the initialiser that takes essential, fileSize and priority; pass the file's exact size."
    )
    public convenience init(
        identifier: String, request: URLRequest, applicationGroupIdentifier: String, priority: BADownload.Priority
    ) {
        self.init(
            identifier: identifier, request: request, essential: false, fileSize: 0,
            applicationGroupIdentifier: applicationGroupIdentifier, priority: priority)
    }

    /// Rebuilds a download from its wire form, for snapshots the service sends and for copies.
    required init(descriptor: DownloadDescriptor) {
        super.init(descriptor: descriptor)
    }

    /// The kind of download the service is told this is; the private manifest subclass overrides it.
    class var kind: DownloadDescriptor.Kind { .url }

    /// Stands in for a URL the service sent but Foundation cannot parse; validation reports the original string.
    private static let unusableURL = URL(string: "about:blank")!
}
