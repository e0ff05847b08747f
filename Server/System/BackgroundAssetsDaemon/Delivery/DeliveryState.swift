/*
Abstract:
The delivery of finished files: hand-over to the app's delegates, holds for a reconnecting delegate, the extension.
*/

import Foundation

/// Every finished file on its way to its owner, and the rules that decide where it goes.
///
/// **Invariant: a finished download has its file until its owner has it.** A finished file is
/// offered to the app's delegates, held for a delegate reconnecting to a restarted service, or given
/// to the app's extension (whose host then owns it until the call returns; an extension that ends
/// without returning and without moving it gives it back, kept for the app). Its names are deleted
/// only when a delegate it was offered to, or the extension, returned from its callback, or when
/// its app is not installed, so nobody can ever own it. A file found gone before its owner had it is fetched again,
/// never reported as delivered. Every file this value tracks lives in the app group's hand-over
/// folder under its name and a kept second name, so a kill at any moment leaves it for the next
/// service, which finds it (``UndeliveredFiles``) and holds it again.
///
/// The hold is in force from the moment the service is created, before it resumes any transfer,
/// until ``reconnectGrace`` after it started: a file whose app has no delegate connected then is
/// held, not given to the extension nor deleted, since the app that lost the previous service is
/// reconnecting (and the service may not know its installed apps yet).
/// A delegate that connects receives what is held for its app; once the grace is over, what is
/// still held goes out as any finished file does.
///
/// **Invariant: while an app holds exclusive control with no delegate set, its finished files stay
/// listed to it.** A file that finishes then is held, not given to the extension, until the app lets
/// go of control (or its connection ends) or sets a delegate: an app that looks at its downloads and
/// its files under exclusive control, as Apple's sample does, finds every finished session listed
/// or on disk, and never starts one again. (The other half of that promise is the exclusive-control
/// arbiter's: the app's control waits while the extension has a file in hand.)
///
/// A value the service owns and tests drive directly, like ``AssetPackState``: no I/O and no clock
/// (the caller passes the time, and whether each file is still there). Each method takes what
/// happened and returns the ``DeliveryAction``s to perform.
struct DeliveryState: Sendable {
    /// A file offered to some delegates, until each of them returns from its callback.
    struct Offer: Sendable, Equatable {
        var finished: FinishedFile
        /// The connections whose callback has not returned yet.
        var pending: Set<UInt64>
        /// Whether a delegate's callback returned; until one does, the file's fate is undecided.
        var isAcknowledged = false
    }

    /// How long after its start the service holds finished files for apps whose delegates are not
    /// connected yet, by default: time for an app that lost the old service to connect again and
    /// take them itself (`reconnectGrace` in `config.json`).
    static let reconnectGrace: TimeInterval = 2

    /// The hold after a start this service keeps.
    private let grace: TimeInterval

    private var offers: [UInt64: Offer] = [:]
    /// The held files, by app, in the order they were held.
    private var held: [String: [FinishedFile]] = [:]
    /// The held files an extension did not take: they wait for a delegate past the reconnect grace.
    private var keptForApp: Set<Int64> = []
    /// The held files that finished while their app held exclusive control with no delegate: they
    /// wait for the app to let go, past the reconnect grace too.
    private var heldWhileAppHasControl: Set<Int64> = []
    private var holdsUntil: Date
    private var isGraceTimerArmed = false
    private var nextOfferID: UInt64 = 1

    /// Creates the deliveries of a service created at `now`: holding, from this moment on.
    /// - Parameter grace: How long after the service's start files wait for reconnecting delegates.
    init(createdAt now: Date, grace: TimeInterval = reconnectGrace) {
        self.grace = grace
        holdsUntil = now.addingTimeInterval(grace)
    }

    // MARK: - Events

    /// The service starts: the hold lasts until the reconnect grace after `now` is over.
    mutating func serviceStarts(at now: Date) {
        holdsUntil = now.addingTimeInterval(grace)
    }

    /// Files an earlier run of the service left in the hand-over folders, found before any transfer
    /// resumed: each is held for its app, unless it is already on its way.
    mutating func found(_ files: [FinishedFile]) -> [DeliveryAction] {
        var actions: [DeliveryAction] = []
        for finished in files where !isTracked(finished.rowID) {
            actions += hold(finished)
        }
        return actions
    }

    /// A download finished (or its file comes back from an extension that did not take it).
    /// - Parameters:
    ///   - finished: The download and its file.
    ///   - delegates: The connections of its app with a delegate set.
    ///   - isInstalled: Whether its app is installed (an app that is not has no owner for the file).
    ///   - isPresent: Whether the file is still there.
    ///   - appHoldsControl: Whether the app itself, not its extension, holds exclusive control.
    ///   - now: The time.
    mutating func finished(
        _ finished: FinishedFile, delegates: Set<UInt64>, isInstalled: Bool, isPresent: Bool,
        appHoldsControl: Bool = false, at now: Date
    ) -> [DeliveryAction] {
        // A file found at start and the queue's report of the same download are one delivery.
        guard !isTracked(finished.rowID) else { return [] }
        return route(finished, delegates: delegates, isInstalled: isInstalled, isPresent: isPresent,
                     appHoldsControl: appHoldsControl, at: now)
    }

