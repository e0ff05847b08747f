/*
Abstract:
Why the system launched the downloader extension: an install, an update, or a periodic check.
*/

/// The reason the system asks the extension for downloads.
public enum BAContentRequest: Int, Sendable, CaseIterable {
    /// The app was just installed; essential downloads are permitted.
    case install = 1
    /// The app was just updated; essential downloads are permitted.
    case update = 2
    /// A periodic check for new content while the app is installed; essential downloads are not permitted.
    case periodic = 3
}
