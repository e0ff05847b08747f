/*
Abstract:
The service's policy knobs, read from system/config.json: every one optional, with a documented default.
*/

import BackgroundAssetsIPC
import Foundation

/// The policy of the download service, as `system/config.json` sets it.
///
/// Every key is optional; a missing key takes its default. An unknown key or a value out of range
/// is an error naming it, so a typo is never silently ignored. Durations are in seconds and
/// sizes in bytes. Docs/Debugging.md lists them all.
public struct ServiceConfiguration: Sendable, Equatable {
    /// How many background downloads transfer at once (foreground ones are never held back).
    public var maxConcurrentDownloads = 4
    /// How many small background downloads (a declared size of at most 256 KiB) transfer at once
    /// in slots of their own, beside the `maxConcurrentDownloads` ones (``TransferSlots``); 0 gives
    /// them none, so they take the regular slots like any other.
    public var maxConcurrentSmallDownloads = 16
    /// The bandwidth all running background downloads share, in bytes per second; 0 means no limit.
    public var backgroundBandwidthLimit: Int64 = 8 << 20
    /// The longest time between two durable progress checkpoints, in seconds.
    public var checkpointInterval: Double = 1
    /// The most bytes between two durable progress checkpoints.
    ///
    /// Each checkpoint waits for the disk (`fdatasync`), so on a fast link a small value makes the
    /// disk, not the network, the limit: at 4 MiB a loopback download ran at 0.73x curl's speed,
    /// at 64 MiB at 1.3x (Docs/Performance.md). On a slow link `checkpointInterval` comes first.
    public var checkpointBytes: Int64 = 64 << 20
    /// The delay before the first retry, in seconds; it doubles with each failure.
    public var retryInitialDelay: Double = 2
    /// The longest delay between retries, in seconds; `Retry-After` is clamped to it too.
    public var retryMaxDelay: Double = 300
    /// A background download that makes no progress for this long fails, in seconds.
    public var maxDownloadAge: Double = 7 * 24 * 3600
    /// How long an essential download may go without progress, whatever the cause (no
    /// connectivity, 5xx, stalls, restarts from zero), before it fails, in seconds, so an install
    /// always ends. The old name `essentialConnectivityWait` is still accepted.
    public var essentialWait: Double = 30
    /// How long a foreground download, which a person is waiting for, may go without progress
    /// before it fails, in seconds; 0 keeps the older rule (no connectivity fails at once, other
    /// failures are retried like background ones).
    public var foregroundWait: Double = 60
    /// How often a download waiting for connectivity tries again, in seconds.
    public var connectivityProbeInterval: Double = 5
    /// A connection that delivers nothing for this long is dropped and retried, in seconds.
    public var stallTimeout: Double = 30
    /// A transfer slower than this many bytes per second over `lowSpeedTime` is dropped and
    /// retried like a stall (curl's `--speed-limit`); 0 turns the check off.
    public var lowSpeedLimit: Int64 = 1024
    /// The window `lowSpeedLimit` is measured over, in seconds (curl's `--speed-time`).
    public var lowSpeedTime: Double = 30
    /// The service exits after this long with nothing queued and no client connected, in seconds.
    public var idleExitAfter: Double = 60
    /// How long after its start the service holds finished files for apps whose delegates have not
    /// reconnected yet, before it launches their extensions for them, in seconds.
    public var reconnectGrace: Double = 2
    /// Device seconds per real second, so periodic checks and daily budgets can be watched in minutes.
    public var timeScale: Double = 1
    /// The longest one extension entry point may run, in real seconds.
    public var extensionRuntimeLimit: Double = ExtensionRuntimePolicy.defaultEntryPointLimit
    /// The extension runtime an app may use per device day, in real seconds.
    public var extensionDailyBudget: Double = ExtensionRuntimePolicy.defaultDailyBudget
    /// The most resident memory an extension may use, in bytes.
    public var extensionMemoryLimit: Int64 = 100 << 20
    /// The longest a Background Tasks refresh task may run, in real seconds; its expiration
    /// handler runs 5 s (or a fifth of the limit) before.
    public var appRefreshRuntimeLimit: Double = 30
    /// The longest a Background Tasks processing task may run, in real seconds.
    public var processingRuntimeLimit: Double = 300
    /// The least time between two runs of one Background Tasks identifier of an app, in device
    /// seconds, so a launch handler that submits its request again is not run back to back; 0 turns
    /// the spacing off. The default, 15 minutes, is how far apart Apple's samples ask for their refreshes.
    public var taskRunSpacing: Double = 15 * 60
    /// Whether a `hello` is taken as it is even when the process is not what it claims (an
    /// installed app it does not run, or the tool role from another executable).
    ///
    /// Off on every real device: a connection is who the kernel says it is. Only a device that
    /// tests speak to directly turns it on (the test process, a raw wire client and an in-process
    /// service are no app's executable), and the service says so in its log at start.
    public var trustsClientClaims = false

