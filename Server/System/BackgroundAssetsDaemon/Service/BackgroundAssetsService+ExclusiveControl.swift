/*
Abstract:
Granting exclusive control in arrival order, after a file in the extension's hands, and failing waiters whose deadline passes.
*/

import BackgroundAssetsIPC
import Foundation

extension BackgroundAssetsService {
    func acquireExclusiveControl(app: String, deadline: Date?, requestID: UInt64, connection: UInt64) -> ServerResponse? {
        // A file given to the extension a moment ago holds the others back from now, even before
        // the actions that queued or sent it are all done.
        let owesFile = extensionOwesFile(app)
        if owesFile { _ = arbiter.extensionHasFile(true, app: app) }
        let waiter = ExclusiveControlArbiter.Waiter(
            connection: connection, requestID: requestID, deadline: deadline,
            hasFileInHand: extensionCalls.runs[app]?.connection == connection && owesFile)
        switch arbiter.acquire(app: app, waiter, now: wallClock.now) {
        case .granted:
            record(from: clients[connection], event: "acquireExclusiveControl", app: app)
            return .exclusiveControlGranted
        case .queued:
            scheduleExpiry()
            return nil
        case .expired:
            return .failure(Self.timeout(deadline))
        }
    }

    /// Tells the arbiter whether an app's extension still has a finished file in hand, once what a
    /// call's return or the process's end settles (a file it did not take kept for the app) is
    /// done; a waiter the file held back may have control now.
    func noteFileInHand(of app: String) {
        if let next = arbiter.extensionHasFile(extensionOwesFile(app), app: app) { grant(next) }
    }

    /// Whether a finished file is in the extension's hands or on its way to them: given to it, and
    /// it is not done with it yet. The app, which would find such a file neither listed nor on
    /// disk, has no control meanwhile.
    func extensionOwesFile(_ app: String) -> Bool {
        extensionCalls.runs.owesFile(to: app) || extensionFilesOnTheirWay[app, default: 0] > 0
    }

    /// Tells a waiter it now holds control.
    func grant(_ waiter: ExclusiveControlArbiter.Waiter) {
        guard let client = clients[waiter.connection] else { return }
        // Traced before the answer leaves, as a grant answered at once is: a client that reads the
        // trace once it holds control finds its grant there.
        record(from: client, event: "acquireExclusiveControl", app: client.hello?.bundleIdentifier)
        client.connection.send(.response(id: waiter.requestID, response: .exclusiveControlGranted))
    }

    private func scheduleExpiry() {
        expiryTimer?.cancel()
        guard let deadline = arbiter.earliestDeadline else { return }
        // Never sleep longer than an hour, which also bounds the effect of a clock change.
        let expiry = min(deadline, wallClock.now.addingTimeInterval(3600)).addingTimeInterval(0.001)
        expiryTimer = activities.at(expiry, "exclusive-control deadline") { [weak self] in
            await self?.expireWaiters()
        }
    }

    private func expireWaiters() {
        for waiter in arbiter.expire(now: wallClock.now) {
            clients[waiter.connection]?.connection.send(.response(id: waiter.requestID, response: .failure(Self.timeout(waiter.deadline))))
        }
        scheduleExpiry()
    }

    private static func timeout(_ deadline: Date?) -> WireFailure {
        let when = deadline.map { $0.formatted(.iso8601) } ?? "the deadline"
        return WireFailure(domain: "NSPOSIXErrorDomain", code: Int(ETIMEDOUT),
                           message: "Exclusive control was not acquired before \(when): another process held it. Try again later, or wait without a deadline.")
    }
}
