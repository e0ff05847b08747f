/*
Abstract:
Where a test run's logs go: the service's and the server's lines, and each child's output, into files kept after the run.
*/

import Foundation
import Synchronization
import SystemLogging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Keeps the log lines of the code under test out of `swift test`'s output, in files.
///
/// `swift test` prints test results on standard error, and so does the code under test: the
/// service's queue and the asset server run inside the test process, and their lines (some of
/// them `error:`, about failures a test provoked on purpose) read like failing tests between the
/// results. So the first temporary folder a test process makes also sends its log lines to
/// `in-process.log` in ``folder`` (the test results, and a crash report, stay on standard error),
/// and every ``ChildProcess`` writes its output there too.
///
/// The folder is kept when the test process ends, so the logs of a failed test can be read
/// afterwards (failure messages name the files); the next test run removes it, as it removes every
/// folder of a test process that is gone (``StaleTemporaryFolders``).
public enum TestLogs {
    /// The folder of this test process's logs: `wwdc-test-logs-tPID.XXXXXX` in the temporary directory.
    public static let folder: URL = {
        // Last run's logs go first, so that only this run's are ever there.
        StaleTemporaryFolders.removeOnce()
        let template = URL(fileURLWithPath: NSTemporaryDirectory(), isDirectory: true)
            .appendingPathComponent(StaleTemporaryFolders.name(prefix: "wwdc-test-logs")).path
        var bytes = Array(template.utf8CString)
        guard let created = mkdtemp(&bytes) else {
            // Without a folder of its own the logs go where temporary files go; nothing is lost.
            return URL(fileURLWithPath: NSTemporaryDirectory(), isDirectory: true)
        }
        return URL(fileURLWithPath: String(cString: created), isDirectory: true)
    }()

    /// The file that receives the log lines of the code running in the test process.
    public static var inProcessLog: URL { folder.appendingPathComponent("in-process.log") }

    /// Sends the test process's log lines to ``inProcessLog``, once; later calls do nothing.
    public static func captureLogLines() {
        _ = capture
    }

    /// A new folder in ``folder`` for one child process's output, named after it.
    /// - Parameter name: The child's executable name.
    /// - Throws: The file system's error when the folder cannot be created.
    public static func childFolder(named name: String) throws -> URL {
        let number = childCount.add(1)
        let url = folder.appendingPathComponent("\(name)-\(number)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private static let childCount = Counter()

    private static let capture: Void = {
        Logger.writeStandardErrorLines(toFileAt: inProcessLog.path)
    }()

    /// A thread-safe counter for the children's folder names.
    private final class Counter: Sendable {
        private let value = Mutex(0)
        func add(_ amount: Int) -> Int { value.withLock { $0 += amount; return $0 } }
    }
}
