/*
Abstract:
The relaunch for a background session's events: the app delegate's entry point, and who calls it.
*/

import BackgroundAssetsIPC
import Foundation
import Synchronization

/// The app-delegate method UIKit calls when a background session's events wait for the app.
///
/// On Apple platforms this is `UIApplicationDelegate`'s
/// `application(_:handleEventsForBackgroundURLSession:completionHandler:)`. Linux has no UIKit, so
/// there is no `UIApplication` to pass: the method keeps its name and the two arguments that carry
/// information, as this project's Background Tasks app delegate keeps `applicationDidFinishLaunching()`.
public protocol BackgroundURLSessionApplicationDelegate: AnyObject, Sendable {
    /// Tells the delegate that events related to a URL session are waiting to be processed.
    ///
    /// Make the session again with this identifier (and the configuration you used before); it
    /// receives the events, then `urlSessionDidFinishEvents(forBackgroundURLSession:)`. Keep the
    /// completion handler and call it from there: the system then ends the background launch.
    /// - Parameters:
    ///   - identifier: The identifier of the session that needs the app.
    ///   - completionHandler: The handler to call once the events are processed.
    func application(handleEventsForBackgroundURLSession identifier: String,
                     completionHandler: @escaping @Sendable () -> Void)
}

/// Where a process names its app delegate, since no `UIApplicationMain` finds it.
///
/// ```swift
/// // The one line Linux needs: there is no UIApplicationMain to find the app delegate.
/// BackgroundURLSessionEvents.applicationDelegate = appDelegate
/// ```
/// Setting the delegate asks the system which of the app's sessions have events waiting (the ones
/// it launched the app for first) and calls the delegate's method for each, on the main queue, as
/// UIKit does.
public enum BackgroundURLSessionEvents {
    private static let current = Mutex<(any BackgroundURLSessionApplicationDelegate)?>(nil)

    /// The app delegate that receives `application(handleEventsForBackgroundURLSession:completionHandler:)`.
    public static var applicationDelegate: (any BackgroundURLSessionApplicationDelegate)? {
        get { current.withLock { $0 } }
        set {
            current.withLock { $0 = newValue }
            if let newValue { deliver(to: newValue, service: SystemURLSessionService.shared, queue: .main) }
        }
    }

    /// Asks the system for the sessions awaiting the app and calls the delegate for each.
    /// - Returns: The task doing it, for callers (tests) that wait for the calls to be queued.
    @discardableResult
    package static func deliver(to delegate: any BackgroundURLSessionApplicationDelegate,
                                service: any BackgroundURLSessionService, queue: DispatchQueue) -> Task<Void, Never> {
        Task {
            let identifiers: [String]
            do {
                identifiers = try await service.sessionsAwaitingEvents()
            } catch {
                return service.warn("The sessions awaiting the app could not be read: \(error)")
            }
            for identifier in identifiers {
                queue.async {
                    delegate.application(handleEventsForBackgroundURLSession: identifier) {
                        Task { await service.finishedHandlingEvents(session: identifier) }
                    }
                }
            }
        }
    }
}
