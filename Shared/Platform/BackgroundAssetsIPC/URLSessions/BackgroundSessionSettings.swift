/*
Abstract:
A background session as the system keeps it: its identifier and the configuration the app gave it.
*/

import Foundation

/// The parts of a background `URLSessionConfiguration` the system acts on, for one app's session.
///
/// The app sends them each time it makes the session; the system keeps the latest, so a session
/// made again in a new process with other settings takes effect from then on, as on Apple platforms.
public struct BackgroundSessionSettings: Codable, Sendable, Hashable {
    /// The session identifier, unique within the app (`background(withIdentifier:)`).
    public var identifier: String
    /// Whether the system launches the app in the background when the session's tasks end
    /// (`sessionSendsLaunchEvents`, true by default).
    public var sendsLaunchEvents: Bool
    /// Whether transfers wait for the conditions the device's settings describe: network, external
    /// power, Low Power Mode off (`isDiscretionary`).
    public var isDiscretionary: Bool
    /// The app group whose container receives the downloaded files (`sharedContainerIdentifier`);
    /// an app extension must set it.
    public var sharedContainerIdentifier: String?
    /// How long a task may take in all, retries included, before it fails (`timeoutIntervalForResource`).
    public var timeoutIntervalForResource: TimeInterval
    /// How long a transfer may wait for data before the attempt counts as failed (`timeoutIntervalForRequest`).
    public var timeoutIntervalForRequest: TimeInterval

    /// Creates settings with Apple's defaults: launch events on, not discretionary, 7 days for a
    /// resource and 60 seconds for a request.
    public init(identifier: String, sendsLaunchEvents: Bool = true, isDiscretionary: Bool = false,
                sharedContainerIdentifier: String? = nil, timeoutIntervalForResource: TimeInterval = 604_800,
                timeoutIntervalForRequest: TimeInterval = 60) {
        self.identifier = identifier
        self.sendsLaunchEvents = sendsLaunchEvents
        self.isDiscretionary = isDiscretionary
        self.sharedContainerIdentifier = sharedContainerIdentifier
        self.timeoutIntervalForResource = timeoutIntervalForResource
        self.timeoutIntervalForRequest = timeoutIntervalForRequest
    }

    /// Why the settings cannot make a session, or `nil` when they can.
    ///
    /// Apple requires a non-empty identifier; here it also names a folder and a trace field, so it
    /// is kept to printable characters without a slash, at most 255 bytes.
    public var refusal: String? {
        if identifier.isEmpty {
            return "A background session needs an identifier: pass a non-empty string to background(withIdentifier:)."
        }
        if identifier.utf8.count > 255 || identifier.contains("/")
            || identifier.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "The background session identifier \"\(identifier)\" is not usable: keep it under 256 bytes, "
                + "without slashes or control characters (for example com.example.MyApp.background)."
        }
        if !(timeoutIntervalForResource > 0) || !(timeoutIntervalForRequest > 0) {
            return "The background session \(identifier) has a timeout that is not positive: set "
                + "timeoutIntervalForResource and timeoutIntervalForRequest to a number of seconds above 0."
        }
        return nil
    }
}
