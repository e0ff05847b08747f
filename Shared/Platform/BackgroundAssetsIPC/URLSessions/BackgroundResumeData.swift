/*
Abstract:
The resume data of a cancelled or failed background download: a property list naming where the transfer stopped.
*/

import Foundation

/// What `cancel(byProducingResumeData:)` returns and `downloadTask(withResumeData:)` continues from.
///
/// Apple documents resume data as opaque; its own is a property list. This one is too, with keys
/// named like Apple's, so a developer inspecting it recognises it. The partial file stays with the
/// system (in staging, under the device root): the data only names it, never a path the app owns.
public struct BackgroundResumeData: Sendable, Hashable {
    /// The format's version; a later format refuses an earlier one with a clear error.
    public static let version = 1

    /// The session whose partial file this is.
    public var sessionIdentifier: String
    /// The request to continue.
    public var request: BackgroundTaskRequest
    /// The bytes already on the device.
    public var bytesReceived: Int64
    /// The validator the server sent (`ETag`, else `Last-Modified`), for `If-Range`.
    public var entityTag: String?
    /// The system's name for the partial file.
    public var partialFileName: String

    /// Creates resume data.
    public init(sessionIdentifier: String, request: BackgroundTaskRequest, bytesReceived: Int64,
                entityTag: String?, partialFileName: String) {
        self.sessionIdentifier = sessionIdentifier
        self.request = request
        self.bytesReceived = bytesReceived
        self.entityTag = entityTag
        self.partialFileName = partialFileName
    }

    private enum Key {
        static let version = "NSURLSessionResumeInfoVersion"
        static let url = "NSURLSessionDownloadURL"
        static let bytes = "NSURLSessionResumeBytesReceived"
        static let entityTag = "NSURLSessionResumeEntityTag"
        static let partialFile = "NSURLSessionResumeInfoTempFileName"
        static let headers = "NSURLSessionResumeRequestHeaders"
        static let session = "NSURLSessionResumeSessionIdentifier"
    }

    /// The data, as a binary property list.
    public func encoded() -> Data {
        var plist: [String: Any] = [
            Key.version: Self.version, Key.url: request.url.absoluteString, Key.bytes: bytesReceived,
            Key.partialFile: partialFileName, Key.headers: request.headers, Key.session: sessionIdentifier,
        ]
        if let entityTag { plist[Key.entityTag] = entityTag }
        // A dictionary of strings and numbers always serialises; an empty Data would be refused on decoding.
        return (try? PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)) ?? Data()
    }

    /// Reads resume data.
    /// - Throws: ``BackgroundResumeDataError`` naming what is missing or wrong.
    public init(decoding data: Data) throws(BackgroundResumeDataError) {
        // Resume data comes back from an app; a set in a binary plist would crash Foundation, not fail.
        if let problem = BinaryPropertyList.problem(in: data) { throw BackgroundResumeDataError(problem) }
        guard let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any] else {
            throw BackgroundResumeDataError("is not a property list")
        }
        guard let version = plist[Key.version] as? Int, version == Self.version else {
            throw BackgroundResumeDataError("has no \(Key.version) of \(Self.version)")
        }
        guard let text = plist[Key.url] as? String, let url = URL(string: text) else {
            throw BackgroundResumeDataError("has no \(Key.url)")
        }
        guard let bytes = plist[Key.bytes] as? Int64 ?? (plist[Key.bytes] as? Int).map(Int64.init), bytes >= 0 else {
            throw BackgroundResumeDataError("has no \(Key.bytes)")
        }
        guard let partial = plist[Key.partialFile] as? String, !partial.isEmpty, !partial.contains("/"), partial != ".." else {
            throw BackgroundResumeDataError("has no usable \(Key.partialFile)")
        }
        guard let session = plist[Key.session] as? String else {
            throw BackgroundResumeDataError("has no \(Key.session)")
        }
        self.init(sessionIdentifier: session,
                  request: BackgroundTaskRequest(url: url, headers: plist[Key.headers] as? [String: String] ?? [:]),
                  bytesReceived: bytes, entityTag: plist[Key.entityTag] as? String, partialFileName: partial)
    }
}

/// Resume data that cannot be read.
public struct BackgroundResumeDataError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong with it.
    public var problem: String

    init(_ problem: String) {
        self.problem = problem
    }

    public var description: String {
        "The resume data \(problem); pass the data that cancel(byProducingResumeData:) or the error's "
            + "NSURLSessionDownloadTaskResumeData gave, unchanged, or start a new download."
    }
}
