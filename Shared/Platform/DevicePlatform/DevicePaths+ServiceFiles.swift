/*
Abstract:
The table of every file the service keeps at a fixed place in the device root, and what it does when one is a link.
*/

import Foundation

extension DevicePaths {
    /// A file the service keeps at a fixed place in the device root.
    public struct ServiceFile: Sendable, Equatable {
        /// What the service does when it cannot use the file, such as when a symbolic link was put there.
        public enum WhenUnusable: Sendable, Equatable {
            /// It keeps serving without the file (a log line says so) or replaces a link with a
            /// file of its own by `rename(2)`, which never writes through the link.
            case serviceRunsWithout
            /// It refuses to start, with an error naming the file: it cannot run without its
            /// lock, its stores, or the settings it was given.
            case serviceStops
        }

        /// The file.
        public let url: URL
        /// What happens when the file cannot be used.
        public let whenUnusable: WhenUnusable
    }

    /// Every file the service creates or opens at a fixed place: the one list the service's link
    /// checks and the test that plants a link at each of them both follow.
    ///
    /// The service opens none of them through a symbolic link. Files it names per download (the
    /// staging files) and the apps' folders are not fixed, so they are not listed.
    public var serviceFiles: [ServiceFile] {
        [
            ServiceFile(url: serviceLockFile, whenUnusable: .serviceStops),
            ServiceFile(url: servicePIDFile, whenUnusable: .serviceRunsWithout),
            ServiceFile(url: queueDatabase, whenUnusable: .serviceStops),
            ServiceFile(url: taskDatabase, whenUnusable: .serviceStops),
            ServiceFile(url: notificationDatabase, whenUnusable: .serviceStops),
            ServiceFile(url: urlSessionDatabase, whenUnusable: .serviceStops),
            // Opened when the first pack is kept; until then the service logs why packs are not kept.
            ServiceFile(url: assetPackDatabase, whenUnusable: .serviceRunsWithout),
            ServiceFile(url: serviceConfigurationFile, whenUnusable: .serviceStops),
            ServiceFile(url: deviceSettingsFile, whenUnusable: .serviceStops),
            ServiceFile(url: crashMarkerFile, whenUnusable: .serviceRunsWithout),
            ServiceFile(url: crashHistoryFile, whenUnusable: .serviceRunsWithout),
            ServiceFile(url: traceFile, whenUnusable: .serviceRunsWithout),
            ServiceFile(url: logFile, whenUnusable: .serviceRunsWithout),
        ]
    }
}
