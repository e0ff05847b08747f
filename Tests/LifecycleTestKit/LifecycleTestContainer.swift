/*
Abstract:
The app group the lifecycle test app and test extension share, and where in its container they keep their records.
*/

import Foundation

/// The layout of the container `lifecycle-test-app` and `lifecycle-test-extension` share, which the
/// end-to-end tests read.
///
/// Both processes write into `Library/Application Support/lifecycle-test` there: their call logs,
/// and a `files` folder that finished downloads are moved into, named by download identifier.
public enum LifecycleTestContainer {
    /// The app group both test Info.plists declare.
    public static let appGroupIdentifier = "group.com.example.lifecycle-test"

    /// The records folder's path inside the container.
    public static let recordsPath = "Library/Application Support/lifecycle-test"

    /// The name of the extension's call log in the records folder.
    public static let extensionLogName = "calls.jsonl"

    /// The name of the app's call log in the records folder.
    public static let appLogName = "app-calls.jsonl"

    /// The name of the folder, inside the records folder, that finished files are moved into.
    public static let filesFolderName = "files"

    /// The folder the test processes record into.
    /// - Parameter container: The app group container.
    /// - Returns: The records folder.
    public static func recordsFolder(in container: URL) -> URL {
        container.appending(path: recordsPath, directoryHint: .isDirectory)
    }
}
