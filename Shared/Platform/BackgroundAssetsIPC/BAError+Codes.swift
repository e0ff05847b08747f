/*
Abstract:
Shorthand for each error code on `BAError`, and the general advice each code carries.
*/

extension BAError {
    /// Shorthand for ``Code/downloadInvalid``.
    public static var downloadInvalid: Code { .downloadInvalid }
    /// Shorthand for ``Code/callFromExtensionNotAllowed``.
    public static var callFromExtensionNotAllowed: Code { .callFromExtensionNotAllowed }
    /// Shorthand for ``Code/callFromInactiveProcessNotAllowed``.
    public static var callFromInactiveProcessNotAllowed: Code { .callFromInactiveProcessNotAllowed }
    /// Shorthand for ``Code/callerConnectionNotAccepted``.
    public static var callerConnectionNotAccepted: Code { .callerConnectionNotAccepted }
    /// Shorthand for ``Code/callerConnectionInvalid``.
    public static var callerConnectionInvalid: Code { .callerConnectionInvalid }
    /// Shorthand for ``Code/downloadAlreadyScheduled``.
    public static var downloadAlreadyScheduled: Code { .downloadAlreadyScheduled }
    /// Shorthand for ``Code/downloadNotScheduled``.
    public static var downloadNotScheduled: Code { .downloadNotScheduled }
    /// Shorthand for ``Code/downloadFailedToStart``.
    public static var downloadFailedToStart: Code { .downloadFailedToStart }
    /// Shorthand for ``Code/downloadAlreadyFailed``.
    public static var downloadAlreadyFailed: Code { .downloadAlreadyFailed }
    /// Shorthand for ``Code/downloadEssentialDownloadNotPermitted``.
    public static var downloadEssentialDownloadNotPermitted: Code { .downloadEssentialDownloadNotPermitted }
    /// Shorthand for ``Code/downloadBackgroundActivityProhibited``.
    public static var downloadBackgroundActivityProhibited: Code { .downloadBackgroundActivityProhibited }
    /// Shorthand for ``Code/downloadWouldExceedAllowance``.
    public static var downloadWouldExceedAllowance: Code { .downloadWouldExceedAllowance }
    /// Shorthand for ``Code/downloadDoesNotExist``.
    public static var downloadDoesNotExist: Code { .downloadDoesNotExist }
    /// Shorthand for ``Code/sessionDownloadDisallowedByDomain``.
    public static var sessionDownloadDisallowedByDomain: Code { .sessionDownloadDisallowedByDomain }
    /// Shorthand for ``Code/sessionDownloadDisallowedByAllowance``.
    public static var sessionDownloadDisallowedByAllowance: Code { .sessionDownloadDisallowedByAllowance }
    /// Shorthand for ``Code/sessionDownloadAllowanceExceeded``.
    public static var sessionDownloadAllowanceExceeded: Code { .sessionDownloadAllowanceExceeded }
    /// Shorthand for ``Code/sessionDownloadNotPermittedBeforeAppLaunch``.
    public static var sessionDownloadNotPermittedBeforeAppLaunch: Code { .sessionDownloadNotPermittedBeforeAppLaunch }
}

extension BAError.Code {
    /// What happened and what to do next, for an error that has no more specific message.
    public var defaultMessage: String {
        switch self {
        case .downloadInvalid:
            "The download is not valid. Use an https URL, a non-empty identifier, and the exact file size "
                + "for an essential download."
        case .callFromExtensionNotAllowed:
            "This call is not allowed from the downloader extension. Make it from the app, or return the "
                + "download from downloads(for:manifestURL:extensionInfo:) instead."
        case .callFromInactiveProcessNotAllowed:
            "This call is only allowed while the app is active. Make it again when the app is in use."
        case .callerConnectionNotAccepted:
            "The system service did not accept this process's connection. Check that the app is installed "
                + "(backgroundassets-debug install) and runs as the same user as the service."
        case .callerConnectionInvalid:
            "The connection to the system service was lost or is not valid. Retry; if it persists, check the "
                + "service's log under the device root."
        case .downloadAlreadyScheduled:
            "A download with this identifier is already scheduled. Fetch the current downloads and promote or "
                + "cancel that one instead of scheduling it again."
        case .downloadNotScheduled:
            "The download is not scheduled; it may have finished, failed, or been cancelled. Fetch the current "
                + "downloads to see what is in flight."
        case .downloadFailedToStart:
            "The download could not start. Check the URL and your connection, then schedule it again."
        case .downloadAlreadyFailed:
            "The download already failed. Create a new download to try again."
        case .downloadEssentialDownloadNotPermitted:
            "Essential downloads can only be returned from downloads(for:manifestURL:extensionInfo:) during an "
                + "install or update. Schedule download.removingEssential() instead."
        case .downloadBackgroundActivityProhibited:
            "Background activity is turned off for this app. Start the download in the foreground from the app, "
                + "or turn background refresh on (backgroundassets-debug settings)."
        case .downloadWouldExceedAllowance:
            "The download would exceed the app's download allowance before first launch. Download it after the "
                + "app launches, or raise BADownloadAllowance in Info.plist."
        case .downloadDoesNotExist:
            "The download does not exist. Fetch the current downloads to see what is in flight."
        case .sessionDownloadDisallowedByDomain:
            "The download's host is not in BADownloadDomainAllowList. Add the domain to the app's Info.plist, "
                + "or download it after the app launches."
        case .sessionDownloadDisallowedByAllowance:
            "The download is larger than the app's allowance before first launch. Download it after the app "
                + "launches, or raise the allowance in Info.plist."
        case .sessionDownloadAllowanceExceeded:
            "The app's download allowance before first launch is used up. Download the rest after the app launches."
        case .sessionDownloadNotPermittedBeforeAppLaunch:
            "This download is not permitted before the app first launches. Schedule it from the app, or after "
                + "its first launch."
        }
    }
}
