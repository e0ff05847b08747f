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
/// only background sessions use, and the ones swift-corelibs-foundation does not let you set.
///
/// Make one with `URLSessionConfiguration.background(withIdentifier:)`. It keeps Foundation's
/// `identifier`, `isDiscretionary`, `timeoutIntervalForResource` and `timeoutIntervalForRequest`,
/// with Apple's defaults (not discretionary, 7 days, 60 seconds).
///
/// What the system does with each property is in Docs/AppleAPIMapping.md: it honours
/// `isDiscretionary`, `sessionSendsLaunchEvents`, `sharedContainerIdentifier`,
/// `httpAdditionalHeaders` and the two timeouts; it accepts the others and ignores them, for the
/// reason each one's documentation gives.
public final class BackgroundURLSessionConfiguration: URLSessionConfiguration, @unchecked Sendable {
    // @unchecked: URLSessionConfiguration is itself @unchecked Sendable with plain stored
    // properties; the ones added here are behind a lock.
    private struct Added {
        var sendsLaunchEvents = true
        var sharedContainerIdentifier: String?
        var waitsForConnectivity = false
        var allowsExpensiveNetworkAccess = true
        var allowsConstrainedNetworkAccess = true
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

    /// Whether the session waits for connectivity instead of failing at once. False by default.
    ///
    /// - Note: Accepted and ignored, as on Apple platforms: background sessions always wait for
    ///   connectivity. swift-corelibs-foundation declares Foundation's property unavailable; this
    ///   one, declared on the background configuration (and not an override of the unavailable
    ///   one, which Swift refuses), can be set.
    public var waitsForConnectivity: Bool {
        get { added.withLock { $0.waitsForConnectivity } }
        set { added.withLock { $0.waitsForConnectivity = newValue } }
    }

    /// Whether connections may use a network the system considers expensive. True by default.
    ///
    /// - Note: Accepted and ignored: the device has one network, never expensive.
    public var allowsExpensiveNetworkAccess: Bool {
        get { added.withLock { $0.allowsExpensiveNetworkAccess } }
        set { added.withLock { $0.allowsExpensiveNetworkAccess = newValue } }
    }

    /// Whether connections may use a network in Low Data Mode. True by default.
    ///
    /// - Note: Accepted and ignored: the device has no Low Data Mode.
    public var allowsConstrainedNetworkAccess: Bool {
        get { added.withLock { $0.allowsConstrainedNetworkAccess } }
        set { added.withLock { $0.allowsConstrainedNetworkAccess = newValue } }
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
        copy.networkServiceType = networkServiceType
        copy.httpMaximumConnectionsPerHost = httpMaximumConnectionsPerHost
        copy.requestCachePolicy = requestCachePolicy
        copy.httpShouldSetCookies = httpShouldSetCookies
        copy.httpCookieAcceptPolicy = httpCookieAcceptPolicy
        copy.added.withLock { $0 = added.withLock { $0 } }
        return copy
    }

    /// The header fields the system adds to every request of the session that does not set them
    /// itself: `httpAdditionalHeaders`, its string keys and values.
    var additionalHeaderFields: [String: String] {
        var fields: [String: String] = [:]
        for (name, value) in httpAdditionalHeaders ?? [:] {
            guard let name = name.base as? String else { continue }
            fields[name] = value as? String ?? (value as? CustomStringConvertible)?.description
        }
        return fields
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
