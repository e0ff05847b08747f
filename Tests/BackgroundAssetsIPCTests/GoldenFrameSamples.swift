/*
Abstract:
One message of every case the protocol has, each named after the frame file that pins its bytes.
*/

import BackgroundAssetsIPC
import Foundation
import Testing

/// A message whose encoding is recorded under `GoldenFrames/v<version>/<name>.json`.
struct GoldenFrame: CustomTestStringConvertible, Sendable {
    /// The file name without extension: the direction, the case and, for nested calls, the inner case.
    let name: String
    /// The message's JSON payload as this build encodes it.
    let encode: @Sendable () throws -> [UInt8]
    /// Whether a recorded payload decodes back into the same message.
    let decodesToSameMessage: @Sendable ([UInt8]) throws -> Bool

    var testDescription: String { name }

    init(request: ClientRequest, named name: String) {
        let message = ClientMessage(id: 42, request: request)
        self.name = "request.\(name)"
        encode = { try MessageCodec.encode(message) }
        decodesToSameMessage = { try MessageCodec.decode(ClientMessage.self, from: $0) == message }
    }

    init(server message: ServerMessage, named name: String) {
        self.name = name
        encode = { try MessageCodec.encode(message) }
        decodesToSameMessage = { try MessageCodec.decode(ServerMessage.self, from: $0) == message }
    }
}

extension SampleMessages {
    static let app = AppStatus(
        bundleIdentifier: "com.example.sessions", version: "1.0", appGroup: "group.com.example.sessions",
        state: .installing,
        progress: InstallProgress(
            phase: .downloadingEssentialAssets, completedBytes: 1024, totalBytes: 4096, essentialFinished: 1,
            essentialFailed: 0, essentialTotal: 2),
        hasLaunched: false, nextPeriodicCheck: Date(timeIntervalSince1970: 1_800_000_000),
        periodicCheckSuspendedBecause: "Low Power Mode is on", runtimeBudgetLeft: 42.5,
        extensionProcessIdentifier: 4343, lastExtensionTermination: "it returned", installSummary: "installed")

    static let processingTask = TaskRequestDescriptor(
        identifier: "com.example.sessions.cleanup", kind: .processing,
        earliestBeginDate: Date(timeIntervalSince1970: 1_800_000_000), requiresNetworkConnectivity: true,
        requiresExternalPower: true)

    static let continuedProcessingTask = TaskRequestDescriptor(
        continuedProcessing: "com.example.sessions.export.7F3A", title: "Exporting sessions", subtitle: "0 of 12",
        strategy: .fail, requiredResources: 0)

    static let failure = WireFailure.backgroundAssets(code: 101, message: "The download \"a\" is not scheduled.")

