/*
Abstract:
Tests of the launch gate against an in-process service: progress while installing, then the launch.
*/

@testable import BackgroundAssets
import BackgroundAssetsIPC
import Foundation
import Synchronization
import Testing

@Suite("Launch gate", .timeLimit(.minutes(3)))
struct BALaunchGateTests {
    static let request = ClientRequest.core(.awaitLaunchable(bundleIdentifier: nil, recordLaunch: true))

    static func status(_ state: AppStatus.InstallState, _ progress: InstallProgress) -> AppStatus {
        AppStatus(
            bundleIdentifier: "com.example.sessions", version: "1", appGroup: BADownloadTests.group, state: state,
            progress: progress, hasLaunched: state == .launchable, runtimeBudgetLeft: 600)
    }

    /// A service that leaves the gate's request unanswered until the test answers it.
    static func slowService() throws -> FakeService {
        try FakeService { request in
            guard case .core(.awaitLaunchable) = request else { return FakeService.healthy(request) }
            return nil
        }
    }

    @Test("The app waits while it installs, sees each progress report, then launches")
    func progressThenLaunch() async throws {
        let service = try Self.slowService()
        let manager = BADownloadManagerTests.manager(for: service)
        let delegate = BADownloadManagerCallbackTests.RecordingDelegate()
        manager.delegate = delegate
        let reported = Mutex<[BAInstallProgress]>([])
        let gate = Task {
            try await BALaunchGate.waitUntilLaunchable(manager: manager) { progress in
                reported.withLock { $0.append(progress) }
            }
            // What was reported by the time the gate opened.
            return reported.withLock { $0 }
        }
        #expect(await service.waitFor { $0.contains(Self.request) })

        try service.push(
            .installProgress(
                bundleIdentifier: "com.example.sessions",
                progress: InstallProgress(
                    phase: .downloadingEssentialAssets, completedBytes: 25, totalBytes: 100, essentialFinished: 1,
                    essentialFailed: 1, essentialTotal: 4)))
        try service.push(
            .installProgress(
                bundleIdentifier: "com.example.sessions",
                progress: InstallProgress(
                    phase: .downloadingEssentialAssets, completedBytes: 100, totalBytes: 100, essentialFinished: 3,
                    essentialFailed: 1, essentialTotal: 4)))
        let launchable = Self.status(.launchable, InstallProgress(phase: .complete, completedBytes: 100, totalBytes: 100))
        // Unanswered, the gate would wait for ever: the test ends here instead.
        try #require(try service.answer({ $0 == Self.request }, with: .app(launchable)))

        let seen = try await gate.value
        #expect(
            seen == [
                BAInstallProgress(
                    completedBytes: 25, totalBytes: 100, fractionCompleted: 0.25, essentialDownloadsEnded: 2,
                    essentialDownloadsTotal: 4),
                BAInstallProgress(
                    completedBytes: 100, totalBytes: 100, fractionCompleted: 1, essentialDownloadsEnded: 4,
                    essentialDownloadsTotal: 4),
            ])
        #expect(delegate.lines.isEmpty)
    }

    @Test("An app that is already launchable passes the gate at once, with no progress")
    func alreadyLaunchable() async throws {
        let service = try FakeService()
        let manager = BADownloadManagerTests.manager(for: service)
        let reported = Mutex(0)
        try await BALaunchGate.waitUntilLaunchable(manager: manager) { _ in reported.withLock { $0 += 1 } }
        #expect(reported.withLock { $0 } == 0)
        #expect(service.received.contains(Self.request))
    }

    @Test("An app that is not installed is refused with the service's error")
    func notInstalled() async throws {
        let message = "The app com.example.sessions is not installed. Run backgroundassets-debug install first."
        let service = try FakeService { request in
            guard case .core(.awaitLaunchable) = request else { return FakeService.healthy(request) }
            return .failure(.backgroundAssets(code: 55, message: message))
        }
        let manager = BADownloadManagerTests.manager(for: service)
        await #expect(throws: BAError(.callerConnectionNotAccepted, message: message)) {
            try await BALaunchGate.waitUntilLaunchable(manager: manager) { _ in }
        }
    }

    @Test("The gate fails with a clear error when the service is not reachable")
    func serviceUnreachable() async throws {
        let service = try FakeService()
        service.stop()
        let manager = BADownloadManagerTests.manager(for: service)
        let error = await #expect(throws: BAError.self) {
            try await BALaunchGate.waitUntilLaunchable(manager: manager) { _ in }
        }
        #expect(error?.code == .callerConnectionInvalid)
    }

    @Test("Cancelling the wait ends it with CancellationError")
    func cancelled() async throws {
        let service = try Self.slowService()
        let manager = BADownloadManagerTests.manager(for: service)
        let gate = Task { try await BALaunchGate.waitUntilLaunchable(manager: manager) { _ in } }
        let arrived = await service.waitFor { $0.contains(Self.request) }
        #expect(arrived)
        gate.cancel()
        if !arrived { service.stop() }
        await #expect(throws: CancellationError.self) { try await gate.value }
    }
}
