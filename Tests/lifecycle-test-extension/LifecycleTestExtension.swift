/*
Abstract:
A downloader extension for the lifecycle tests: records every entry-point call and misbehaves on request.
*/

import BackgroundAssets
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LifecycleTestKit
import SessionKit

/// The extension the lifecycle tests install beside `lifecycle-test-app`.
///
/// It reads its behaviour from the app group container (see ``LifecycleBehaviour``) and appends
/// a line to `Library/Application Support/lifecycle-test/calls.jsonl` for every entry point the
/// system calls, so tests can check what was called, in which process, and in which order.
@main
struct LifecycleTestExtension: BADownloaderExtension {
    let behaviour: LifecycleBehaviour
    let log: LifecycleCallLog
    let filesFolder: URL

    init() {
        let container = FileManager.default.containerURL(
            forSecurityApplicationGroupIdentifier: LifecycleTestContainer.appGroupIdentifier
        ) ?? URL(fileURLWithPath: NSTemporaryDirectory())
        let folder = LifecycleTestContainer.recordsFolder(in: container)
        log = LifecycleCallLog(file: folder.appending(path: LifecycleTestContainer.extensionLogName))
        filesFolder = folder.appending(path: LifecycleTestContainer.filesFolderName, directoryHint: .isDirectory)
        do {
            behaviour = try LifecycleBehaviour.load(in: container)
        } catch {
            FileHandle.standardError.write(Data("lifecycle-test-extension: unreadable behaviour: \(error)\n".utf8))
            behaviour = LifecycleBehaviour()
        }
    }

    func downloads(for request: BAContentRequest, manifestURL: URL, extensionInfo: BAAppExtensionInfo)
        -> Set<BADownload>
    {
        var record = LifecycleCallRecord("downloads")
        record.request = request.rawValue
        record.path = manifestURL.path
        record.fileExists = FileManager.default.fileExists(atPath: manifestURL.path)
        let attributes = try? FileManager.default.attributesOfItem(atPath: manifestURL.path)
        record.fileMode = (attributes?[.posixPermissions] as? NSNumber)?.intValue
        record.restrictedDownloadSizeRemaining = extensionInfo.restrictedDownloadSizeRemaining
        record.restrictedEssentialDownloadSizeRemaining = extensionInfo.restrictedEssentialDownloadSizeRemaining
        let environment = ProcessInfo.processInfo.environment
        record.bundleIdentifier = environment["BA_BUNDLE_IDENTIFIER"]
        record.role = environment["BA_PROCESS_ROLE"]
        record.mainBundleIdentifier = Bundle.main.bundleIdentifier
        log.append(record)

        if behaviour.misbehaves(for: request.rawValue) {
            if behaviour.crash { abort() }
            MemoryBallast.hold(mebibytes: behaviour.allocateMiB)
            if behaviour.sleepSeconds > 0 { Thread.sleep(forTimeInterval: behaviour.sleepSeconds) }
        }
        if behaviour.exclusiveControlSeconds > 0 { holdExclusiveControl(seconds: behaviour.exclusiveControlSeconds) }

        // The manifest is a read-only copy that the system deletes when this method returns: read it now.
        let plan = DownloadPlan(behaviour: behaviour, appGroupIdentifier: LifecycleTestContainer.appGroupIdentifier)
        let manifest: Manifest
        do {
            manifest = try Manifest.load(from: manifestURL, baseURL: behaviour.manifestURL)
        } catch {
            log.append(Self.record("returned", error: error))
            return []
        }
        if behaviour.scheduleInsideDownloads, let session = manifest.sessions.first {
            // The system refuses this: downloads are returned from this method, not scheduled in it.
            let download = plan.download(for: session, essential: false, identifier: "scheduled-inside-\(session.id)")
            var attempt = LifecycleCallRecord("scheduleInsideDownloads")
            do {
                try BADownloadManager.shared.scheduleDownload(download)
            } catch {
                attempt = Self.record("scheduleInsideDownloads", error: error)
            }
            attempt.download = download.identifier
            log.append(attempt)
        }
        let downloads = plan.downloads(from: manifest, for: request)
        var returned = LifecycleCallRecord("returned")
        returned.request = request.rawValue
        returned.returned = downloads.map(\.identifier)
        log.append(returned)
        return Set(downloads)
    }

    func backgroundDownload(_ download: BADownload, failedWithError error: any Error) {
        var record = Self.record("failed", error: error)
        record.download = download.identifier
        record.isEssential = download.isEssential
        record.isExactlyURLDownload = type(of: download) == BAURLDownload.self
        log.append(record)
        guard behaviour.rescheduleFailedEssential, download.isEssential else { return }
        // Essential downloads are only permitted during the install; try again in the background.
        var attempt = LifecycleCallRecord("rescheduled")
        do {
            try BADownloadManager.shared.scheduleDownload(download.removingEssential())
        } catch {
            attempt = Self.record("rescheduled", error: error)
        }
        attempt.download = download.identifier
        log.append(attempt)
    }

