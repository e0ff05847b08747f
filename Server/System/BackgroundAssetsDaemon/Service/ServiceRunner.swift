/*
Abstract:
Runs the service for one device root: single instance, the socket, signals, and exit when idle.
*/

import BackgroundAssetsIPC
import Foundation
import Synchronization
import SystemLogging

/// Runs `backgroundassetsd` until it is told to stop or has been idle for `idleExitAfter`.
public struct ServiceRunner: Sendable {
    /// The exit codes of the service, part of its contract with the tools that start it.
    public enum ExitCode: Int32 {
        /// Stopped normally, or another instance already serves the device root.
        case success = 0
        /// The service could not start (socket, store).
        case failure = 1
        /// `config.json` is invalid (EX_CONFIG).
        case configuration = 78
    }

    let paths: DevicePaths
    let foreground: Bool
    private let logger = Logger(subsystem: "com.example.backgroundassetsd", category: "daemon")

    /// Creates a runner.
    /// - Parameters:
    ///   - paths: The device root to serve.
    ///   - foreground: Keep logging to the terminal instead of only to the device log.
    public init(paths: DevicePaths, foreground: Bool) {
        self.paths = paths
        self.foreground = foreground
    }

    /// Serves until `stopRequested` turns true or the service is idle.
    /// - Parameter stopRequested: Polled a few times a second; set by the signal handler.
    /// - Returns: The exit code.
    public func run(stopRequested: @escaping @Sendable () -> Bool) async -> ExitCode {
        do {
            // Before anything is created or its mode changed: never another user's folder, never through a link.
            try DeviceRootOwnership.checkRoot(paths)
            for folder in [paths.runDirectory, paths.systemDirectory, paths.stagingDirectory] {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            }
            try DeviceRootOwnership.checkFolders(paths)
            // A link is left as it is and not logged here: whatever would open it refuses it, in its own words.
            for failure in DeviceRootPrivacy.restrict(paths) where !failure.isLink { logger.error("\(failure)") }
        } catch let refusal as DeviceRootOwnership.Refusal {
            logger.error("\(refusal)")
            return .failure
        } catch {
            logger.error("The device root \(paths.root.path) is not writable: \(reasonText(error)). Make it writable, or choose another with BA_DEVICE_ROOT.")
            return .failure
        }
        if !foreground { Logger.redirectStandardErrorToDeviceLog() }

        let lock: InstanceLock
        do throws(LinkRefusingFile.Failure) {
            guard let acquired = try InstanceLock(lockFile: paths.serviceLockFile, pidFile: paths.servicePIDFile) else {
                let pid = (try? LinkRefusingFile.read(paths.servicePIDFile, limit: 64))
                    .map { String(decoding: $0, as: UTF8.self) }?.trimmingCharacters(in: .whitespacesAndNewlines)
                logger.notice("backgroundassetsd already serves \(paths.root.path) (pid \(pid ?? "unknown")); this one exits.")
                return .success
            }
            lock = acquired
        } catch where error.isLink {
            logger.error("Could not take the lock: \(error)")
            return .failure
        } catch {
            logger.error("Could not take the lock \(paths.serviceLockFile.path): \(error.reason). Make the device root writable, or choose another with BA_DEVICE_ROOT.")
            return .failure
        }

        // Only the instance that holds the lock may leave a crash marker for the next one.
        CrashReport.install(for: paths)

        let configuration: ServiceConfiguration
        do {
            configuration = try ServiceConfiguration.load(from: paths.serviceConfigurationFile)
        } catch {
            logger.error("\(error)")
            return .configuration
        }

        // libdispatch makes a clock's timer descriptor when the first timer on it is armed, and traps
        // if it cannot: a service whose first sleep came after its clients had taken every descriptor
        // stopped with SIGILL. Sleeping once now, while descriptors are free, makes it.
        try? await Task.sleep(for: .milliseconds(1))

        do {
            let service = try BackgroundAssetsService(paths: paths, configuration: configuration, wallClock: SystemServiceClock())
            try await service.start()
            let listener = try UnixSocketListener(path: paths.serviceSocket.path)
            logger.info("backgroundassetsd \(getpid()) serves the device root \(paths.root.path)")
            if configuration.trustsClientClaims {
                logger.notice("trustsClientClaims is on in \(paths.serviceConfigurationFile.path): a client is taken as the app, extension or tool it claims to be, whatever it runs. Only a test device should be set so.")
            }
            let connections = try ConnectionLoop(listener: listener) { connection in
                service.activities.run("client \(connection.id)") { await service.serve(connection) }
            }
            connections.start()
            while !stopRequested() {
                if await service.isIdle() {
                    logger.info("Idle for \(Int(configuration.idleExitAfter)) s with nothing queued: exiting.")
                    break
                }
                // A device root deleted under the service leaves it unreachable, serving nobody.
                guard FileManager.default.fileExists(atPath: paths.serviceSocket.path) else {
                    logger.error("The socket \(paths.serviceSocket.path) is gone (was the device root deleted?): exiting.")
                    break
                }
                try? await Task.sleep(for: .milliseconds(200))
            }
            // Stop taking connections first, so no client reaches a service that is going away.
            connections.stop()
            listener.close()
            await service.stop()
            withExtendedLifetime(lock) {}
            return .success
        } catch {
            logger.error("backgroundassetsd could not start: \(error)")
            return .failure
        }
    }
}
