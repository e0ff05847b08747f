/*
Abstract:
The app's run: wait for the install, refresh the manifest, download what is missing, and show it all.
*/

import BackgroundAssets
import Foundation
import SessionKit

/// What opening the app does: keep every session on the device, showing each download as it goes.
struct RunCommand {
    /// How a run with `--until-complete` ended.
    enum Outcome: Sendable {
        /// Every session is on the device, verified.
        case complete(sessions: Int)
        /// Nothing is left in flight, and these sessions failed.
        case failed([Session.ID])
        /// There is no manifest: none was saved, and the server did not give one.
        case noManifest
        /// The timeout passed first.
        case timedOut(Duration)
        /// The app is not installed on the device, so it does not run.
        case notInstalled

        var exitCode: Int32 {
            if case .complete = self { 0 } else { 1 }
        }

        var message: String {
            switch self {
            case let .complete(count):
                "All \(count) sessions are on the device."
            case let .failed(identifiers):
                "\(identifiers.count == 1 ? "1 session" : "\(identifiers.count) sessions") could not be downloaded "
                    + "(\(identifiers.joined(separator: ", "))). "
                    + "The next launch tries again; the log says why."
            case .noManifest:
                "There is no manifest to download sessions from. Start the asset server that BAManifestURL "
                    + "names, or pass --manifest-url."
            case .notInstalled:
                "\(Bundle.appName) is not installed on this device. Install it first: "
                    + "swift run backgroundassets-debug install --wait"
            case let .timedOut(timeout):
                "Not every session was on the device after \(timeout.components.seconds) seconds. "
                    + "Pass a longer --timeout, or check the asset server and the device log."
            }
        }
    }

    let options: AppOptions

    /// Runs until every session is on the device (with `--until-complete`), or until interrupted.
    /// - Returns: The exit status.
    func run() async -> Int32 {
        let display: any SessionDisplay =
            Terminal.isInteractive && !options.plain ? LiveTableDisplay() : EventLineDisplay()
        let interrupts = InterruptHandler { signalNumber in
            display.finish(message: "Interrupted.", isError: false)
            exit(128 + signalNumber)
        }
        defer { withExtendedLifetime(interrupts) {} }

        let outcome = await withTaskGroup(of: Outcome?.self) { group in
            if options.untilComplete {
                group.addTask { [timeout = options.timeout] in
                    try? await Task.sleep(for: timeout)
                    return Task.isCancelled ? nil : .timedOut(timeout)
                }
            }
            group.addTask { await launch(display) }
            // Without --until-complete the launch never ends, and the app runs until interrupted.
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        guard let outcome else { return 0 }
        display.finish(message: outcome.message, isError: outcome.exitCode != 0)
        return outcome.exitCode
    }

    /// Launches the app as the system would: after the install, the session manager takes over.
    private func launch(_ display: any SessionDisplay) async -> Outcome? {
        // Like the home screen, the app can't be opened while the system still installs it.
        guard await BALaunchGate.waitUntilLaunchable(showingProgressOn: display) else { return .notInstalled }

        let manager = SessionManager.shared
        await manager.refreshManifest(from: options.manifestURL)
        manager.startDownloads()
        // Keep the sessions current after this run, too: the system refreshes them in the background.
        BackgroundRefresh.scheduleAppRefresh()
        return await watch(manager, on: display)
    }

    /// Shows the sessions until the run's outcome is known, which without `--until-complete` is never.
    private func watch(_ manager: SessionManager, on display: any SessionDisplay) async -> Outcome? {
        await withTaskGroup(of: Outcome?.self) { group in
            if let interval = display.refreshInterval {
                group.addTask {
                    while !Task.isCancelled {
                        display.refresh(manager.statuses)
                        try? await Task.sleep(for: interval)
                    }
                    return nil
                }
            }
            group.addTask {
                for await event in manager.events {
                    display.show(event)
                    guard event.maySettle else { continue }
                    if options.untilComplete, let outcome = outcome(of: manager, after: event) { return outcome }
                }
                return nil
            }
            for await outcome in group {
                guard let outcome else { continue }
                group.cancelAll()
                display.refresh(manager.statuses)
                return outcome
            }
            return nil
        }
    }

    /// The run's outcome, once every session is on the device or nothing is left in flight.
    private func outcome(of manager: SessionManager, after event: SessionEvent) -> Outcome? {
        if case .manifestUnavailable = event, !manager.hasManifest { return .noManifest }
        guard manager.mayBeSettled else { return nil }
        let statuses = manager.statuses
        guard manager.hasManifest, statuses.allSatisfy(\.phase.isSettled) else { return nil }
        let failed = statuses.filter { $0.phase != .downloaded }.map(\.id)
        return failed.isEmpty ? .complete(sessions: statuses.count) : .failed(failed)
    }
}
