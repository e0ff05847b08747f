/*
Abstract:
The errors SessionKit reports: each names the file, field or session at fault and what to do next.
*/

import Foundation

/// An error from loading, validating or saving the sample's data.
public enum SessionKitError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A file could not be opened or read.
    case fileUnreadable(path: String, reason: String)
    /// A file could not be written.
    case fileUnwritable(path: String, reason: String)
    /// A manifest is not well-formed JSON of the expected shape.
    case malformedManifest(path: String, reason: String)
    /// A field of the manifest, or of one of its sessions, has a value the sample cannot use.
    case invalidField(path: String, session: String?, field: String, reason: String)
    /// Two sessions of one manifest share an identifier.
    case duplicateSessionIdentifier(path: String, identifier: String)
    /// An app group identifier could not name a container.
    case invalidAppGroup(String)
    /// A downloaded file is not the video the manifest describes.
    case verificationFailed(session: String, reason: String)
    /// A credentials file is not usable.
    case invalidCredentials(path: String, reason: String)

    public var description: String {
        // A reason is often a Foundation error's sentence; quoted inside ours, its full stop would double ours.
        func clause(_ reason: String) -> String {
            var text = reason.trimmingCharacters(in: .whitespacesAndNewlines)
            while text.hasSuffix("."), !text.hasSuffix("...") { text.removeLast() }
            return text
        }
        return switch self {
        case let .fileUnreadable(path, reason):
            "Could not read \(path): \(clause(reason)). Check that the file exists and is readable."
        case let .fileUnwritable(path, reason):
            "Could not write \(path): \(clause(reason)). Check that the folder exists, is writable, and the disk has space."
        case let .malformedManifest(path, reason):
            "The manifest \(path) is not valid: \(clause(reason)). Fix the JSON or serve a manifest that matches the format in Docs/."
        case let .invalidField(path, session, field, reason):
            if let session {
                "The manifest \(path) has an invalid `\(field)` for session \(session): \(clause(reason)). Correct that entry."
            } else {
                "The manifest \(path) has an invalid `\(field)`: \(clause(reason)). Correct that field."
            }
        case let .duplicateSessionIdentifier(path, identifier):
            "The manifest \(path) lists session \(identifier) more than once. Give every session a unique id."
        case let .invalidAppGroup(identifier):
            "\"\(identifier)\" is not a usable app group identifier. Use letters, digits, '.', '-' and '_' only, as in group.com.example.sessions."
        case let .verificationFailed(session, reason):
            "The download of session \(session) was rejected: \(clause(reason)). It will be downloaded again; "
                + "if this repeats, check the server's copy."
        case let .invalidCredentials(path, reason):
            "The credentials file \(path) is not usable: \(clause(reason)). "
                + "Write it as {\"user\": \"…\", \"password\": \"…\"}, matching the asset server's --auth."
        }
    }
}

extension SessionKitError: LocalizedError {
    /// The ``description``, which `localizedDescription` returns, so logs and alerts show the sentence.
    public var errorDescription: String? { description }
}

/// The text of the current `errno`, for the reasons of SessionKit's few POSIX calls.
///
/// The rest of the project uses `BackgroundAssetsIPC`'s `errnoText(_:)`; SessionKit keeps this
/// one line of its own because it compiles in an Xcode project with Foundation alone, where that
/// module does not exist.
func errnoText() -> String { String(cString: strerror(errno)) }
