/*
Abstract:
The configuration `URLSessionConfiguration.background(withIdentifier:)` returns: Foundation's class with the background settings.
*/

import BackgroundAssetsIPC
import Foundation
import Synchronization

extension URLSessionConfiguration {
    /// Creates a session configuration object that allows HTTP and HTTPS downloads to be performed in
    /// the background, by the system, in a separate process.
    ///
    /// Make the session with `URLSession(configuration:delegate:delegateQueue:)`: with this
    /// configuration it returns the system's background session.
    /// - Parameter identifier: The session's identifier, unique within the app. A process that makes
    ///   a session with the same identifier again gets its outstanding tasks and their events.
    /// - Returns: A configuration whose transfers the system performs.
    /// - Note: swift-corelibs-foundation declares this method unavailable; this one returns a
    ///   ``BackgroundURLSessionConfiguration``, so `sessionSendsLaunchEvents` and a settable
    ///   `sharedContainerIdentifier` are there as on Apple platforms.
    public class func background(withIdentifier identifier: String) -> BackgroundURLSessionConfiguration {
        BackgroundURLSessionConfiguration.make(identifier: identifier)
    }
}

/// A background session's configuration: Foundation's `URLSessionConfiguration` with the properties
/// only background sessions use.
///
/// Make one with `URLSessionConfiguration.background(withIdentifier:)`. It keeps Foundation's
/// `identifier`, `isDiscretionary`, `timeoutIntervalForResource` and `timeoutIntervalForRequest`,
/// with Apple's defaults (not discretionary, 7 days, 60 seconds).
public final class BackgroundURLSessionConfiguration: URLSessionConfiguration, @unchecked Sendable {
    // @unchecked: URLSessionConfiguration is itself @unchecked Sendable with plain stored
    // properties; the two added here are behind a lock.
    private struct Added {
        var sendsLaunchEvents = true
        var sharedContainerIdentifier: String?
    }

    private let added = Mutex(Added())

    /// Whether the system launches the app in the background when the session's tasks end or need
    /// credentials. True by default.
    public var sessionSendsLaunchEvents: Bool {
        get { added.withLock { $0.sendsLaunchEvents } }
        set { added.withLock { $0.sendsLaunchEvents = newValue } }
    }

    /// The app group whose container receives the session's downloaded files. An app extension must
    /// set it; an app may, to share the files with its extensions.
    public override var sharedContainerIdentifier: String? {
        get { added.withLock { $0.sharedContainerIdentifier } }
        set { added.withLock { $0.sharedContainerIdentifier = newValue } }
    }

    /// A configuration with the identifier and Foundation's defaults.
    static func make(identifier: String) -> BackgroundURLSessionConfiguration {
        // Foundation's only public initialiser is deprecated (it points at `.default`), and a subclass
        // must call one; through a protocol requirement the call is not deprecated, and `.default`'s
        // values are the ones it copies.
        let configuration = BackgroundURLSessionConfiguration.madeWithInit()
        configuration.identifier = identifier
        return configuration
    }

    public override func copy(with zone: NSZone? = nil) -> Any {
        let copy = BackgroundURLSessionConfiguration.make(identifier: identifier ?? "")
        copy.isDiscretionary = isDiscretionary
        copy.timeoutIntervalForResource = timeoutIntervalForResource
        copy.timeoutIntervalForRequest = timeoutIntervalForRequest
        copy.allowsCellularAccess = allowsCellularAccess
        copy.httpAdditionalHeaders = httpAdditionalHeaders
        copy.sessionSendsLaunchEvents = sessionSendsLaunchEvents
        copy.sharedContainerIdentifier = sharedContainerIdentifier
        return copy
    }

    /// The settings the system keeps for the session.
    var settings: BackgroundSessionSettings {
        BackgroundSessionSettings(
            identifier: identifier ?? "", sendsLaunchEvents: sessionSendsLaunchEvents, isDiscretionary: isDiscretionary,
            sharedContainerIdentifier: sharedContainerIdentifier, timeoutIntervalForResource: timeoutIntervalForResource,
            timeoutIntervalForRequest: timeoutIntervalForRequest)
    }
}

/// A type made with `init()`, reached through a protocol so a deprecated inherited `init()` can witness it.
private protocol DefaultInitializing {
    init()
}

extension DefaultInitializing {
    static func madeWithInit() -> Self { Self() }
}

extension BackgroundURLSessionConfiguration: DefaultInitializing {}