    /// The app no longer holds exclusive control (it let go, or its connection ended): the files
    /// held for it meanwhile go out as any finished file does.
    /// - Parameters:
    ///   - app: The app.
    ///   - delegates: The app's connections with a delegate set.
    ///   - isInstalled: Whether the app is installed.
    ///   - isPresent: Whether a file is still there.
    ///   - now: The time.
    mutating func controlLeft(
        app: String, delegates: Set<UInt64>, isInstalled: Bool, isPresent: (URL) -> Bool, at now: Date
    ) -> [DeliveryAction] {
        let waiting = (held[app] ?? []).filter { heldWhileAppHasControl.contains($0.rowID) }
        guard !waiting.isEmpty else { return [] }
        let rows = Set(waiting.map(\.rowID))
        heldWhileAppHasControl.subtract(rows)
        let stillHeld = (held[app] ?? []).filter { !rows.contains($0.rowID) }
        held[app] = stillHeld.isEmpty ? nil : stillHeld
        return waiting.flatMap {
            route($0, delegates: delegates, isInstalled: isInstalled, isPresent: isPresent($0.file), appHoldsControl: false, at: now)
        }
    }

    /// The app's extension ended (crashed, or was killed) without returning from the call that gave
    /// it a finished file. A file no longer under its name was moved away by the extension, which
    /// has it. One still there is the app's: offered to its delegates, else kept until one connects,
    /// and not given to the extension again by this service, where it might fail the same way for
    /// ever (a restarted service gives it once more, after its reconnect grace).
    /// - Parameters:
    ///   - finished: The download and its file.
    ///   - delegates: The connections of its app with a delegate set.
    ///   - isInstalled: Whether its app is installed.
    ///   - isPresent: Whether the file is still under the name the extension was given.
    mutating func extensionDidNotTake(
        _ finished: FinishedFile, delegates: Set<UInt64>, isInstalled: Bool, isPresent: Bool
    ) -> [DeliveryAction] {
        guard !isTracked(finished.rowID) else { return [] }
        guard isPresent else { return [.release(finished, .delivered)] }
        guard isInstalled else { return [.release(finished, .noOwner)] }
        if !delegates.isEmpty { return offer(finished, to: delegates) }
        held[finished.app, default: []].append(finished)
        keptForApp.insert(finished.rowID)
        return [.keepForApp(finished)]
    }

    /// A connection of `app` set its delegate: it receives what is held for the app.
    /// - Parameters:
    ///   - app: The app.
    ///   - delegates: The app's connections with a delegate set, the new one included.
    ///   - isPresent: Whether a file is still there.
    mutating func delegateSet(app: String, delegates: Set<UInt64>, isPresent: (URL) -> Bool) -> [DeliveryAction] {
        guard !delegates.isEmpty, let files = held.removeValue(forKey: app) else { return [] }
        keptForApp.subtract(files.map(\.rowID))
        heldWhileAppHasControl.subtract(files.map(\.rowID))
        return files.flatMap { isPresent($0.file) ? offer($0, to: delegates) : [.fetchAgain($0)] }
    }

    /// The grace timer fired: what is still held goes out as any finished file does, except the files
    /// an extension did not take, which keep waiting for the app, and those waiting for the app to
    /// let go of exclusive control.
    /// - Parameters:
    ///   - now: The time; a timer that fires early (the service restarted the hold) is armed again.
    ///   - delegates: The connections of an app with a delegate set.
    ///   - isInstalled: Whether an app is installed.
    ///   - isPresent: Whether a file is still there.
    ///   - appHoldsControl: Whether an app itself, not its extension, holds exclusive control.
    mutating func reconnectGraceEnded(
        at now: Date, delegates: (String) -> Set<UInt64>, isInstalled: (String) -> Bool, isPresent: (URL) -> Bool,
        appHoldsControl: (String) -> Bool = { _ in false }
    ) -> [DeliveryAction] {
        isGraceTimerArmed = false
        guard !isHolding(at: now) else { return armGraceTimer() }
        let waitsOn = keptForApp.union(heldWhileAppHasControl)
        let files = held.keys.sorted().flatMap { held[$0] ?? [] }.filter { !waitsOn.contains($0.rowID) }
        held = held.mapValues { $0.filter { waitsOn.contains($0.rowID) } }.filter { !$0.value.isEmpty }
        return files.flatMap {
            route($0, delegates: delegates($0.app), isInstalled: isInstalled($0.app), isPresent: isPresent($0.file),
                  appHoldsControl: appHoldsControl($0.app), at: now)
        }
    }

