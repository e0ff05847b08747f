/*
Abstract:
What url-session-test-app records: one JSON line per delegate call or step, in the app group container.
*/

import BackgroundAssetsIPC
import BackgroundURLSessions
import LifecycleTestKit
import Synchronization

/// Appends records to the log, one line each, whole.
final class URLSessionTestLog: Sendable {
    static let appGroup = "group.com.example.lifecycle-test"
    static let shared = URLSessionTestLog()

    /// The app group container, where the test reads the log and finds moved files.
    let container: URL
    private let lock = Mutex(())

    private init() {
        container = DevicePaths.current().container(forAppGroup: Self.appGroup) ?? URL(fileURLWithPath: NSTemporaryDirectory())
        try? FileManager.default.createDirectory(at: container, withIntermediateDirectories: true)
    }

    /// Where downloaded files are moved, named by session and task.
    var filesFolder: URL { container.appending(path: "url-session-files", directoryHint: .isDirectory) }

    func append(_ record: URLSessionTestRecord) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard var line = try? encoder.encode(record) else { return }
        line.append(UInt8(ascii: "\n"))
        lock.withLock { _ in
            let file = container.appending(path: "url-session-test-app.jsonl")
            if !FileManager.default.fileExists(atPath: file.path) { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
            guard let handle = try? FileHandle(forWritingTo: file) else { return }
            handle.seekToEndOfFile()
            handle.write(line)
            try? handle.close()
        }
    }

    func append(_ event: String, session: String? = nil, task: Int? = nil) {
        append(URLSessionTestRecord(event: event, session: session, task: task))
    }
}