    /// One message per case, in the order of the tables in ``WireProtocol``.
    static let goldenFrames: [GoldenFrame] = {
        let download = descriptor()
        let requests: [(String, ClientRequest)] = [
            ("hello", .hello(Hello(bundleIdentifier: "com.example.sessions", role: .app, processIdentifier: 4242))),
            ("downloads.setDelegate", .downloads(.setDelegate(isSet: true))),
            ("downloads.schedule", .downloads(.schedule(download: download))),
            ("downloads.startForeground", .downloads(.startForeground(download: download))),
            ("downloads.cancel", .downloads(.cancel(download: download))),
            ("downloads.fetchCurrentDownloads", .downloads(.fetchCurrentDownloads)),
            ("downloads.acquireExclusiveControl", .downloads(.acquireExclusiveControl(deadline: Date(timeIntervalSince1970: 1_800_000_000.5)))),
            ("downloads.releaseExclusiveControl", .downloads(.releaseExclusiveControl)),
            ("downloads.answerChallenge", .downloads(.answerChallenge(
                deliveryID: 7, answer: ChallengeAnswer(disposition: .useCredential, user: "u", password: "p")))),
            ("downloads.acknowledgeDelivery", .downloads(.acknowledgeDelivery(deliveryID: 8))),
            ("core.fetchStatus", .core(.fetchStatus)),
            ("tool.install", .tool(.install(InstallRequest(
                appPlistPath: "/src/App/Info.plist", extensionPlistPath: "/src/Extension/Info.plist",
                executablesDirectory: "/src/.build/debug", version: "2")))),
            ("tool.uninstall", .tool(.uninstall(bundleIdentifier: "com.example.sessions"))),
            ("tool.simulate", .tool(.simulate(.periodic, bundleIdentifier: "com.example.sessions"))),
            ("tool.updateSettings", .tool(.updateSettings(SettingsChange(lowPowerMode: true, app: "com.example.sessions")))),
            ("core.awaitLaunchable", .core(.awaitLaunchable(bundleIdentifier: "com.example.sessions", recordLaunch: true))),
            ("core.extensionCheckIn", .core(.extensionCheckIn)),
            ("core.extensionCallReturned.downloads", .core(.extensionCallReturned(callID: 5, result: .downloads([download])))),
            ("core.extensionCallReturned.challengeAnswer", .core(.extensionCallReturned(
                callID: 6, result: .challengeAnswer(ChallengeAnswer(disposition: .performDefaultHandling))))),
            ("core.extensionCallReturned.done", .core(.extensionCallReturned(callID: 7, result: .done))),
            ("tasks.submitTaskRequest", .tasks(.submitTaskRequest(processingTask))),
            ("tasks.cancelTaskRequests", .tasks(.cancelTaskRequests(identifier: "com.example.sessions.refresh"))),
            ("tasks.fetchPendingTaskRequests", .tasks(.fetchPendingTaskRequests)),
            ("tasks.registerTaskHandler", .tasks(.registerTaskHandler(identifier: "com.example.sessions.refresh"))),
            ("tasks.taskCompleted", .tasks(.taskCompleted(taskID: 11, success: true))),
            ("tool.simulateTask", .tool(.simulateTask(.launch, identifier: "com.example.sessions.refresh", bundleIdentifier: nil))),
            ("tasks.reportTaskProgress", .tasks(.reportTaskProgress(
                taskID: 13, progress: TaskProgress(completedUnitCount: 3, totalUnitCount: 12, title: "Exporting sessions", subtitle: "3 of 12")))),
            ("tool.resetDeviceClock", .tool(.resetDeviceClock)),
            ("assetPacks.fetchAssetPackManifest", .assetPacks(.fetchAssetPackManifest)),
            ("assetPacks.requestAssetPack", .assetPacks(.requestAssetPack(packID: "Slides-WWDC23", version: 2))),
            ("assetPacks.removeAssetPack", .assetPacks(.removeAssetPack(packID: "Slides-WWDC23"))),
            ("assetPacks.checkAssetPackUpdates", .assetPacks(.checkAssetPackUpdates)),
            ("assetPacks.fetchDownloadingAssetPacks", .assetPacks(.fetchDownloadingAssetPacks)),
            ("assetPacks.watchAssetPacks", .assetPacks(.watchAssetPacks)),
            ("tool.purgeAssetPacks", .tool(.purgeAssetPacks(bundleIdentifier: "com.example.sessions", bytes: 1_048_576))),
            ("core.extensionCallReturned.assetPackSelection", .core(.extensionCallReturned(
                callID: 8, result: .assetPackSelection(accepted: ["Transcripts"])))),
            ("core.extensionCallReturned.notManagedExtension", .core(.extensionCallReturned(
                callID: 9, result: .notManagedExtension(typeName: "BackgroundDownloadHandler")))),
            ("core.fetchDownloadStatuses", .core(.fetchDownloadStatuses(after: 1000))),
            ("downloads.fetchCurrentDownloadsPage", .downloads(.fetchCurrentDownloadsPage(after: 1000))),
            ("core.extensionCallReturnedPart", .core(.extensionCallReturnedPart(callID: 5, downloads: [download]))),
        ]
        var settings = DeviceSettings()
        settings.backgroundAppRefreshByApp = ["com.example.sessions": false]
        let answers: [(String, ServerResponse)] = [
            ("hello", .hello(HelloReply(processIdentifier: 77, deviceRoot: "/tmp/device"))),
            ("done", .done),
            ("download", .download(download)),
            ("downloads", .downloads([download])),
            ("exclusiveControlGranted", .exclusiveControlGranted),
            ("status", Self.responses.first { if case .status = $0 { true } else { false } }!),
            ("app", .app(app)),
            ("settings", .settings(settings)),
            ("failure", .failure(failure)),
            ("taskRequests", .taskRequests([processingTask])),
            ("assetPackManifest", .assetPackManifest(AssetPackManifestReply(
                url: "http://127.0.0.1:8080/asset-packs/manifest.json", json: #"{"assetPacks": []}"#))),
            ("assetPackRequest", .assetPackRequest(outcome: .joined)),
            ("assetPackChanges", .assetPackChanges(AssetPackChanges(updating: ["Transcripts"], removed: ["Slides-WWDC22"]))),
            ("downloadStatuses", .downloadStatuses(DownloadStatusPage(downloads: [DownloadStatus(
                bundleIdentifier: "com.example.sessions", download: download, isForeground: false, bytesWritten: 4096,
                bytesExpected: 1_234_567_890, attempts: 1,
                lastError: WireFailure(domain: "NSURLErrorDomain", code: -1004, message: "could not connect"),
                nextAttemptAt: nil, waitsUntilReachable: true)], moreAfter: 2000))),
            ("currentDownloadsPage", .currentDownloadsPage(CurrentDownloadsPage(downloads: [download], moreAfter: 2000))),
        ]
        let calls: [(String, ExtensionCall)] = [
            ("downloads", .downloads(
                request: .install, manifestPath: "/device/containers/g/manifest.json",
                restrictedDownloadSizeRemaining: 1000, restrictedEssentialDownloadSizeRemaining: nil)),
            ("finished", .finished(download: download, filePath: "/device/containers/g/BAFile-1.tmp")),
            ("failed", .failed(download: download, failure: failure)),
            ("challenge", .challenge(download: download, challenge: challenge)),
            ("willTerminate", .willTerminate),
            ("shouldDownload", .shouldDownload(
                manifestPath: "/device/staging/manifests/com.example.sessions-3.json", packIDs: ["Transcripts"])),
        ]
        let eventNames = ["didBegin", "didPause", "didWriteBytes", "didReceiveChallenge", "failed", "finished"]
        return requests.map { GoldenFrame(request: $0.1, named: $0.0) }
            + answers.map { GoldenFrame(server: .response(id: 42, response: $0.1), named: "response.\($0.0)") }
            + zip(eventNames, events).map { GoldenFrame(server: .event($0.1), named: "event.\($0.0)") }
            + [
                GoldenFrame(server: .event(.installProgress(bundleIdentifier: app.bundleIdentifier, progress: app.progress)),
                            named: "event.installProgress"),
                GoldenFrame(server: .event(.launchTask(taskID: 12, request: processingTask)), named: "event.launchTask"),
                GoldenFrame(server: .event(.expireTask(taskID: 12)), named: "event.expireTask"),
                GoldenFrame(server: .event(.assetPackStatus(AssetPackStatusEvent(
                    kind: .downloading, packID: "Slides-WWDC23", version: 2, completedBytes: 1024, totalBytes: 4096))),
                    named: "event.assetPackStatus"),
            ]
            + calls.map {
                GoldenFrame(server: .event(.extensionCall(callID: 9, call: $0.1)), named: "event.extensionCall.\($0.0)")
            }
            + backgroundSessionFrames + notificationFrames
    }()
}
