/*
Abstract:
`notifications`: the local notifications the device delivered, every app's or one app's, listed or followed as they arrive.
*/

import BackgroundAssetsIPC
import Foundation
import ServiceClient

/// Lists the notifications the device delivered (the newest of each app, as Notification Center
/// keeps them), or follows them as they arrive.
struct NotificationsCommand: DebugSubcommand {
    /// How often `--follow` asks for new notifications.
    static let followInterval = Duration.milliseconds(200)

    static let configuration = CommandConfiguration(
        name: "notifications", abstract: "List or follow the local notifications the device delivered.",
        discussion: """
            One line per notification: when it was delivered (device time), the app, its identifier, its
            title and body; then a line per app whose icon shows a badge (setBadgeCount, or a delivered
            notification's badge). An app posts them with UNUserNotificationCenter once it is allowed to; answer
            for it with `settings --notifications allow|deny -b ID`. Where a desktop notification service
            runs (what notify-send talks to), they also appear on the desktop.
            """)

    @Flag("--follow", help: "Print the delivered notifications, then each new one as it arrives (Ctrl-C to stop).")
    var follow: Bool
    @Flag("--json", help: """
        Print JSON (dates in ISO 8601): an array, or with --follow one object per line.
        """)
    var json: Bool
    @Option(appBundleID: "Only this app's notifications.", defaultDescription: "every app's")
    var bundleIdentifier: String?
    @Option("--respond", valueName: "ID", help: """
        Answer the app's delivered notification ID as a person does (-b names the app): its delegate's \
        didReceive gets the response; an app not running is launched in the background for it.
        """)
    var respond: String?
    @Option("--action", valueName: "ACTION", help: """
        The action --respond chooses: one of the notification category's action identifiers, default (opening \
        it) or dismiss.
        """, defaultDescription: "default")
    var chosenAction: String?
    @Option("--text", valueName: "TEXT", help: "What the person types, for a text-input action of --respond.")
    var text: String?

    /// The action identifier --action names.
    var action: String {
        switch chosenAction {
        case nil, "default": NotificationResponseDescriptor.defaultActionIdentifier
        case "dismiss": NotificationResponseDescriptor.dismissActionIdentifier
        case let chosen?: chosen
        }
    }

    func prepare() throws(DebugToolError) {
        if respond != nil, bundleIdentifier == nil {
            throw DebugToolError("--respond answers one app's notification: name the app with -b ID.")
        }
    }

    func run(in context: ToolContext) async throws -> DebugExitCode {
        let connection = context.connection()
        defer { connection.disconnect() }
        if let respond {
            let answer = try await connection.send(.tool(.respondToNotification(
                bundleIdentifier: bundleIdentifier, identifier: respond, actionIdentifier: action, userText: text)))
            if case let .failure(failure) = answer { throw DebugToolError(failure.message) }
            context.console.output("Answered \(respond) of \(bundleIdentifier ?? "") with \(action).")
            return .success
        }
        var listed = try await delivered(after: nil, on: connection)
        guard follow else {
            if json {
                context.console.output(try StatusFormatter.json(listed))
            } else if listed.isEmpty {
                context.console.output("No notifications were delivered" + (bundleIdentifier.map { " for \($0)." } ?? "."))
            } else {
                context.console.output(listed.map(Self.line).joined(separator: "\n"))
            }
            if !json {
                let badges = try await badges(on: connection)
                if !badges.isEmpty { context.console.output(badges.map(Self.line).joined(separator: "\n")) }
            }
            return .success
        }
        var last: Int64?
        while true {
            for record in listed { context.console.output(json ? try Self.jsonLine(record) : Self.line(record)) }
            last = listed.last?.sequence ?? last
            do {
                try await Task.sleep(for: Self.followInterval)
            } catch {
                return .interrupted
            }
            listed = try await delivered(after: last, on: connection)
        }
    }

    private func delivered(after sequence: Int64?, on connection: ServiceConnection) async throws -> [DeliveredNotificationRecord] {
        let answer = try await connection.send(.notifications(.fetchDeliveredNotifications(bundleIdentifier: bundleIdentifier, after: sequence)))
        guard case let .deliveredNotifications(records) = answer else {
            throw DebugToolError("The service answered notifications with \(answer) instead of the delivered notifications. "
                + "Update the service and the tool together (swift build), then try again.")
        }
        return records
    }

    private func badges(on connection: ServiceConnection) async throws -> [NotificationBadge] {
        let answer = try await connection.send(.notifications(.fetchNotificationBadges(bundleIdentifier: bundleIdentifier)))
        guard case let .notificationBadges(badges) = answer else {
            throw DebugToolError("The service answered notifications with \(answer) instead of the apps' badges. "
                + "Update the service and the tool together (swift build), then try again.")
        }
        return badges
    }

    /// `badge  com.example.game  3`: the number the app's icon shows.
    static func line(_ badge: NotificationBadge) -> String {
        ["badge", StatusFormatter.shortened(badge.bundleIdentifier), String(badge.count)].joined(separator: "  ")
    }

    /// `2026-11-27T03:20:01Z  com.example.game  data-ready  Ready to play: The new levels are installed.`
    static func line(_ record: DeliveredNotificationRecord) -> String {
        let content = record.notification.request.content
        let text = [content.title, content.subtitle, content.body].filter { !$0.isEmpty }.joined(separator: ": ")
        return [ISO8601Timestamp.string(for: record.notification.date), StatusFormatter.shortened(record.bundleIdentifier),
                record.notification.request.identifier, text].joined(separator: "  ")
    }

    private static func jsonLine(_ record: DeliveredNotificationRecord) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(record), as: UTF8.self)
    }
}
