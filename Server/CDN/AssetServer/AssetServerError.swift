/*
Abstract:
The one error type of the asset server: bad options, sockets that cannot be opened, and catalog problems.
*/

import Foundation

/// An error the asset server reports instead of serving.
///
/// Each description is a full sentence that names the offending value and says what to do next.
public enum AssetServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A command-line flag was given a value it cannot use.
    case invalidOption(flag: String, value: String, expected: String)
    /// The listening socket could not be created, bound or put into listening state.
    case cannotListen(host: String, port: Int, reason: String)
    /// The catalog folder could not be read, generated or described by a manifest.
    case catalog(path: String, reason: String)
    /// The server was asked to start twice, or after it was shut down.
    case alreadyStarted
    /// The TLS certificate or key could not be used.
    case tls(String)

    public var description: String {
        switch self {
        case let .invalidOption(flag, value, expected):
            "The value '\(value)' for \(flag) is not valid; pass \(expected)."
        case let .cannotListen(host, port, reason):
            "Cannot listen on \(host):\(port) (\(reason)); choose another --host or --port, or pass --port 0."
        case let .catalog(path, reason):
            "The catalog at \(path) cannot be used (\(reason)); fix or delete the folder and start again."
        case let .tls(reason):
            "TLS cannot be set up: \(reason). Pass --tls alone to use a local CA, or check --tls-cert and --tls-key."
        case .alreadyStarted:
            "The asset server was already started; create a new AssetServer to serve again."
        }
    }
}

extension AssetServerError: LocalizedError {
    public var errorDescription: String? { description }
}
