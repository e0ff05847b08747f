/*
Abstract:
The rules every download must satisfy, checked the same way by the framework and by the service.
*/

import Foundation

extension DownloadDescriptor {
    /// The longest identifier accepted, in UTF-8 bytes; identifiers are keys, not payloads.
    public static let maximumIdentifierLength = 1024

    /// The first rule this download breaks, as a sentence naming the offending value, or `nil`.
    ///
    /// The framework checks a download before sending it and the service checks it again on
    /// arrival, because a client is never trusted to have run the check.
    /// - Returns: A description of the problem, or `nil` when the download is valid.
    public func validationProblem() -> String? {
        if identifier.isEmpty {
            return "The download's identifier is empty; give every download a non-empty identifier."
        }
        // The NUL is looked for among the bytes: `contains` with a string argument is Foundation's,
        // through NSString, and took a fifth of this check.
        if identifier.utf8.count > Self.maximumIdentifierLength || identifier.utf8.contains(0) {
            return "The identifier \(identifier.debugSummary) is longer than \(Self.maximumIdentifierLength) bytes "
                + "or contains a NUL character; use a short identifier such as the asset's name."
        }
        if kind == .assetPack {
            return "The download \(identifier.debugSummary) claims to be a managed asset pack's archive, which only "
                + "the system downloads; ask for the pack with AssetPackManager.ensureLocalAvailability(of:), or "
                + "schedule a BAURLDownload."
        }
        if let problem = Self.urlProblem(url) {
            return problem
        }
        if fileSize < 0 {
            return "The download \(identifier.debugSummary) has a negative file size (\(fileSize)); "
                + "pass the exact size in bytes."
        }
        if isEssential, fileSize <= 0 {
            return "The essential download \(identifier.debugSummary) has no file size; essential downloads "
                + "need the exact size in bytes, so pass fileSize or make the download non-essential."
        }
        if DevicePaths.isSafePathComponent(applicationGroupIdentifier) == false {
            return "The app group \(applicationGroupIdentifier.debugSummary) is not a valid app group identifier; "
                + "use the identifier listed in the app's and the extension's Info.plist."
        }
        if !(-1000...1000).contains(priority) {
            return "The download \(identifier.debugSummary) has priority \(priority), outside -1000...1000; "
                + "use a value between BADownload.Priority.min and .max."
        }
        return nil
    }

    /// Why a URL cannot be downloaded, or `nil` when it can: https anywhere, http only on loopback.
    /// - Parameter string: The URL as the client sent it.
    /// - Returns: A description of the problem, or `nil`.
    public static func urlProblem(_ string: String) -> String? {
        let scheme: String, host: String
        if let plain = PlainWebURL(string) {
            (scheme, host) = (plain.scheme, plain.host)
        } else {
            guard let components = URLComponents(string: string), let parsedScheme = components.scheme?.lowercased(),
                let parsedHost = components.host, !parsedHost.isEmpty
            else {
                return "The URL \(string.debugSummary) is not an absolute URL with a host; pass a full https URL."
            }
            (scheme, host) = (parsedScheme, parsedHost)
        }
        switch scheme {
        case "https":
            return nil
        case "http" where isLoopback(host: host):
            return nil
        case "http":
            return "The URL \(string.debugSummary) uses http on a host that is not loopback; "
                + "Background Assets downloads over https only (http is allowed for localhost while developing)."
        default:
            return "The URL \(string.debugSummary) has the scheme \(scheme); use an https URL."
        }
    }

    /// Whether a host name is this machine: `localhost`, `127.0.0.0/8`, or `::1`.
    /// - Parameter host: A URL's host, with or without IPv6 brackets.
    public static func isLoopback(host: String) -> Bool {
        // Checked for every descriptor decoded, several times per download: Foundation's
        // CharacterSet trimming took two thirds of this check.
        var bare = Substring(host.lowercased())
        while let first = bare.first, first == "[" || first == "]" { bare.removeFirst() }
        while let last = bare.last, last == "[" || last == "]" { bare.removeLast() }
        if bare == "localhost" || bare == "::1" || bare == "0:0:0:0:0:0:0:1" { return true }
        let octets = bare.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }
}

extension String {
    /// The string quoted for a message, cut short so a hostile 16 MB identifier cannot flood a log
    /// or come back whole in an error answer: at most 64 characters, then the whole size.
    public var debugSummary: String {
        let limit = 64
        // Only the head is looked at, so a huge string costs no more than a short one.
        guard prefix(limit + 1).count > limit else { return debugDescription }
        return String(String(prefix(limit)).debugDescription.dropLast()) + "…\" (\(utf8.count) bytes)"
    }
}