    func backgroundDownload(_ download: BADownload, finishedWithFileURL fileURL: URL) {
        var record = LifecycleCallRecord("finished")
        record.download = download.identifier
        record.isEssential = download.isEssential
        record.isExactlyURLDownload = type(of: download) == BAURLDownload.self
        record.path = fileURL.path
        if behaviour.finishedSleepSeconds > 0 { Thread.sleep(forTimeInterval: behaviour.finishedSleepSeconds) }
        // The system deletes the file when this method returns, so move it now: into place, or
        // aside, to be moved into place under exclusive control.
        let aside = filesFolder.deletingLastPathComponent().appending(path: "aside", directoryHint: .isDirectory)
        let delay = behaviour.moveUnderExclusiveControlAfter
        record.moveFinishedFile(
            at: fileURL, into: behaviour.movesAsTheSampleDoes || delay != nil ? aside : filesFolder, as: download.identifier)
        if behaviour.movesAsTheSampleDoes {
            moveIntoPlaceAsTheSampleDoes(download.identifier, from: aside)
        } else if let delay {
            moveIntoPlace(download.identifier, from: aside, after: delay)
        }
        log.append(record)
    }

    /// Moves a file set aside into place under exclusive control, asked for here, before the entry
    /// point returns, with the completion-handler API, as Apple's sample does.
    private func moveIntoPlaceAsTheSampleDoes(_ name: String, from aside: URL) {
        let log = log
        let filesFolder = filesFolder
        BADownloadManager.shared.withExclusiveControl { acquired, error in
            guard acquired else {
                var failed = LifecycleCallRecord("movedIntoPlace")
                failed.download = name
                failed.errorMessage = "exclusive control was not acquired: \(error.map { "\($0)" } ?? "no reason given")"
                log.append(failed)
                return
            }
            Self.placeUnderControl(name, from: aside, into: filesFolder, log: log)
        }
    }

    /// Moves a file set aside into place under exclusive control, from a task that asks for it
    /// `delay` seconds from now, as a request sent just after the entry point returned.
    private func moveIntoPlace(_ name: String, from aside: URL, after delay: Double) {
        let log = log
        let filesFolder = filesFolder
        Task.detached {
            try? await Task.sleep(for: .seconds(delay))
            do {
                try await BADownloadManager.shared.withExclusiveControl {
                    Self.placeUnderControl(name, from: aside, into: filesFolder, log: log)
                }
            } catch {
                log.append(Self.record("movedIntoPlace", error: error))
            }
        }
    }

    /// Moves a file set aside into place, with exclusive control held, and half a second longer.
    private static func placeUnderControl(_ name: String, from aside: URL, into filesFolder: URL, log: LifecycleCallLog) {
        Thread.sleep(forTimeInterval: 0.5)
        var record = LifecycleCallRecord("movedIntoPlace")
        record.download = name
        record.moveFinishedFile(at: aside.appending(path: name), into: filesFolder, as: name)
        log.append(record)
    }

    func backgroundDownload(_ download: BADownload, didReceive challenge: URLAuthenticationChallenge) async
        -> (URLSession.AuthChallengeDisposition, URLCredential?)
    {
        var record = LifecycleCallRecord("challenge")
        record.download = download.identifier
        log.append(record)
        return (.performDefaultHandling, nil)
    }

    func extensionWillTerminate() {
        log.append(LifecycleCallRecord("willTerminate"))
    }

    /// Holds exclusive control from an async task; the system must keep the extension alive until it is released.
    private func holdExclusiveControl(seconds: Double) {
        let log = log
        Task.detached {
            do {
                try await BADownloadManager.shared.withExclusiveControl {
                    log.append(LifecycleCallRecord("exclusiveControlAcquired"))
                    Thread.sleep(forTimeInterval: seconds)
                    log.append(LifecycleCallRecord("exclusiveControlReleased"))
                }
            } catch {
                log.append(Self.record("exclusiveControlAcquired", error: error))
            }
        }
    }

    /// A record of an error: its domain, code and message as Foundation bridges them.
    private static func record(_ entryPoint: String, error: any Error) -> LifecycleCallRecord {
        var record = LifecycleCallRecord(entryPoint)
        if let error = error as? BAError {
            record.errorDomain = BAErrorDomain
            record.errorCode = error.code.rawValue
            record.errorMessage = error.message
        } else {
            let bridged = error as NSError
            record.errorDomain = bridged.domain
            record.errorCode = bridged.code
            record.errorMessage = bridged.localizedDescription
        }
        return record
    }
}
