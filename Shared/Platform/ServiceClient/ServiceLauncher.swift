/*
Abstract:
Starts the system service on demand, the way launchd starts a daemon when its socket is used.
*/

import BackgroundAssetsIPC
import Foundation

/// Starts `backgroundassetsd` when a client finds nothing listening on the service's socket.
///
/// The service is found beside the calling executable (all of the package's executables are built
/// into one folder). Starting it twice is harmless: the service takes a lock file and the second
/// one exits at once, so racing clients need no coordination.
package struct ServiceLauncher: Sendable {
    /// The service's executable.
    package var executable: URL
    /// The device root the service should use; passed as `BA_DEVICE_ROOT`.
    package var paths: DevicePaths
    /// How long a client waits for the started service to listen.
    package var startupTimeout: Duration

    /// Creates a launcher.
    /// - Parameters:
    ///   - executable: The service's executable.
    ///   - paths: The device root the service should use.
    ///   - startupTimeout: How long to wait for the service to listen.
    package init(executable: URL, paths: DevicePaths, startupTimeout: Duration = .seconds(5)) {
        self.executable = executable
        self.paths = paths
        self.startupTimeout = startupTimeout
    }

    /// The launcher for `backgroundassetsd` beside this process's executable.
    /// - Parameter paths: The device root the service should use.
    /// - Returns: A launcher, or `nil` when no service executable is there (for example, in unit tests).
    package static func besideExecutable(paths: DevicePaths) -> ServiceLauncher? {
        // Bundle.main knows the real path (from /proc/self/exe on Linux) even when the process was
        // started through PATH and argv[0] is a bare name.
        let executable = (Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0]))
            .resolvingSymlinksInPath()
        if let launcher = beside(executable, paths: paths) { return launcher }
        // An app or extension running from its installed bundle: the service is beside the build
        // the app was installed from, which the app's record names.
        return installedBuild(of: executable, paths: paths).flatMap { beside($0, paths: paths) }
    }

    /// The built app executable an installed bundle's executable was installed from, if it is one.
    package static func installedBuild(of executable: URL, paths: DevicePaths) -> URL? {
        let apps = paths.appsDirectory.resolvingSymlinksInPath().path + "/"
        guard executable.path.hasPrefix(apps),
            let app = executable.path.dropFirst(apps.count).split(separator: "/").first,
            let record = paths.appRecordFile(forBundleIdentifier: String(app)),
            let data = try? Data(contentsOf: record), data.count <= 1 << 20,
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let built = ((object["builtAppExecutable"] ?? object["appExecutable"]) as? String).flatMap(URL.init(string:))
        else { return nil }
        return built
    }

    /// The launcher for `backgroundassetsd` in the same folder as an executable.
    /// - Parameters:
    ///   - executable: An executable of the package, such as the app.
    ///   - paths: The device root the service should use.
    /// - Returns: A launcher, or `nil` when no service executable is in that folder.
    package static func beside(_ executable: URL, paths: DevicePaths) -> ServiceLauncher? {
        let service = executable.deletingLastPathComponent().appending(path: "backgroundassetsd")
        guard FileManager.default.isExecutableFile(atPath: service.path) else { return nil }
        return ServiceLauncher(executable: service, paths: paths)
    }

    /// A service this client started, until it listens or exits.
    package struct Launched {
        /// The service's process, so a caller waiting for its socket can tell when it exited instead.
        package let process: Process
        /// When it was started.
        package let date: Date
        /// The read end of the service's standard error, when the device log could not be opened for
        /// it (a read-only or unwritable device root): the one place its reason can reach the client.
        let standardError: FileHandle?
    }

    /// Starts the service in the background; it outlives this process.
    /// - Returns: The started service.
    /// - Throws: ``BAError`` with ``BAError/Code/callerConnectionInvalid`` when it cannot be started.
    @discardableResult
    package func launch() throws -> Launched {
        let process = Process()
        process.executableURL = executable
        var environment = ProcessInfo.processInfo.environment
        environment[DevicePaths.environmentVariable] = paths.root.path
        // The service must not present itself as this app or extension.
        environment[ProcessIdentity.bundleIdentifierVariable] = nil
        environment[ProcessIdentity.roleVariable] = nil
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        // Never hand the service this process's stderr: a service holding it open would keep whoever
        // reads it (a terminal pipeline, a test harness) waiting for an end that never comes.
        // A pipe when the log cannot be opened: a service that cannot write its device root exits at
        // once, and what it wrote waits in the pipe's buffer for exitedAtStart. One that starts
        // writes nothing more there (it logs to the device log, or its writes fail once this client
        // has gone), so the pipe never holds anyone up.
        let log = deviceLog()
        let pipe = log == nil ? Pipe() : nil
        process.standardError = log ?? pipe ?? FileHandle.nullDevice
        let date = Date.now
        do {
            try process.run()
        } catch {
            throw BAError(
                .callerConnectionInvalid,
                message: "The Background Assets service at \(executable.path) could not be started (\(error)). "
                    + "Build the package so backgroundassetsd sits beside this executable.")
        }
        try? pipe?.fileHandleForWriting.close()
        return Launched(process: process, date: date, standardError: pipe?.fileHandleForReading)
    }

    /// Why a launched service exited before it listened, in its own words: from the device log, or
    /// from its standard error when it could not write the log.
    /// - Parameter launched: What ``launch()`` returned; its process has exited.
    /// - Returns: An error naming the exit status and the service's logged reason.
    package func exitedAtStart(_ launched: Launched) -> BAError {
        var reasons = DeviceLogExcerpt.errors(in: paths.logFile, category: "daemon", since: launched.date)
        if reasons.isEmpty, let standardError = launched.standardError {
            // The service has exited, so its write end is closed and this read ends.
            let text = String(decoding: (try? standardError.readToEnd()) ?? Data(), as: UTF8.self)
            reasons = DeviceLogExcerpt.errors(inText: text, category: "daemon", since: launched.date)
        }
        try? launched.standardError?.close()
        let reason = reasons.isEmpty ? "it logged no reason; see \(paths.logFile.path)" : reasons.joined(separator: " ")
        return BAError(
            .callerConnectionInvalid,
            message: "The Background Assets service exited at start (status \(launched.process.terminationStatus)): \(reason)")
    }

    /// The device log opened for appending, so the service's first words before it sets up its own
    /// logging are kept; `nil` when the device root has no `system/` folder yet.
    private func deviceLog() -> FileHandle? {
        // Another user's device root is refused by the service; this client writes nothing into it either.
        guard (try? DeviceRootOwnership.checkRoot(paths)) != nil, (try? DeviceRootOwnership.checkFolders(paths)) != nil else {
            return nil
        }
        guard let descriptor = try? LinkRefusingFile.open(paths.logFile, flags: O_WRONLY | O_APPEND | O_CREAT) else { return nil }
        return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }
}
