/*
Abstract:
An app for the background-session tests: makes a session, downloads what it is told, and records every delegate call.
*/

import BackgroundURLSessions
import LifecycleTestKit
import UserNotifications

/// Makes a background session and does what ``TestArguments`` says; launched in the background for
/// a session's events, it names its app delegate, makes the session again in
/// `handleEventsForBackgroundURLSession`, and calls the handler from `urlSessionDidFinishEvents`.
/// Every call is a line of `url-session-test-app.jsonl` in the app group container.
@main
struct URLSessionTestApp {
    nonisolated(unsafe) static var sessions: [URLSession] = []

    static func main() {
        let options = TestOptions(TestArguments.parseOrExit())
        let log = URLSessionTestLog.shared
        log.append("launched", session: options.session)
        if ProcessInfo.processInfo.environment["BG_TASK_BACKGROUND_LAUNCH"] == "1" {
            // The one added line: no UIApplicationMain finds the app delegate on Linux.
            BackgroundURLSessionEvents.applicationDelegate = AppDelegate.shared
            // As an app delegate's didFinishLaunching does: the center's delegate hears the answers
            // to notifications the app was launched for.
            UNUserNotificationCenter.current().delegate = NotificationResponder.shared
            dispatchMain()
        }
        let delegate = options.delegate()
        let session = URLSession(configuration: options.configuration(), delegate: delegate, delegateQueue: nil)
        sessions.append(session)
        if options.list {
            session.getAllTasks { tasks in
                var record = URLSessionTestRecord(event: "listed", session: options.session)
                record.tasks = tasks.map(\.taskIdentifier).sorted()
                log.append(record)
                options.listed(tasks.map(\.taskIdentifier))
            }
        }
        for url in options.downloads {
            let task = session.downloadTask(with: url)
            task.taskDescription = url.lastPathComponent
            options.expect([task.taskIdentifier])
            log.append("resumed", session: options.session, task: task.taskIdentifier)
            task.resume()
        }
        for (file, url) in options.uploads {
            // As an upload manager written from Apple's documentation does: the method, then the file.
            var request = URLRequest(url: url)
            request.httpMethod = "PUT"
            request.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
            let task = session.uploadTask(with: request, fromFile: file)
            task.taskDescription = file.lastPathComponent
            options.expect([task.taskIdentifier])
            log.append("resumed", session: options.session, task: task.taskIdentifier)
            task.resume()
        }
        if let url = options.dataTask {
            session.dataTask(with: url).resume()
        }
        if options.notification != nil || options.badge != nil {
            Task {
                if let title = options.notification { await notify(title, inCategory: options.categories) }
                if let count = options.badge { await setBadge(count) }
                if options.downloads.isEmpty, options.uploads.isEmpty, !options.list { exit(0) }
            }
        }
        dispatchMain()
    }

    static func setBadge(_ count: Int) async {
        do {
            try await UNUserNotificationCenter.current().setBadgeCount(count)
            URLSessionTestLog.shared.append(URLSessionTestRecord(event: "badgeSet", code: count))
        } catch {
            let error = error as NSError
            URLSessionTestLog.shared.append(URLSessionTestRecord(event: "badgeFailed", code: error.code, domain: error.domain,
                                                                 message: error.localizedDescription))
        }
    }

    /// Posts a notification, in the LEVELS category (registered first) when asked.
    static func notify(_ title: String, inCategory: Bool) async {
        let center = UNUserNotificationCenter.current()
        let log = URLSessionTestLog.shared
        do {
            let granted = try await center.requestAuthorization(options: [.alert, .sound])
            log.append(URLSessionTestRecord(event: granted ? "authorized" : "notAuthorized"))
            let content = UNMutableNotificationContent()
            content.title = title
            content.body = "The download is complete."
            if inCategory {
                let play = UNNotificationAction(identifier: "PLAY", title: "Play now", options: [.foreground])
                let reply = UNTextInputNotificationAction(identifier: "REPLY", title: "Reply", options: [],
                                                          textInputButtonTitle: "Send", textInputPlaceholder: "Message")
                center.setNotificationCategories([UNNotificationCategory(
                    identifier: "LEVELS", actions: [play, reply], intentIdentifiers: [], options: .customDismissAction)])
                content.categoryIdentifier = "LEVELS"
            }
            try await center.add(UNNotificationRequest(identifier: "download-complete", content: content, trigger: nil))
            log.append("notified")
        } catch {
            let error = error as NSError
            log.append(URLSessionTestRecord(event: "notifyFailed", code: error.code, domain: error.domain, message: error.localizedDescription))
        }
    }
}

/// The notification center's delegate: records each answer a person gives, then says it is done.
final class NotificationResponder: UNUserNotificationCenterDelegate, @unchecked Sendable {
    // @unchecked: stateless.
    static let shared = NotificationResponder()

    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
                                withCompletionHandler completionHandler: @escaping @Sendable () -> Void) {
        var record = URLSessionTestRecord(event: "didReceiveResponse", message: response.actionIdentifier)
        record.file = (response as? UNTextInputNotificationResponse)?.userText
        record.session = response.notification.request.identifier
        URLSessionTestLog.shared.append(record)
        completionHandler()
    }
}

/// The app delegate of a background launch: makes the session again and keeps the handler.
final class AppDelegate: BackgroundURLSessionApplicationDelegate, @unchecked Sendable {
    // @unchecked: used on the main queue only.
    static let shared = AppDelegate()

    func application(handleEventsForBackgroundURLSession identifier: String, completionHandler: @escaping @Sendable () -> Void) {
        URLSessionTestLog.shared.append("handleEventsForBackgroundURLSession", session: identifier)
        let delegate = RecordingSessionDelegate()
        delegate.keep(completionHandler)
        let configuration = URLSessionConfiguration.background(withIdentifier: identifier)
        URLSessionTestApp.sessions.append(URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil))
    }
}
