/*
Abstract:
The codes of Background Assets errors, with Apple's cases and raw values.
*/

/// The codes of Background Assets errors, with Apple's cases and raw values.
///
/// Use it the way you would on Apple platforms:
/// ```swift
/// let error = error as NSError
/// if error.domain == BAErrorDomain, let code = BAErrorCode(rawValue: error.code) { ... }
/// ```
/// Errors this framework throws are ``BAError`` values, whose ``BAError/code`` is a `BAErrorCode`
/// and which bridge to `NSError` with ``BAErrorDomain`` and the code's raw value.
public enum BAErrorCode: Int, Sendable, CaseIterable {
    /// The download is not valid: a bad URL, an empty identifier, or an essential download without a size.
    case downloadInvalid = 0
    /// The call is not allowed from the downloader extension.
    case callFromExtensionNotAllowed = 50
    /// The call is not allowed from a process that is not active.
    case callFromInactiveProcessNotAllowed = 51
    /// The system service did not accept the caller's connection.
    case callerConnectionNotAccepted = 55
    /// The caller's connection to the system service is not valid.
    case callerConnectionInvalid = 56
    /// A download with the same identifier is already scheduled.
    case downloadAlreadyScheduled = 100
    /// The download is not scheduled.
    case downloadNotScheduled = 101
    /// The download could not start.
    case downloadFailedToStart = 102
    /// The download already failed.
    case downloadAlreadyFailed = 103
    /// Essential downloads are not permitted here.
    case downloadEssentialDownloadNotPermitted = 109
    /// Background activity is prohibited for the app.
    case downloadBackgroundActivityProhibited = 111
    /// The download would exceed the app's download allowance.
    case downloadWouldExceedAllowance = 112
    /// The download does not exist.
    case downloadDoesNotExist = 113
    /// The download's domain is not in the app's allow list.
    case sessionDownloadDisallowedByDomain = 202
    /// The download is not allowed by the app's allowance.
    case sessionDownloadDisallowedByAllowance = 203
    /// The app's download allowance is used up.
    case sessionDownloadAllowanceExceeded = 204
    /// The download is not permitted before the app first launches.
    case sessionDownloadNotPermittedBeforeAppLaunch = 206
}
