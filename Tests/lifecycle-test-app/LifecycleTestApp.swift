/*
Abstract:
An app for the lifecycle tests: waits at the launch gate, then optionally receives download callbacks.
*/

import BackgroundAssets
import Foundation
import LifecycleTestKit

/// The app the lifecycle tests install beside `lifecycle-test-extension`.
///
/// It calls the launch gate first, recording each progress report and the moment it may run, to
/// `Library/Application Support/lifecycle-test/app-calls.jsonl` in the app group container. With
/// `--delegate` it then connects a download delegate and records the callbacks it receives; with
/// `--finished N` it waits for N finished downloads. See ``AppOptions`` for the exit codes.
@main
struct LifecycleTestApp {
    static func main() async {
        let options = AppOptions.parseOrExit()
        let container = FileManager.default.containerURL(
            forSecurityApplicationGroupIdentifier: LifecycleTestContainer.appGroupIdentifier
        ) ?? URL(fileURLWithPath: NSTemporaryDirectory())
        let folder = LifecycleTestContainer.recordsFolder(in: container)
        let log = LifecycleCallLog(file: folder.appending(path: LifecycleTestContainer.appLogName))

        do {
            try await BALaunchGate.waitUntilLaunchable { progress in
                var record = LifecycleCallRecord("progress")
                record.completedBytes = progress.completedBytes
                record.totalBytes = progress.totalBytes
                record.essentialEnded = progress.essentialDownloadsEnded
                record.essentialTotal = progress.essentialDownloadsTotal
                log.append(record)
            }
        } catch {
            var record = LifecycleCallRecord("gateFailed")
            record.errorMessage = "\(error)"
            log.append(record)
            FileHandle.standardError.write(Data("lifecycle-test-app: the launch gate failed: \(error)\n".utf8))
            exit(1)
        }
        var launchable = LifecycleCallRecord("launchable")
        launchable.mainBundleIdentifier = Bundle.main.bundleIdentifier
        log.append(launchable)
        guard options.setsDelegate else { exit(0) }
        let filesFolder = folder.appending(path: LifecycleTestContainer.filesFolderName)
        exit(await receiveDownloads(options: options, log: log, filesFolder: filesFolder))
    }

    /// Connects a delegate and waits for the finished downloads the options ask for.
    /// - Returns: The exit code: 0 when they arrived, 1 on timeout or when the service cannot be reached.
    private static func receiveDownloads(
        options: AppOptions, log: LifecycleCallLog, filesFolder: URL
    ) async -> Int32 {
        let (finished, continuation) = AsyncStream<Void>.makeStream()
        let credential = options.credential.map {
            URLCredential(user: $0.user, password: $0.password, persistence: .forSession)
        }
        let delegate = RecordingDelegate(log: log, filesFolder: filesFolder, credential: credential) {
            continuation.yield()
        }
        BADownloadManager.shared.delegate = delegate
        // Setting the delegate is sent without waiting; a request on the same connection is answered
        // after it, so once this returns the service routes callbacks here.
        do {
            _ = try BADownloadManager.shared.fetchCurrentDownloads()
        } catch {
            FileHandle.standardError.write(Data("lifecycle-test-app: the service cannot be reached: \(error)\n".utf8))
            return 1
        }
        log.append(LifecycleCallRecord("delegateConnected"))
        if let url = options.foregroundURL {
            let download = BAURLDownload(
                identifier: "foreground", request: URLRequest(url: url), fileSize: options.foregroundSize,
                applicationGroupIdentifier: LifecycleTestContainer.appGroupIdentifier)
            do {
                try BADownloadManager.shared.startForegroundDownload(download)
            } catch {
                FileHandle.standardError.write(Data("lifecycle-test-app: could not start \(url): \(error)\n".utf8))
                return 1
            }
        }
        let arrived = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                var count = 0
                for await _ in finished {
                    count += 1
                    if count >= options.finishedDownloads { return true }
                }
                return false
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(options.timeout))
                return options.finishedDownloads == 0
            }
            let first = await group.next() ?? false
            group.cancelAll()
            continuation.finish()
            return first
        }
        withExtendedLifetime(delegate) {}
        return arrived ? 0 : 1
    }
}