    /// The defaults.
    public init() {}

    /// Loads the configuration, or returns the defaults when the file does not exist.
    /// - Parameter url: The configuration file, usually `system/config.json`.
    /// - Throws: ``ConfigurationError`` naming the file and the key at fault.
    public static func load(from url: URL) throws -> ServiceConfiguration {
        let table = knobs.mapValues(\.setter)
        do {
            return try SettingsFile.load(
                url, defaults: ServiceConfiguration(), table: table,
                // The old name of essentialWait, from when only connectivity failures were bounded.
                oldNames: ["essentialConnectivityWait": "essentialWait"])
        } catch {
            throw ConfigurationError(path: url.path, key: error.key, reason: error.reason)
        }
    }

    /// One knob: what kind of number it takes, in which range, and where it goes.
    ///
    /// Every number is range-checked here, where it is read, so nothing later converts or multiplies
    /// a value it cannot hold: `1e308` for a count is refused with the range, not trapped on.
    private enum Knob: Sendable {
        /// A whole number (a count or a size in bytes).
        case whole(ClosedRange<Int64>, @Sendable (inout ServiceConfiguration, Int64) -> Void)
        /// A number of seconds, or another measure with a fraction.
        case measure(ClosedRange<Double>, @Sendable (inout ServiceConfiguration, Double) -> Void)
        /// `true` or `false`.
        case flag(@Sendable (inout ServiceConfiguration, Bool) -> Void)

        static func count(_ range: ClosedRange<Int64>, _ set: @escaping @Sendable (inout ServiceConfiguration, Int) -> Void) -> Knob {
            // The range fits an Int on every platform Swift runs this on.
            .whole(range) { set(&$0, Int(truncatingIfNeeded: $1)) }
        }

        static func seconds(from minimum: Double, _ set: @escaping @Sendable (inout ServiceConfiguration, Double) -> Void) -> Knob {
            .measure(minimum...maximumSeconds, set)
        }

        var setter: SettingsFile.Setter<ServiceConfiguration> {
            { [self] configuration, value throws(SettingsFile.Failure) in
                if case let .flag(set) = self {
                    guard case let .flag(flag) = value else {
                        throw SettingsFile.Failure(key: nil, reason: "\(value) is not true or false")
                    }
                    set(&configuration, flag)
                    return
                }
                guard case let .number(number) = value else {
                    throw SettingsFile.Failure(key: nil, reason: "\(value) is not a number")
                }
                switch self {
                case let .whole(range, set):
                    let expected = "use a whole number from \(range.lowerBound) to \(range.upperBound)"
                    guard let whole = number.integer else {
                        let isFraction = number.double.map { $0.rounded() != $0 } ?? false
                        let kind = isFraction ? "not a whole number" : "out of range"
                        throw SettingsFile.Failure(key: nil, reason: "\(number) is \(kind); \(expected)")
                    }
                    guard range.contains(whole) else {
                        throw SettingsFile.Failure(key: nil, reason: "\(number) is out of range; \(expected)")
                    }
                    set(&configuration, whole)
                case let .measure(range, set):
                    guard let measure = number.double, range.contains(measure) else {
                        let bounds = "\(range.lowerBound.formatted()) to \(range.upperBound.formatted())"
                        throw SettingsFile.Failure(key: nil, reason: "\(number) is out of range; use a number from \(bounds)")
                    }
                    set(&configuration, measure)
                case .flag:
                    break
                }
            }
        }
    }

