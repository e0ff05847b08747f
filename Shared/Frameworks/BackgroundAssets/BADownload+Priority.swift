/*
Abstract:
The priority of a download: an extensible integer from min (-1000) to max (1000).
*/

extension BADownload {
    /// A download's execution priority, from ``min`` to ``max``.
    ///
    /// Priority orders the downloads of one app: among downloads that may run, a higher priority is
    /// dequeued first, whatever order they were scheduled in. It never reorders other apps' downloads.
    public struct Priority: RawRepresentable, Hashable, Comparable, Sendable {
        /// The priority as an integer.
        public let rawValue: Int

        /// Creates a priority from an integer.
        /// - Parameter rawValue: A value from -1000 to 1000.
        public init(rawValue: Int) {
            self.rawValue = rawValue
        }

        /// Creates a priority from an integer.
        /// - Parameter rawValue: A value from -1000 to 1000.
        public init(_ rawValue: Int) {
            self.rawValue = rawValue
        }

        /// The lowest execution priority, -1000.
        public static let min = Priority(-1000)

        /// The default execution priority, 0.
        public static let `default` = Priority(0)

        /// The highest execution priority, 1000.
        public static let max = Priority(1000)

        /// Whether one priority runs after another.
        public static func < (lhs: Priority, rhs: Priority) -> Bool {
            lhs.rawValue < rhs.rawValue
        }
    }
}

/// The Objective-C name of ``BADownload/Priority``.
public typealias BADownloaderPriority = BADownload.Priority
