/*
Abstract:
Pending notifications with the real service: kept across SIGKILL and delivered at their time, and the service's memory under a flood of adds and oversized bodies.
*/

import BackgroundAssetsIPC
import Foundation
import TestSupport
import Testing

@Suite("Pending notifications with the real service", .serialized, .timeLimit(.minutes(5)))
struct NotificationPersistenceTests {
    static let app = "com.example.reminders"
    static let configuration: [String: Double] = ["idleExitAfter": 60]

    static func request(_ identifier: String, after interval: TimeInterval, body: String = "Time to play.") -> NotificationRequestDescriptor {
        NotificationRequestDescriptor(identifier: identifier, content: NotificationContentDescriptor(title: "Reminder", body: body),
                                      trigger: NotificationTriggerDescriptor(timeInterval: interval, repeats: false))
    }

    static func pending(_ client: RawServiceClient) async throws -> [String] {
        guard case let .pendingNotifications(list) = try await client.ask(.notifications(.fetchPendingNotifications)) else {
            throw TestSupportError("The service did not list the pending notifications.")
        }
        return list.map(\.identifier)
    }

    @Test("Pending notifications survive SIGKILL of the service, and the restarted service delivers them at their time")
    func survivesKill() async throws {
        let root = try TemporaryDeviceRoot()
        defer { root.remove() }
        let delay: TimeInterval = 10
        let addedAt = Date()
        try await withService(deviceRoot: root.url, configuration: Self.configuration) { service in
            let game = try await blocking { try RawServiceClient(deviceRoot: root.url, bundleIdentifier: Self.app) }
            _ = try await game.ask(.notifications(.requestNotificationAuthorization(options: 4)))
            #expect(try await game.ask(.notifications(.addNotification(Self.request("soon", after: delay)))) == .done)
            #expect(try await game.ask(.notifications(.addNotification(Self.request("tomorrow", after: 86_400)))) == .done)
            // The answer went out after the request was on disk: a kill right now must not lose it.
            try service.process.signal(SIGKILL)
            #expect(try await service.process.waitForExit() == .signalled(SIGKILL))
        }
        try await withService(deviceRoot: root.url, configuration: Self.configuration) { _ in
            let game = try await blocking { try RawServiceClient(deviceRoot: root.url, bundleIdentifier: Self.app) }
            // On a busy machine the restart can take longer than "soon"'s delay; then the restarted service
            // has delivered it already, which the checks below see. Nothing is lost either way.
            let pending = try await Self.pending(game)
            #expect(pending == ["soon", "tomorrow"] || pending == ["tomorrow"], "both survived the restart: \(pending)")
            let delivered = try await poll(timeout: .seconds(60), interval: .milliseconds(200), "the notification delivered") {
                () -> [DeliveredNotificationRecord]? in
                guard case let .deliveredNotifications(list) = try await game.ask(.notifications(.fetchDeliveredNotifications(bundleIdentifier: nil, after: nil))),
                      !list.isEmpty else { return nil }
                return list
            }
            #expect(delivered.map(\.notification.request.identifier) == ["soon"])
            let date = try #require(delivered.first?.notification.date)
            #expect(date >= addedAt.addingTimeInterval(delay), "delivered at its time, not at the restart")
            #expect(try await Self.pending(game) == ["tomorrow"])
        }
    }

    @Test("The service's memory stays flat under thousands of adds from one app and under 4 MiB bodies")
    func memoryUnderFlood() async throws {
        // BA_NOTIFICATION_FLOOD="10000,150" repeats the tester's figures; the default keeps the suite quick.
        let counts = (ProcessInfo.processInfo.environment["BA_NOTIFICATION_FLOOD"] ?? "1000,12").split(separator: ",").compactMap { Int($0) }
        let (adds, bodies) = (counts.first ?? 1000, counts.dropFirst().first ?? 12)
        let root = try TemporaryDeviceRoot()
        defer { root.remove() }
        try await withService(deviceRoot: root.url, configuration: Self.configuration) { service in
            let pid = service.process.pid
            let game = try await blocking { try RawServiceClient(deviceRoot: root.url, bundleIdentifier: Self.app) }
            _ = try await game.ask(.notifications(.requestNotificationAuthorization(options: 4)))
            let start = try ResidentMemory(pid: pid)
            for index in 0..<adds {
                #expect(try await game.ask(.notifications(.addNotification(Self.request("r\(index)", after: TimeInterval(3_600 + index))))) == .done)
            }
            let afterAdds = try ResidentMemory(pid: pid)
            #expect(try await Self.pending(game).count == NotificationLimits.pendingPerApp)
            let body = String(repeating: "a", count: 4 << 20)
            for index in 0..<bodies {
                guard case let .failure(failure) = try await game.ask(.notifications(.addNotification(Self.request("big\(index)", after: 60, body: body)))) else {
                    throw TestSupportError("A 4 MiB body was accepted.")
                }
                #expect(failure.code == 1401)
            }
            let afterBodies = try ResidentMemory(pid: pid)
            #expect(try await Self.pending(game).count == NotificationLimits.pendingPerApp)
            #expect(afterAdds.resident - start.resident < 32 << 20, "\(adds) adds grew the service from \(start) to \(afterAdds)")
            // A refused body is held a few times while its frame is read and decoded, then let go:
            // less than eight bodies' worth, while twelve kept would be 48 MiB.
            #expect(afterBodies.resident - afterAdds.resident < 32 << 20, "\(bodies) 4 MiB bodies grew the service from \(afterAdds) to \(afterBodies)")
            #expect(afterBodies.peak - afterAdds.resident < 32 << 20, "\(bodies) 4 MiB bodies took the service's peak from \(afterAdds) to \(afterBodies)")
        }
    }
}

/// A process's resident memory now and at its peak, from `/proc/PID/status`.
struct ResidentMemory: CustomStringConvertible {
    /// `VmRSS`, in bytes.
    let resident: Int
    /// `VmHWM`, the peak of `VmRSS`, in bytes.
    let peak: Int

    init(pid: pid_t) throws {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        func kilobytes(_ key: String) throws -> Int {
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(key + ":") }),
                  let value = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first.flatMap({ Int($0) }) else {
                throw TestSupportError("/proc/\(pid)/status has no \(key).")
            }
            return value * 1024
        }
        resident = try kilobytes("VmRSS")
        peak = try kilobytes("VmHWM")
    }

    var description: String { "VmRSS \(resident >> 20) MiB (VmHWM \(peak >> 20) MiB)" }
}
