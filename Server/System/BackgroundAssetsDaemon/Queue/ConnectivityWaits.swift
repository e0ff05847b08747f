/*
Abstract:
The origins that refused a connection, each with one download probing it and the downloads parked behind it.
*/

import BackgroundAssetsIPC
import Foundation

/// The downloads that wait for connectivity, grouped by origin, so an unreachable host costs one
/// attempt per probe interval however many downloads wait for it.
///
/// Before, every download that failed to connect was due again after `connectivityProbeInterval`:
/// 10,000 downloads to an unreachable host made 2,000 attempts a second, each one two commits, two
/// events and a walk of the queue, so the idle service used more than a core. Now the first
/// download of an origin to fail is its probe, retried at that interval; every other download of
/// the origin is parked (``DownloadStore/parkedUntilReachable``) and made due again only when an
/// attempt reaches the origin.
///
/// The bookkeeping lives in memory: a restart makes every parked download due again, and the first
/// to fail becomes the origin's probe once more.
struct ConnectivityWaits: Sendable, Equatable {
    /// One unreachable origin.
    struct Origin: Sendable, Equatable {
        /// The download whose retries probe the origin.
        var probe: Int64
        /// The downloads that wait without attempts until the origin answers.
        var parked: Set<Int64> = []
        /// The error of the latest attempt, which parked downloads show as their reason.
        var lastError: WireFailure
    }

    /// The unreachable origins, by ``origin(of:)``.
    private(set) var origins: [String: Origin] = [:]
    /// The origin of every download listed above, to forget one without searching.
    private var originOfDownload: [Int64: String] = [:]

    /// What the queue does with a download that failed to connect.
    enum Decision: Equatable {
        /// Retry it after the probe interval: it probes its origin.
        case probe
        /// Park it until its origin answers.
        case park
    }

    /// The origin of a URL, `scheme://host:port`, in lower case; `nil` for a URL without a host.
    static func origin(of url: String) -> String? {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            let host = components.host?.lowercased(), !host.isEmpty
        else { return nil }
        let port = components.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(host):\(port)"
    }

    /// Whether an origin is waited for, and the download probing it.
    func probe(of origin: String) -> Int64? {
        origins[origin]?.probe
    }

    /// How many downloads are parked, across every origin.
    var parkedCount: Int {
        origins.values.reduce(0) { $0 + $1.parked.count }
    }

    /// Records that a download failed to connect to its origin, and says whether it probes or parks.
    /// - Returns: The decision, and the download that probes another origin from now on when this one
    ///   probed it before a redirect moved it here (see ``forget(_:)``).
    mutating func connectionFailed(id: Int64, origin: String, error: WireFailure) -> (Decision, newProbe: Int64?) {
        var newProbe: Int64?
        if let previous = originOfDownload[id], previous != origin { newProbe = forget(id) }
        guard var known = origins[origin] else {
            origins[origin] = Origin(probe: id, lastError: error)
            originOfDownload[id] = origin
            return (.probe, newProbe)
        }
        known.lastError = error
        let decision: Decision = known.probe == id ? .probe : .park
        if decision == .park { known.parked.insert(id) }
        origins[origin] = known
        originOfDownload[id] = origin
        return (decision, newProbe)
    }

    /// Parks a due download behind its origin's probe without an attempt.
    /// - Returns: The error to show as its reason, or `nil` when the origin is not waited for.
    mutating func park(id: Int64, origin: String) -> WireFailure? {
        guard var known = origins[origin], known.probe != id else { return nil }
        known.parked.insert(id)
        origins[origin] = known
        originOfDownload[id] = origin
        return known.lastError
    }

    /// An attempt reached the origin: it stops being waited for.
    /// - Returns: The parked downloads, to make due again.
    mutating func reached(_ origin: String) -> Set<Int64> {
        guard let known = origins.removeValue(forKey: origin) else { return [] }
        originOfDownload[known.probe] = nil
        for id in known.parked { originOfDownload[id] = nil }
        return known.parked
    }

    /// Forgets a download that ended, was removed, or failed to connect again.
    /// - Returns: The parked download that probes its origin from now on, when the one forgotten
    ///   was the probe; the origin is forgotten when nobody else waits for it.
    @discardableResult
    mutating func forget(_ id: Int64) -> Int64? {
        guard let origin = originOfDownload.removeValue(forKey: id), var known = origins[origin] else { return nil }
        guard known.probe == id else {
            known.parked.remove(id)
            origins[origin] = known
            return nil
        }
        guard let next = known.parked.min() else {
            origins[origin] = nil
            return nil
        }
        known.parked.remove(next)
        known.probe = next
        origins[origin] = known
        return next
    }
}
