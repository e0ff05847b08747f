/*
Abstract:
Extension runtime charged to an app's budget but not yet written to its record.
*/

import Foundation

/// The runtime charges waiting to be written to each app's record, written together.
///
/// The budget the service enforces counts a charge at once; the record follows within
/// ``saveDelay``, with every charge made meanwhile. Writing the record (a JSON rewrite and a sync)
/// for each entry point cost more than the entry point itself when an extension moved many small
/// files. A crash of the service forgets at most the charges of the last ``saveDelay``.
struct UnsavedRuntime: Sendable {
    /// How long a charge may wait before it is written.
    static let saveDelay: Duration = .seconds(1)

    /// One entry point's runtime, in seconds, and the device time it ended.
    struct Charge: Sendable, Equatable {
        let seconds: Double
        let date: Date
    }

    private var charges: [String: [Charge]] = [:]
    private var saves: [String: ServiceActivities.Activity] = [:]

    /// Adds a charge.
    /// - Returns: Whether no save is scheduled for the app yet, so the caller schedules one.
    mutating func add(_ charge: Charge, for app: String) -> Bool {
        charges[app, default: []].append(charge)
        return saves[app] == nil
    }

    /// Remembers the save that will write the app's charges.
    mutating func scheduled(_ save: ServiceActivities.Activity, for app: String) {
        saves[app] = save
    }

    /// Takes the app's charges to write them, cancelling a save still waiting.
    mutating func take(for app: String) -> [Charge] {
        saves.removeValue(forKey: app)?.cancel()
        return charges.removeValue(forKey: app) ?? []
    }

    /// The runtime charged to an app and not written yet, which the budget it reports must count.
    func seconds(of app: String) -> Double {
        (charges[app] ?? []).reduce(0) { $0 + max(0, $1.seconds) }
    }

    /// The apps with charges to write.
    var apps: [String] { Array(charges.keys) }
}
