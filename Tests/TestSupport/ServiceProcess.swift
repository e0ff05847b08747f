/*
Abstract:
Starts the real backgroundassetsd in a test's device root with a small config.json, and stops every service there.
*/

import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A `backgroundassetsd` started by a test for one device root.
public struct ServiceProcess: Sendable {
    /// The service process.
    public let process: ChildProcess
    /// The device root it serves.
    public let deviceRoot: URL

    /// The environment that points a process at a device root.
    /// - Parameter deviceRoot: The device root.
    public static func environment(for deviceRoot: URL) -> [String: String] {
        [TemporaryDeviceRoot.environmentKey: deviceRoot.path]
    }

    /// Writes `system/config.json` in a device root.
    /// - Parameters:
    ///   - configuration: The knobs, such as `["retryInitialDelay": 0.05]`.
    ///   - trustsClientClaims: Whether the service takes every hello as claimed: only for a test whose
    ///     own process (or a raw wire client) speaks as an installed app or as the debug tool, which
    ///     the real check refuses. Real apps, extensions and the tool pass the check without it.
    ///   - deviceRoot: The device root.
    /// - Throws: An error when the file cannot be written.
    public static func writeConfiguration(
        _ configuration: [String: Double], trustsClientClaims: Bool = false, in deviceRoot: URL
    ) throws {
        let system = deviceRoot.appendingPathComponent("system", isDirectory: true)
        try FileManager.default.createDirectory(at: system, withIntermediateDirectories: true)
        var object: [String: Any] = configuration
        if trustsClientClaims { object["trustsClientClaims"] = true }
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        try data.write(to: system.appendingPathComponent("config.json"))
    }

    /// Starts `backgroundassetsd --foreground` and waits until it accepts connections.
    /// - Parameters:
    ///   - deviceRoot: The device root to serve; created when missing.
    ///   - configuration: Knobs written to `system/config.json` first, or `nil` to keep the file as it is.
    ///   - trustsClientClaims: Whether `system/config.json` turns the identity check off (see
    ///     ``writeConfiguration(_:trustsClientClaims:in:)``); only with `configuration`.
    ///   - readinessTimeout: How long the service may take to listen.
    ///   - extraEnvironment: More variables, such as `BA_BOOT_ID` to simulate a reboot.
    /// - Returns: The running service.
    /// - Throws: `TestSupportError` when the binary is missing or never listens.
    public static func launch(
        deviceRoot: URL, configuration: [String: Double]? = nil, trustsClientClaims: Bool = false,
        readinessTimeout: Duration = defaultPollTimeout, extraEnvironment: [String: String] = [:]
    ) async throws -> ServiceProcess {
        if let configuration {
            try writeConfiguration(configuration, trustsClientClaims: trustsClientClaims, in: deviceRoot)
        }
        let process = try ChildProcess.launch(
            executableURL: try ProductsDirectory.executable(named: "backgroundassetsd"),
            arguments: ["--foreground"], environment: environment(for: deviceRoot).merging(extraEnvironment) { $1 })
        let socket = deviceRoot.appendingPathComponent("run/backgroundassetsd.sock").path
        let pidFile = deviceRoot.appendingPathComponent("run/backgroundassetsd.pid")
        do {
            try await poll(until: {
                if let status = process.exitStatus {
                    throw TestSupportError("backgroundassetsd ended with \(status) before listening.\n\(process.diagnostics())")
                }
                let pid = (try? String(contentsOf: pidFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
                return pid == String(process.pid) && canConnect(toUnixSocket: socket)
            }, timeout: readinessTimeout, interval: .milliseconds(20), "backgroundassetsd to listen on \(socket)")
        } catch {
            await process.terminate()
            process.attachStandardError()
            throw error
        }
        return ServiceProcess(process: process, deviceRoot: deviceRoot)
    }

    /// Sends SIGKILL to whichever service the device root's pid file names, such as one a client
    /// started on demand (a grandchild the test does not own), and waits for it to end.
    /// - Parameter deviceRoot: The device root.
    public static func killAll(in deviceRoot: URL) async {
        let pidFile = deviceRoot.appendingPathComponent("run/backgroundassetsd.pid")
        guard let text = try? String(contentsOf: pidFile, encoding: .utf8),
              let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)), pid > 0,
              isBackgroundAssetsService(pid)
        else { return }
        kill(pid, SIGKILL)
        try? await poll(until: { !isBackgroundAssetsService(pid) }, "pid \(pid) to end")
        endCrashReporters(in: deviceRoot)
    }

    /// Ends the crash reporters that services of this device root left behind.
    ///
    /// A Swift process that crashes starts `swift-backtrace`, which writes the backtrace to the
    /// crashed service's standard error, the device's `system/log`. One that loses its crashed
    /// process while it still reads the process's memory (a test crashes the service on purpose)
    /// holds both ends of its socket to that process and waits on it forever, a process left
    /// behind by every run.
    /// - Parameter deviceRoot: The device root whose log the reporters write to.
    public static func endCrashReporters(in deviceRoot: URL) {
        let log = deviceRoot.appendingPathComponent("system/log").path
        let processes = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for name in processes {
            guard let pid = pid_t(name), pid > 1,
                  let command = try? String(contentsOfFile: "/proc/\(name)/comm", encoding: .utf8),
                  command.hasPrefix("swift-backtrace"),
                  let output = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(name)/fd/2"),
                  output.hasPrefix(log)
            else { continue }
            kill(pid, SIGKILL)
        }
    }

    /// Whether a live (not zombie) process with this pid runs backgroundassetsd.
    private static func isBackgroundAssetsService(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
        return stat.contains("(backgroundasset") && !stat.contains(") Z ")
    }

    /// Whether something accepts connections on a Unix socket.
    /// - Parameter path: The socket's path.
    public static func canConnect(toUnixSocket path: String) -> Bool {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: bytes)
        }
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        return result == 0
    }
}

/// Starts a service in a device root, runs `body`, and afterwards kills every service of that
/// device root, the one started here and any a client started on demand.
/// - Parameters:
///   - deviceRoot: The device root.
///   - configuration: Knobs for `system/config.json`.
///   - trustsClientClaims: Whether the service takes every hello as claimed, for a test whose own
///     process speaks as an installed app or as the tool.
///   - extraEnvironment: More variables for the service, such as `BA_BOOT_ID`.
///   - body: The work to do while the service runs.
/// - Returns: What `body` returns.
/// - Throws: What `body` throws, or `TestSupportError` when the service cannot be started.
public func withService<T>(
    deviceRoot: URL,
    configuration: [String: Double],
    trustsClientClaims: Bool = false,
    extraEnvironment: [String: String] = [:],
    isolation: isolated (any Actor)? = #isolation,
    _ body: (ServiceProcess) async throws -> T
) async throws -> T {
    do {
        let service = try await ServiceProcess.launch(
            deviceRoot: deviceRoot, configuration: configuration, trustsClientClaims: trustsClientClaims,
            extraEnvironment: extraEnvironment)
        let result = try await service.process.runScoped { _ in try await body(service) }
        await ServiceProcess.killAll(in: deviceRoot)
        return result
    } catch {
        await ServiceProcess.killAll(in: deviceRoot)
        throw error
    }
}