    /// The longest duration any knob takes: ten years, far beyond any useful policy and far within
    /// what a `Duration` or a `Date` can hold after the service adds or multiplies it.
    static let maximumSeconds: Double = 10 * 365 * 24 * 3600

    /// The largest size in bytes a knob takes (1 TiB).
    static let maximumBytes: Int64 = 1 << 40

    private static let knobs: [String: Knob] = [
        "maxConcurrentDownloads": .count(1...1000) { $0.maxConcurrentDownloads = $1 },
        "maxConcurrentSmallDownloads": .count(0...1000) { $0.maxConcurrentSmallDownloads = $1 },
        "backgroundBandwidthLimit": .whole(0...maximumBytes) { $0.backgroundBandwidthLimit = $1 },
        "checkpointInterval": .seconds(from: 0.01) { $0.checkpointInterval = $1 },
        "checkpointBytes": .whole(4096...maximumBytes) { $0.checkpointBytes = $1 },
        "retryInitialDelay": .seconds(from: 0.01) { $0.retryInitialDelay = $1 },
        "retryMaxDelay": .seconds(from: 0.01) { $0.retryMaxDelay = $1 },
        "maxDownloadAge": .seconds(from: 1) { $0.maxDownloadAge = $1 },
        "essentialWait": .seconds(from: 0) { $0.essentialWait = $1 },
        "essentialConnectivityWait": .seconds(from: 0) { $0.essentialWait = $1 },
        "foregroundWait": .seconds(from: 0) { $0.foregroundWait = $1 },
        "connectivityProbeInterval": .seconds(from: 0.01) { $0.connectivityProbeInterval = $1 },
        "stallTimeout": .seconds(from: 0.1) { $0.stallTimeout = $1 },
        "lowSpeedLimit": .whole(0...maximumBytes) { $0.lowSpeedLimit = $1 },
        "lowSpeedTime": .seconds(from: 0.1) { $0.lowSpeedTime = $1 },
        "idleExitAfter": .seconds(from: 0.1) { $0.idleExitAfter = $1 },
        "reconnectGrace": .seconds(from: 0.1) { $0.reconnectGrace = $1 },
        // A million device seconds per real second runs a device year in half a minute.
        "timeScale": .measure(1...1_000_000) { $0.timeScale = $1 },
        "extensionRuntimeLimit": .seconds(from: 0.1) { $0.extensionRuntimeLimit = $1 },
        "extensionDailyBudget": .seconds(from: 0.1) { $0.extensionDailyBudget = $1 },
        "extensionMemoryLimit": .whole(8 * 1_048_576...maximumBytes) { $0.extensionMemoryLimit = $1 },
        "appRefreshRuntimeLimit": .seconds(from: 0.1) { $0.appRefreshRuntimeLimit = $1 },
        "processingRuntimeLimit": .seconds(from: 0.1) { $0.processingRuntimeLimit = $1 },
        "taskRunSpacing": .seconds(from: 0) { $0.taskRunSpacing = $1 },
        "trustsClientClaims": .flag { $0.trustsClientClaims = $1 },
    ]
}

/// A `config.json` that cannot be used.
public struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The configuration file.
    public var path: String
    /// The key at fault, or `nil` when the whole file is.
    public var key: String?
    /// What is wrong.
    public var reason: String

    public var description: String {
        if let key {
            "The setting \"\(key)\" in \(path) is invalid: \(reason). Fix or remove it; Docs/Debugging.md lists the settings."
        } else {
            "The configuration \(path) is invalid: \(reason). Fix it or delete it to use the defaults."
        }
    }
}

extension Duration {
    /// A duration from a number of seconds with a fractional part.
    ///
    /// Saturates instead of trapping: a product of knobs (a backoff doubled many times) may exceed
    /// what nanoseconds in an `Int64` hold (292 years), and no policy needs more than that.
    static func seconds(fractional seconds: Double) -> Duration {
        let nanoseconds = (seconds * 1e9).rounded()
        guard nanoseconds.isFinite, abs(nanoseconds) < 9e18 else {
            return seconds < 0 ? .nanoseconds(Int64.min) : .nanoseconds(Int64.max)
        }
        return .nanoseconds(Int64(nanoseconds))
    }
}
