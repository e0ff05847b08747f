/*
Abstract:
Checks a manifest's fields as they are read, so every error names the session and the field at fault.
*/

import Foundation

/// A session as the manifest's JSON gives it, before validation: every field optional so a missing
/// one can be reported by name rather than as a generic failure. ``ManifestReader`` fills it.
struct RawSession {
    var id: String?
    var title: String?
    var url: String?
    var fileSize: Int?
    var sha256: String?
    var essential: Bool?
    var thumbnailURL: String?
}

/// Turns what ``ManifestReader`` reads into a manifest's values, or an error that names what is wrong.
struct ManifestValidator {
    let source: String
    let baseURL: URL?

    /// The manifest's version, which must be present and not negative.
    func validVersion(_ version: Int?) throws -> Int {
        guard let version else { throw invalid(nil, Manifest.CodingKeys.version, "it is missing") }
        guard version >= 0 else { throw invalid(nil, Manifest.CodingKeys.version, "\(version) is negative") }
        return version
    }

    /// The manifest's sessions, which must be present (an empty list is a manifest with nothing to offer).
    func validSessions(_ sessions: [Session]?) throws -> [Session] {
        guard let sessions else { throw invalid(nil, Manifest.CodingKeys.sessions, "it is missing") }
        return sessions
    }

    /// A session whose every field is usable.
    /// - Parameters:
    ///   - raw: The session's fields as read.
    ///   - index: Its place in the list, which names it when it has no identifier.
    func validate(_ raw: RawSession, index: Int) throws -> Session {
        // An identifier too long to be valid is cut short: the message names it, it need not repeat it.
        // Made only for a message: with 100,000 sessions, making it for each one cost as much as the checks.
        func name() -> String { raw.id.map { "\"\($0.count > 128 ? $0.prefix(128) + "…" : $0)\"" } ?? "#\(index + 1)" }
        guard let id = raw.id, !id.isEmpty else { throw invalid(name(), Session.CodingKeys.id, "it is missing or empty") }
        guard Manifest.isValidIdentifier(id) else {
            throw invalid(
                name(), Session.CodingKeys.id, "it may contain only letters, digits, '.', '-' and '_', and not start with '.'")
        }
        guard let title = raw.title else { throw invalid(name(), Session.CodingKeys.title, "it is missing") }
        guard let urlString = raw.url else { throw invalid(name(), Session.CodingKeys.url, "it is missing") }
        let url = try resolve(urlString, session: name(), field: .url)
        guard let fileSize = raw.fileSize else { throw invalid(name(), Session.CodingKeys.fileSize, "it is missing") }
        guard fileSize >= 0 else { throw invalid(name(), Session.CodingKeys.fileSize, "\(fileSize) is negative") }
        guard let sha256 = raw.sha256 else { throw invalid(name(), Session.CodingKeys.sha256, "it is missing") }
        guard sha256.utf8.count == 64, sha256.utf8.allSatisfy(Self.isHexDigit) else {
            throw invalid(name(), Session.CodingKeys.sha256, "\"\(sha256.prefix(80))\" is not 64 hexadecimal characters")
        }
        let thumbnailURL = try raw.thumbnailURL.map { try resolve($0, session: name(), field: .thumbnailURL) }
        // An absolute URL whose text is the file's is kept as that text without parsing it again.
        let address = url.absoluteString == urlString ? Session.Address(parsedText: urlString) : Session.Address(url)
        let hasUppercase = sha256.utf8.contains { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "F") }
        return Session(
            id: id, title: title, address: address, fileSize: fileSize, sha256: hasUppercase ? sha256.lowercased() : sha256,
            essential: raw.essential ?? false, thumbnailURL: thumbnailURL
        )
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"): true
        default: false
        }
    }

    /// Parses a URL that is either absolute (http or https) or relative to the manifest's URL.
    private func resolve(_ string: String, session: @autoclosure () -> String, field: Session.CodingKeys) throws -> URL {
        guard !string.isEmpty, let url = URL(string: string) else {
            throw invalid(session(), field, "\"\(string.prefix(200))\" is not a URL")
        }
        if let scheme = url.scheme?.lowercased() {
            guard scheme == "https" || scheme == "http" else {
                throw invalid(session(), field, "the scheme \"\(scheme)\" is not http or https")
            }
            guard url.host?.isEmpty == false else { throw invalid(session(), field, "\"\(string)\" has no host") }
            return url
        }
        guard let baseURL else { return url }
        guard let resolved = URL(string: string, relativeTo: baseURL)?.absoluteURL else {
            throw invalid(session(), field, "\"\(string)\" cannot be resolved against \(baseURL.absoluteString)")
        }
        return resolved
    }

    private func invalid(_ session: String?, _ field: some CodingKey, _ reason: String) -> SessionKitError {
        .invalidField(path: source, session: session, field: field.stringValue, reason: reason)
    }
}

extension DecodingError {
    /// A one-line account of what failed and where, such as `sessions[2].fileSize: expected Int`.
    var summary: String {
        func path(_ context: Context) -> String {
            let path = context.codingPath.map { key in
                key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)"
            }.joined()
            return path.hasPrefix(".") ? String(path.dropFirst()) : path
        }
        switch self {
        case let .typeMismatch(type, context), let .valueNotFound(type, context):
            let location = path(context)
            return "\(location.isEmpty ? "the top level" : location) should be \(type)"
        case let .keyNotFound(key, context):
            return "\(path(context)).\(key.stringValue) is missing"
        case let .dataCorrupted(context):
            let location = path(context)
            let detail = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
            return "\(location.isEmpty ? "" : location + ": ")\(detail ?? context.debugDescription)"
        @unknown default:
            return localizedDescription
        }
    }
}
