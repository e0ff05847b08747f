/*
Abstract:
The errors of Background Assets, with Apple's domain, codes, and raw values.
*/

import Foundation

/// The error domain of Background Assets errors.
public let BAErrorDomain = WireFailure.backgroundAssetsDomain

/// An error that Background Assets reports: a ``Code`` and a message saying what to do next.
///
/// Catch a specific code the way you would on Apple platforms:
/// ```swift
/// do { try BADownloadManager.shared.cancel(download) }
/// catch BAError.downloadNotScheduled { /* already ended */ }
/// ```
/// - Note: Apple's `BAError` bridges `NSError` and its description is terse. This one is a Swift
///   struct whose ``message`` names the download or value involved and the next step; it still
///   bridges to `NSError` with ``BAErrorDomain`` and Apple's codes.
public struct BAError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The codes of Background Assets errors: ``BAErrorCode``, Apple's enumeration and raw values.
    public typealias Code = BAErrorCode

    /// The error's code.
    public let code: Code
    /// A sentence saying what happened and what to do next.
    public let message: String

    /// Creates an error.
    /// - Parameters:
    ///   - code: The error's code.
    ///   - message: A sentence naming the download or value involved and the next step; the code's
    ///     general advice when `nil`.
    public init(_ code: Code, message: String? = nil) {
        self.code = code
        self.message = message ?? code.defaultMessage
    }

    /// The domain of every `BAError`, ``BAErrorDomain``.
    public static var errorDomain: String { BAErrorDomain }

    /// The ``message``.
    public var description: String { message }
}

extension BAError.Code {
    /// Whether an error is a `BAError` with a given code; lets `catch BAError.downloadNotScheduled` work.
    /// - Parameters:
    ///   - code: The code to match.
    ///   - error: Any error.
    /// - Returns: `true` when `error` is a `BAError` with `code`.
    public static func ~= (code: Self, error: any Error) -> Bool {
        (error as? BAError)?.code == code
    }
}

extension BAError: LocalizedError {
    /// The ``message``, which `localizedDescription` returns.
    public var errorDescription: String? { message }
}

extension BAError: CustomNSError {
    /// The raw value of the ``code``, Apple's number for it.
    public var errorCode: Int { code.rawValue }
    /// The ``message`` under `NSLocalizedDescriptionKey`.
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: message] }
}
