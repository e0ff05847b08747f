/*
Abstract:
The errors `submit(_:)` throws, with Apple's domain, codes and raw values.
*/

import Foundation

/// The error domain of ``BGTaskScheduler/Error``.
public let BGTaskSchedulerErrorDomain = "BGTaskSchedulerErrorDomain"

extension BGTaskScheduler {
    /// An error from the task scheduler, in ``BGTaskSchedulerErrorDomain``.
    ///
    /// Catch it as Apple's code does, by code or through `NSError`:
    /// ```swift
    /// } catch let error as BGTaskScheduler.Error where error.code == .notPermitted {
    /// ```
    public struct Error: CustomNSError, Hashable, Sendable, CustomStringConvertible {
        /// The task scheduling errors.
        public enum Code: Int, Sendable, Hashable, CaseIterable {
            /// The app or extension can't schedule background work: background app refresh is off,
            /// Low Power Mode is on, or the caller is an extension.
            case unavailable = 1
            /// There are too many pending requests of the type requested.
            case tooManyPendingTaskRequests = 2
            /// The identifier is not in `BGTaskSchedulerPermittedIdentifiers`, or the matching
            /// `UIBackgroundModes` entry (`fetch` or `processing`) is missing.
            case notPermitted = 3
            /// The task can't run immediately.
            case immediateRunIneligible = 4
        }

        /// The app or extension can't schedule background work.
        public static var unavailable: Code { .unavailable }
        /// There are too many pending requests of the type requested.
        public static var tooManyPendingTaskRequests: Code { .tooManyPendingTaskRequests }
        /// The app isn't permitted to schedule the task.
        public static var notPermitted: Code { .notPermitted }
        /// The task can't run immediately.
        public static var immediateRunIneligible: Code { .immediateRunIneligible }

        /// Why the error happened.
        public let code: Code
        /// What went wrong and what to do, in a sentence.
        public let message: String

        /// Creates an error.
        /// - Parameters:
        ///   - code: The error's code.
        ///   - message: What went wrong and what to do.
        public init(_ code: Code, message: String) {
            self.code = code
            self.message = message
        }

        /// ``BGTaskSchedulerErrorDomain``.
        public static var errorDomain: String { BGTaskSchedulerErrorDomain }
        /// The code's raw value.
        public var errorCode: Int { code.rawValue }
        /// The message as `NSLocalizedDescriptionKey`.
        public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: message] }
        /// The message.
        public var description: String { message }
    }
}