    /// A delegate returned from `finishedWithFileURL`: once the last one it was offered to has, the
    /// owner has the file, and its names are deleted.
    mutating func acknowledged(_ id: UInt64, by connection: UInt64) -> [DeliveryAction] {
        guard var offer = offers[id], offer.pending.contains(connection) else { return [] }
        offer.pending.remove(connection)
        offer.isAcknowledged = true
        guard offer.pending.isEmpty else {
            offers[id] = offer
            return []
        }
        offers[id] = nil
        return [.release(offer.finished, .delivered)]
    }

    /// A connection closed. An offer it was the last to owe ends: delivered when a delegate returned
    /// or moved the file away (an app that exits as its callback returns, before its
    /// acknowledgement arrives, has the file), else (an app that exited or crashed in its callback
    /// without taking it) the file goes on as if just finished, to another delegate of the app,
    /// held, or to the extension.
    /// - Parameters:
    ///   - connection: The connection.
    ///   - delegates: The connections of an app with a delegate set, this one no longer among them.
    ///   - isInstalled: Whether an app is installed.
    ///   - isPresent: Whether a file is still under the name it was offered with.
    ///   - now: The time.
    mutating func connectionClosed(
        _ connection: UInt64, delegates: (String) -> Set<UInt64>, isInstalled: (String) -> Bool,
        isPresent: (URL) -> Bool, at now: Date
    ) -> [DeliveryAction] {
        var actions: [DeliveryAction] = []
        for id in offers.keys.sorted() {
            guard var offer = offers[id], offer.pending.remove(connection) != nil else { continue }
            guard offer.pending.isEmpty else {
                offers[id] = offer
                continue
            }
            offers[id] = nil
            if offer.isAcknowledged || !isPresent(offer.finished.file) {
                actions.append(.release(offer.finished, .delivered))
            } else {
                let finished = offer.finished
                actions += route(finished, delegates: delegates(finished.app).subtracting([connection]),
                                 isInstalled: isInstalled(finished.app), isPresent: true, at: now)
            }
        }
        return actions
    }

    // MARK: - Queries

    /// The rows of an app whose files are offered to its delegates or held for one.
    func rows(of app: String) -> Set<Int64> {
        Set(offers.values.filter { $0.finished.app == app }.map(\.finished.rowID)).union((held[app] ?? []).map(\.rowID))
    }

    /// The apps with files held until they let go of exclusive control.
    var appsHoldingFilesUnderControl: Set<String> {
        Set(held.filter { $0.value.contains { heldWhileAppHasControl.contains($0.rowID) } }.keys)
    }

    /// The files held for an app's delegate, in the order they were held.
    func heldFiles(of app: String) -> [FinishedFile] {
        held[app] ?? []
    }

    /// An offer still waiting for delegates to return.
    func offer(_ id: UInt64) -> Offer? {
        offers[id]
    }

    /// Whether files are held at `now`, for delegates reconnecting after a restart.
    func isHolding(at now: Date) -> Bool {
        now < holdsUntil
    }

    // MARK: - Rules

    private func isTracked(_ rowID: Int64) -> Bool {
        offers.values.contains { $0.finished.rowID == rowID } || held.values.joined().contains { $0.rowID == rowID }
    }

    private mutating func route(
        _ finished: FinishedFile, delegates: Set<UInt64>, isInstalled: Bool, isPresent: Bool,
        appHoldsControl: Bool = false, at now: Date
    ) -> [DeliveryAction] {
        // Never reported as delivered without its bytes: the download runs again instead.
        guard isPresent else { return [.fetchAgain(finished)] }
        if !delegates.isEmpty { return offer(finished, to: delegates) }
        if appHoldsControl, isInstalled {
            held[finished.app, default: []].append(finished)
            heldWhileAppHasControl.insert(finished.rowID)
            return [.holdWhileAppHasControl(finished)]
        }
        // Held whatever the service knows of the app yet: who owns the file is decided when the hold ends.
        if isHolding(at: now) { return hold(finished) }
        return isInstalled ? [.giveToExtension(finished)] : [.release(finished, .noOwner)]
    }

    private mutating func offer(_ finished: FinishedFile, to delegates: Set<UInt64>) -> [DeliveryAction] {
        let id = nextOfferID
        nextOfferID += 1
        offers[id] = Offer(finished: finished, pending: delegates)
        return [.offer(id: id, finished, to: delegates)]
    }

    private mutating func hold(_ finished: FinishedFile) -> [DeliveryAction] {
        held[finished.app, default: []].append(finished)
        return [.hold(finished)] + armGraceTimer()
    }

    private mutating func armGraceTimer() -> [DeliveryAction] {
        guard !isGraceTimerArmed else { return [] }
        isGraceTimerArmed = true
        return [.armGraceTimer(at: holdsUntil)]
    }
}
