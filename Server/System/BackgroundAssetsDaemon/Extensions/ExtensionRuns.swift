/*
Abstract:
Each app's running extension, the calls waiting for it, and what is remembered between launches.
*/

/// The extension call lifecycle's state (``ExtensionCallLifecycle``): at most one running extension per app, the calls queued for it,
/// calls that wait for a fresh launch because the running one is on its way out, why each app's
/// extension was last stopped by force, whose content request is being answered, and each app's
/// extension runtime today.
struct ExtensionRuns: Sendable {
    /// Where calls queued for an app's extension went.
    enum Queued: Equatable {
        /// Onto the running extension's queue: send the next call.
        case toRunning
        /// The running extension is ending: they wait for a fresh launch.
        case deferred
        /// No extension runs: launch one, then hand it the calls.
        case needsLaunch
    }

    private var runs: [String: ExtensionRun] = [:]
    private var deferred: [String: [ExtensionCallRecord]] = [:]
    private var terminations: [String: String] = [:]
    private var answeringContentRequest: Set<String> = []
    private var runtimeToday: [String: Double] = [:]

    /// Whether no extension runs.
    var isEmpty: Bool { runs.isEmpty }

    /// The apps whose extension runs.
    var apps: [String] { runs.keys.sorted() }

    /// The running extension of an app, changed in place as its calls advance.
    subscript(app: String) -> ExtensionRun? {
        get { runs[app] }
        set { runs[app] = newValue }
    }

    /// Queues calls for an app's extension.
    mutating func queue(_ records: [ExtensionCallRecord], for app: String) -> Queued {
        guard let run = runs[app] else { return .needsLaunch }
        guard run.ending == nil, !run.isTerminating else {
            deferred[app, default: []] += records
            return .deferred
        }
        runs[app]?.pending.append(contentsOf: records)
        return .toRunning
    }

    /// Removes and returns the next call queued for an app's running extension.
    ///
    /// Taken from the queue in place: a copy of the run would copy every call still waiting.
    mutating func takeNextCall(of app: String) -> ExtensionCallRecord? {
        runs[app]?.pending.popFirst()
    }

    /// Whether the next call queued for an app's extension may be sent now, behind the running call,
    /// without waiting for it to return: both may be sent ahead, and fewer than `window` calls are out.
    func maySendAhead(of app: String, window: Int) -> Bool {
        guard let run = runs[app], let running = run.running, run.ending == nil, !run.isTerminating,
            running.record.mayBeSentAhead, 1 + run.sentAhead.count < window, let next = run.pending.first
        else { return false }
        return next.mayBeSentAhead
    }

    /// Removes and returns the calls that waited for the app's next launch.
    mutating func takeDeferred(of app: String) -> [ExtensionCallRecord] {
        deferred.removeValue(forKey: app) ?? []
    }

    /// Every call the app's extension still owes or will be sent: queued, running, or deferred.
    func callsOwed(to app: String) -> [ExtensionCallRecord] {
        let run = runs[app].map {
            Array($0.pending.waiting) + [$0.running?.record].compactMap { $0 } + $0.sentAhead.map(\.record)
        } ?? []
        return run + (deferred[app] ?? [])
    }

    /// Whether the app's extension has a finished file in hand, or one queued for it: from the moment
    /// a file is given to the extension until it is done with it (``ExtensionRun/hasFileInHand``).
    /// A file is never sent ahead, so one that was sent is the running call's, in hand.
    func owesFile(to app: String) -> Bool {
        if let run = runs[app], run.hasFileInHand || run.pending.deliveryCount > 0 { return true }
        return deferred[app]?.contains(where: \.isDelivery) == true
    }

    /// Removes and returns the finished files queued for an app's extension that it has not been
    /// sent yet, so that a delegate can receive them instead.
    ///
    /// The essential phase's outcomes stay: the extension receives them as one batch, and the last
    /// of them ends the install.
    mutating func takeUnsentDeliveries(of app: String) -> [ExtensionCallRecord] {
        func isTakeable(_ record: ExtensionCallRecord) -> Bool {
            guard case .delivery = record.purpose, case let .finished(download, _) = record.call else { return false }
            return !download.isEssential && !record.completesInstall
        }
        let taken = runs[app]?.pending.removeAll(where: isTakeable) ?? []
        let waiting = deferred[app] ?? []
        if deferred[app] != nil { deferred[app] = waiting.filter { !isTakeable($0) } }
        return taken + waiting.filter(isTakeable)
    }

    /// The extension that checked in on a connection, and its app.
    func run(onConnection connection: UInt64) -> (app: String, run: ExtensionRun)? {
        runs.first { $0.value.connection == connection }.map { ($0.key, $0.value) }
    }

    /// Remembers why an app's extension was stopped by force, for `status`.
    mutating func recordTermination(of app: String, reason: String) {
        terminations[app] = reason
    }

    /// Why an app's extension was last stopped by force, if it ever was.
    func lastTermination(of app: String) -> String? {
        terminations[app]
    }

    /// Records that an app's extension runs `downloads(for:...)`: scheduling is refused meanwhile.
    mutating func contentRequestStarted(_ app: String) {
        answeringContentRequest.insert(app)
    }

    /// Records that an app's `downloads(for:...)` returned or will not.
    mutating func contentRequestEnded(_ app: String) {
        answeringContentRequest.remove(app)
    }

    /// Whether an app's extension is answering a content request now.
    func isAnsweringContentRequest(_ app: String) -> Bool {
        answeringContentRequest.contains(app)
    }

    /// An app's extension runtime today, in seconds: what its record held when the extension was
    /// launched, plus every charge since (written to the record a moment later, see ``UnsavedRuntime``).
    func runtimeUsedToday(_ app: String) -> Double? {
        runtimeToday[app]
    }

    /// Updates an app's extension runtime today; `nil` forgets it.
    mutating func setRuntimeUsedToday(_ seconds: Double?, for app: String) {
        runtimeToday[app] = seconds
    }
}
