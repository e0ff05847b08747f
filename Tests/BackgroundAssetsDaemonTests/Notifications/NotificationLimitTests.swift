/*
Abstract:
Tests of the bounds on an app's notifications: the soonest-firing 64 kept, oversized fields refused, and pending requests kept on disk.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import TestSupport
import Testing

@Suite("Notifications are kept and bounded", .serialized, .timeLimit(.minutes(2)))
struct NotificationLimitTests {
    let now = Date(timeIntervalSince1970: 2_000_000)
    let app = "com.example.game"

    static func request(_ identifier: String, after interval: TimeInterval, body: String = "New levels are ready.") -> NotificationRequestDescriptor {
        NotificationRequestDescriptor(identifier: identifier, content: NotificationContentDescriptor(title: "Reminder", body: body),
                                      trigger: NotificationTriggerDescriptor(timeInterval: interval, repeats: false))
    }

    @Test("An app keeps its soonest-firing 64 pending requests; a later one is discarded, a sooner one pushes out the latest")
    func soonestKept() {
        var state = NotificationState()
        let limit = NotificationLimits.pendingPerApp
        for index in 0..<limit {
            _ = state.add(Self.request("r\(index)", after: TimeInterval(100 + index)), app: app, now: now)
        }
        _ = state.add(Self.request("other", after: 500), app: "com.example.other", now: now)

        let late = state.add(Self.request("late", after: 10_000), app: app, now: now)
        #expect(late.contains(.discarded(app: app, identifiers: ["late"])), "the 65th fires last, so it is the one discarded")
        #expect(!state.pendingRequests(of: app).contains { $0.identifier == "late" })
        #expect(!late.contains { if case .storePending = $0 { true } else { false } }, "nothing to store: it never became pending")

        let soon = state.add(Self.request("soon", after: 1), app: app, now: now)
        let latest = "r\(limit - 1)"
        #expect(soon.contains(.discarded(app: app, identifiers: [latest])))
        #expect(soon.contains(.storePending(app: app, kept: [PendingNotification(app: app, request: Self.request("soon", after: 1), due: now.addingTimeInterval(1))],
                                           forgotten: [latest])))
        #expect(state.pendingRequests(of: app).count == limit)
        #expect(state.pendingRequests(of: app).last?.identifier == "soon")
        #expect(state.pendingRequests(of: "com.example.other").count == 1, "each app has its own limit")
    }

    @Test("Restored requests are limited again, and those that fell due while the service was down are delivered at once")
    func restore() {
        var state = NotificationState()
        let stored = (0..<(NotificationLimits.pendingPerApp + 2)).map {
            PendingNotification(app: app, request: Self.request("r\($0)", after: 60), due: now.addingTimeInterval(TimeInterval($0)))
        }
        let actions = state.restore(stored, now: now.addingTimeInterval(0.5))
        #expect(actions.contains(.discarded(app: app, identifiers: ["r64", "r65"])))
        #expect(actions.contains(.record(app: app, DeliveredNotificationDescriptor(request: Self.request("r0", after: 60), date: now.addingTimeInterval(0.5)))))
        #expect(state.pendingRequests(of: app).count == NotificationLimits.pendingPerApp - 1)
        #expect(state.nextDueDate == now.addingTimeInterval(1))

        // A repeating request whose time passed an hour ago: delivered once, and next in a minute's step after now.
        var hourly = NotificationState()
        let repeating = NotificationRequestDescriptor(identifier: "every-minute", content: Self.request("r", after: 60).content,
                                                      trigger: NotificationTriggerDescriptor(timeInterval: 60, repeats: true))
        let late = hourly.restore([PendingNotification(app: app, request: repeating, due: now.addingTimeInterval(-3_600))], now: now.addingTimeInterval(30))
        #expect(late.filter { if case .record = $0 { true } else { false } }.count == 1)
        #expect(hourly.nextDueDate == now.addingTimeInterval(60), "the next minute after now, not the 60 missed ones")
    }

    @Test("A field over its limit is named with its size and the limit; one at the limit passes")
    func fieldLimits() {
        #expect(Self.request("fits", after: 60, body: String(repeating: "a", count: NotificationLimits.bodyBytes)).limitProblem() == nil)
        let problem = Self.request("big", after: 60, body: String(repeating: "a", count: 4 << 20)).limitProblem()
        #expect(problem?.contains("body") == true)
        #expect(problem?.contains("4194304 bytes") == true)
        #expect(problem?.contains("at most 4096 bytes") == true)
        var info = Self.request("info", after: 60)
        info.content.userInfoJSON = Data(repeating: 0x20, count: NotificationLimits.userInfoBytes + 1)
        #expect(info.limitProblem()?.contains("userInfo") == true)
        var title = Self.request("title", after: 60)
        title.content.title = String(repeating: "é", count: NotificationLimits.titleBytes / 2 + 1)
        #expect(title.limitProblem()?.contains("title") == true, "bytes, not characters, are counted")
    }

    @Test("The store keeps pending requests in the order added, across reopening")
    func storeKeepsPending() async throws {
        let directory = try TemporaryDirectory(prefix: "notification-pending")
        let url = directory.url.appending(path: "notifications.sqlite")
        let items = (0..<3).map { PendingNotification(app: app, request: Self.request("r\($0)", after: 60), due: now.addingTimeInterval(60)) }
        do {
            let store = try NotificationStore(url: url)
            try await store.updatePending(app: app, kept: items, forgotten: [])
            try await store.updatePending(app: app, kept: [items[0]], forgotten: ["r1"])
        }
        let reopened = try NotificationStore(url: url)
        #expect(try await reopened.pending().map(\.request.identifier) == ["r2", "r0"], "a rewritten request moves to the end, as in the state")
        try await reopened.removeApp(app)
        #expect(try await reopened.pending().isEmpty)
    }

    @Test("Through the service: 200 adds from one app leave 64 pending, and a 4 MiB body is refused naming the limit")
    func throughTheService() async throws {
        try await InProcessService.with { device in
            let game = try await device.recordingClient(app)
            _ = try await game.ask(.notifications(.requestNotificationAuthorization(options: 4)))
            for index in 0..<200 {
                let answer = try await game.ask(.notifications(.addNotification(Self.request("r\(index)", after: TimeInterval(86_400 - index)))))
                #expect(answer == .done, "adding past the limit is not an error, as on Apple platforms")
            }
            guard case let .pendingNotifications(pending) = try await game.ask(.notifications(.fetchPendingNotifications)) else {
                throw TestSupportError("no pending list")
            }
            #expect(pending.count == NotificationLimits.pendingPerApp)
            #expect(Set(pending.map(\.identifier)) == Set((136..<200).map { "r\($0)" }), "the soonest-firing are kept")

            let body = String(repeating: "a", count: 4 << 20)
            guard case let .failure(failure) = try await game.ask(.notifications(.addNotification(Self.request("huge", after: 60, body: body)))) else {
                throw TestSupportError("a 4 MiB body was accepted")
            }
            #expect(failure.domain == "UNErrorDomain" && failure.code == 1401)
            #expect(failure.message.contains("4194304 bytes") && failure.message.contains("4096 bytes"), "\(failure.message)")
            guard case let .pendingNotifications(after) = try await game.ask(.notifications(.fetchPendingNotifications)) else {
                throw TestSupportError("no pending list")
            }
            #expect(!after.contains { $0.identifier == "huge" })
        }
    }
}
